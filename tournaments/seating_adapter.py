"""The one place that asks the seating engine for a round's tables.

The services speak to seating only through :func:`plan_round`, :func:`table_sizes` and
:func:`find_conflicts`, in the plain data types below (player ids, no Django). Behind
them is the seating engine (:mod:`tournaments.seating`, its ``next_round``), through
:class:`EnginePlanner`; :class:`FallbackPlanner` is a small planner of our own, used
when the engine cannot be imported (and kept, tested, as the swap-in). Only this module
imports the engine.

What a plan guarantees (the engine's, and the fallback's):

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
import random
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

METHODS = ("new_opponents", "standings", "random")

Progress = Callable[[int], None]


class SeatingError(ValueError):
    """The round cannot be seated as asked (too few players, say)."""


@dataclass(frozen=True)
class PastTable:
    players: tuple[int, ...]  # seat order
    first_dealer: int = 0  # a seat


@dataclass(frozen=True)
class PastRound:
    tables: tuple[PastTable, ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class SeatingRequest:
    players: tuple[int, ...]  # checked in; for "standings": best first
    method: str
    sizes: tuple[int, ...]  # the table sizes the game allows
    preferred: int
    mixed: bool = False  # may tables differ in size (instead of byes)?
    history: tuple[PastRound, ...] = ()
    seed: int = 0


@dataclass(frozen=True)
class PlannedTable:
    players: tuple[int, ...]  # seat order, clockwise from seat 0
    first_dealer: int  # a seat


@dataclass(frozen=True)
class SeatingPlan:
    tables: tuple[PlannedTable, ...]
    byes: tuple[int, ...] = ()


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
    low, high = min(sizes), max(sizes)
    if not low <= preferred <= high:
        raise SeatingError(f"tables of {preferred} are not allowed for this game")
    if count < low:
        raise SeatingError(f"{count} players checked in; a table needs {low}")
    if mixed and low != high:
        best: tuple[int, int, list[int]] | None = None
        for tables in range(1, count // low + 1):
            base, extra = divmod(count, tables)
            layout = [base + 1] * extra + [base] * (tables - extra)
            if layout[-1] < low or layout[0] > high:
                continue
            cost = sum(abs(size - preferred) for size in layout)
            if best is None or cost < best[0]:
                best = (cost, tables, layout)
        if best is not None:
            return best[2], 0
    tables, byes = divmod(count, preferred)
    return [preferred] * tables, byes


def plan_round(request: SeatingRequest, progress: Progress | None = None) -> SeatingPlan:
    """Seat a round: the engine's plan when it is there, otherwise the fallback's."""
    if request.method not in METHODS:
        raise SeatingError(f"unknown seating method {request.method!r}")
    if len(set(request.players)) != len(request.players):
        raise SeatingError("a player is listed twice")
    planner = _engine() or FallbackPlanner()
    return planner.plan(request, progress or (lambda percent: None))


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


class Planner:
    def plan(self, request: SeatingRequest, progress: Progress) -> SeatingPlan:
        raise NotImplementedError


def _engine() -> Planner | None:
    """The seating engine's planner, or None when the engine cannot be imported."""
    try:
        from tournaments import seating
    except ImportError:  # pragma: no cover - the engine ships with the app
        return None
    if not hasattr(seating, "next_round"):  # pragma: no cover
        return None
    return EnginePlanner()


ENGINE_METHODS = {"new_opponents": "new_opponents", "standings": "by_standings", "random": "random"}


@dataclass
class EnginePlanner(Planner):
    """``tournaments.seating.next_round``: one round after the rounds played. The engine
    lists each table's players in seat order with the first dealer first, and counts a
    player absent from a played round as having sat out."""

    time_limit: float = 5.0

    def plan(self, request: SeatingRequest, progress: Progress) -> SeatingPlan:
        from tournaments import seating

        layout, byes = table_sizes(
            len(request.players), request.sizes, request.preferred, request.mixed
        )
        history = [[_dealer_first(table) for table in past.tables] for past in request.history]
        progress(10)
        try:
            result = seating.next_round(
                list(request.players),
                history,
                sizes=layout,
                byes=byes,
                method=ENGINE_METHODS[request.method],  # type: ignore[arg-type]
                standings=list(request.players) if request.method == "standings" else None,
                seed=request.seed,
                time_limit=self.time_limit,
            )
        except seating.SeatingError as error:
            raise SeatingError(error.message) from None
        progress(90)
        tables = tuple(
            PlannedTable(players=tuple(table), first_dealer=0) for table in result.rounds[0]
        )
        return SeatingPlan(tables=tables, byes=tuple(sorted(result.byes[0])))


def _dealer_first(table: PastTable) -> list[int]:
    """A played table as the engine reads it: seat order from the first dealer."""
    players = list(table.players)
    return players[table.first_dealer :] + players[: table.first_dealer]


