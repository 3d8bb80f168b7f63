"""A club's roster: players added, renamed and retired, linked to a member's account (by an
admin, or claimed by the member and confirmed), and two entries of one person merged."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import ForeignKey

from .. import access, models
from ..access import Actor
from ..errors import Conflict, InvalidInput
from ..models import Club, Membership, Player, PlayerMerge
from ..names import clean_name
from ._base import require, user_of
from .ratings import ratings_request_from
from .standings import standings_rebuild


def _name_free(club: Club, name: str, *, but: Player | None = None) -> None:
    taken = Player.objects.filter(club=club, name__iexact=name)
    if but is not None:
        taken = taken.exclude(pk=but.pk)
    existing = taken.first()
    if existing is not None:  # named as the roster has them (the match ignores case)
        raise InvalidInput(
            f'the roster already has a player called "{existing.name}"', field="name"
        )


def _linkable(club: Club, user: User, *, player: Player | None = None) -> None:
    if not Membership.objects.filter(club=club, user=user).exists():
        raise InvalidInput(
            f"{user.get_username()} is not a member of {club.name}: invite them first",
            field="user",
        )
    linked = Player.objects.filter(club=club, user=user)
    if player is not None:
        linked = linked.exclude(pk=player.pk)
    other = linked.first()
    if other is not None:
        raise Conflict(
            f"{user.get_username()} is already linked to the player {other.name}", field="user"
        )


@transaction.atomic
def player_create(
    *,
    actor: Actor,
    club: Club,
    name: str,
    email: str = "",
    user: User | None = None,
) -> Player:
    """Add a player to the club's roster (club staff)."""
    require(access.can_manage_roster(actor, club), "only the club's staff can add players")
    name = clean_name(name, what="a player", max_length=100)
    _name_free(club, name)
    if user is not None and Player.objects.filter(club=club, user=user).exists():
        raise InvalidInput("that account is already linked to a player of this club", field="user")
    return Player.objects.create(club=club, name=name, email=email, user=user)


@transaction.atomic
def player_update(
    *, actor: Actor, player: Player, name: str | None = None, active: bool | None = None
) -> Player:
    """Rename a player, or retire one (kept in every record, left out of new games' lists)
    and bring them back (club staff)."""
    require(
        access.can_manage_roster(actor, player.club), "only the club's staff can change players"
    )
    fields = []
    if name is not None:
        name = clean_name(name, what="a player", max_length=100)
        _name_free(player.club, name, but=player)
        player.name = name
        fields.append("name")
    if active is not None:
        player.active = active
        fields.append("active")
    if fields:
        player.save(update_fields=fields)
    return player


@transaction.atomic
def player_link(*, actor: Actor, player: Player, user: User | None) -> Player:
    """An admin links the player to a member's account (``None``: unlinks it); a pending
    claim is settled by it."""
    require(
        access.can_administer(actor, player.club), "only the club's admins link players to members"
    )
    player = Player.objects.select_for_update().get(pk=player.pk)
    if user is not None:
        _linkable(player.club, user, player=player)
    player.user = user
    player.claimed_by = None
    player.save(update_fields=["user", "claimed_by"])
    return player


@transaction.atomic
def player_claim(*, actor: Actor, player: Player) -> Player:
    """A member says "that's me": the claim waits for an admin to confirm it."""
    user = user_of(actor)
    require(
        user is not None and access.is_member(actor, player.club),
        "only the club's members can claim a player",
    )
    assert user is not None
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.user_id is not None:
        raise Conflict(f"{player.name} is already linked to an account", field="player")
    if player.claimed_by_id is not None and player.claimed_by_id != user.pk:
        raise Conflict(f"someone else has already claimed {player.name}", field="player")
    _linkable(player.club, user, player=player)
    player.claimed_by = user
    player.save(update_fields=["claimed_by"])
    return player


