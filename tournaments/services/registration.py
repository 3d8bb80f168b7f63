"""Registration, check-in, check-out and withdrawal of a tournament's players."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from scorekeeper import services as core
from scorekeeper.access import Actor
from scorekeeper.errors import Conflict, InvalidInput
from scorekeeper.models import Player

from .. import jobs, selectors
from ..access import require_director
from ..models import (
    Registration,
    RegistrationStatus,
    RoundPlayer,
    RoundStatus,
    Tournament,
)
from ._base import _locked, _open
from .rounds import seat_late_arrival


@transaction.atomic
def register(
    *,
    actor: Actor,
    tournament: Tournament,
    players: Sequence[Player],
    check_in: bool = False,
) -> list[Registration]:
    """Register roster players (a late arrival too: between rounds). With ``check_in``
    they are checked in from the next round at once. A withdrawn player comes back."""
    tournament = _locked(tournament)
    require_director(actor, tournament.club)
    _open(tournament)
    for player in players:
        if player.club_id != tournament.club_id:
            raise InvalidInput(f"{player.name} is not on this club's roster", field="players")
    if len({player.pk for player in players}) != len(players):
        raise InvalidInput("a player is listed twice", field="players")
    late = tournament.rounds.exclude(status=RoundStatus.SEATING).exists()
    number = selectors.check_in_round(tournament)
    result = []
    listed = False  # someone new to the standings, or back in them
    for player in players:
        registration, created = Registration.objects.get_or_create(
            tournament=tournament, player=player, defaults={"late": late}
        )
        back = not created and registration.status == RegistrationStatus.WITHDRAWN
        if back:
            registration.status = RegistrationStatus.ACTIVE
            registration.withdrawn_at = None
            registration.withdrawn_after_round = None
        listed = listed or created or back
        if check_in:
            _mark_present(registration, number)
        registration.save()
        result.append(registration)
    if check_in:
        _seat_late(actor, tournament, result)
    if listed and tournament.standings_updated_at is not None:
        jobs.recompute_standings(tournament.pk)  # standings list every registered player
    return result


@transaction.atomic
def register_new(
    *, actor: Actor, tournament: Tournament, name: str, email: str = "", check_in: bool = False
) -> Registration:
    """Someone on the spot: added to the club's roster, then registered."""
    require_director(actor, tournament.club)
    player = core.player_create(actor=actor, club=tournament.club, name=name, email=email)
    (registration,) = register(
        actor=actor, tournament=tournament, players=[player], check_in=check_in
    )
    return registration


def _registrations(tournament: Tournament, players: Sequence[Player]) -> list[Registration]:
    found = {
        r.player_id: r
        for r in Registration.objects.filter(
            tournament=tournament, player_id__in=[p.pk for p in players]
        ).select_related("player")
    }
    for player in players:
        if player.pk not in found:
            raise InvalidInput(f"{player.name} is not registered", field="players")
    return [found[player.pk] for player in players]


def _mark_present(registration: Registration, number: int) -> None:
    """Present from round ``number`` on (one already present stays as they are)."""
    if not registration.present_for(number):
        registration.checked_in_round = number
    registration.checked_out_round = None


def _seat_late(actor: Actor, tournament: Tournament, registrations: Sequence[Registration]) -> None:
    """Players checked in after the last round was seated sit in it where the seating
    allows (:func:`.rounds.seat_late_arrival`); the others wait for the next round. Once
    every planned round is seated there is no next round: a check-in that finds no place
    is refused (nothing is written)."""
    waiting = []
    for registration in registrations:
        table = seat_late_arrival(actor, tournament, registration.player)
        if table is not None:
            registration.checked_in_round = table.round.number
            registration.save(update_fields=["checked_in_round"])
        elif (registration.checked_in_round or 0) > tournament.rounds_planned:
            waiting.append(registration.player.name)
    if waiting:
        last = tournament.rounds_planned
        raise Conflict(
            f"all {last} rounds are seated, and round {last} has no place for "
            f"{', '.join(waiting)} (no bye to fill, no table to join)",
            field="players",
        )


