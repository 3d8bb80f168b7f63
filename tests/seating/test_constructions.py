"""Each construction: every round a partition of the players into tables of k, no pair
meeting twice, and as many rounds as the design literature allows."""

import time
from itertools import combinations

import pytest

from tests.seating.helpers import assert_valid, pair_counts, repeats
from tournaments.seating import plan
from tournaments.seating.designs import (
    _brouwer_pbd_34,
    _from_mols,
    _kirkman_2q_plus_1,
    _kirkman_3q,
    _kirkman_doubling,
    _resolvable_3q_plus_1,
    _transversal,
    best_design,
    known_max_rounds,
)


def assert_design(rounds, v, k, expected):
    assert len(rounds) == expected
    assert_valid(rounds, range(v), [k] * (v // k))
    for rnd in rounds:  # a partition of all the players
        assert sorted(p for table in rnd for p in table) == list(range(v))
    assert max(pair_counts(rounds).values()) == 1


KIRKMAN_Q = [7, 13, 19, 25, 31, 37, 43, 49]


@pytest.mark.parametrize(
    ("build", "v"),
    [(_kirkman_2q_plus_1, 2 * q + 1) for q in KIRKMAN_Q]
    + [(_kirkman_3q, 3 * q) for q in KIRKMAN_Q],
)
def test_kirkman_triple_systems_over_gf_q(build, v):
    design = build(v, 3)
    assert design is not None
    assert_design(design.rounds, v, 3, (v - 1) // 2)
    assert len(pair_counts(design.rounds)) == v * (v - 1) // 2  # everyone meets everyone


def test_kirkman_2q_plus_1_needs_q_1_mod_6_prime_power():
    assert _kirkman_2q_plus_1(23, 3) is None  # q = 11 = 5 (mod 6)
    assert _kirkman_2q_plus_1(43, 3) is None  # q = 21, not a prime power
    assert _kirkman_2q_plus_1(15, 4) is None


def test_kirkman_3q_needs_q_1_mod_6_prime_power():
    assert _kirkman_3q(33, 3) is None  # q = 11 = 5 (mod 6)
    assert _kirkman_3q(3 * 55, 3) is None  # q = 55, not a prime power
    assert _kirkman_3q(21, 7) is None


@pytest.mark.parametrize(
    ("v", "how"),
    [
        (21, "over GF(7) x Z3"),
        (33, "by doubling"),
        (57, "over GF(19) x Z3"),
        (69, "by doubling"),
        (93, "over GF(31)"),
    ],
)
def test_the_kirkman_systems_once_stored_are_built(v, how):
    design = best_design(v, 3)
    assert design is not None and design.name.startswith(f"Kirkman triple system KTS({v}) {how}")
    assert_design(design.rounds, v, 3, (v - 1) // 2)


@pytest.mark.parametrize(
    ("v", "pbd"),
    [
        (33, "affine plane AG(2,4) (a PBD(16,{4})) with KTS(9)"),
        (57, "resolvable (28,4,1) design, 1-rotational over GF(9) (a PBD(28,{4})) with KTS(9)"),
        (69, "PBD(34,{4,7}) of Brouwer with KTS(9) and KTS(15)"),
        (81, "(a PBD(40,{4})) with KTS(9)"),
        (99, "affine plane AG(2,7) (a PBD(49,{7})) with KTS(15)"),
        (105, "(a PBD(52,{4})) with KTS(9)"),
    ],
)
def test_kirkman_doubling_of_a_pairwise_balanced_design(v, pbd):
    design = _kirkman_doubling(v, 3)
    assert design is not None and design.name.endswith(pbd)
    assert_design(design.rounds, v, 3, (v - 1) // 2)
    assert len(pair_counts(design.rounds)) == v * (v - 1) // 2  # everyone meets everyone


def test_brouwers_pairwise_balanced_design_on_34_points():
    blocks = _brouwer_pbd_34()
    assert sorted(len(block) for block in blocks) == [4] * 90 + [7]
    pairs = [frozenset(pair) for block in blocks for pair in combinations(block, 2)]
    assert len(pairs) == len(set(pairs)) == 34 * 33 // 2  # every pair exactly once
    assert set().union(*blocks) == set(range(34))


def test_kirkman_doubling_needs_a_pairwise_balanced_design():
    assert _kirkman_doubling(45, 3) is None  # no resolvable (22, s, 1) design is built
    assert _kirkman_doubling(75, 3) is None  # nor a (37, s, 1) one
    assert _kirkman_doubling(34, 3) is None
    assert _kirkman_doubling(33, 4) is None


@pytest.mark.parametrize("q", [5, 9, 13, 17, 25, 29, 37])
def test_resolvable_3q_plus_1(q):
    v = 3 * q + 1
    design = _resolvable_3q_plus_1(v, 4)
    assert design is not None
    assert_design(design.rounds, v, 4, (v - 1) // 3)
    assert len(pair_counts(design.rounds)) == v * (v - 1) // 2


def test_resolvable_3q_plus_1_needs_q_1_mod_4_prime_power():
    assert _resolvable_3q_plus_1(22, 4) is None  # q = 7 = 3 (mod 4)
    assert _resolvable_3q_plus_1(64, 4) is None  # q = 21


@pytest.mark.parametrize(
    ("v", "k", "rounds"),
    [
        (72, 3, 35),  # TD(3, 24) over GF(8) x GF(3), then NKTS(24) on its groups
        (63, 3, 31),  # TD(3, 21) over GF(3) x GF(7), then KTS(21): the tripling
        (80, 4, 25),  # TD(4, 20) over GF(4) x GF(5), then TD(4, 5)
    ],
)
def test_transversal_over_products_of_fields(v, k, rounds):
    design = _transversal(v, k)
    assert design is not None
    assert_design(design.rounds, v, k, rounds)


@pytest.mark.parametrize(
    ("v", "u", "groups"),
    [
        (54, 18, "nearly Kirkman triple system NKTS(18) over Z4"),
        (90, 30, "nearly Kirkman triple system NKTS(30) over Z14"),
    ],
)
def test_nearly_kirkman_by_tripling_over_an_orthogonal_array(v, u, groups):
    # TD(3, u) from an OA(4, u) with no field construction (18 = 2 * 9: a quasi-difference
    # matrix; 30 = 2 * 3 * 5: the product OA(4, 10) x OA(4, 3)), then NKTS(u) on each
    # group: u + (u - 2) / 2 rounds, the counting bound (v - 2) / 2
    design = _from_mols(v, 3)
    assert design is not None and design.name.endswith(f"seated by {groups}")
    assert_design(design.rounds, v, 3, (v - 2) // 2)
    best = best_design(v, 3)
    assert best is not None and best.rounds == design.rounds
    assert best.name.startswith(f"nearly Kirkman triple system NKTS({v}) from resolvable")


@pytest.mark.parametrize(
    ("v", "k", "rounds"),
    [
        (126, 3, 62),  # OA(4, 42) = OA(6, 14) x OA(4, 3), then NKTS(42): NKTS(126)
        (192, 4, 63),  # OA(5, 48) = OA(5, 4) x OA(7, 12), then the stored 48 in fours
        (300, 5, 72),  # OA(6, 60) = OA(6, 5) x OA(7, 12), then 60 in fives (12 rounds)
    ],
)
def test_transversal_designs_over_products_of_orthogonal_arrays(v, k, rounds):
    # fields beyond 100 players that had no design before the direct products
    design = _from_mols(v, k)
    assert design is not None
    assert_design(design.rounds, v, k, rounds)
    best = best_design(v, k)
    assert best is not None and best.rounds == design.rounds


def test_orthogonal_arrays_are_left_to_the_fields_where_they_suffice():
    # 36 = 4 * 9 and 45 = 9 * 5: _transversal builds the TD(3, 12) and TD(3, 15)
    assert _from_mols(36, 3) is None and _from_mols(45, 3) is None
    assert _transversal(36, 3) is not None and _transversal(45, 3) is not None
    assert _from_mols(30, 3) is not None  # 10 = 2 * 5: the fields give no TD(3, 10)


def test_transversal_needs_every_factor_at_least_k():
    assert _transversal(60, 4) is None  # 15 = 3 * 5: GF(3) has no 4 distinct multipliers
    assert _transversal(54, 3) is None  # 18 = 2 * 9
    assert _transversal(90, 3) is None  # 30 = 2 * 15


KIRKMAN = list(range(9, 100, 6))
NEARLY_KIRKMAN = list(range(18, 100, 6))
FOURS = sorted(set(range(16, 101, 12)) | set(range(16, 41, 4)))


@pytest.mark.parametrize(("v", "k"), [(v, 3) for v in KIRKMAN + NEARLY_KIRKMAN + [12]])
def test_threes_reach_the_known_maximum(v, k):
    known = known_max_rounds(v, k)
    assert known is not None
    expected = (v - 1) // 2 if v % 6 == 3 else (4 if v == 12 else (v - 2) // 2)
    assert known[0] == expected
    design = best_design(v, k)
    assert design is not None
    assert_design(design.rounds, v, k, expected)


@pytest.mark.parametrize("v", FOURS)
def test_fours_reach_the_known_maximum(v):
    known = known_max_rounds(v, 4)
    assert known is not None
    expected = {20: 5, 24: 7, 32: 10, 36: 11}.get(v, (v - 1) // 3)
    assert known[0] == expected
    design = best_design(v, 4)
    assert design is not None
    assert_design(design.rounds, v, 4, expected)


def test_known_max_rounds_elsewhere():
    assert known_max_rounds(12, 4) == (1, "fewer tables than seats at a table: one round")
    assert known_max_rounds(10, 2) == (9, "round robin")
    assert known_max_rounds(36, 6) == (3, "social golfer problem (OEIS A107431)")
    assert known_max_rounds(25, 5) == (6, "affine plane AG(2,5)")
    assert known_max_rounds(10, 3) is None  # 3 does not divide 10
    # fives and sixes below the counting bound: the transversal design built, and the bound
    assert known_max_rounds(35, 5) == (
        7,
        "resolvable transversal design TD(5,7); the counting bound is 8",
    )
    assert known_max_rounds(66, 6) == (
        11,
        "resolvable transversal design TD(6,11); the counting bound is 13",
    )


@pytest.mark.parametrize(("v", "k"), [(57, 3), (93, 3), (76, 4), (88, 4), (36, 4), (66, 3)])
def test_plan_seats_the_new_designs_without_repeats(v, k):
    rounds = known_max_rounds(v, k)
    assert rounds is not None
    started = time.perf_counter()
    result = plan(v, rounds[0], table_size=k, seed=3)
    assert time.perf_counter() - started < 2
    assert repeats(result.rounds) == 0 and result.optimal
    assert_valid(result.rounds, range(v), [k] * (v // k))


def test_search_uses_its_budget_when_no_perfect_plan_is_known():
    # 12 in threes for 5 rounds: 4 is the most without a repeat, so the search restarts
    # until its time is up, and reports the bound it could not reach
    started = time.perf_counter()
    result = plan(12, 5, table_size=3, time_limit=1.0)
    elapsed = time.perf_counter() - started
    assert 0.9 <= elapsed < 2
    assert result.timed_out and result.stats["restarts"] >= 0
    assert result.stats["lower_bound"] >= 0 and result.repeats > 0


def test_search_stops_at_the_lower_bound():
    # 9 in threes for 5 rounds: the fifth round repeats 9 pairs whatever happens, and the
    # counting bound says so: the search stops there, long before its time
    started = time.perf_counter()
    result = plan(9, 5, table_size=3, time_limit=10.0)
    assert time.perf_counter() - started < 2
    assert result.optimal and not result.timed_out and result.repeats == 9
    assert result.stats["lower_bound"] > 0
