"""No pair meets twice wherever the design literature says that is possible."""

import time

import pytest

from tests.seating.helpers import assert_valid, pair_counts, repeats
from tournaments.seating import best_design, plan
from tournaments.seating.data import DEVELOPED, EARLIER
from tournaments.seating.designs import earlier_designs, max_rounds_bound

# (players, table size, rounds): each at the most rounds possible for its field
# (a player meets k - 1 new players a round).
MAXIMAL = [
    (9, 3, 4),  # affine plane AG(2,3) = KTS(9)
    (15, 3, 7),  # Kirkman's schoolgirls, KTS(15)
    (18, 3, 8),  # nearly Kirkman NKTS(18)
    (21, 3, 10),  # KTS(21)
    (16, 4, 5),  # affine plane AG(2,4)
    (24, 4, 7),  # social golfer 6-4-7, a resolvable 4-GDD of type 3^8
    (32, 4, 10),  # the social golfer problem 8-4-10
]


@pytest.mark.parametrize(("players", "k", "rounds"), MAXIMAL)
def test_listed_instances_have_no_repeats(players, k, rounds):
    started = time.perf_counter()
    result = plan(players, rounds, table_size=k, seed=1)
    elapsed = time.perf_counter() - started
    assert_valid(result.rounds, range(players), [k] * (players // k))
    assert repeats(result.rounds) == 0
    assert (result.repeats, result.max_meetings) == (0, 1)
    assert result.optimal
    assert elapsed < 2, f"{players}/{k}/{rounds} took {elapsed:.2f} s"


@pytest.mark.parametrize(("players", "k", "rounds"), MAXIMAL)
def test_listed_instances_every_seed(players, k, rounds):
    """Relabelled differently for each seed, still without repeats."""
    seen = set()
    for seed in (2, 3):
        result = plan(players, rounds, table_size=k, seed=seed)
        assert repeats(result.rounds) == 0
        seen.add(str(result.rounds))
    assert len(seen) == 2


@pytest.mark.parametrize(("v", "k"), sorted(DEVELOPED))
def test_every_shipped_design_is_resolvable_without_repeats(v, k):
    design = best_design(v, k)
    assert design is not None
    assert_valid(design.rounds, range(v), [k] * (v // k))
    assert max(pair_counts(design.rounds).values()) == 1
    assert len(design.rounds) >= DEVELOPED[(v, k)][0]


@pytest.mark.parametrize(("v", "k"), sorted(EARLIER) + [(63, 3), (99, 3), (105, 3)])
def test_every_earlier_design_is_resolvable_without_repeats(v, k):
    # what a tournament seated before a construction replaced its design goes on with
    designs = earlier_designs(v, k)
    assert designs
    for design in designs:
        assert_valid(design.rounds, range(v), [k] * (v // k))
        assert max(pair_counts(design.rounds).values()) == 1
    if (v, k) in EARLIER:
        assert len(designs[0].rounds) == max_rounds_bound(v, k)


@pytest.mark.parametrize(
    ("v", "k", "rounds"),
    [
        (6, 2, 5),  # round robin
        (12, 3, 4),  # TD(3,4)
        (20, 4, 5),  # TD(4,5)
        (25, 5, 6),  # AG(2,5)
        (27, 3, 13),  # KTS(27) = AG(3,3)
        (28, 4, 9),  # RBIBD(28,4,1)
        (49, 7, 8),  # AG(2,7)
        (64, 4, 21),  # TD(4,16) + AG(2,4)
        (81, 3, 40),  # KTS(81)
    ],
)
def test_algebraic_constructions(v, k, rounds):
    design = best_design(v, k)
    assert design is not None and len(design.rounds) == rounds
    assert_valid(design.rounds, range(v), [k] * (v // k))
    assert max(pair_counts(design.rounds).values()) == 1


def test_complete_designs_reach_the_counting_bound():
    complete = [
        (15, 3),
        (21, 3),
        (27, 3),
        (39, 3),
        (45, 3),
        (16, 4),
        (28, 4),
        (40, 4),
        (52, 4),
        (100, 4),
    ]
    for v, k in [*complete, (25, 5), (10, 2)]:
        design = best_design(v, k)
        assert design is not None
        assert len(design.rounds) == max_rounds_bound(v, k) == (v - 1) // (k - 1)
        assert len(pair_counts(design.rounds)) == v * (v - 1) // 2  # everyone meets everyone


def test_beyond_the_design_repeats_are_few_and_spread():
    # 9 in threes for 5 rounds: the fifth round repeats 9 pairs whatever happens
    result = plan(9, 5, table_size=3)
    assert (result.repeats, result.max_meetings) == (9, 2)
    assert result.optimal
    # 16 in fours for 6 rounds: every pair met once in 5 rounds, the sixth repeats 24 pairs
    result = plan(16, 6, table_size=4)
    assert (result.repeats, result.max_meetings) == (24, 2)


def test_one_extra_player_sits_out_at_the_ghosts_table():
    # 14 in threes, 2 sitting out: KTS(15) with one player missing; byes rotate exactly
    result = plan(14, 7, table_size=3)
    assert repeats(result.rounds) == 0
    sat_out = [p for out in result.byes for p in out]
    assert sorted(sat_out) == list(range(14))
    # Third Hand (two players) with an odd field: a round robin with a bye
    result = plan(11, 11, table_size=2)
    assert repeats(result.rounds) == 0 and len(pair_counts(result.rounds)) == 55
    assert sorted(p for out in result.byes for p in out) == list(range(11))


def test_stored_orthogonal_arrays_are_orthogonal():
    from tournaments.seating.mols import MOLS, orthogonal_array, squares

    # stored squares, quasi-difference matrices (18, 20), the V(2, 3) vector (10), the fields
    # (7, 8, 9, 21 = 3 * 7) and direct products: 30 = 10 x 3, 42 = 14 x 3, 48 = 12 x 4,
    # 50 = 10 x 5, 60 = 12 x 5, 90 = 18 x 5
    widths = [(12, 7), (14, 6), (15, 6), (18, 7), (20, 6), (10, 4), (7, 8), (8, 9), (9, 10)]
    widths += [(21, 4), (30, 4), (42, 4), (48, 5), (50, 4), (60, 6), (90, 6)]
    for n, width in widths:
        array = orthogonal_array(n)
        assert len(array) == n * n and all(len(row) == width for row in array), n
        assert all(0 <= x < n for row in array for x in row)
        for i in range(width):
            for j in range(i + 1, width):
                assert len({(row[i], row[j]) for row in array}) == n * n, (n, i, j)
    # 6 = 2 * 3: a Latin square only (no two orthogonal ones exist: Tarry 1900)
    assert len(orthogonal_array(6)[0]) == 3 and orthogonal_array(1) == []

    for n, (count, _, _) in MOLS.items():
        latin = squares(n)
        assert len(latin) == count
        for square in latin:
            assert all(sorted(row) == list(range(n)) for row in square)
            assert all(sorted(col) == list(range(n)) for col in zip(*square, strict=True))
        for i, a in enumerate(latin):
            for b in latin[i + 1 :]:
                cells = {(a[r][c], b[r][c]) for r in range(n) for c in range(n)}
                assert len(cells) == n * n


@pytest.mark.parametrize(
    ("v", "k", "rounds"),
    [(60, 5, 12), (70, 5, 14), (75, 5, 16), (90, 5, 18), (100, 5, 21), (72, 6, 13), (48, 4, 15)],
)
def test_transversal_designs_from_latin_squares(v, k, rounds):
    design = best_design(v, k)
    assert design is not None and len(design.rounds) >= rounds
    assert_valid(design.rounds, range(v), [k] * (v // k))
    assert max(pair_counts(design.rounds).values()) == 1
    result = plan(v, rounds, table_size=k, seed=4)
    assert result.repeats == 0 and result.optimal
