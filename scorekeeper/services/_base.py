"""What every write of the core shares: rights, the game's row lock, the lock and
revision of a game, and bringing a game's status and results in step with its deals."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from rules_engine import Scoresheet

from .. import access, locks, rows
from ..access import Actor, TableGuest, actor_name
from ..errors import Conflict, NotAllowed, NotFound
from ..models import (
    Game,
    GameStatus,
    Result,
    Seat,
)
from ..scoring import placings
from .ratings import finished_game_changed

MAX_REASON = 500


def require(allowed: bool, message: str) -> None:
    if not allowed:
        raise NotAllowed(message)


def user_of(actor: Actor) -> User | None:
    return actor if isinstance(actor, User) and actor.is_authenticated else None


def guest_name(actor: Actor) -> str:
    return actor_name(actor) if isinstance(actor, TableGuest) else ""


def locked_game(game: Game) -> Game:
    """The game's row, locked until the transaction ends (PostgreSQL: FOR UPDATE;
    SQLite: the IMMEDIATE transaction already holds the write lock). A game the caller
    read locked in this same transaction is not read again."""
    if locks.held(game):
        return game
    try:
        # of=("self",): the game row only; the club row stays free for its other tables.
        return Game.objects.select_for_update(of=("self",)).select_related("club").get(pk=game.pk)
    except Game.DoesNotExist:
        raise NotFound("no such game") from None


def locked_for_scoring(game: Game, actor: Actor, action: str, *, guests: bool = True) -> Game:
    """The game locked, once the actor is known to be allowed to ``action`` in it."""
    game = locked_game(game)
    allowed = access.can_score(actor, game) and (guests or not isinstance(actor, TableGuest))
    require(
        allowed,
        f"only the club's scorers, the game's players and whoever started it can {action}",
    )
    return game


def seats_of(game: Game) -> list[Seat]:
    return list(game.seats.select_related("player").order_by("position"))


def sync_results(game: Game, sheet: Scoresheet, *, writes: rows.Batch | None = None) -> None:
    """Bring the game's status and its players' results in step with ``sheet`` (and ask
    for the club's ratings to follow when the game is, or was, finished). ``writes``: the
    caller's own writes, sent with these (on PostgreSQL in the same statement)."""
    writes = writes if writes is not None else rows.Batch()
    was_finished = game.status == GameStatus.FINISHED
    now = timezone.now()
    fields = ["status", "ended_by_hand", "ended_at", "deal_count", "revision"]
    if game.ended_by_hand or game.ended_by_id is not None or game.ended_by_name:
        fields += ["ended_by", "ended_by_name"]  # (not on a deal of a game being played)
    if game.status == GameStatus.ABANDONED:
        pass  # it stays abandoned (a consistency fix rescores its deals, nothing more)
    elif sheet.finished:
        game.status = GameStatus.FINISHED
        game.ended_by_hand = False
        game.ended_at = game.ended_at or now
    elif game.status == GameStatus.FINISHED and not game.ended_by_hand:
        game.status = GameStatus.IN_PROGRESS  # a correction or undo reopened it
        game.ended_at = None
    if not game.ended_by_hand and game.status != GameStatus.ABANDONED:
        game.ended_by, game.ended_by_name = None, ""  # ended by its rules, or being played
    game.deal_count = sheet.played
    game.revision += 1
    writes.update(game, fields)
    if game.status == GameStatus.FINISHED:
        winners = set(sheet.winners or sheet.game.winners(sheet.table, sheet.totals))
    else:
        winners = set()
    places = placings(sheet.totals)
    seats = range(len(sheet.totals))
    # Every seat's row in one plain statement, without reading them first.
    cases = (sheet.totals, places, [seat in winners for seat in seats])  # _RESULT_COLUMNS
    params: list[Any]
    if connection.vendor == "postgresql":  # each column's values as an array, by position
        params = [list(values) for values in cases]
    else:
        params = [values[seat] for values in cases for seat in seats]
    writes.execute(_results_update(len(seats), connection.vendor), [*params, game.pk])
    writes.send()
    finished_game_changed(game, was_finished=was_finished)


_RESULT_COLUMNS = ("total", "placing", "won")


@cache
def _results_update(seats: int, vendor: str) -> str:
    """The UPDATE of a game's results (total, placing, won) by seat position. PostgreSQL:
    one array parameter a column, indexed by position (one text and 4 parameters whatever
    the number of seats: the deal's one statement stays under the 50 parameters psycopg
    parses once and reuses); elsewhere a CASE on the position, written into the text."""
    quote = connection.ops.quote_name
    position = quote("position")
    if vendor == "postgresql":
        types = {"total": "integer", "placing": "integer", "won": "boolean"}
        assignments = ", ".join(
            f"{quote(column)} = (%s::{types[column]}[])[{position} + 1]"
            for column in _RESULT_COLUMNS
        )
    else:
        assignments = ", ".join(
            f"{quote(column)} = CASE {position} "
            f"{' '.join(f'WHEN {seat} THEN %s' for seat in range(seats))} END"
            for column in _RESULT_COLUMNS
        )
    return (
        f"UPDATE {quote(Result._meta.db_table)} SET {assignments} "  # noqa: S608
        f"WHERE {quote('game_id')} = %s"
    )


def locked_refusal(game: Game) -> Conflict | None:
    """The refusal of any change to a locked game; None when it is not locked."""
    if game.locked_at is None:
        return None
    return Conflict(f"the game is locked: {game.locked_reason}", details={"locked": True})


def check_writable(game: Game) -> None:
    if (locked := locked_refusal(game)) is not None:
        raise locked
    if game.status == GameStatus.ABANDONED:
        raise Conflict("the game was abandoned; it takes no more changes")


def touch(game: Game, *fields: str) -> None:
    """Save ``fields`` of the locked game and tell the phones that follow it. Every write
    of a game's deals, keys, revisions or drafts writes the game's row with it (here or in
    :func:`sync_results`): the locked read of a deal POST trusts what it read of them only
    when the game's row did not change while it waited (``selectors._read_game``)."""
    game.revision += 1
    game.save(update_fields=[*fields, "revision", "updated_at"])
