"""Seating engine benchmark: rounds without a repeat against the known maximum, club
fields, and tables by standings.

Three parts (``--part``, all by default):

* ``designs``: for every field of v players at tables of k with v = 0 or 3 (mod 6) from 9 to
  99 in threes, 16 to 100 in fours, 25 to 100 in fives and 36 to 96 in sixes, the counting
  bound, the most rounds known with no pair meeting twice (``known_max_rounds``: the
  design and social golfer literature, "-" where it gives none: the engine then aims at
  the counting bound), the rounds the engine reached with zero repeats (it plans the known
  maximum; if that repeats a pair, the rounds of that plan that can be kept without a
  repeat, then plans one more round at a time while that has no repeat), the seconds
  taken and how the tables were made;
* ``fields``: club evenings, large fields, byes and mixed tables: the repeated meetings (a
  pair meeting m > 1 times counts m - 1), the most meetings of one pair, the seconds;
* ``standings``: Swiss rounds by standings (standings reshuffled a little after each round,
  each round planned with the rounds still to play, as a tournament seats them):
  the average spread of standing ranks at a table (highest minus lowest rank) against the
  ideal (tables of consecutive ranks, k - 1, which repeat-free tables cannot keep after the
  first rounds) and a random draw, and the repeats;
* ``sweep`` (not run by default): every field of 4 to 100 players at tables of 2 to 6 (the
  rest sitting out) and at the mixed sizes of prediction whist, for 1 to two rounds beyond
  the known maximum (``tournaments.seating.verify``): each plan must be valid, within its
  time limit, and without a repeat wherever ``known_max_rounds`` says none is needed; then
  300 players at every table size for 10 rounds, each under 10 s. ``--every N`` checks
  every N-th request only.

    python bench/seating.py [--part designs|fields|standings|sweep] [--time-limit 5]
                            [--only 32/4 57/3 ...] [--every 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.seating import evaluate, plan  # noqa: E402
from tournaments.seating.designs import known_max_rounds  # noqa: E402
from tournaments.seating.verify import cases, check, swiss_event  # noqa: E402

DESIGN_FIELDS: list[tuple[int, int]] = sorted(
    {(v, 3) for v in range(9, 100, 3)}
    | {(v, 4) for v in range(16, 101, 4)}
    | {(v, 5) for v in range(25, 101, 5)}
    | {(v, 6) for v in range(36, 97, 6)},
    key=lambda field: (field[1], field[0]),
)

# (name, players, table size or sizes, rounds)
FIELDS: list[tuple[str, int, int | list[int], int]] = [
    ("30/3/5", 30, 3, 5),
    ("30/4/5", 30, 4, 5),
    ("60/4/8", 60, 4, 8),
    ("100/3/10", 100, 3, 10),
    ("300/4/10", 300, 4, 10),
    ("300/3/10", 300, 3, 10),
    ("31/3/6 (1 bye)", 31, 3, 6),
    ("26 in 5,5,4,4,4,4 x5", 26, [5, 5, 4, 4, 4, 4], 5),
    ("26 in 5,5,4,4,4,4 x6", 26, [5, 5, 4, 4, 4, 4], 6),
    ("12/3/5 (max 4)", 12, 3, 5),
    ("9/3/6 (max 4)", 9, 3, 6),
    ("11/2/11 (1 bye)", 11, 2, 11),
]

# (name, players, table size, rounds) seated by standings
STANDINGS: list[tuple[str, int, int, int]] = [
    ("24/4/6", 24, 4, 6),
    ("32/4/7", 32, 4, 7),
    ("36/3/8", 36, 3, 8),
    ("60/4/8", 60, 4, 8),
]


def _clean_rounds(rounds: list[list[list[int]]]) -> int:
    """How many of the rounds can be kept with no pair meeting twice: a round is kept when
    none of its pairs met in a round kept before it (a greedy, order-dependent count)."""
    seen: set[tuple[int, int]] = set()
    kept = 0
    for rnd in rounds:
        pairs = set()
        for table in rnd:
            ordered = sorted(table)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1 :]:
                    pairs.add((a, b))
        if not pairs & seen:
            seen |= pairs
            kept += 1
    return kept


def designs(only: list[str] | None, time_limit: float) -> tuple[int, int]:
    header = (
        f"{'field':<7} {'N':>4} {'K':>2} {'bound':>5} {'known':>5} {'reached':>7} {'time s':>7}"
    )
    header += "  how"
    print(header)
    print("-" * len(header))
    hit = total = 0
    for v, k in DESIGN_FIELDS:
        name = f"{v}/{k}"
        if only and name not in only:
            continue
        known = known_max_rounds(v, k)
        bound = (v - 1) // (k - 1)
        target = known[0] if known else bound
        started = time.perf_counter()
        result = plan(v, target, table_size=k, time_limit=time_limit)
        reached = _clean_rounds(result.rounds)
        how = result.source
        while reached < target:  # one more round at a time
            attempt = plan(v, reached + 1, table_size=k, time_limit=time_limit)
            if attempt.repeats:
                break
            reached += 1
            how = attempt.source
        elapsed = time.perf_counter() - started
        total += 1
        hit += reached >= target
        mark = "" if reached >= target else "  <"
        said = str(known[0]) if known else "-"
        print(
            f"{name:<7} {v:>4} {k:>2} {bound:>5} {said:>5} {reached:>7} {elapsed:>7.2f}  "
            f"{how}{mark}",
            flush=True,
        )
    print(f"known maximum (or the counting bound where none is known) reached for {hit} of {total}")
    return hit, total


def fields(only: list[str] | None, time_limit: float) -> None:
    header = (
        f"{'field':<22} {'N':>4} {'K':>9} {'R':>3} {'repeats':>8} {'max':>4} {'time s':>7}  how"
    )
    print(header)
    print("-" * len(header))
    for name, players, tables, rounds in FIELDS:
        if only and name.split(" ")[0] not in only:
            continue
        started = time.perf_counter()
        if isinstance(tables, int):
            result = plan(players, rounds, table_size=tables, time_limit=time_limit)
            k = str(tables)
        else:
            result = plan(players, rounds, sizes=tables, time_limit=time_limit)
            k = f"{min(tables)}-{max(tables)}"
        elapsed = time.perf_counter() - started
        repeats, most = evaluate(result.rounds)
        print(
            f"{name:<22} {players:>4} {k:>9} {rounds:>3} {repeats:>8} {most:>4} "
            f"{elapsed:>7.2f}  {result.source}{' (time limit)' if result.timed_out else ''}",
            flush=True,
        )


def standings(only: list[str] | None, time_limit: float) -> None:
    header = f"{'field':<8} {'spread':>7} {'ideal':>6} {'random':>7} {'repeats':>8} {'time s':>7}"
    print(header)
    print("-" * len(header))
    for name, players, k, rounds in STANDINGS:
        if only and name not in only:
            continue
        started = time.perf_counter()
        event = swiss_event(players, k, rounds, time_limit)
        elapsed = time.perf_counter() - started
        repeats, _ = evaluate(event.history)
        average = sum(event.spreads) / len(event.spreads)
        drawn = _random_spread(players, k, random.Random(1))
        print(
            f"{name:<8} {average:>7.2f} {k - 1:>6} {drawn:>7.2f} {repeats:>8} {elapsed:>7.2f}",
            flush=True,
        )


def _random_spread(players: int, k: int, rng: random.Random, draws: int = 500) -> float:
    """The average spread of standing ranks at a table of a random draw: the other end of
    the scale from the ideal."""
    total = count = 0
    for _ in range(draws):
        order = list(range(players))
        rng.shuffle(order)
        for at in range(0, players - k + 1, k):
            table = order[at : at + k]
            total += max(table) - min(table)
            count += 1
    return total / count


def sweep(time_limit: float, every: int) -> int:
    """Every request of ``verify.cases`` (every ``every``-th), then 300 players; prints the
    failures and a summary, returns how many failed."""
    failures = checked = 0
    slowest = 0.0
    started = time.perf_counter()
    for index, case in enumerate(cases(range(4, 101))):
        if index % every:
            continue
        finding = check(case, time_limit)
        checked += 1
        slowest = max(slowest, finding.seconds)
        if finding.errors:
            failures += 1
            print(f"{case.name:<28} {finding.seconds:>6.2f} s  {'; '.join(finding.errors)}")
    print(
        f"{checked} requests (4 to 100 players, tables of 2 to 6 and mixed, time limit "
        f"{time_limit:g} s): {failures} failed, slowest {slowest:.2f} s, "
        f"{time.perf_counter() - started:.0f} s in all",
        flush=True,
    )
    for k in (2, 3, 4, 5, 6):
        took = time.perf_counter()
        result = plan(300, 10, table_size=k)
        seconds = time.perf_counter() - took
        repeats, _ = evaluate(result.rounds)
        late = seconds >= 10
        failures += late
        over = "  > 10 s" if late else ""
        print(f"300 at tables of {k} x10: {repeats} repeats, {seconds:.2f} s{over}")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=5.0)
    parser.add_argument(
        "--part", choices=["designs", "fields", "standings", "sweep"], action="append"
    )
    parser.add_argument("--every", type=int, default=1, help="sweep: every N-th request")
    parser.add_argument("--only", nargs="*", help="fields to run (e.g. 57/3 32/4/10)")
    args = parser.parse_args()
    parts = args.part or ["designs", "fields", "standings"]
    if "designs" in parts:
        designs(args.only, args.time_limit)
    if "fields" in parts:
        print()
        fields(args.only, args.time_limit)
    if "standings" in parts:
        print()
        standings(args.only, args.time_limit)
    if "sweep" in parts:
        return 1 if sweep(args.time_limit, max(1, args.every)) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
