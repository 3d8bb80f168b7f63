"""Seating engine benchmark: repeats, the most meetings of one pair, and time per field.

For each field (players N, table size K or mixed sizes, rounds R) this plans the event with
``tournaments.seating.plan`` (seed 0) and prints the repeated meetings (a pair meeting m > 1
times counts m - 1), the most meetings of one pair, the seconds taken and how the tables
were made. The first rows are fields where no pair need meet twice at the most rounds
possible; the last are club evenings, large fields, byes and mixed tables.

    python bench/seating.py [--time-limit 5] [--only 32/4/10 ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.seating import evaluate, plan  # noqa: E402

# (name, players, table size or sizes, rounds)
FIELDS: list[tuple[str, int, int | list[int], int]] = [
    ("9/3/4", 9, 3, 4),
    ("15/3/7", 15, 3, 7),
    ("18/3/8", 18, 3, 8),
    ("21/3/10", 21, 3, 10),
    ("16/4/5", 16, 4, 5),
    ("24/4/6", 24, 4, 6),
    ("32/4/10", 32, 4, 10),
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=5.0)
    parser.add_argument("--only", nargs="*", help="names of fields to run (e.g. 32/4/10)")
    args = parser.parse_args()
    header = (
        f"{'field':<22} {'N':>4} {'K':>9} {'R':>3} {'repeats':>8} {'max':>4} {'time s':>7}  how"
    )
    print(header)
    print("-" * len(header))
    for name, players, tables, rounds in FIELDS:
        if args.only and name.split(" ")[0] not in args.only:
            continue
        started = time.perf_counter()
        if isinstance(tables, int):
            result = plan(players, rounds, table_size=tables, time_limit=args.time_limit)
            k = str(tables)
        else:
            result = plan(players, rounds, sizes=tables, time_limit=args.time_limit)
            k = f"{min(tables)}-{max(tables)}"
        elapsed = time.perf_counter() - started
        repeats, most = evaluate(result.rounds)
        print(
            f"{name:<22} {players:>4} {k:>9} {rounds:>3} {repeats:>8} {most:>4} "
            f"{elapsed:>7.2f}  {result.source}{' (time limit)' if result.timed_out else ''}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
