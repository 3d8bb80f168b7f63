"""The one place that asks the seating engine for a round's tables.

The services speak to seating only through :func:`plan_round`, :func:`table_sizes` and
:func:`find_conflicts`, in the plain data types below (player ids, no Django). Behind
them is the seating engine (:mod:`tournaments.seating`: ``next_round`` and
``round_sizes``), which raises ``tournaments.seating.SeatingError``. The engine takes the
tournament's method names as they are stored.

What a plan guarantees:

* every player given is seated exactly once or given a bye;
* tables have an allowed size: the preferred size, or, when ``mixed`` is allowed
  (prediction whist), sizes as close to it as fit, and then no byes;
* byes go to those who have sat out least, so nobody sits out twice before everyone has
  once (on a tie: the lowest in the standings for ``standings``, else a seeded draw);
* ``new_opponents``: as few repeated meetings as can be found over all earlier rounds;
  ``standings``: tables of neighbours in the standings (Swiss-style); ``random``: a
  seeded draw;
* seats and the first dealer are balanced over the rounds.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tournaments import seating

Progress = Callable[[int], None]
TIME_LIMIT = 5.0  # seconds of search at most for a round


@dataclass(frozen=True)
class SeatedTable:
    players: tuple[int, ...]  # seat order, clockwise from seat 0
    first_dealer: int = 0  # a seat


@dataclass(frozen=True)
class SeatedRound:
    tables: tuple[SeatedTable, ...]
    byes: tuple[int, ...] = ()


# A round played (the history a plan reads) and a round planned are alike; a plan's
# tables are listed with their first dealer in seat 0.
PastTable = SeatedTable
PastRound = SeatedRound
PlannedTable = SeatedTable
SeatingPlan = SeatedRound


@dataclass(frozen=True)
class SeatingRequest:
    players: tuple[int, ...]  # checked in; for "standings": best first
    method: str
    sizes: tuple[int, ...]  # the table sizes the game allows
    preferred: int
    mixed: bool = False  # may tables differ in size (instead of byes)?
    history: tuple[PastRound, ...] = ()
    seed: int = 0
    # rounds still to play, this one included: by standings they are planned together, so
    # that this round's neighbours leave the later rounds without repeats
    rounds_left: int = 1


@dataclass(frozen=True)
class SeatConflict:
    kind: str  # "met_before" or "second_bye"
    players: tuple[int, ...]
    times: int  # earlier meetings, or earlier byes
    table: int | None = None  # index of the table in the plan (None for a bye)


# --- The planning API the services use ---------------------------------------------------------


def table_sizes(
    count: int, sizes: Sequence[int], preferred: int, mixed: bool
) -> tuple[list[int], int]:
    """The table sizes for ``count`` players, and how many byes are left over."""
    return seating.round_sizes(count, preferred, min(sizes), max(sizes), mixed)


def plan_round(request: SeatingRequest, progress: Progress | None = None) -> SeatingPlan:
    """Seat a round with the engine's ``next_round``: one round after the rounds played.
    The engine lists each table's players in seat order with the first dealer first, and
    counts a player absent from a played round as having sat out."""
    report = progress or (lambda percent: None)
    if request.method not in seating.METHODS:
        raise seating.SeatingError("method", f"unknown seating method {request.method!r}")
    layout, byes = table_sizes(
        len(request.players), request.sizes, request.preferred, request.mixed
    )
    history = [[_dealer_first(table) for table in past.tables] for past in request.history]
    report(10)
    result = seating.next_round(
        list(request.players),
        history,
        sizes=layout,
        byes=byes,
        method=request.method,  # type: ignore[arg-type]  # one of seating.METHODS
        standings=list(request.players) if request.method == "standings" else None,
        seed=request.seed,
        time_limit=TIME_LIMIT,
        lookahead=max(1, request.rounds_left) if request.method == "standings" else 1,
    )
    report(90)
    tables = tuple(PlannedTable(players=tuple(table), first_dealer=0) for table in result.rounds[0])
    return SeatingPlan(tables=tables, byes=tuple(sorted(result.byes[0])))


def find_conflicts(
    history: Sequence[PastRound], tables: Sequence[Sequence[int]], byes: Sequence[int] = ()
) -> list[SeatConflict]:
    """What a (possibly hand-edited) round repeats: pairs that met before, second byes."""
    met = _meetings(history)
    had_bye = Counter(player for past in history for player in past.byes)
    conflicts = []
    for index, table in enumerate(tables):
        for a, b in itertools.combinations(table, 2):
            times = met.get(_pair(a, b), 0)
            if times:
                conflicts.append(SeatConflict("met_before", (a, b), times, index))
    # Nobody sits out twice before everyone has once.
    seated = [player for table in tables for player in table]
    fewest = min((had_bye[player] for player in seated), default=0)
    for player in byes:
        if had_bye[player] > fewest:
            conflicts.append(SeatConflict("second_bye", (player,), had_bye[player]))
    return conflicts


def _dealer_first(table: PastTable) -> list[int]:
    """A played table as the engine reads it: seat order from the first dealer."""
    players = list(table.players)
    return players[table.first_dealer :] + players[: table.first_dealer]


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _meetings(history: Sequence[PastRound]) -> dict[tuple[int, int], int]:
    met: dict[tuple[int, int], int] = defaultdict(int)
    for past in history:
        for table in past.tables:
            for a, b in itertools.combinations(table.players, 2):
                met[_pair(a, b)] += 1
    return met
