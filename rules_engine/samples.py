"""Helpers for made-up deal records (:meth:`rules_engine.core.Game.sample_deal`): demo
data and benchmarks that read like real play. Seeded by the caller's ``random.Random``, so
the same seed makes the same deals."""

from __future__ import annotations

import random

SUITS = ("S", "H", "D", "C")


def near_even(rng: random.Random, tricks: int, seats: int) -> list[int]:
    """An even share of ``tricks``, then a few tricks moved from one seat to another."""
    won = [tricks // seats + (1 if seat < tricks % seats else 0) for seat in range(seats)]
    rng.shuffle(won)
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3))):
        giver = rng.choice([seat for seat in range(seats) if won[seat] > 0])
        won[giver] -= 1
        won[rng.choice([seat for seat in range(seats) if seat != giver])] += 1
    return won
