"""Who may see and do what through the API: thin wrappers over :mod:`scorekeeper.access`.

Seeing comes first: what belongs to a club the caller is not a member of is not found
(404), so its existence is not revealed. Then each action has its own rule; a member
without the right gets 403 with the rule in words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from django.db.models import OuterRef, QuerySet, Subquery
from rest_framework import exceptions
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from scorekeeper import access, selectors
from scorekeeper.access import Actor
from scorekeeper.models import Club, Deal, Game, Membership, Season

# Ids beyond a 64-bit integer cannot exist; looking them up would overflow the database.
MAX_ID = 2**63 - 1


def actor_of(request: Request) -> Actor:
    """The caller as the services know it: a user, or an anonymous caller."""
    return cast(Actor, request.user)


@dataclass(frozen=True)
class Rule:
    check: Callable[[Actor, Any], bool]
    message: str


IS_MEMBER = Rule(access.is_member, "only the club's members can do this")
MANAGES_ROSTER = Rule(access.can_manage_roster, "only the club's staff can add players")
MANAGES_SEASONS = Rule(access.can_manage_seasons, "only admins and directors manage seasons")
SCORES = Rule(
    access.can_score, "only the club's scorers and the game's players can change this game"
)


class ActionRule(BasePermission):
    """The view's ``action_rules[method]`` must allow the caller on the object (a club or
    a game); methods without a rule need only the object to be visible."""

    message = "you may not do this"

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        rules: dict[str, Rule] = getattr(view, "action_rules", {})
        rule = rules.get(request.method or "")
        if rule is None:
            return True
        if not isinstance(obj, Club | Game):
            # The browsable API asks about the data it renders (to offer forms): no.
            return False
        if rule.check(actor_of(request), obj):
            return True
        self.message = rule.message
        return False


def _not_found(what: str) -> exceptions.NotFound:
    return exceptions.NotFound(f"no such {what}")


def visible_clubs(actor: Actor) -> QuerySet[Club]:
    """The actor's clubs, each with the actor's ``role`` in it."""
    if not actor.is_authenticated:
        return Club.objects.none()
    user_id = cast(int, actor.pk)
    role = Membership.objects.filter(club=OuterRef("pk"), user_id=user_id).values("role")[:1]
    return selectors.clubs_visible_to(actor).annotate(role=Subquery(role))


def visible_club(request: Request, pk: int) -> Club:
    club = None
    if pk <= MAX_ID:
        club = visible_clubs(actor_of(request)).filter(pk=pk).first()
    if club is None:
        raise _not_found("club")
    return club


def visible_game(request: Request, pk: int) -> Game:
    game = None
    if pk <= MAX_ID:
        game = (
            selectors.games_visible_to(actor_of(request))
            .select_related("club")
            .filter(pk=pk)
            .first()
        )
    if game is None:
        raise _not_found("game")
    return game


def recorded_deal(game: Game, number: int) -> Deal:
    deal = None
    if number <= MAX_ID:
        deal = game.deals.select_related("entered_by").filter(number=number).first()
    if deal is None:
        raise exceptions.NotFound(f"the game has no deal {number}")
    return deal


def readable_season(request: Request, pk: int) -> Season:
    """A season whose standings the caller may read. Anonymous callers get 401 for any
    season that is not public (whether it exists or not); members of other clubs 404."""
    season = None
    if pk <= MAX_ID:
        season = Season.objects.select_related("club").filter(pk=pk).first()
    if season is not None and access.can_read_results(actor_of(request), season.club):
        return season
    if not request.user.is_authenticated:
        raise exceptions.NotAuthenticated()
    raise _not_found("season")
