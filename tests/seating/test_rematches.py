"""The lower bound on the search's cost when tables cannot all be split up: forced repeats
against two rounds at once make some pairs meet three times (or more repeats), and the
search's cost counts that. Checked against every plan there is for small fields; the search
stops as soon as it reaches the bound instead of using its whole time limit."""

from __future__ import annotations

import itertools
import random

from tests.seating.helpers import pair_counts
from tournaments.seating import next_round, plan
from tournaments.seating.search import (
    cost_lower_bound,
    pair_weights,
    pigeonhole_rematches,
    pigeonhole_repeats,
)

Rounds = list[list[list[int]]]


def _partitions(players: list[int], sizes: list[int]) -> Rounds:
    """Every way of seating ``players`` at tables of ``sizes`` (tables unordered when equal)."""
    if not sizes:
        return [[]]
    first, rest = players[0], players[1:]
    found = []
    for size in sorted(set(sizes)):  # the first player at a table of each size
        others = list(sizes)
        others.remove(size)
        for mates in itertools.combinations(rest, size - 1):
            left = [p for p in rest if p not in mates]
            for tail in _partitions(left, others):
                found.append([[first, *mates], *tail])
    return found


def _cost(rounds: Rounds) -> int:
    weights, _, _ = pair_weights(len(rounds) + 2)
    return sum(weights[m] for m in pair_counts(rounds).values())


def _best_cost(players: int, sizes: list[int], count: int, history: Rounds) -> int:
    """The least cost of ``count`` rounds after ``history``, over every plan (rounds are
    unordered for the cost, so each multiset of rounds once)."""
    seatings = _partitions(list(range(players)), sizes)
    if not history:  # the first round can be any one: relabel it to the first seating
        return min(
            _cost([seatings[0], *(seatings[i] for i in rest)])
            for rest in itertools.combinations_with_replacement(range(len(seatings)), count - 1)
        )
    return min(
        _cost([*history, *(seatings[i] for i in chosen)])
        for chosen in itertools.combinations_with_replacement(range(len(seatings)), count)
    )


def test_a_pairs_cost_is_its_repeats_and_rematches() -> None:
    weights, _, _ = pair_weights(10)
    for m in range(10):
        assert weights[m] == cost_lower_bound(max(0, m - 1), m * (m - 1) // 2)


def test_twelve_in_fours_for_three_rounds_must_rematch_nine_times() -> None:
    rounds = [
        [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]],
        [[0, 4, 8, 1], [5, 9, 2, 6], [10, 3, 7, 11]],
        [[0, 4, 8, 2], [5, 9, 1, 6], [10, 3, 7, 11]],
    ]
    assert pigeonhole_repeats([], rounds) == 6
    assert pigeonhole_rematches([], rounds) == 9
    assert pigeonhole_rematches(rounds[:1], rounds[1:]) == 9
    # six repeats and nine rematches: three pairs meet three times, the least there is
    assert cost_lower_bound(6, 9) == 528


def test_the_bound_never_exceeds_the_best_plan_there_is() -> None:
    fields = [
        (6, [3, 3], 3),
        (6, [3, 3], 4),
        (8, [4, 4], 3),
        (8, [4, 4], 4),
        (10, [5, 5], 3),
        (7, [4, 3], 3),
        (6, [2, 2, 2], 6),
    ]
    tight = 0
    for players, sizes, count in fields:
        result = plan(players, count, sizes=sizes, time_limit=0.3)
        best = _best_cost(players, sizes, count, [])
        bound = result.stats["lower_bound"]
        assert bound <= best <= _cost(result.rounds), (players, sizes, count)
        tight += bound == best > 0
    assert tight >= 5  # and it is often the least cost there is


def test_the_bound_holds_after_rounds_played() -> None:
    rng = random.Random(3)
    for players, sizes in [(6, [3, 3]), (8, [4, 4]), (7, [4, 3])]:
        for _ in range(3):
            history: Rounds = []
            for _ in range(rng.randrange(1, 3)):
                everyone = list(range(players))
                rng.shuffle(everyone)
                history.append([everyone[: sizes[0]], everyone[sizes[0] :]])
            result = plan(players, 2, sizes=sizes, history=history, time_limit=0.3)
            best = _best_cost(players, sizes, 2, history)
            assert result.stats["lower_bound"] <= best, (history, sizes)
            assert best <= _cost([*history, *result.rounds])


def test_the_search_stops_at_the_bound_when_a_pair_must_meet_three_times() -> None:
    result = plan(12, 3, table_size=4, time_limit=30)
    assert not result.timed_out and result.optimal
    assert result.stats["lower_bound"] == _cost(result.rounds) == 528
    assert result.stats["lower_bound_from"] == "pigeonhole"
    assert result.repeats == result.stats["repeats_lower_bound"] == 6
    assert result.max_meetings == 3
    eight = plan(8, 3, table_size=4, time_limit=30)
    assert not eight.timed_out and eight.optimal and eight.max_meetings == 3
    # seated round by round, the third round is as good as it gets at once too
    played = plan(12, 2, table_size=4, time_limit=30).rounds
    third = next_round(12, played, table_size=4, time_limit=30)
    assert not third.timed_out and third.optimal
    assert _cost([*played, *third.rounds]) == third.stats["lower_bound"]
