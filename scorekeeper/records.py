"""Games as JSON files: export a club's games, import game records back through the services.

The file format (``scorekeeper-games/1``)::

    {
      "format": "scorekeeper-games/1",
      "club": {"name": ..., "slug": ...},
      "season": {"name": ..., "starts_on": ..., "ends_on": ...} or null,
      "games": [game record, ...]
    }

Each game record is a RULES.md game record (``game``, ``players`` in seat order,
``first_dealer``, ``options``, ``deals`` as stored, in order) that the rules engine
scores as it is (``python -m rules_engine score``), plus the metadata keys
``played_on``, ``status``, ``ended_by_hand``, ``ended_at`` (when the game ended: an ISO
date and time with its offset, or null), ``ended_by`` (who ended a game by hand or abandoned
it, as its page names them, or null) and ``season`` (the season's name or null), which the
engine ignores. An imported game keeps its ``ended_at`` and ``ended_by`` (not the import's
time and importer).

An import also takes a bare list of RULES.md game records, or a single one. It
writes only through :mod:`scorekeeper.services`, in one transaction: a bad
record leaves nothing written.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Prefetch

from rules_engine import RuleError, Scoresheet, score_record

from . import access, services
from .errors import ServiceError
from .models import Club, Deal, Game, GameStatus, Membership, Player, Role, Season, Seat

FORMAT = "scorekeeper-games/1"
#: As long as the name a game's page gives for who ended it.
MAX_ENDED_BY = 200  # Game.ended_by_name


class ImportRefused(Exception):
    """An import (or its set-up) refused; ``message`` says which game and why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# --- Export -------------------------------------------------------------------------------


def game_record(game: Game) -> dict[str, Any]:
    """One game as a RULES.md game record plus its metadata (see the module docstring)."""
    seats = sorted(game.seats.all(), key=lambda seat: seat.position)
    deals = sorted(game.deals.all(), key=lambda deal: deal.number)
    return {
        "game": game.game_type,
        "players": [seat.player.name for seat in seats],
        "first_dealer": game.first_dealer,
        "options": game.options,
        "deals": [deal.record for deal in deals],
        "played_on": game.played_on.isoformat(),
        "status": game.status,
        "ended_by_hand": game.ended_by_hand,
        "ended_at": game.ended_at.isoformat() if game.ended_at else None,
        "ended_by": game.ended_by_name or None,
        "season": game.season.name if game.season is not None else None,
    }


def export_games(club: Club, season: Season | None = None) -> dict[str, Any]:
    """The club's games (or one season's), oldest first, in the ``scorekeeper-games/1`` shape."""
    games = (
        Game.objects.filter(club=club)
        .select_related("season")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player")),
            Prefetch("deals", queryset=Deal.objects.only("id", "game_id", "number", "record")),
        )
        .order_by("played_on", "id")
    )
    if season is not None:
        games = games.filter(season=season)
    return {
        "format": FORMAT,
        "club": {"name": club.name, "slug": club.slug},
        "season": None
        if season is None
        else {
            "name": season.name,
            "starts_on": season.starts_on.isoformat(),
            "ends_on": season.ends_on.isoformat(),
        },
        "games": [game_record(game) for game in games],
    }


# --- Import -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportSummary:
    games: int
    deals: int
    players_created: int
    dry_run: bool

    def __str__(self) -> str:
        counts = (
            f"{self.games} game{'s' if self.games != 1 else ''}, "
            f"{self.deals} deal{'s' if self.deals != 1 else ''}, "
            f"{self.players_created} new player{'s' if self.players_created != 1 else ''}"
        )
        if self.dry_run:
            return f"Dry run: the file is valid ({counts}); nothing was written."
        return f"Imported {counts}."


def import_actor(club: Club, username: str | None = None) -> User:
    """Who an import acts as: ``username`` (club staff), or else the club's first admin."""
    if username is None:
        membership = (
            Membership.objects.filter(club=club, role=Role.ADMIN)
            .select_related("user")
            .order_by("created_at", "id")
            .first()
        )
        if membership is None:
            raise ImportRefused(f"the club {club.slug} has no admin to act as; use --as USERNAME")
        return membership.user
    user = User.objects.filter(username=username).first()
    if user is None:
        raise ImportRefused(f'there is no user "{username}"')
    if access.role_in(user, club) not in access.STAFF_ROLES:
        raise ImportRefused(
            f"{username} is not on the staff of {club.slug} (admin, director or scorer)"
        )
    return user


