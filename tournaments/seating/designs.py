"""Resolvable designs: rounds in which no two players meet twice.

``best_design(v, k)`` returns the known schedule of v players at tables of k with the most
rounds and no pair meeting twice, or None. The constructions, best first when several fit:

* one table (v == k): a single round;
* round robin (k == 2, v even): the circle method, v - 1 rounds;
* resolvable transversal designs (v == k * q, q a prime power >= k): q rounds in which
  table (m, c) seats player y of group i when y == m * a_i + c over GF(q); when k divides q
  the groups (q players each, who never met) then play the best design on q players side by
  side. This gives the affine planes AG(2, q) (v = q * q, k = q: q + 1 rounds, e.g. 9 in
  threes for 4 rounds, 16 in fours for 5, 25 in fives for 6), Kirkman triple systems on 3**n
  players (27 in threes for 13 rounds, 81 for 40), 64 in fours for 21 rounds, and q rounds of
  k * q players for any prime power q >= k (20 in fours for 5 rounds, 12 in threes for 4);
* designs developed over a cyclic group (``data.DEVELOPED``), each given by one or two base
  rounds whose translates mod n are the rounds (the classical difference-family method):
  Kirkman triple systems KTS(15), KTS(21), KTS(39), KTS(45) and nearly Kirkman NKTS(18),
  (24), (30), (36), (42); resolvable (v, 4, 1) designs on 28, 40, 52 and 100 players; and
  resolvable group divisible designs for 24 in fours (6 rounds), 32 in fours (10 rounds:
  the social golfer problem 8-4-10), 44 in fours (14 rounds) and 48 in fours (15 rounds).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from tournaments.seating.data import DEVELOPED
from tournaments.seating.fields import field, prime_power

Round = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Design:
    """``rounds`` of ``v`` players (0..v-1) at tables of ``k``; no pair meets twice."""

    v: int
    k: int
    name: str
    rounds: tuple[Round, ...]


def _round_robin(v: int) -> tuple[Round, ...]:
    last = v - 1
    rounds = []
    for r in range(last):
        tables = [(last, r)]
        for i in range(1, v // 2):
            tables.append(((r + i) % last, (r - i) % last))
        rounds.append(tuple(tables))
    return tuple(rounds)


def _transversal(v: int, k: int) -> Design | None:
    if v % k:
        return None
    q = v // k
    if q < k or prime_power(q) is None:
        return None
    gf = field(q)
    rounds: list[Round] = []
    for m in range(q):
        shifts = [gf.mul[m][i] for i in range(k)]  # group i uses the field element i
        rounds.append(
            tuple(tuple(i * q + gf.add[shifts[i]][c] for i in range(k)) for c in range(q))
        )
    name = f"affine plane AG(2,{q})" if q == k else f"resolvable transversal design TD({k},{q})"
    inner = best_design(q, k) if q % k == 0 else None
    if inner is not None:
        for inner_round in inner.rounds:
            rounds.append(
                tuple(tuple(i * q + y for y in table) for i in range(k) for table in inner_round)
            )
        if q != k:
            name += f" with its groups seated by {inner.name}"
    return Design(v, k, name, tuple(rounds))


def _developed(v: int, k: int) -> Design | None:
    entry = DEVELOPED.get((v, k))
    if entry is None:
        return None
    n, columns, name, text = entry
    finite = n * columns

    def shift(point: int, j: int) -> int:
        if point >= finite:
            return point
        column, x = divmod(point, n)
        return column * n + (x + j) % n

    rounds: list[Round] = []
    for part in text.split("/"):
        kind, _, body = part.strip().partition(":")
        blocks = [tuple(int(p) for p in block.split(".")) for block in body.split()]
        if kind == "base":  # a base round: its n translates are n rounds
            for j in range(n):
                rounds.append(tuple(tuple(shift(p, j) for p in block) for block in blocks))
        else:  # "fixed": one round made of the distinct translates of these blocks
            tables: list[tuple[int, ...]] = []
            seen: set[frozenset[int]] = set()
            for block in blocks:
                for j in range(n):
                    table = tuple(shift(p, j) for p in block)
                    if frozenset(table) not in seen:
                        seen.add(frozenset(table))
                        tables.append(table)
            rounds.append(tuple(tables))
    return Design(v, k, name, tuple(rounds))


@lru_cache(maxsize=256)
def best_design(v: int, k: int) -> Design | None:
    """The known zero-repeat schedule of v players at tables of k with the most rounds."""
    if k < 2 or v < k or v % k:
        return None
    if v == k:
        return Design(v, k, "a single table", ((tuple(range(v)),),))
    candidates: list[Design] = []
    if k == 2:
        candidates.append(Design(v, k, "round robin (circle method)", _round_robin(v)))
    for build in (_transversal, _developed):
        design = build(v, k)
        if design is not None:
            candidates.append(design)
    if not candidates:  # one round of any tables
        return Design(v, k, "one round", (tuple(tuple(range(t, t + k)) for t in range(0, v, k)),))
    best = max(candidates, key=lambda design: len(design.rounds))
    if k == 3 and v % 6 == 3 and len(best.rounds) == (v - 1) // 2 and f"KTS({v})" not in best.name:
        best = Design(v, k, f"Kirkman triple system KTS({v}) from {best.name}", best.rounds)
    return best


def max_rounds_bound(v: int, k: int) -> int:
    """Counting bound: a player meets k - 1 new players a round, so at most (v-1)//(k-1)."""
    return (v - 1) // (k - 1)
