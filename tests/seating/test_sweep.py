"""The sweep over every field a director can seat (``tournaments.seating.verify``): here
every field at its known maximum, and a fixed sample of the rest; ``bench/seating.py --part
sweep`` checks them all."""

import random
import time

import pytest

from tests.seating.helpers import assert_valid, repeats
from tournaments.seating import known_max_rounds, plan
from tournaments.seating.verify import Case, cases, check, layouts, problems

ALL = list(cases(range(4, 101)))
AT_MAX = [case for case in ALL if case.known is not None and case.rounds == case.known]
SAMPLE = random.Random(14).sample([case for case in ALL if case not in AT_MAX], 30)


def test_the_sweep_covers_every_field_layout_and_round_count():
    # 4 to 100 players, tables of 2 to 6 and the mixed sizes, up to two rounds past the
    # known maximum: a field of 28 in fours goes to 9 + 2 rounds
    assert {case.players for case in ALL} == set(range(4, 101))
    fours = [case.rounds for case in ALL if case.players == 28 and case.sizes == (4,) * 7]
    assert fours == list(range(1, 12))
    assert any(len(set(case.sizes)) > 1 for case in ALL if case.players == 26)
    assert len(AT_MAX) > 100


def test_layouts_are_fixed_tables_with_byes_then_mixed_sizes():
    assert list(layouts(14, (4,))) == [((4, 4, 4), 2), ((4, 4, 3, 3), 0)]
    assert list(layouts(12, (4, 3))) == [((4, 4, 4), 0), ((3, 3, 3, 3), 0)]


@pytest.mark.parametrize("case", AT_MAX, ids=lambda case: case.name)
def test_every_field_reaches_its_known_maximum_without_a_repeat(case: Case):
    finding = check(case, time_limit=2.0)
    assert finding.errors == []
    assert finding.repeats == 0
    # reached from a design, or by the search's first descent: never stuck, never restarted
    assert finding.stats["restarts"] == 0, finding.stats


@pytest.mark.parametrize("case", SAMPLE, ids=lambda case: case.name)
def test_a_sample_of_the_rest_is_valid_and_on_time(case: Case):
    finding = check(case, time_limit=0.3)
    assert finding.errors == []


def test_a_check_reports_an_invalid_plan_and_a_repeat():
    rounds = [[[0, 1, 2], [3, 4, 5]], [[0, 1, 3], [2, 4, 4]]]
    found = problems(rounds, range(6), (3, 3), 0)
    assert found == ["round 2: a player sits twice", "round 2: 1 sit out, not 0"]
    assert problems([[[0, 1, 9]]], range(6), (3, 3), 0)[0] == "round 1: unknown players [9]"
    assert problems([[[0, 1], [2, 3, 4, 5]]], range(6), (3, 3), 0) == [
        "round 1: tables [4, 2], not [3, 3]"
    ]


def test_fields_of_300_in_under_ten_seconds():
    for k in (2, 5, 6):
        started = time.process_time()  # the planner's own work, however busy the machine
        result = plan(300, 10, table_size=k)
        assert time.process_time() - started < 10
        assert_valid(result.rounds, range(300), [k] * (300 // k))
        assert repeats(result.rounds) == 0


def test_thirty_in_fives_for_six_rounds():
    # the social golfer problem 6-5-6: the most rounds known for 30 in fives
    assert known_max_rounds(30, 5) == (6, "social golfer problem (OEIS A107431)")
    result = plan(30, 6, table_size=5)
    assert repeats(result.rounds) == 0
