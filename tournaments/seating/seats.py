"""Seat order: who sits where at each table, balanced over the event.

The order of a table's list is its seat order and the first listed deals first. Table by
table, round by round, seats are assigned to minimise the sum of squares of each player's
count in each seat, with the first dealer's seat weighted ``DEALER`` times: an assignment
problem, solved exactly (Hungarian method) for each table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

DEALER = 4


def assignment(cost: Sequence[Sequence[int]]) -> list[int]:
    """Minimum-cost perfect assignment of rows to columns of a square matrix:
    ``result[row] = column`` (Hungarian method with potentials, O(n**3))."""
    size = len(cost)
    inf = float("inf")
    u = [0.0] * (size + 1)
    v = [0.0] * (size + 1)
    match = [0] * (size + 1)  # match[column] = row, 1-based, 0 = free
    way = [0] * (size + 1)
    for row in range(1, size + 1):
        match[0] = row
        column = 0
        least = [inf] * (size + 1)
        used = [False] * (size + 1)
        while True:
            used[column] = True
            r = match[column]
            delta = inf
            nxt = 0
            for c in range(1, size + 1):
                if not used[c]:
                    reduced = cost[r - 1][c - 1] - u[r] - v[c]
                    if reduced < least[c]:
                        least[c] = reduced
                        way[c] = column
                    if least[c] < delta:
                        delta = least[c]
                        nxt = c
            for c in range(size + 1):
                if used[c]:
                    u[match[c]] += delta
                    v[c] -= delta
                else:
                    least[c] -= delta
            column = nxt
            if match[column] == 0:
                break
        while column:
            previous = way[column]
            match[column] = match[previous]
            column = previous
    result = [0] * size
    for c in range(1, size + 1):
        result[match[c] - 1] = c - 1
    return result


def seat_counts(rounds: Sequence[Sequence[Sequence[int]]]) -> dict[int, list[int]]:
    """How often each player sat in each seat (0 = first dealer) in these rounds."""
    counts: dict[int, list[int]] = {}
    for rnd in rounds:
        for table in rnd:
            for seat, player in enumerate(table):
                row = counts.setdefault(player, [])
                if len(row) <= seat:
                    row.extend([0] * (seat + 1 - len(row)))
                row[seat] += 1
    return counts


def order_seats(
    rounds: Sequence[Sequence[Sequence[int]]],
    history: Sequence[Sequence[Sequence[int]]],
    rng: random.Random,
) -> list[list[list[int]]]:
    """The same tables with their players in a balanced seat order."""
    counts = seat_counts(history)
    out: list[list[list[int]]] = []
    for rnd in rounds:
        seated_round: list[list[int]] = []
        for table in rnd:
            players = list(table)
            rng.shuffle(players)  # ties go to a random player
            size = len(players)
            rows = []
            for player in players:
                row = counts.setdefault(player, [])
                if len(row) < size:
                    row.extend([0] * (size - len(row)))
                rows.append(
                    [(2 * row[seat] + 1) * (DEALER if seat == 0 else 1) for seat in range(size)]
                )
            seats = assignment(rows)
            ordered = [0] * size
            for player, seat in zip(players, seats, strict=True):
                ordered[seat] = player
                counts[player][seat] += 1
            seated_round.append(ordered)
        out.append(seated_round)
    return out
