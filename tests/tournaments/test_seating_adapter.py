"""The seating adapter: the contract the seating engine keeps, through the adapter.
Plain Python."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from tournaments.seating import SeatingError
from tournaments.seating_adapter import (
    PastRound,
    PastTable,
    SeatingRequest,
    find_conflicts,
    plan_round,
    table_sizes,
)


@pytest.fixture
def planner():
    """Plan a round through the adapter (the engine)."""
    return plan_round


def ask(players, method="new_opponents", sizes=(3,), preferred=3, **kwargs):
    return SeatingRequest(
        players=tuple(players), method=method, sizes=sizes, preferred=preferred, **kwargs
    )


def as_past(plan):
    return PastRound(
        tables=tuple(PastTable(t.players, t.first_dealer) for t in plan.tables), byes=plan.byes
    )


def test_table_sizes():
    assert table_sizes(9, (3,), 3, False) == ([3, 3, 3], 0)
    assert table_sizes(7, (3,), 3, False) == ([3, 3], 1)
    assert table_sizes(5, (2,), 2, False) == ([2, 2], 1)
    # Prediction whist: mixed sizes as close to the preferred size as fit, no byes.
    assert table_sizes(7, (3, 4, 5, 6), 4, True) == ([4, 3], 0)
    assert table_sizes(13, (3, 4, 5, 6), 4, True) == ([5, 4, 4], 0)
    assert table_sizes(300, (3, 4, 5, 6), 4, True) == ([4] * 75, 0)
    assert table_sizes(9, (3, 4, 5, 6), 4, False) == ([4, 4], 1)
    with pytest.raises(SeatingError):
        table_sizes(2, (3,), 3, False)
    with pytest.raises(SeatingError):
        table_sizes(9, (3,), 4, False)


@pytest.mark.parametrize("method", ["new_opponents", "standings", "random"])
@pytest.mark.parametrize(
    ("count", "sizes", "preferred", "mixed"),
    [(9, (3,), 3, False), (8, (3,), 3, False), (7, (2,), 2, False), (11, (3, 4, 5, 6), 4, True)],
)
def test_every_player_is_seated_once_or_has_a_bye(planner, method, count, sizes, preferred, mixed):
    players = list(range(101, 101 + count))
    plan = planner(ask(players, method, sizes, preferred, mixed=mixed, seed=7))
    placed = [p for table in plan.tables for p in table.players] + list(plan.byes)
    assert sorted(placed) == players
    assert all(min(sizes) <= len(t.players) <= max(sizes) for t in plan.tables)
    if not mixed:
        assert all(len(t.players) == preferred for t in plan.tables)
        assert len(plan.byes) == count % preferred
    else:
        assert plan.byes == ()
    assert all(0 <= t.first_dealer < len(t.players) for t in plan.tables)


def test_byes_rotate_before_anyone_sits_out_twice(planner):
    players = list(range(1, 8))  # 7 players at tables of 3: one bye a round
    history: list[PastRound] = []
    byes = []
    for number in range(1, 11):
        plan = planner(ask(players, history=tuple(history), seed=number))
        (bye,) = plan.byes
        byes.append(bye)
        history.append(as_past(plan))
    assert sorted(byes[:7]) == players  # everyone once in the first seven rounds
    assert len(set(byes[7:])) == 3  # then again, nobody twice


def test_by_standings_the_bye_goes_to_the_last(planner):
    ranked = [5, 3, 9, 1, 7, 2, 8]
    plan = planner(ask(ranked, "standings"))
    assert plan.byes == (8,)


def test_new_opponents_avoids_repeated_meetings(planner):
    players = list(range(1, 10))
    history: list[PastRound] = []
    for number in range(1, 4):
        plan = planner(ask(players, history=tuple(history), seed=number))
        tables = [t.players for t in plan.tables]
        assert find_conflicts(history, tables) == [], f"round {number}"
        history.append(as_past(plan))
    # Three rounds of 9 players at tables of 3: each pair met at most once.
    pairs = Counter(
        frozenset(pair)
        for past in history
        for table in past.tables
        for pair in itertools.combinations(table.players, 2)
    )
    assert max(pairs.values()) == 1


def test_seats_and_first_dealer_are_balanced_over_rounds(planner):
    players = [1, 2, 3]
    history: list[PastRound] = []
    for number in range(3):
        history.append(as_past(planner(ask(players, history=tuple(history), seed=number))))
    dealers = [past.tables[0].players[past.tables[0].first_dealer] for past in history]
    assert sorted(dealers) == players  # each deals first once
    for player in players:
        positions = [past.tables[0].players.index(player) for past in history]
        assert sorted(positions) == [0, 1, 2]  # each sits in each seat once


def test_a_large_event_is_seated_quickly(planner):
    players = list(range(1, 301))
    history = []
    for number in range(3):
        plan = planner(
            ask(
                players,
                sizes=(3, 4, 5, 6),
                preferred=4,
                mixed=True,
                history=tuple(history),
                seed=number,
            )
        )
        history.append(as_past(plan))
    assert len(plan.tables) == 75


def test_conflicts_name_repeated_pairs_and_second_byes():
    history = (PastRound(tables=(PastTable((1, 2, 3)),), byes=(4,)),)
    found = find_conflicts(history, [(1, 2, 5), (3, 6, 7)], byes=(4,))
    kinds = {(c.kind, c.players, c.table) for c in found}
    assert kinds == {("met_before", (1, 2), 0), ("second_bye", (4,), None)}


def test_bad_requests_are_refused():
    with pytest.raises(SeatingError):
        plan_round(ask([1, 1, 2]))
    with pytest.raises(SeatingError):
        plan_round(ask([1, 2, 3], "alphabetical"))
    with pytest.raises(SeatingError):
        plan_round(ask([1, 2]))


def test_standings_seats_neighbours_and_a_plan_is_reproducible():
    plan = plan_round(ask([5, 3, 9, 1, 7, 2, 8], "standings"))
    assert [set(t.players) for t in plan.tables] == [{5, 3, 9}, {1, 7, 2}]
    seen = []
    first = plan_round(ask(range(1, 10), "random", seed=3), seen.append)
    assert plan_round(ask(range(1, 10), "random", seed=3)) == first
    assert seen and seen == sorted(seen)  # progress only goes forward


def test_by_standings_the_rounds_still_to_play_are_planned_with_this_one(monkeypatch):
    from tournaments import seating

    asked = []
    real = seating.next_round

    def spy(*args, **kwargs):
        asked.append(kwargs["lookahead"])
        return real(*args, **kwargs)

    monkeypatch.setattr(seating, "next_round", spy)
    plan = plan_round(ask(range(1, 13), "standings", rounds_left=4))
    plan_round(ask(range(1, 13), "new_opponents", rounds_left=4))
    assert asked == [4, 1]
    assert [set(t.players) for t in plan.tables] == [{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}]
