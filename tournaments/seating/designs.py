"""Resolvable designs: rounds in which no two players meet twice.

``best_design(v, k)`` returns the known schedule of v players at tables of k with the most
rounds and no pair meeting twice, or None. The constructions, best first when several fit:

* one table (v == k): a single round;
* round robin (k == 2, v even): the circle method, v - 1 rounds;
* resolvable transversal designs TD(k, u) (v == k * u, every prime-power factor of u at
  least k): u rounds over the product of the fields GF(q) dividing u; when k divides u the
  groups (u players each, who never met) then play the best design on u players side by
  side. This gives the affine planes AG(2, q) (9 in threes for 4 rounds, 16 in fours for 5,
  25 in fives for 6, 49 in sevens for 8), the tripling of Kirkman and nearly Kirkman triple
  systems (KTS(27), KTS(45), KTS(63), KTS(81), KTS(99), NKTS(72)), 64 in fours for 21
  rounds, and u rounds of k * u players (20 in fours for 5 rounds, 12 in threes for 4);
* resolvable transversal designs TD(k, u) from an orthogonal array OA(k + 1, u) stored or
  built in ``mols`` (MOLS of order 12, 14, 15; quasi-difference matrices for 18 and 20; a
  V(2, 3) vector for 10; direct products of these and the fields, as OA(4, 30) = OA(4, 10)
  x OA(4, 3)) where the fields alone give none: 60 in fives for 12 rounds, 70 for 14, 75 for
  16, 90 for 18, 100 for 21, 72 in sixes for 13, and the tripling of NKTS(18) and NKTS(30):
  NKTS(54) and NKTS(90);
* Kirkman triple systems KTS(2q + 1) for every prime power q = 1 (mod 6), 1-rotational over
  GF(q) (Ray-Chaudhuri and Wilson): 15, 27, 39, 51, 63, 75, 87, 99 players;
* Kirkman triple systems KTS(3q) for every prime power q = 1 (mod 6), over GF(q) x Z3:
  21, 39, 57, 75, 93 players;
* resolvable (3q + 1, 4, 1) designs for every prime power q = 1 (mod 4), 1-rotational over
  GF(q): 16, 28, 40, 52, 76, 88 players (and 112, 148, ...);
* Kirkman triple systems KTS(2u + 1) by doubling a pairwise balanced design on u points
  whose block sizes s have a KTS(2s + 1) (Ray-Chaudhuri and Wilson 1971), the blocks being
  the tables of a resolvable (u, s, 1) design built above or Brouwer's PBD(34, {4, 7}):
  KTS(33) from the affine plane AG(2, 4) with KTS(9), KTS(69) from the PBD(34, {4, 7})
  with KTS(9) and KTS(15) (and 105, 129, 177, ... players);
* designs developed over a cyclic group (``data.DEVELOPED``), each given by base rounds
  whose translates mod n are the rounds (the classical difference method), for the orders
  no construction above reaches: nearly Kirkman NKTS(v) for v = 18 ... 96 but 54, 72 and 90,
  a resolvable (100, 4, 1) design, resolvable group divisible designs for 24 in fours (7
  rounds), 32 in fours (10 rounds: the social golfer problem 8-4-10), 44 in fours (14
  rounds) and 48 in fours (15 rounds), 30 in fives (6 rounds: the social golfer problem
  6-5-6), and packings below the counting bound for 56, 60, 72, 84 and 96 in fours (16, 17,
  21, 23 and 27 rounds).

``known_max_rounds(v, k)`` is the most rounds with no repeat known for v players at tables
of k (the counting bound where a design reaches it, else the social golfer literature).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from tournaments.seating.data import DEVELOPED, EARLIER
from tournaments.seating.fields import (
    Field,
    factor_fields,
    field,
    field_product,
    powers_and_negatives,
    prime_power,
)
from tournaments.seating.mols import orthogonal_array

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


def _transversal(v: int, k: int, groups: Design | None = None) -> Design | None:
    """A resolvable transversal design TD(k, u) on v = k * u players, then a design on its
    groups. Over the ring R = GF(q1) x ... x GF(qs) (u = q1 * ... * qs, one prime power a
    prime, each qi >= k), round m in R seats at table c the players c + m * a_i of group i,
    where a_i = (i, ..., i): a_i - a_j is a unit, so two players of different groups meet in
    exactly one round (MacNeish's product of transversal designs, 1922; see Colbourn and Dinitz,
    Handbook of Combinatorial Designs, on mutually orthogonal Latin squares). The groups (u players
    each, who never met) then play the best design on u players side by side: with a Kirkman triple
    system KTS(u) this is the tripling KTS(u) -> KTS(3u), with NKTS(u) it gives NKTS(3u).
    ``groups``, when given, is the design the groups play instead (``earlier_designs``)."""
    if v % k:
        return None
    u = v // k
    fields = factor_fields(u, k) if u >= k else None
    if not fields:
        return None
    point = field_product(tuple(fields)).affine

    rounds: list[Round] = []
    for m in range(u):
        rounds.append(tuple(tuple(i * u + point(m, i, c) for i in range(k)) for c in range(u)))
    if len(fields) == 1 and u == k:
        name = f"affine plane AG(2,{u})"
    else:
        name = f"resolvable transversal design TD({k},{u})"
    return _with_groups(v, k, name, rounds, groups)


def _with_groups(
    v: int, k: int, name: str, rounds: list[Round], groups: Design | None = None
) -> Design:
    """A resolvable TD(k, u)'s ``rounds`` (group i: players i * u ... i * u + u - 1), then its
    groups, u players each who never met, playing ``groups`` (by default the best design on u
    players) side by side when k divides u."""
    u = v // k
    inner = groups if groups is not None else (best_design(u, k) if u % k == 0 else None)
    if inner is not None:
        for inner_round in inner.rounds:
            rounds.append(
                tuple(tuple(i * u + y for y in table) for i in range(k) for table in inner_round)
            )
        if u != k:
            name += f" with its groups seated by {inner.name}"
    return Design(v, k, name, tuple(rounds))


def _from_mols(v: int, k: int, groups: Design | None = None) -> Design | None:
    """A resolvable transversal design TD(k, u) on v = k * u players from an orthogonal
    array OA(k + 1, u) stored or built in ``mols``, for the orders where the finite fields
    alone (``_transversal``) give none: 12, 14, 15 from mutually orthogonal Latin squares, 18
    and 20 from quasi-difference matrices, 10 from a V(2, 3) vector, and direct products of
    these with each other and with the fields (30 = 10 x 3, 42 = 14 x 3, 60 = 12 x 5, ...):
    round r seats, at one table for each row of the array
    starting with r, player x_i of group i for the row's next k entries x_1 ... x_k. Any two
    columns hold every pair of symbols once, so two players of different groups meet once,
    and each round seats everyone (column 0 against column i). This is the classical
    equivalence of an OA(k + 1, u) (k - 1 MOLS) with a resolvable TD(k, u) (Colbourn and
    Dinitz, Handbook of Combinatorial Designs, III.3). The groups then play the best design
    on u players side by side (or ``groups``), as in ``_transversal``."""
    if v % k or k < 3:
        return None
    u = v // k
    if factor_fields(u, k):  # the fields give this TD(k, u): ``_transversal``
        return None
    array = orthogonal_array(u)
    if not array or len(array[0]) < k + 1:
        return None
    rounds: list[Round] = []
    for r in range(u):
        rounds.append(
            tuple(tuple(i * u + row[i + 1] for i in range(k)) for row in array if row[0] == r)
        )
    return _with_groups(
        v, k, f"resolvable transversal design TD({k},{u}) from an OA({k + 1},{u})", rounds, groups
    )


def _kirkman_2q_plus_1(v: int, k: int) -> Design | None:
    """A Kirkman triple system KTS(2q + 1) for a prime power q = 6t + 1 (Ray-Chaudhuri and
    Wilson, "Solution of Kirkman's schoolgirl problem", Proc. Symp. Pure Math. 19, 1971, in
    its 1-rotational form; the base round is checked in tests): players are infinity and
    (x, s) for x in GF(q), s in {0, 1}; the base round below is translated by every element
    of GF(q), q rounds. With w primitive, e = w^(2t) a cube root of unity, and
    S = {w^j : j mod 2t >= t} (so -S is the rest of GF(q)*), the base round is

    * {inf, (0, 0), (0, 1)};
    * {(w^i, 0), (e w^i, 0), (e^2 w^i, 0)} for 0 <= i < t: their differences are
      w^i (1 - e) times the sixth roots of unity, a different coset for each i, so every
      difference within column 0 once;
    * {(x, 0), (a x, 1), (-a x, 1)} for x in S, a = (1 + e) / (e - 1): column 1 differences
      2a(S u -S), across the columns (a - 1) S and (-a - 1) S = (a - 1)(-e) S = (a - 1)(-S):
      each non-zero difference once.
    """
    if k != 3 or (gf := _rotational_field(v, k, 6)) is None:
        return None
    q = gf.q
    t = (q - 1) // 6
    power, neg = powers_and_negatives(gf)
    inv = [0] + [next(y for y in range(1, q) if gf.mul[x][y] == 1) for x in range(1, q)]
    e = power[2 * t]
    a = gf.mul[gf.add[1][e]][inv[gf.add[e][neg[1]]]]
    inf = 2 * q
    base: list[tuple[int, int, int]] = [(inf, 0, q)]
    for i in range(t):
        base.append((power[i], power[i + 2 * t], power[i + 4 * t]))
    for j in range(q - 1):
        if j % (2 * t) >= t:
            x = power[j]
            ax = gf.mul[a][x]
            base.append((x, q + ax, q + neg[ax]))
    rounds = _developed_over(gf, inf, base)
    return Design(v, k, f"Kirkman triple system KTS({v}), 1-rotational over GF({q})", rounds)


def _kirkman_3q(v: int, k: int) -> Design | None:
    """A Kirkman triple system KTS(3q) for a prime power q = 6t + 1, over GF(q) x Z3 (a
    direct construction by the difference method, as given on math.stackexchange and
    codegolf.stackexchange.com/q/251041; the existence of KTS(v) for every v = 3 (mod 6):
    Ray-Chaudhuri and Wilson 1971). Players are (x, c) for x in GF(q), c in Z3. With w
    primitive and e = w^(2t) a cube root of unity, let A_i = {(w^i, 0), (e w^i, 1),
    (e^2 w^i, 2)} for 0 <= i < 6t, and call i odd or even by the parity of i // t. The
    base round, translated by every element of GF(q) (q rounds), is

    * {(0, 0), (0, 1), (0, 2)};
    * {(w^i, c), (e w^i, c), (e^2 w^i, c)} for 0 <= i < t and each column c: within a
      column the differences are w^i (1 - e) times the sixth roots of unity, a different
      coset for each i, so every non-zero difference once;
    * A_i for the odd i;

    and each even A_i makes one more round of its q translates (3t rounds). Across columns
    c and c + 1 the A_i give the differences w^i e^c (e - 1), every non-zero element once,
    and the first table the difference 0. 21, 39, 57, 75, 93 players."""
    if k != 3 or v % 3 or (v // 3) % 6 != 1 or prime_power(v // 3) is None:
        return None
    gf = field(v // 3)
    q, t = gf.q, (gf.q - 1) // 6
    power, _ = powers_and_negatives(gf)

    def across(i: int) -> tuple[int, ...]:
        return tuple(c * q + power[(i + 2 * t * c) % (q - 1)] for c in range(3))

    base: list[tuple[int, ...]] = [(0, q, 2 * q)]
    for c in range(3):
        base += [tuple(c * q + power[i + 2 * t * m] for m in range(3)) for i in range(t)]
    base += [across(i) for i in range(q - 1) if (i // t) % 2]
    rounds = list(_developed_over(gf, -1, base))
    for i in range(q - 1):
        if (i // t) % 2 == 0:  # the q translates of A_i, as the tables of one round
            rounds.append(tuple(tables[0] for tables in _developed_over(gf, -1, [across(i)])))
    return Design(v, k, f"Kirkman triple system KTS({v}) over GF({q}) x Z3", tuple(rounds))


def _resolvable_3q_plus_1(v: int, k: int) -> Design | None:
    """A resolvable (3q + 1, 4, 1) design for a prime power q = 4s + 1, 1-rotational over
    GF(q): Bose's difference method with a point at infinity and a base round made of
    cyclotomic cosets (the existence of these designs for every v = 4 (mod 12): Hanani,
    Ray-Chaudhuri and Wilson, "On resolvable designs", Discrete Math. 3, 1972):
    players are infinity and (x, c) for x in GF(q), c in Z3; the base round below is
    translated by every element of GF(q), q = (v - 1) / 3 rounds. With w primitive and
    i = w^s (i^2 = -1), the base round is {inf, (0, 0), (0, 1), (0, 2)} and, for 0 <= j < s
    and each column c, w^j {(1, c), (-1, c), (i, c + 1), (-i, c + 1)}. Column c holds
    w^j {+-1, +-i}: every non-zero element once; its differences are 2 w^j {+-1} (from
    the block starting at c) and 2 w^j {+-i} (from the one starting at c - 1): each once;
    across columns c, c + 1 the differences are w^j (1 + i){+-1, +-i}: each once."""
    if k != 4 or (gf := _rotational_field(v, k, 4)) is None:
        return None
    q = gf.q
    s = (q - 1) // 4
    power, neg = powers_and_negatives(gf)
    i = power[s]
    inf = 3 * q
    base: list[tuple[int, ...]] = [(inf, 0, q, 2 * q)]
    for j in range(s):
        w = power[j]
        wi = gf.mul[w][i]
        for c in range(3):
            d = (c + 1) % 3
            base.append((c * q + w, c * q + neg[w], d * q + wi, d * q + neg[wi]))
    rounds = _developed_over(gf, inf, base)
    return Design(v, k, f"resolvable ({v},4,1) design, 1-rotational over GF({q})", rounds)


def _kirkman_doubling(v: int, k: int) -> Design | None:
    """A Kirkman triple system KTS(2u + 1) from a pairwise balanced design PBD(u, K) and a
    KTS(2s + 1) for each block size s in K (Ray-Chaudhuri and Wilson, "Solution of Kirkman's
    schoolgirl problem", Proc. Symp. Pure Math. 19, 1971; D. R. Stinson, "A survey of Kirkman
    triple systems and related designs", Discrete Math. 92, 1991; Beth, Jungnickel and Lenz,
    Design Theory, 2nd ed., 1999, IX.6). The PBDs used are in ``_pairwise_balanced``: the
    affine plane AG(2, 4) gives KTS(33), Brouwer's PBD(34, {4, 7}) KTS(69), AG(2, 7)
    KTS(99), the resolvable (28, 4, 1) and (40, 4, 1) designs KTS(57) and KTS(81). See
    ``_doubled``."""
    if k != 3 or v % 6 != 3:
        return None
    u = (v - 1) // 2
    for name, blocks in _pairwise_balanced(u):
        rounds = _doubled(u, blocks)
        if rounds is not None:
            systems = " and ".join(f"KTS({2 * s + 1})" for s in sorted({len(b) for b in blocks}))
            return Design(
                v,
                k,
                f"Kirkman triple system KTS({v}) by doubling the {name} with {systems}",
                rounds,
            )
    return None


def _pairwise_balanced(u: int) -> Iterator[tuple[str, list[tuple[int, ...]]]]:
    """Pairwise balanced designs on u points (every pair in exactly one block) whose block
    sizes s are 1 (mod 3), at least 4, for ``_kirkman_doubling``: the tables of a design
    built on u players at tables of s in which every pair meets once (a resolvable (u, s, 1)
    design: affine planes, the 1-rotational (3q + 1, 4, 1) designs, ...), then the direct
    PBD(34, {4, 7}) of A. E. Brouwer (``_brouwer_pbd_34``)."""
    for s in range(4, u, 3):
        if u % s or s * s > u:  # a resolvable (u, s, 1) design has u >= s^2 (Bose)
            continue
        design = best_design(u, s)
        if design is None or (u - 1) % (s - 1) or len(design.rounds) != (u - 1) // (s - 1):
            continue
        yield f"{design.name} (a PBD({u},{{{s}}}))", [t for rnd in design.rounds for t in rnd]
    if u == 34:
        yield "PBD(34,{4,7}) of Brouwer", _brouwer_pbd_34()


def _brouwer_pbd_34() -> list[tuple[int, ...]]:
    """A PBD(34, {4, 7}), due to A. E. Brouwer, as given in Beth, Jungnickel and Lenz,
    Design Theory, 2nd ed., Cambridge University Press 1999, vol. 1, IX.4.5 (p. 527): the
    points are (x, y) = 9y + x for x in Z9, y in Z3, and 27 ... 33; for i in Z9 and j in Z3
    the blocks {(i, j), (i + 1, j + 1), (i + 2, j), (i + 4, j + 1)}, {(i, i + j),
    (i + 1, i + j), (i + 4, i + j + 2), 27 + j} and {(i + j, 2i + j), (i + j + 2, 2i + j + 2),
    (i + j + 5, 2i + j), 30 + j}, for i in Z9 the blocks {(i, i), (i, i + 1), (i, i + 2),
    33}, and {27, ..., 33}: 90 blocks of 4 and one of 7, every pair once (tests/seating
    checks it)."""

    def point(x: int, y: int) -> int:
        return 9 * (y % 3) + x % 9

    blocks: list[tuple[int, ...]] = []
    for i in range(9):
        for j in range(3):
            blocks.append((point(i, j), point(i + 1, j + 1), point(i + 2, j), point(i + 4, j + 1)))
            blocks.append((point(i, i + j), point(i + 1, i + j), point(i + 4, i + j + 2), 27 + j))
            y = 2 * i + j
            blocks.append((point(i + j, y), point(i + j + 2, y + 2), point(i + j + 5, y), 30 + j))
        blocks.append((point(i, i), point(i, i + 1), point(i, i + 2), 33))
    blocks.append(tuple(range(27, 34)))
    return blocks


def _doubled(u: int, blocks: Sequence[tuple[int, ...]]) -> tuple[Round, ...] | None:
    """The u rounds of a KTS(2u + 1) from the ``blocks`` of a PBD on players 0 ... u - 1
    (every pair in exactly one block), or None when a block's size s has no KTS(2s + 1).
    Players are infinity (2u) and (x, i) = 2x + i for x < u, i in {0, 1}. On a block B of
    size s, a KTS(2s + 1) with its last point as infinity: its s triples through infinity
    pair the other 2s points, and each of its s rounds holds exactly one of them; the
    pair of the c-th round becomes (B[c], 0), (B[c], 1). Round x of the big system is
    {inf, (x, 0), (x, 1)} and, for every block B through x, the other triples of the
    round of B's system that belongs to x. It seats everyone once: (y, i) for y != x in
    the one block through x and y, (x, i) at the first table. A pair (y, i), (z, j) with
    y != z meets in the system of the one block through y and z, once; (y, 0), (y, 1)
    only at the first table of round y."""
    inf = 2 * u
    rounds: list[list[tuple[int, ...]]] = [[(2 * x, 2 * x + 1, inf)] for x in range(u)]
    for block in blocks:
        s = len(block)
        small = best_design(2 * s + 1, 3)
        if small is None or len(small.rounds) != s:
            return None
        label = [inf] * (2 * s + 1)
        for x, rnd in zip(block, small.rounds, strict=True):
            first = next(table for table in rnd if 2 * s in table)
            a, b = sorted(p for p in first if p != 2 * s)
            label[a], label[b] = 2 * x, 2 * x + 1
        for x, rnd in zip(block, small.rounds, strict=True):
            rounds[x] += [tuple(label[p] for p in table) for table in rnd if 2 * s not in table]
    return tuple(tuple(rnd) for rnd in rounds)


def _rotational_field(v: int, k: int, modulus: int) -> Field | None:
    """GF(q) for a 1-rotational design of v = (k - 1) q + 1 players at tables of k (the
    point at infinity and k - 1 copies of GF(q)), when q is a prime power and q = 1 (mod
    ``modulus``); None otherwise."""
    if (v - 1) % (k - 1):
        return None
    q = (v - 1) // (k - 1)
    if q % modulus != 1 or prime_power(q) is None:
        return None
    return field(q)


def _developed_over(gf: Field, inf: int, base: Sequence[tuple[int, ...]]) -> tuple[Round, ...]:
    """The rounds of a 1-rotational design: the base round translated by every g in
    GF(q), player (column, x) = column * q + x moved to (column, x + g), ``inf`` fixed."""
    q = gf.q

    def shift(point: int, g: int) -> int:
        if point == inf:
            return point
        column, x = divmod(point, q)
        return column * q + gf.add[x][g]

    return tuple(tuple(tuple(shift(p, g) for p in block) for block in base) for g in range(q))


def _developed(
    v: int, k: int, stored: dict[tuple[int, int], tuple[int, int, str, str]] = DEVELOPED
) -> Design | None:
    entry = stored.get((v, k))
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
def _built(v: int, k: int) -> tuple[Design, ...]:
    """Every design the constructions give for v players at tables of k (k divides v)."""
    candidates: list[Design] = []
    if k == 2:
        candidates.append(Design(v, k, "round robin (circle method)", _round_robin(v)))
    constructions = (
        _transversal,
        _kirkman_2q_plus_1,
        _kirkman_3q,
        _resolvable_3q_plus_1,
        _kirkman_doubling,
        _from_mols,
        _developed,  # stored: last, so that a construction with as many rounds wins
    )
    for build in constructions:
        design = build(v, k)
        if design is not None:
            candidates.append(design)
    return tuple(candidates)


@lru_cache(maxsize=256)
def best_design(v: int, k: int) -> Design | None:
    """The known zero-repeat schedule of v players at tables of k with the most rounds."""
    if k < 2 or v < k or v % k:
        return None
    if v == k:
        return Design(v, k, "a single table", ((tuple(range(v)),),))
    candidates = _built(v, k)
    if not candidates:  # one round of any tables
        return Design(v, k, "one round", (tuple(tuple(range(t, t + k)) for t in range(0, v, k)),))
    return _named(max(candidates, key=lambda design: len(design.rounds)))


def _named(design: Design) -> Design:
    """The design, named a (nearly) Kirkman triple system when it is one."""
    v, k, name, rounds = design.v, design.k, design.name, design.rounds
    if k == 3 and v % 6 == 3 and len(rounds) == (v - 1) // 2 and f"KTS({v})" not in name:
        return Design(v, k, f"Kirkman triple system KTS({v}) from {name}", rounds)
    if k == 3 and v % 6 == 0 and len(rounds) == (v - 2) // 2 and f"NKTS({v})" not in name:
        return Design(v, k, f"nearly Kirkman triple system NKTS({v}) from {name}", rounds)
    return design


@lru_cache(maxsize=16)
def earlier_designs(v: int, k: int) -> tuple[Design, ...]:
    """Designs the engine may have seated v players at tables of k from before
    ``best_design`` gave another, so that a tournament seated round by round from one goes
    on with it: the stored designs a construction replaced and the transversal designs whose
    groups played one of them (``_replaced``), then the designs still built for v and k that
    a new construction outdid (TD(3, 35) for 105 players before KTS(105))."""
    best = best_design(v, k)
    if best is None:
        return ()
    return _replaced(v, k) + tuple(d for d in _built(v, k) if d.rounds != best.rounds)


@lru_cache(maxsize=16)
def _replaced(v: int, k: int) -> tuple[Design, ...]:
    """The design stored in ``data.EARLIER`` for v and k, if any, and the transversal
    designs on v players whose groups played a replaced design (KTS(99) from TD(3, 33) and
    the stored KTS(33), KTS(63) from TD(3, 21) and the stored KTS(21))."""
    stored = _developed(v, k, EARLIER)
    designs = [] if stored is None else [stored]
    if k >= 2 and v % k == 0 and v // k > k:
        for groups in _replaced(v // k, k):
            for build in (_transversal, _from_mols):
                design = build(v, k, groups)
                if design is not None:
                    designs.append(_named(design))
    return tuple(designs)


def max_rounds_bound(v: int, k: int) -> int:
    """Counting bound: a player meets k - 1 new players a round, so at most (v-1)//(k-1)."""
    return (v - 1) // (k - 1)


