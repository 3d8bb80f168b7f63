"""The pigeonhole bound on repeats: players who sat at one table cannot all be split up when
there are fewer tables than seats at one. It is a true bound (checked against every way of
seating small fields), and the search stops as soon as it reaches it instead of using its
whole time budget."""

from __future__ import annotations

import itertools
import random

from tournaments.seating import next_round, plan
from tournaments.seating.search import pigeonhole_repeats


def _partitions(players: list[int], sizes: list[int]) -> list[list[list[int]]]:
    """Every way of seating ``players`` at tables of ``sizes`` (tables unordered when equal)."""
    if not sizes:
        return [[]]
    first, rest = players[0], players[1:]
    found = []
    for mates in itertools.combinations(rest, sizes[0] - 1):
        left = [p for p in rest if p not in mates]
        for tail in _partitions(left, sizes[1:]):
            found.append([[first, *mates], *tail])
    return found


def _met_before(history: list[list[list[int]]], rnd: list[list[int]]) -> int:
    met = {
        frozenset(pair)
        for played in history
        for t in played
        for pair in itertools.combinations(t, 2)
    }
    return sum(1 for t in rnd for pair in itertools.combinations(t, 2) if frozenset(pair) in met)


def test_two_tables_of_three_cannot_be_split_up() -> None:
    history = [[[0, 1, 2], [3, 4, 5]]]
    assert pigeonhole_repeats(history, [[[0, 3, 4], [1, 2, 5]]]) == 2
    # planned rounds count against each other too
    assert pigeonhole_repeats([], [[[0, 1, 2], [3, 4, 5]], [[0, 3, 4], [1, 2, 5]]]) == 2
    # twelve at tables of four: three tables, four seats: a repeat at every table
    twelve = [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]]
    assert pigeonhole_repeats(twelve, [[[0, 4, 8, 1], [5, 9, 2, 6], [10, 3, 7, 11]]]) == 3
    # enough tables to split everyone: nothing forced
    nine = [[[0, 1, 2], [3, 4, 5], [6, 7, 8]]]
    assert pigeonhole_repeats(nine, [[[0, 3, 6], [1, 4, 7], [2, 5, 8]]]) == 0
    assert pigeonhole_repeats([], [[[0, 1, 2]]]) == 0


def test_the_bound_never_exceeds_the_best_seating_there_is() -> None:
    rng = random.Random(5)
    fields = [(6, [3, 3]), (8, [4, 4]), (9, [3, 3, 3]), (7, [4, 3]), (8, [3, 3]), (10, [5, 5])]
    tight = 0
    for count, sizes in fields:
        players = list(range(count))
        everyone = list(range(max(players) + 2))  # two more, absent now: they sat out or left
        for _ in range(4):
            history = []
            for _ in range(rng.randrange(1, 4)):
                rng.shuffle(everyone)
                cut = rng.choice([2, 3, 4])
                history.append(
                    [sorted(everyone[i : i + cut]) for i in range(0, len(everyone), cut)]
                )
            seated = players[: sum(sizes)]
            best = min(_met_before(history, rnd) for rnd in _partitions(seated, sizes))
            # any seating of the same players at the same sizes has the same bound
            ends = list(itertools.accumulate(sizes))
            planned = [[seated[end - size : end] for end, size in zip(ends, sizes, strict=True)]]
            bound = pigeonhole_repeats(history, planned)
            assert bound <= best, (history, sizes)
            tight += bound == best > 0
    assert tight >= 5  # and it is often the best there is


def test_the_search_stops_at_the_pigeonhole_bound_instead_of_its_time_limit() -> None:
    history = [[[0, 1, 2], [3, 4, 5]]]
    result = next_round(6, history, table_size=3, time_limit=30)
    assert result.repeats == 2 + 0  # the least there is
    assert not result.timed_out and result.optimal
    assert result.stats["repeats_lower_bound"] == 2
    assert result.stats["repeats_lower_bound_from"] == "pigeonhole"
    two = plan(6, 2, table_size=3, time_limit=30)
    assert two.repeats == 2 and not two.timed_out and two.optimal


def test_four_who_sat_together_cannot_spread_over_three_tables_even_with_a_bye() -> None:
    """Thirteen at tables of four: three tables and a bye a round. Each table of four of one
    round holds four players whom the next round's three tables cannot all split up (unless
    one sits out), so every round after the first repeats at least twice: the search stops
    there instead of spending its whole time limit."""
    assert pigeonhole_repeats([], [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]] * 2) == 3
    result = plan(13, 3, table_size=4, time_limit=30)
    assert result.repeats == 4 and result.optimal and not result.timed_out
    assert result.stats["repeats_lower_bound"] == 4
    assert result.stats["repeats_lower_bound_from"] == "pigeonhole"
    played = [result.rounds[0]]
    following = next_round(13, played, table_size=4, time_limit=30)
    assert following.repeats == 2 and following.optimal and not following.timed_out