# --- The fallback --------------------------------------------------------------------------------


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _meetings(history: Sequence[PastRound]) -> dict[tuple[int, int], int]:
    met: dict[tuple[int, int], int] = defaultdict(int)
    for past in history:
        for table in past.tables:
            for a, b in itertools.combinations(table.players, 2):
                met[_pair(a, b)] += 1
    return met


@dataclass
class FallbackPlanner(Planner):
    """Greedy byes, then a seeded draw improved by swaps (``new_opponents``)."""

    time_budget: float = 3.0  # seconds of improvement at most, for the largest events
    restarts: int = 4
    _met: dict[tuple[int, int], int] = field(default_factory=dict)

    def plan(self, request: SeatingRequest, progress: Progress) -> SeatingPlan:
        rng = random.Random(request.seed)
        layout, bye_count = table_sizes(
            len(request.players), request.sizes, request.preferred, request.mixed
        )
        progress(5)
        byes = self._byes(request, bye_count, rng)
        playing = [player for player in request.players if player not in set(byes)]
        self._met = _meetings(request.history)
        if request.method == "standings":
            groups = _chunk(playing, layout)
        elif request.method == "random":
            rng.shuffle(playing)
            groups = _chunk(playing, layout)
        else:
            groups = self._new_opponents(playing, layout, rng, progress)
        progress(90)
        tables = tuple(self._seat(group, request.history, rng) for group in groups)
        progress(100)
        return SeatingPlan(tables=tables, byes=tuple(byes))

    def _byes(self, request: SeatingRequest, count: int, rng: random.Random) -> list[int]:
        if count == 0:
            return []
        had = Counter(player for past in request.history for player in past.byes)
        order = list(request.players)
        if request.method == "standings":
            order.reverse()  # the lowest in the standings first
        else:
            rng.shuffle(order)
        order.sort(key=lambda player: had[player])  # stable: fewest byes first
        return order[:count]

    def _cost(self, group: Sequence[int]) -> int:
        met = self._met
        return sum(met.get(_pair(a, b), 0) for a, b in itertools.combinations(group, 2))

    def _new_opponents(
        self, players: list[int], layout: list[int], rng: random.Random, progress: Progress
    ) -> list[list[int]]:
        best: list[list[int]] | None = None
        best_cost = -1
        deadline = time.monotonic() + self.time_budget
        for attempt in range(self.restarts):
            shuffled = list(players)
            rng.shuffle(shuffled)
            groups = _chunk(shuffled, layout)
            cost = self._improve(groups, deadline)
            if best is None or cost < best_cost:
                best, best_cost = groups, cost
            progress(10 + 80 * (attempt + 1) // self.restarts)
            if best_cost == 0 or time.monotonic() > deadline:
                break
        assert best is not None
        return best

    def _improve(self, groups: list[list[int]], deadline: float) -> int:
        """Swap players between tables while that lowers the repeated meetings."""
        costs = [self._cost(group) for group in groups]
        improved = True
        while improved and time.monotonic() < deadline:
            improved = False
            for i, group in enumerate(groups):
                if costs[i] == 0:
                    continue
                for a_index in range(len(group)):
                    for j, other in enumerate(groups):
                        if j == i:
                            continue
                        for b_index in range(len(other)):
                            a, b = group[a_index], other[b_index]
                            group[a_index], other[b_index] = b, a
                            new_i, new_j = self._cost(group), self._cost(other)
                            if new_i + new_j < costs[i] + costs[j]:
                                costs[i], costs[j] = new_i, new_j
                                improved = True
                                break
                            group[a_index], other[b_index] = a, b
                        if costs[i] == 0:
                            break
                    if costs[i] == 0:
                        break
        return sum(costs)

    def _seat(
        self, group: Sequence[int], history: Sequence[PastRound], rng: random.Random
    ) -> PlannedTable:
        """Seat order spreading each player's seats; the first deal to whoever has had it
        least often."""
        seats: dict[int, Counter[int]] = defaultdict(Counter)
        dealt: Counter[int] = Counter()
        for past in history:
            for table in past.tables:
                for position, player in enumerate(table.players):
                    seats[player][position] += 1
                if table.players:
                    dealt[table.players[table.first_dealer]] += 1
        members = list(group)
        rng.shuffle(members)
        if len(members) <= 6:
            order = min(
                itertools.permutations(members),
                key=lambda perm: sum(seats[p][pos] for pos, p in enumerate(perm)),
            )
        else:  # pragma: no cover - no game seats more than six
            order = tuple(members)
        fewest = min(dealt[player] for player in order)
        first = next(pos for pos, player in enumerate(order) if dealt[player] == fewest)
        return PlannedTable(players=tuple(order), first_dealer=first)


def _chunk(players: Sequence[int], layout: Sequence[int]) -> list[list[int]]:
    groups, start = [], 0
    for size in layout:
        groups.append(list(players[start : start + size]))
        start += size
    return groups