# The social golfer problem where no design reaches the counting bound (OEIS A107431, from
# W. Harvey's results page for the social golfer problem): players, table size -> rounds.
_SOCIAL_GOLFER = {
    (12, 3): 4,  # 4-3-4: no nearly Kirkman NKTS(12) (Kotzig and Rosa 1974)
    (20, 4): 5,  # 5-4-5: TD(4, 5); 6 rounds would need a resolvable 4-GDD of type 2^10
    (30, 5): 6,  # 6-5-6 (stored in data.DEVELOPED)
    (36, 6): 3,  # 6-6-3: 4 rounds would be 2 orthogonal Latin squares of order 6
}


def known_max_rounds(v: int, k: int) -> tuple[int, str] | None:
    """The most rounds known with no repeat for v players at tables of k (k divides v),
    and where that comes from; None when the literature gives no value we rely on. For
    tables of 4 to 6 where no design reaching the counting bound is built, the rounds of
    the design built (a resolvable transversal design), the source naming the counting bound
    (the social golfer problem there is open or beyond this package, e.g. 35 in fives: 7 or
    8 rounds, OEIS A107431).

    The counting bound (v - 1) // (k - 1) is reached by Kirkman triple systems for every
    v = 3 (mod 6) (Ray-Chaudhuri and Wilson 1971), nearly Kirkman triple systems for every
    v = 0 (mod 6), v >= 18 (Baker and Wilson 1977), resolvable (v, 4, 1) designs for every
    v = 4 (mod 12) (Hanani, Ray-Chaudhuri and Wilson 1972), round robins, and any design
    ``best_design`` builds; with fewer than k tables a second round cannot avoid a repeat
    (a table of k holds two players from one table of the first round)."""
    if k < 2 or v < k or v % k:
        return None
    bound = max_rounds_bound(v, k)
    if v // k < k:
        return 1, "fewer tables than seats at a table: one round"
    if k == 2:
        return v - 1, "round robin"
    if k == 3 and v % 6 == 3:
        return bound, "Kirkman triple system (Ray-Chaudhuri and Wilson 1971)"
    if k == 3 and v % 6 == 0 and v >= 18:
        return bound, "nearly Kirkman triple system (Baker and Wilson 1977)"
    if k == 4 and v % 12 == 4:
        return bound, "resolvable (v,4,1) design (Hanani, Ray-Chaudhuri and Wilson 1972)"
    if (v, k) in _SOCIAL_GOLFER:
        return _SOCIAL_GOLFER[(v, k)], "social golfer problem (OEIS A107431)"
    design = best_design(v, k)
    if design is not None and len(design.rounds) == bound:
        return bound, design.name
    if design is not None and len(design.rounds) > 1 and k >= 4:
        # below the counting bound: what the construction gives (more may be known, e.g. 35
        # in fives: 7 or 8, OEIS A107431)
        return len(design.rounds), f"{design.name}; the counting bound is {bound}"
    return None