def read_records(data: object) -> tuple[list[object], str | None]:
    """The game records of a file, and the file's season name (if it names one)."""
    if isinstance(data, list):
        return list(data), None
    if isinstance(data, dict):
        if "format" in data:
            if data["format"] != FORMAT:
                raise ImportRefused(
                    f'unknown file format {data["format"]!r}; this command reads "{FORMAT}", '
                    "a list of game records, or one game record"
                )
            games = data.get("games")
            if not isinstance(games, list):
                raise ImportRefused('the file\'s "games" must be a list of game records')
            season = data.get("season")
            name = season.get("name") if isinstance(season, dict) else None
            return games, name if isinstance(name, str) else None
        if "game" in data:
            return [data], None
    raise ImportRefused(
        f'the file is neither a "{FORMAT}" file, a list of game records, nor a game record'
    )


@dataclass(frozen=True)
class _Plan:
    """A record checked by the engine, with its metadata read."""

    record: dict[str, Any]
    sheet: Scoresheet
    played_on: datetime.date | None
    status: str
    ended_by_hand: bool
    season: str | None
    #: Whether the record says how the game ended (``ended_at`` or ``ended_by`` given).
    ending: bool = False
    ended_at: datetime.datetime | None = None
    ended_by: str | None = None


def _where(index: int, record: object) -> str:
    label = f"game at index {index}"
    if isinstance(record, dict):
        details = [str(record[key]) for key in ("game", "played_on") if record.get(key)]
        if details:
            label += f" ({', '.join(details)})"
    return label


def _rule_text(error: RuleError) -> str:
    where = f"deal {error.deal + 1}, " if error.deal is not None else ""
    return f"{where}field {error.field}: {error.message}"


def _service_text(error: ServiceError) -> str:
    parts = []
    if error.deal is not None:
        parts.append(f"deal {error.deal}")
    if error.field:
        parts.append(f"field {error.field}")
    return f"{', '.join(parts)}: {error.message}" if parts else error.message


def _plan(record: object, file_season: str | None) -> _Plan:
    """Check a record with the engine and read its metadata; :class:`ValueError` if wrong."""
    if not isinstance(record, dict):
        raise ValueError("field record: a game record is a JSON object")
    try:
        sheet = score_record(record)
    except RuleError as error:
        raise ValueError(_rule_text(error)) from None

    played_on = record.get("played_on")
    if played_on is not None:
        try:
            played_on = datetime.date.fromisoformat(played_on)
        except (TypeError, ValueError):
            raise ValueError(
                f"field played_on: a date like 2025-03-01; got {played_on!r}"
            ) from None
    ended_by_hand = record.get("ended_by_hand", False)
    if not isinstance(ended_by_hand, bool):
        raise ValueError(f"field ended_by_hand: true or false; got {ended_by_hand!r}")
    status = record.get("status")
    if status is None:
        status = GameStatus.FINISHED if sheet.finished or ended_by_hand else GameStatus.IN_PROGRESS
    elif status not in GameStatus.values:
        raise ValueError(f"field status: one of {', '.join(GameStatus.values)}; got {status!r}")
    if ended_by_hand and sheet.finished:
        raise ValueError(
            "field ended_by_hand: the deals already end the game, so it was not finished by hand"
        )
    if status == GameStatus.FINISHED and not (sheet.finished or ended_by_hand):
        raise ValueError(
            "field status: the game is marked finished but its deals do not end it "
            "(set ended_by_hand to true if a person ended it)"
        )
    if status == GameStatus.IN_PROGRESS and (sheet.finished or ended_by_hand):
        raise ValueError("field status: the game is marked in progress but it has ended")
    season = record.get("season", file_season)
    if season is not None and not isinstance(season, str):
        raise ValueError(f"field season: a season's name or null; got {season!r}")
    ending = "ended_at" in record or "ended_by" in record
    ended_at, ended_by = _ending(record, status, ended_by_hand)
    return _Plan(
        record, sheet, played_on, status, ended_by_hand, season, ending, ended_at, ended_by
    )