def _round_to_come(
    actor: Actor, tournament: Tournament, *, late: bool = False
) -> tuple[Tournament, int]:
    """The tournament locked for a director's change to who plays, and the number of the
    round the change applies to (the next one to be seated). Past the last planned round
    only a ``late`` arrival's check-in goes on (into the last round, where it has room)."""
    tournament = _locked(tournament)
    require_director(actor, tournament.club)
    _open(tournament)
    number = selectors.check_in_round(tournament)
    if number > tournament.rounds_planned and not late:
        raise Conflict(f"all {tournament.rounds_planned} rounds are seated")
    return tournament, number


@transaction.atomic
def check_in(
    *,
    actor: Actor,
    tournament: Tournament,
    players: Sequence[Player] = (),
    everyone: bool = False,
) -> list[Registration]:
    """Check players in from the next round on (``everyone``: every active registration).
    A check-in carries over: they stay checked in for later rounds until they check out."""
    tournament, number = _round_to_come(actor, tournament, late=True)
    if everyone:
        registrations = list(
            tournament.registrations.filter(status=RegistrationStatus.ACTIVE).select_related(
                "player"
            )
        )
    else:
        registrations = _registrations(tournament, players)
    for registration in registrations:
        if registration.status == RegistrationStatus.WITHDRAWN:
            raise InvalidInput(
                f"{registration.player.name} has withdrawn; register them again",
                field="players",
            )
        _mark_present(registration, number)
    Registration.objects.bulk_update(registrations, ["checked_in_round", "checked_out_round"])
    _seat_late(actor, tournament, registrations)
    return registrations


@transaction.atomic
def check_out(
    *, actor: Actor, tournament: Tournament, players: Sequence[Player]
) -> list[Registration]:
    """Players leave from the next round on (the round being seated, or else the one
    after the last): they are no longer seated until checked in again. Unlike a
    withdrawal they stay in the tournament. A round already seated keeps its seats.
    Returns the registrations of those who were checked in (the others were not there)."""
    tournament, number = _round_to_come(actor, tournament)
    registrations = _registrations(tournament, players)
    left = [registration for registration in registrations if registration.present_for(number)]
    for registration in registrations:
        if registration.status == RegistrationStatus.WITHDRAWN:
            raise InvalidInput(f"{registration.player.name} has withdrawn", field="players")
        if registration.checked_in_round is not None:
            registration.checked_out_round = number
        registration.checked_in_round = None
    Registration.objects.bulk_update(registrations, ["checked_in_round", "checked_out_round"])
    return left


@transaction.atomic
def withdraw(
    *, actor: Actor, tournament: Tournament, players: Sequence[Player]
) -> list[Registration]:
    """Withdraw players between rounds: not while they sit in a round still being
    seated or played. Their results so far stay in the standings."""
    tournament = _locked(tournament)
    require_director(actor, tournament.club)
    registrations = _registrations(tournament, players)
    busy = RoundPlayer.objects.filter(
        round__tournament=tournament,
        player_id__in=[p.pk for p in players],
        round__status__in=[RoundStatus.SEATED, RoundStatus.PLAYING],
    ).select_related("player", "round")
    for place in busy:
        raise Conflict(
            f"{place.player.name} is in round {place.round.number}, which has not closed: "
            "withdraw them once it has",
            field="players",
        )
    last = tournament.rounds.filter(status=RoundStatus.CLOSED).order_by("-number").first()
    now = timezone.now()
    for registration in registrations:
        if registration.status == RegistrationStatus.WITHDRAWN:
            continue
        registration.status = RegistrationStatus.WITHDRAWN
        registration.withdrawn_at = now
        registration.withdrawn_after_round = last.number if last else 0
        registration.checked_in_round = None
        registration.checked_out_round = None
        registration.save()
    jobs.recompute_standings(tournament.pk)
    return registrations


@transaction.atomic
def register_many(
    *,
    actor: Actor,
    tournament: Tournament,
    players: Sequence[Player] = (),
    new_players: Sequence[Mapping[str, Any]] = (),
    everyone: bool = False,
    check_in: bool = False,
) -> None:
    """Register roster players and people new to the roster (``{"name", "email"}``), all
    of them or none. ``everyone``: the rest of the active roster as well."""
    chosen = list(players)
    if everyone:
        named = {player.pk for player in chosen}
        chosen += [p for p in selectors.unregistered_roster(tournament) if p.pk not in named]
    if chosen:
        register(actor=actor, tournament=tournament, players=chosen, check_in=check_in)
    for new in new_players:
        register_new(actor=actor, tournament=tournament, check_in=check_in, **new)
