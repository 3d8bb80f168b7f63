"""Checks shared by the seating tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

Rounds = Sequence[Sequence[Sequence[int]]]


def assert_valid(
    rounds: Rounds, players: Sequence[int], sizes: Sequence[int], byes: int = 0
) -> None:
    """Every round seats each player at most once, the rest sit out, tables as asked."""
    everyone = set(players)
    for number, rnd in enumerate(rounds, 1):
        seated = [p for table in rnd for p in table]
        assert len(seated) == len(set(seated)), f"round {number}: someone sits twice"
        assert set(seated) <= everyone, f"round {number}: unknown players"
        assert len(everyone) - len(seated) == byes, f"round {number}: wrong number of byes"
        assert sorted((len(t) for t in rnd), reverse=True) == sorted(sizes, reverse=True), (
            f"round {number}: table sizes {[len(t) for t in rnd]}"
        )


def pair_counts(rounds: Rounds) -> Counter[tuple[int, int]]:
    counts: Counter[tuple[int, int]] = Counter()
    for rnd in rounds:
        for table in rnd:
            ordered = sorted(table)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1 :]:
                    counts[(a, b)] += 1
    return counts


def repeats(rounds: Rounds) -> int:
    return sum(m - 1 for m in pair_counts(rounds).values() if m > 1)