def _ending(
    record: dict[str, Any], status: str, ended_by_hand: bool
) -> tuple[datetime.datetime | None, str | None]:
    """The record's ``ended_at`` and ``ended_by``, checked (:class:`ValueError` if wrong)."""
    ended_at = record.get("ended_at")
    if ended_at is not None:
        when = None
        if isinstance(ended_at, str):
            with suppress(ValueError):
                when = datetime.datetime.fromisoformat(ended_at)
        if when is None or when.tzinfo is None:
            raise ValueError(
                "field ended_at: a date and time with its offset, like "
                f"2025-03-01T22:15:00+01:00; got {ended_at!r}"
            )
        if status == GameStatus.IN_PROGRESS:
            raise ValueError("field ended_at: the game is in progress; it has not ended")
        ended_at = when
    ended_by = record.get("ended_by")
    if ended_by is not None:
        if not isinstance(ended_by, str) or not ended_by.strip():
            raise ValueError(f"field ended_by: a name or null; got {ended_by!r}")
        ended_by = " ".join(ended_by.split())
        if len(ended_by) > MAX_ENDED_BY:
            raise ValueError(f"field ended_by: at most {MAX_ENDED_BY} characters")
        if not (ended_by_hand or status == GameStatus.ABANDONED):
            raise ValueError(
                "field ended_by: only a game ended by hand or abandoned was ended by someone"
            )
    return ended_at, ended_by


class _Importer:
    def __init__(self, club: Club, actor: User) -> None:
        self.club = club
        self.actor = actor
        self.players: dict[str, Player] = {
            player.name.casefold(): player for player in Player.objects.filter(club=club)
        }
        self.seasons = {season.name: season for season in Season.objects.filter(club=club)}
        self.players_created = 0
        self.deals = 0

    def player(self, name: str) -> Player:
        name = " ".join(name.split())
        player = self.players.get(name.casefold())
        if player is None:
            player = services.player_create(actor=self.actor, club=self.club, name=name)
            self.players[name.casefold()] = player
            self.players_created += 1
        return player

    def write(self, plan: _Plan) -> None:
        players = [self.player(name) for name in plan.sheet.players]
        game = services.game_start(
            actor=self.actor,
            club=self.club,
            game_type=plan.sheet.game.key,
            players=players,
            options=plan.sheet.game.options_json(plan.sheet.options),
            first_dealer=plan.sheet.table.first_dealer,
            season=self.seasons.get(plan.season) if plan.season else None,
            played_on=plan.played_on,
            house_rules_accepted=True,  # as the club kept them
        )
        for number, deal in enumerate(plan.record.get("deals") or [], start=1):
            services.deal_record(actor=self.actor, game=game, number=number, record=deal)
            self.deals += 1
        if plan.ended_by_hand:
            services.game_finish(actor=self.actor, game=game)
        if plan.status == GameStatus.ABANDONED:
            services.game_abandon(actor=self.actor, game=game)
        if plan.ending and plan.status != GameStatus.IN_PROGRESS:
            services.game_ending_restore(
                actor=self.actor, game=game, ended_at=plan.ended_at, ended_by=plan.ended_by
            )


def import_games(data: object, *, club: Club, actor: User, dry_run: bool = False) -> ImportSummary:
    """Create the file's games in ``club`` as ``actor``: all of them, or (on any error) none.

    Raises :class:`ImportRefused` naming the game (its index in the file) and what is
    wrong (the deal number and field, as the engine or the services said it).
    """
    records: Sequence[object]
    records, file_season = read_records(data)
    plans = []
    for index, record in enumerate(records):
        try:
            plans.append(_plan(record, file_season))
        except ValueError as error:
            raise ImportRefused(f"{_where(index, record)}: {error}") from None
    with transaction.atomic():
        importer = _Importer(club, actor)
        for index, plan in enumerate(plans):
            try:
                importer.write(plan)
            except ServiceError as error:
                raise ImportRefused(
                    f"{_where(index, plan.record)}: {_service_text(error)}"
                ) from None
        if dry_run:
            transaction.set_rollback(True)
    return ImportSummary(
        games=len(plans),
        deals=importer.deals,
        players_created=importer.players_created,
        dry_run=dry_run,
    )
