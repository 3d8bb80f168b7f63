"""Who may see and do what through the API: thin wrappers over :mod:`scorekeeper.access`.

Seeing comes first: what belongs to a club the caller is not a member of is not found
(404), so its existence is not revealed. Then each action has its own rule; a member
without the right gets 403 with the rule in words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from django.db.models import QuerySet
from rest_framework import exceptions
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from scorekeeper import access, selectors
from scorekeeper.access import Actor
from scorekeeper.errors import NotFound
from scorekeeper.models import Club, Deal, Game, Season

MAX_ID = selectors.MAX_ID


def actor_of(request: Request) -> Actor:
    """The caller as the services know it: a user, or an anonymous caller."""
    return cast(Actor, request.user)


@dataclass(frozen=True)
class Rule:
    """Who may do an action: those ``check`` allows; the others are told ``message``."""

    check: Callable[[Actor, Any], bool]
    message: str

    def refusal(self, actor: Actor, obj: Any) -> str | None:
        """Why the actor may not (None: they may)."""
        return None if self.check(actor, obj) else self.message


@dataclass(frozen=True)
class ReasonedRule:
    """A rule whose refusal depends on the caller and the object (abandoning a game: one
    reason while it is played, another once it is finished): ``refusal`` says why the
    actor may not, None when they may."""

    refusal: Callable[[Actor, Any], str | None]


IS_MEMBER = Rule(access.is_member, "only the club's members can do this")
ADMINISTERS = Rule(access.can_administer, "only the club's admins can change its settings")
MANAGES_ROSTER = Rule(access.can_manage_roster, "only the club's staff can add players")
MANAGES_SEASONS = Rule(access.can_manage_seasons, "only admins and directors manage seasons")
SCORES = Rule(
    access.can_score,
    "only the club's scorers, the game's players and whoever started it can change this game",
)
ABANDONS = ReasonedRule(access.abandon_refusal)


class ActionRule(BasePermission):
    """The view's ``action_rules[method]`` must allow the caller on the object (a club or
    a game); methods without a rule need only the object to be visible."""

    message = "you may not do this"

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        rules: dict[str, Rule | ReasonedRule] = getattr(view, "action_rules", {})
        rule = rules.get(request.method or "")
        if rule is None:
            return True
        if not isinstance(obj, Club | Game):
            # The browsable API asks about the data it renders (to offer forms): no.
            return False
        refusal = rule.refusal(actor_of(request), obj)
        if refusal is None:
            return True
        self.message = refusal
        return False


def found(find: Callable[[], Any]) -> Any:
    try:
        return find()
    except NotFound as error:
        raise exceptions.NotFound(error.message) from None


def visible_clubs(actor: Actor) -> QuerySet[Club]:
    """The actor's clubs, each with the actor's ``role`` in it."""
    return selectors.clubs_visible_to(actor)


def visible_club(request: Request, pk: int) -> Club:
    return cast(Club, found(lambda: selectors.club_visible_to(actor_of(request), pk=pk)))


def visible_game(request: Request, pk: int) -> Game:
    actor = actor_of(request)
    return cast(Game, found(lambda: selectors.game_visible_to(actor, pk)))


def game_for_next_deal(request: Request, pk: int, *, idempotency_key: str | None) -> Game:
    """:func:`visible_game`, locked to record its next deal (``selectors.game_for_next_deal``)."""
    actor = actor_of(request)
    return cast(
        Game,
        found(lambda: selectors.game_for_next_deal(actor, pk, idempotency_key=idempotency_key)),
    )


def recorded_deal(game: Game, number: int) -> Deal:
    return cast(Deal, found(lambda: selectors.deal_of(game, number)))


def readable_season(request: Request, pk: int) -> Season:
    """A season whose standings the caller may read. Anonymous callers get 401 for any
    season that is not public (whether it exists or not); members of other clubs 404."""
    try:
        return selectors.season_results_readable_by(actor_of(request), pk)
    except NotFound as error:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated() from None
        raise exceptions.NotFound(error.message) from None