@transaction.atomic
def player_claim_decide(*, actor: Actor, player: Player, accept: bool) -> Player:
    """An admin confirms a member's claim (the player is linked to them) or turns it down."""
    require(access.can_administer(actor, player.club), "only the club's admins confirm claims")
    player = Player.objects.select_for_update().get(pk=player.pk)
    claimant = player.claimed_by
    if claimant is None:
        raise Conflict(f"nobody is claiming {player.name}", field="player")
    if accept:
        _linkable(player.club, claimant, player=player)
        player.user = claimant
    player.claimed_by = None
    player.save(update_fields=["user", "claimed_by"])
    return player


# --- Merging ----------------------------------------------------------------------------------

#: What is worked out again from the games after a merge instead of being moved.
DERIVED = (models.Rating, models.RatingChange, models.SeasonStanding)


def _references() -> list[ForeignKey[Any, Any]]:
    """Every foreign key to a player, in any installed app (tournament entries too)."""
    fields = []
    for relation in Player._meta.related_objects:
        field = relation.field
        if isinstance(field, ForeignKey) and relation.related_model not in DERIVED:
            fields.append(field)
    return fields


@transaction.atomic
def player_merge(*, actor: Actor, player: Player, into: Player) -> PlayerMerge:
    """``player`` and ``into`` are one person: every seat, result and entry of ``player``
    moves to ``into``, ``player`` leaves the roster, and the standings and ratings are
    worked out again. All of it or nothing; the merge is recorded."""
    require(access.can_administer(actor, into.club), "only the club's admins can merge players")
    if player.pk == into.pk:
        raise InvalidInput("a player cannot be merged into itself", field="into")
    if player.club_id != into.club_id:
        raise InvalidInput("players of different clubs cannot be merged", field="into")
    locked = {
        p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[player.pk, into.pk])
    }
    player, into = locked[player.pk], locked[into.pk]
    if player.user_id and into.user_id and player.user_id != into.user_id:
        raise Conflict(
            f"{player.name} and {into.name} are linked to two different accounts", field="into"
        )
    shared = (
        models.Seat.objects.filter(player=player)
        .filter(game__in=models.Seat.objects.filter(player=into).values("game"))
        .values_list("game_id", flat=True)
        .first()
    )
    if shared is not None:
        raise Conflict(
            f"{player.name} and {into.name} played at one table (game {shared}): "
            "they are two people",
            field="into",
        )
    seasons = set(
        models.Result.objects.filter(player=player, game__season__isnull=False).values_list(
            "game__season", flat=True
        )
    )
    game_types = set(
        models.Game.objects.filter(seats__player=player, rated=True).values_list(
            "game_type", flat=True
        )
    )
    for model in DERIVED:
        model._default_manager.filter(player=player).delete()
    moved: dict[str, int] = {}
    for field in _references():
        referring = field.model
        try:
            with transaction.atomic():
                count = referring._default_manager.filter(**{field.name: player}).update(
                    **{field.name: into}
                )
        except IntegrityError:
            raise Conflict(
                f"{player.name} and {into.name} both have a "
                f"{referring._meta.verbose_name} in the same place: they are two people",
                field="into",
            ) from None
        if count:
            label = referring._meta.label_lower
            moved[label] = moved.get(label, 0) + count
    if into.user_id is None and player.user_id is not None:
        into.user_id = player.user_id
    if not into.email and player.email:
        into.email = player.email
    into.active = into.active or player.active
    merged_name, merged_id = player.name, player.pk
    player.delete()
    into.save(update_fields=["user", "email", "active"])
    for season in models.Season.objects.filter(pk__in=seasons):
        standings_rebuild(season=season)
    for game_type in sorted(game_types):
        ratings_request_from(club_id=into.club_id, game_type=game_type)
    return PlayerMerge.objects.create(
        club_id=into.club_id,
        player=into,
        merged_name=merged_name,
        merged_player_id=merged_id,
        moved=moved,
        merged_by=user_of(actor),
    )
