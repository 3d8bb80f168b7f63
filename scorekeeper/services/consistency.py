"""The stored scores against the rules engine: every game replayed from its deal records.

Recording a deal, undo and finishing carry on from the last stored deal (no replay);
corrections replay the game. This check replays every game and reports (and with ``fix``
mends) any stored deal, result or deal count that differs from what the engine makes of
the records.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, connections, transaction

from rules_engine import RuleError, Scoresheet, cyclic_gc_paused, new_scoresheet

from ..models import Deal, Game, Result, Seat
from ..scoring import placings
from ._base import locked_game, sync_results

#: Games read together: four statements for each batch, whatever the games' lengths.
BATCH = 500


@dataclass(frozen=True)
class Difference:
    game: int
    what: str  # "deal 3 scores", "result of seat 1", "deal count", "records"
    stored: object
    replayed: object

    def __str__(self) -> str:
        return f"game {self.game}: {self.what} stored {self.stored!r}, replayed {self.replayed!r}"


@dataclass
class _Stored:
    """A game as stored: its set-up, its players, its deals and its results."""

    pk: int
    game_type: str
    options: Any
    first_dealer: Any
    deal_count: int
    names: list[str] = field(default_factory=list)
    #: (number, record, dealer, scores, totals, context), in order.
    deals: list[tuple[Any, ...]] = field(default_factory=list)
    #: (position, total, placing), in seat order.
    results: list[tuple[int, int, int]] = field(default_factory=list)


_SCORED = ("dealer", "scores", "totals", "context")


def _deals_as_json(ids: Sequence[int]) -> str:
    """The games' deals as one JSON text: an array of [game id, number, record, dealer,
    scores, totals, context], in order. One decode for the lot: decoding each column of
    each deal on its own cost more than replaying the deals."""
    quote = connection.ops.quote_name
    columns = [quote(column) for column in ("record", *_SCORED)]
    if connection.vendor == "postgresql":
        # the columns' own text, joined: cheaper for the server than
        # json_build_array, which converts each jsonb value to json first
        texts = [quote("game_id"), quote("number"), *(f"{c}::text" for c in columns)]
        row = "'[' || " + " || ',' || ".join(texts) + " || ']'"
    else:  # SQLite keeps JSON as text: json() reads it in
        parts = ", ".join(c if c == quote("dealer") else f"json({c})" for c in columns)
        row = f"json_array({quote('game_id')}, {quote('number')}, {parts})"
    marks = ", ".join(["%s"] * len(ids))
    sql = (
        f"SELECT {row} FROM {quote(Deal._meta.db_table)} "  # noqa: S608
        f"WHERE {quote('game_id')} IN ({marks}) ORDER BY {quote('game_id')}, {quote('number')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, list(ids))
        return "[" + ",".join(text for (text,) in cursor.fetchall()) + "]"


def _stored(ids: Sequence[int]) -> list[_Stored]:
    games = {
        row[0]: _Stored(*row)
        for row in Game.objects.filter(pk__in=ids)
        .order_by("pk")
        .values_list("pk", "game_type", "options", "first_dealer", "deal_count")
    }
    seats = Seat.objects.filter(game_id__in=ids).order_by("game_id", "position")
    for game_id, name in seats.values_list("game_id", "player__name"):
        games[game_id].names.append(name)
    for game_id, *row in json.loads(_deals_as_json(ids)):
        games[game_id].deals.append(tuple(row))
    results = Result.objects.filter(game_id__in=ids).order_by("game_id", "position")
    for game_id, *row in results.values_list("game_id", "position", "total", "placing"):
        games[game_id].results.append((row[0], row[1], row[2]))
    return list(games.values())


def _compare(game: _Stored) -> tuple[list[Difference], Scoresheet | None]:
    """Every difference between ``game`` as stored and its replay; and the replay."""
    try:
        sheet = new_scoresheet(
            game.game_type, game.names, options=game.options, first_dealer=game.first_dealer
        )
        sheet.extend([deal[1] for deal in game.deals])
    except RuleError as error:
        return [Difference(game.pk, "records", "stored deals", f"refused: {error.message}")], None
    found: list[Difference] = []
    for (number, _, *stored), scored in zip(game.deals, sheet.deals, strict=True):
        replayed = [scored.dealer, list(scored.scores), list(scored.totals), scored.context]
        if stored == replayed:
            continue
        for name, was, now in zip(_SCORED, stored, replayed, strict=True):
            if was != now:
                found.append(Difference(game.pk, f"deal {number} {name}", was, now))
    if game.deal_count != len(game.deals):
        found.append(Difference(game.pk, "deal count", game.deal_count, len(game.deals)))
    places = placings(sheet.totals)
    for position, total, placing in game.results:
        expected = (sheet.totals[position], places[position])
        if (total, placing) != expected:
            found.append(
                Difference(game.pk, f"result of seat {position}", (total, placing), expected)
            )
    return found, sheet


@transaction.atomic
def _fix(game_id: int) -> list[Difference]:
    """Rescore one game from its records, under its lock (read again once locked)."""
    game = locked_game(Game(pk=game_id))
    found, sheet = _compare(_stored([game_id])[0])
    if found and sheet is not None:
        deals = list(Deal.objects.filter(game=game).order_by("number"))
        for deal, scored in zip(deals, sheet.deals, strict=True):
            deal.dealer = scored.dealer
            deal.scores = list(scored.scores)
            deal.totals = list(scored.totals)
            deal.context = dict(scored.context)
        Deal.objects.bulk_update(deals, ["dealer", "scores", "totals", "context"])
        sync_results(game, sheet)
    return found


def _batch_differences(ids: Sequence[int]) -> list[tuple[int, list[Difference]]]:
    """Each game of one batch with the differences found in it (read and replayed)."""
    # A batch's rows make no reference cycles: the collector would only walk them.
    with cyclic_gc_paused():
        return [(game.pk, _compare(game)[0]) for game in _stored(ids)]


def scores_check(*, fix: bool = False, workers: int = 1) -> Iterator[Difference]:
    """Every difference between the stored scores and a replay, game by game; with
    ``fix``, each game found different is rescored from its records (under its lock).
    Games are read in batches (:data:`BATCH`), four statements a batch; with ``workers``
    above 1, that many processes read and replay the batches side by side (each with its
    own database connection: they see only what is committed)."""
    ids = list(Game.objects.order_by("pk").values_list("pk", flat=True))
    batches = [ids[start : start + BATCH] for start in range(0, len(ids), BATCH)]
    for compared in _each_batch(batches, workers):
        for game_id, found in compared:
            if found and fix:
                found = _fix(game_id)
            yield from found


def _each_batch(
    batches: list[list[int]], workers: int
) -> Iterator[list[tuple[int, list[Difference]]]]:
    """The batches' differences, in order: here, or from a pool of ``workers`` processes
    (here inside a transaction: other processes would not see what it wrote)."""
    workers = min(workers, len(batches))
    if workers <= 1 or connection.in_atomic_block:
        yield from map(_batch_differences, batches)
        return
    # Forked children must not share this process's connection: each opens its own.
    connections.close_all()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        yield from pool.imap(_batch_differences, batches)
