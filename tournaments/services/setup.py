"""Creating a tournament: its game and house rules (checked by the engine), rounds, tables,
draw and scoring."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any, Required, TypedDict, Unpack

from django.db import transaction
from django.utils import timezone

from rules_engine import GAMES, RuleError, Scoresheet, new_scoresheet
from scorekeeper import services as core
from scorekeeper.access import Actor
from scorekeeper.errors import Conflict, InvalidInput
from scorekeeper.models import Club, Season
from scorekeeper.names import clean_name

from .. import points
from ..access import require_director
from ..models import (
    MAX_PLACING_POINTS,
    MAX_ROUNDS,
    ByeScore,
    PointsSystem,
    RoundKind,
    SeatingMethod,
    Tournament,
)
from ._base import _locked, _user, choices

# the tournament's field for each of ``points.Rule``'s
_RULE_FIELDS = {"system": "points_system", "bye": "bye_score", "tie_breaks": "tie_breaks"}


def _points_value(value: object) -> bool:
    """Whether ``value`` is a number of placing points: from 0 to MAX_PLACING_POINTS."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return False
    return math.isfinite(value) and 0 <= value <= MAX_PLACING_POINTS


def _resolve_options(
    game_type: str, options: Mapping[str, Any] | None, size: int
) -> dict[str, Any]:
    game = GAMES[game_type]
    try:
        sheet = _placeholder_sheet(game_type, options, size, set_up=True)
    except RuleError as error:
        field = error.field if error.field.startswith("options") else "options"
        raise InvalidInput(error.message, field=field) from None
    return game.options_json(sheet.options)


def _placeholder_sheet(
    game_type: str, options: Mapping[str, Any] | None, size: int, *, set_up: bool = False
) -> Scoresheet:
    """A game of ``game_type`` at a table of ``size`` placeholder players; ``set_up``: its
    house rules being set up (a tournament made or changed), also checked together."""
    names = [f"Player {i + 1}" for i in range(size)]
    return new_scoresheet(game_type, names, options=dict(options or {}), set_up=set_up)


def _longest_game(
    game_type: str, options: Mapping[str, Any], sizes: Sequence[int]
) -> tuple[int, int] | None:
    """The most deals a game of ``game_type`` has at the table sizes ``sizes``, and at how
    many players; None for a game whose number of deals is not fixed in advance."""
    longest: tuple[int, int] | None = None
    for size in sizes:
        deals = _placeholder_sheet(game_type, options, size).scheduled_deals
        if deals is None:
            return None
        if longest is None or deals > longest[0]:
            longest = (deals, size)
    return longest


class SettingsArgs(TypedDict, total=False):
    """The services' keyword arguments for a tournament's settings (``tournament_create``,
    ``tournament_update``); what is left out takes :class:`TournamentSettings`' default."""

    name: Required[str]
    rounds: Required[int]
    round_kind: Required[str]
    round_deals: int | None
    round_minutes: int | None
    grace_minutes: int
    options: Mapping[str, Any] | None
    seating_method: str
    table_size: int | None
    mixed_sizes: bool
    rated: bool
    points_system: str
    placing_points: Sequence[float | int] | None
    tie_breaks: Sequence[str] | None
    bye_score: str
    bye_points: Decimal | float | int


@dataclass(frozen=True, kw_only=True)
class TournamentSettings:
    """A tournament's settings as a director gives them, before they are checked."""

    name: str
    rounds: int
    round_kind: str
    round_deals: int | None = None
    round_minutes: int | None = None
    grace_minutes: int = 10
    options: Mapping[str, Any] | None = None
    seating_method: str = SeatingMethod.NEW_OPPONENTS
    table_size: int | None = None
    mixed_sizes: bool = False
    rated: bool = True
    points_system: str = PointsSystem.OPPONENTS
    placing_points: Sequence[float | int] | None = None
    tie_breaks: Sequence[str] | None = None
    bye_score: str = ByeScore.AVERAGE
    bye_points: Decimal | float | int = 0


