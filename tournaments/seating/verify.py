"""Checking plans against what was asked: the sweep over every field a director can seat.

``problems(rounds, players, sizes, byes)`` lists what is wrong with a plan (someone seated
twice or not at all, an unknown player, tables of the wrong sizes). ``cases(...)`` lists
the seating requests of the sweep: every field of ``players`` at tables of each size, the
rest sitting out, and the mixed sizes prediction whist seats (``balanced_sizes``), for
rounds 1 to two beyond the most known without a repeat. ``check(case, time_limit)`` plans
one and says what went wrong: problems, repeats where ``known_max_rounds`` says none are
needed, or more CPU time than the budget. ``bench/seating.py --part sweep`` runs them all;
``tests/seating/test_sweep.py`` a sample. ``swiss_event(...)`` seats an event by standings
that move after each round, as ``bench/seating.py --part standings`` and the tests do.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.seating.core import Plan, balanced_sizes, evaluate, next_round, plan
from tournaments.seating.designs import known_max_rounds, max_rounds_bound
from tournaments.seating.errors import SeatingError

#: what a plan may take beyond its time limit: building a design, ordering the seats
SLACK = 0.5


def problems(
    rounds: Sequence[Sequence[Sequence[int]]],
    players: Iterable[int],
    sizes: Sequence[int],
    byes: int,
) -> list[str]:
    """What is wrong with ``rounds`` for these players, table sizes and byes (empty: valid)."""
    everyone = set(players)
    wanted = sorted(sizes, reverse=True)
    found: list[str] = []
    for number, rnd in enumerate(rounds, 1):
        seated = [p for table in rnd for p in table]
        if len(seated) != len(set(seated)):
            found.append(f"round {number}: a player sits twice")
        if not set(seated) <= everyone:
            found.append(f"round {number}: unknown players {sorted(set(seated) - everyone)}")
        if len(everyone) - len(set(seated)) != byes:
            found.append(f"round {number}: {len(everyone) - len(set(seated))} sit out, not {byes}")
        got = sorted((len(table) for table in rnd), reverse=True)
        if got != wanted:
            found.append(f"round {number}: tables {got}, not {wanted}")
    return found


@dataclass(frozen=True)
class Case:
    """``players`` at tables of ``sizes`` with ``byes`` sitting out, for ``rounds`` rounds;
    ``known``: the most rounds known without a repeat (None: no claim)."""

    players: int
    sizes: tuple[int, ...]
    byes: int
    rounds: int
    known: int | None

    @property
    def name(self) -> str:
        kinds = sorted(set(self.sizes), reverse=True)
        tables = " ".join(f"{self.sizes.count(k)}x{k}" for k in kinds)
        out = f" {self.byes} out" if self.byes else ""
        return f"{self.players} at {tables}{out}, {self.rounds} rounds"


@dataclass
class Finding:
    case: Case
    seconds: float
    repeats: int
    errors: list[str] = field(default_factory=list)
    stats: Mapping[str, object] = field(default_factory=dict)


def layouts(players: int, table_sizes: Iterable[int]) -> Iterator[tuple[tuple[int, ...], int]]:
    """The round layouts a director gets for ``players``: tables of k with the rest sitting
    out, then (where that leaves someone out) the mixed sizes around k from 3 to 6."""
    seen: set[tuple[tuple[int, ...], int]] = set()
    for k in table_sizes:
        if players >= k:
            fixed = ((k,) * (players // k), players % k)
            if fixed not in seen:
                seen.add(fixed)
                yield fixed
        if 3 <= k <= 6 and players >= 3 and players % k:
            try:
                mixed = (tuple(balanced_sizes(players, k)), 0)
            except SeatingError:
                continue
            if mixed not in seen:
                seen.add(mixed)
                yield mixed


def cases(
    players: Iterable[int], table_sizes: Iterable[int] = (2, 3, 4, 5, 6), beyond: int = 2
) -> Iterator[Case]:
    """Every layout of every field, for rounds 1 to ``beyond`` past the most rounds known
    without a repeat (or past the counting bound where nothing is known)."""
    sizes = tuple(table_sizes)
    for n in players:
        for layout, byes in layouts(n, sizes):
            k = max(layout)
            known = None
            if byes == 0 and min(layout) == k:
                found = known_max_rounds(n, k)
                known = found[0] if found else None
            top = known if known is not None else max_rounds_bound(n - byes, k)
            for rounds in range(1, max(1, top) + beyond + 1):
                yield Case(n, layout, byes, rounds, known)


def check(case: Case, time_limit: float, seed: int = 0) -> Finding:
    """Plan ``case`` and say what is wrong: an invalid plan, a repeat within the known
    maximum, or more than ``time_limit`` (plus ``SLACK``) seconds of the planner's own work.

    The time is the process's CPU time: the planner runs in one thread, so on an idle
    machine it is the time a director waits, and on a busy one (other processes taking the
    cores) it stays what the plan itself costs, where the clock on the wall would count
    the others' work too. Python's cyclic collector runs first: a full collection of what
    earlier work in the process left behind (a long test run's heap) would otherwise land
    in the planner's window."""
    gc.collect()
    started = time.process_time()
    result = plan(
        case.players,
        case.rounds,
        sizes=list(case.sizes),
        byes=case.byes,
        seed=seed,
        time_limit=time_limit,
    )
    seconds = time.process_time() - started
    repeats, _ = evaluate(result.rounds)
    errors = problems(result.rounds, range(case.players), case.sizes, case.byes)
    if case.known is not None and case.rounds <= case.known and repeats:
        errors.append(f"{repeats} repeats where {case.known} rounds are known without one")
    if seconds > time_limit + SLACK:
        errors.append(f"{seconds:.2f} s with a time limit of {time_limit} s")
    return Finding(case, seconds, repeats, errors, result.stats)


@dataclass
class SwissEvent:
    history: list[list[list[int]]]  # the rounds as played
    plans: list[Plan]  # each round's plan
    spreads: list[int]  # each table's highest minus lowest standing rank, as seated


def swiss_event(
    players: int, k: int, rounds: int, time_limit: float, edit: int | None = None
) -> SwissEvent:
    """An event of ``rounds`` rounds seated one at a time by standings, each with the rounds
    still to play as ``lookahead`` (as a tournament seats them). After each round every
    player moves a few places up or down the standings (a seeded draw); with ``edit``, the
    director swaps the first players of the first two tables of that round (0-based)
    before it is played."""
    rng = random.Random(0)
    order = list(range(players))  # best first
    event = SwissEvent([], [], [])
    for played in range(rounds):
        result = next_round(
            players,
            event.history,
            table_size=k,
            method="standings",
            standings=order,
            time_limit=time_limit,
            lookahead=rounds - played,
        )
        event.plans.append(result)
        tables = [list(table) for table in result.rounds[0]]
        if played == edit:
            tables[0][0], tables[1][0] = tables[1][0], tables[0][0]
        rank = {p: i for i, p in enumerate(order)}
        for table in tables:
            ranks = [rank[p] for p in table]
            event.spreads.append(max(ranks) - min(ranks))
        event.history.append(tables)
        order = sorted(order, key=lambda p: rank[p] + rng.uniform(-3 * k, 3 * k))
    return event