def _settings(
    *, club: Club, game_type: str, given: SettingsArgs, renaming: Tournament | None = None
) -> dict[str, Any]:
    """A tournament's settings, checked (the house rules by the engine), as its fields.
    ``renaming``: the tournament whose settings these become (its own name is free)."""
    settings = TournamentSettings(**given)
    round_kind, grace_minutes = settings.round_kind, settings.grace_minutes
    round_deals, round_minutes = settings.round_deals, settings.round_minutes
    placing_points, bye_points = settings.placing_points, settings.bye_points
    name = clean_name(settings.name, what="a tournament", max_length=120)
    same_name = Tournament.objects.filter(club=club, name__iexact=name)
    if renaming is not None:
        same_name = same_name.exclude(pk=renaming.pk)
    if same_name.exists():
        raise InvalidInput(f'the club already has a tournament called "{name}"', field="name")
    if game_type not in GAMES:
        raise InvalidInput(f"unknown game {game_type!r}", field="game_type")
    game = GAMES[game_type]
    if not 1 <= settings.rounds <= MAX_ROUNDS:
        raise InvalidInput(f"a tournament has 1 to {MAX_ROUNDS} rounds", field="rounds")
    if round_kind not in RoundKind.values:
        raise InvalidInput(f"a round is one of {choices(RoundKind)}", field="round_kind")
    if round_kind != RoundKind.TIME:
        grace_minutes = 10  # only timed rounds have one: ignored
    if not 0 <= grace_minutes <= 120:
        raise InvalidInput(
            "the minutes to finish the deal after time is called are 0 to 120",
            field="grace_minutes",
        )
    size = settings.table_size or game.table_size
    if size not in game.player_counts:
        raise InvalidInput(
            f"{game.name} is played by {game.player_count_text()}", field="table_size"
        )
    if settings.mixed_sizes and len(game.player_counts) == 1:
        raise InvalidInput(
            f"{game.name} has one table size; players left over get byes", field="mixed_sizes"
        )
    resolved = _resolve_options(game_type, settings.options, size)
    if round_kind == RoundKind.DEALS:
        if not round_deals or round_deals < 1:
            raise InvalidInput(
                "a round of deals needs its number of deals (1 or more)", field="round_deals"
            )
        round_minutes = None
        if "finish" in resolved:  # the game's own finish option ends it after N deals
            resolved["finish"] = {"deals": round_deals}
        longest = _longest_game(
            game_type, resolved, game.player_counts if settings.mixed_sizes else (size,)
        )
        if longest is not None and round_deals > longest[0]:
            deals, players = longest
            raise InvalidInput(
                f"a game of {game.name} has {deals} deals at most ({players} players): a round "
                f"of {round_deals} deals would end with the game; for whole games choose "
                f'"{RoundKind.GAME.label}"',
                field="round_deals",
            )
    elif round_kind == RoundKind.TIME:
        if not round_minutes or round_minutes < 1:
            raise InvalidInput(
                "a timed round needs its length in minutes (1 or more)", field="round_minutes"
            )
        round_deals = None
    else:
        round_deals = round_minutes = None
        if "finish" in resolved and resolved["finish"] is None:
            raise InvalidInput(
                f"{game.name} without options.finish has no end of its own: set "
                'options.finish (e.g. {"target": 21}) or make rounds of deals or of time',
                field="options.finish",
            )
    if settings.seating_method not in SeatingMethod.values:
        raise InvalidInput(
            f"the seating method is one of {choices(SeatingMethod)}", field="seating_method"
        )
    if settings.points_system != PointsSystem.PLACING:
        placing_points = None  # only the placing system reads them: ignored
    if settings.bye_score != ByeScore.FIXED:
        bye_points = 0  # only a fixed bye score reads it: ignored
    placing = list(placing_points) if placing_points is not None else list(points.DEFAULT_PLACING)
    if not placing or not all(_points_value(v) for v in placing):
        raise InvalidInput(
            f"placing points are numbers from 0 to {MAX_PLACING_POINTS:g}", field="placing_points"
        )
    largest = max(game.player_counts) if settings.mixed_sizes else size
    if placing_points is not None and len(placing) > largest:
        raise InvalidInput(
            f"a table has at most {largest} players: at most {largest} placing points, "
            "first place first",
            field="placing_points",
        )
    breaks = list(settings.tie_breaks if settings.tie_breaks is not None else points.TIE_BREAKS)
    try:
        points.Rule(
            system=settings.points_system,
            placing=tuple(Fraction(str(v)) for v in placing),
            bye=settings.bye_score,
            tie_breaks=tuple(breaks),
        )
    except points.RuleError as error:
        raise InvalidInput(str(error), field=_RULE_FIELDS[error.field]) from None
    return {
        "name": name,
        "game_type": game_type,
        "options": resolved,
        "rounds_planned": settings.rounds,
        "round_kind": round_kind,
        "round_deals": round_deals,
        "round_minutes": round_minutes,
        "grace_minutes": grace_minutes,
        "seating_method": settings.seating_method,
        "table_size": size,
        "mixed_sizes": settings.mixed_sizes,
        "rated": settings.rated,
        "points_system": settings.points_system,
        "placing_points": placing,
        "tie_breaks": breaks,
        "bye_score": settings.bye_score,
        "bye_points": Decimal(str(bye_points)),
    }


@transaction.atomic
def tournament_create(
    *,
    actor: Actor,
    club: Club,
    game_type: str,
    season: Season | None = None,
    played_on: date | None = None,
    **settings: Unpack[SettingsArgs],
) -> Tournament:
    """A tournament of the club: the game and its house rules (checked by the engine),
    how many rounds and what a round is, how tables are drawn and rounds scored
    (``settings``: :class:`SettingsArgs`)."""
    require_director(actor, club)
    fields = _settings(club=club, game_type=game_type, given=settings)
    played_on = played_on or timezone.localdate()
    season = core.season_kept_for(club=club, played_on=played_on, season=season)
    return Tournament.objects.create(
        club=club, season=season, played_on=played_on, created_by=_user(actor), **fields
    )


@transaction.atomic
def tournament_update(
    *, actor: Actor, tournament: Tournament, **settings: Unpack[SettingsArgs]
) -> Tournament:
    """Change a tournament's settings (its game stays) before its first round is seated."""
    tournament = _locked(tournament.pk)
    require_director(actor, tournament.club)
    if tournament.rounds.exists():
        raise Conflict(
            "the tournament has started (round 1 is seated): its settings can no longer change",
            field="tournament",
        )
    fields = _settings(
        club=tournament.club, game_type=tournament.game_type, given=settings, renaming=tournament
    )
    for name_, value in fields.items():
        setattr(tournament, name_, value)
    tournament.save(update_fields=list(fields))
    return tournament


@transaction.atomic
def tournament_delete(*, actor: Actor, tournament: Tournament) -> None:
    """Delete a tournament none of whose rounds was published (seated rounds, byes and
    registrations go with it; no game was started, so no score is lost)."""
    tournament = _locked(tournament.pk)
    require_director(actor, tournament.club)
    published = tournament.rounds.filter(published_at__isnull=False).order_by("number").first()
    if published is not None:
        raise Conflict(
            f"round {published.number} was published: a tournament with games keeps its "
            "record (take the round's publishing back while no table has started, or "
            "close the tournament)",
            field="tournament",
        )
    tournament.delete()
