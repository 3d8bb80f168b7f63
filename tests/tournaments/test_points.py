"""Tournament points and tie-breaks (tournaments/points.py): plain Python, no database."""

from fractions import Fraction as F

import pytest

from tournaments.points import (
    RoundResult,
    Rule,
    TableResult,
    meetings,
    round_points,
    standings,
    table_points,
    table_winners,
)


def T(*pairs):
    """A table from (player, score) pairs in seat order."""
    return TableResult(players=tuple(p for p, _ in pairs), scores=tuple(s for _, s in pairs))


def test_opponents_points_weigh_tables_of_any_size_the_same():
    assert table_points([10, 5, 5]) == [F(1), F(1, 4), F(1, 4)]
    assert table_points([3, 3, 1, 0]) == [F(5, 6), F(5, 6), F(1, 3), F(0)]
    assert table_points([120, 80]) == [F(1), F(0)]
    assert table_points([4, 4]) == [F(1, 2), F(1, 2)]
    # The top of any table gets 1, the bottom 0, and a table gives n/2 in all.
    for scores in ([9, 1, 5], [1, 2, 3, 4], [6, 5, 4, 3, 2], [0, 1, 2, 3, 4, 5]):
        given = table_points(scores)
        assert max(given) == 1 and min(given) == 0
        assert sum(given) == F(len(scores), 2)


def test_placing_table_shares_the_places_of_a_tie():
    rule = Rule(system="placing", placing=(3, 1, 0))
    assert table_points([10, 5, 2], rule) == [3, 1, 0]
    assert table_points([10, 5, 5], rule) == [3, F(1, 2), F(1, 2)]
    assert table_points([7, 7, 1], rule) == [2, 2, 0]
    assert table_points([1, 1, 1], rule) == [F(4, 3)] * 3
    # Places beyond the table's length score nothing.
    assert table_points([4, 3, 2, 1], rule) == [3, 1, 0, 0]


def test_raw_score_system():
    assert table_points([7, -2, 0], Rule(system="score")) == [7, -2, 0]


def test_bye_scores_the_round_average_or_a_fixed_amount():
    played = RoundResult(tables=(T((1, 9), (2, 3), (3, 0)), T((4, 5), (5, 5), (6, 1))), byes=(7,))
    assert round_points(played)[7] == F(1, 2)  # opponents points always average ½
    placing = Rule(system="placing", placing=(4, 1, 0))
    # 4 + 1 + 0 and 2.5 + 2.5 + 0: 10 over 6 players.
    assert round_points(played, placing)[7] == F(10, 6)
    assert round_points(played, Rule(bye="fixed", bye_points=F(3, 4)))[7] == F(3, 4)
    raw = round_points(played, Rule(system="score"))
    assert raw[7] == F(9 + 3 + 0 + 5 + 5 + 1, 6)


def test_standings_rank_by_points_then_game_score():
    rounds = [
        RoundResult(tables=(T((1, 9), (2, 3), (3, 0)), T((4, 2), (5, 1), (6, 0)))),
        RoundResult(tables=(T((1, 0), (4, 5), (5, 8)), T((2, 4), (3, 4), (6, 4)))),
    ]
    rows = standings(rounds)
    table = {row.player: row for row in rows}
    # Round 1: 1→1, 2→½, 3→0; 4→1, 5→½, 6→0. Round 2: 5→1, 4→½, 1→0; 2, 3, 6 all tie: ½.
    assert table[1].points == 1 and table[4].points == F(3, 2) and table[5].points == F(3, 2)
    assert table[2].points == 1 and table[3].points == F(1, 2) and table[6].points == F(1, 2)
    # 4 and 5 tie on points; 5 has the higher game score (1 + 8 = 9 against 2 + 5 = 7).
    assert [row.player for row in rows][:2] == [5, 4]
    assert (rows[0].rank, rows[1].rank) == (1, 2)
    # 1 and 2 tie on 1 point; 1 scored 9, 2 scored 7.
    assert [row.player for row in rows][2:4] == [1, 2]
    assert table[5].table_wins == 1 and table[4].table_wins == 1
    assert table[2].table_wins == 1  # a shared top is a table win
    assert table[1].round_points == [F(1), F(0)]
    assert table[1].played == 2 and table[1].byes == 0


def test_opponents_average_breaks_a_tie_on_points_and_score():
    rule = Rule(tie_breaks=("opponents", "game_score", "table_wins", "head_to_head"))
    rounds = [
        RoundResult(tables=(T((1, 5), (2, 0)), T((3, 5), (4, 0)))),
        RoundResult(tables=(T((4, 5), (2, 0)), T((1, 5), (3, 0)))),
    ]
    rows = {row.player: row for row in standings(rounds, rule)}
    # Points: 1: 2, 3: 1, 4: 1, 2: 0. Opponents of 3: 4 (1) and 1 (2) → 3/2;
    # opponents of 4: 3 (1) and 2 (0) → 1/2.
    assert rows[3].opponents == F(3, 2) and rows[4].opponents == F(1, 2)
    assert rows[3].rank == 2 and rows[4].rank == 3


def test_table_wins_then_head_to_head():
    # 1 and 2 tie on ¾ point; 1 shared the top of a table once, 2 never topped one.
    rounds = [
        RoundResult(tables=(T((1, 5), (7, 5), (8, 0)), T((2, 3), (9, 5), (10, 0)))),
        RoundResult(tables=(T((1, 0), (11, 5), (12, 5)), T((2, 1), (13, 5), (14, 1)))),
    ]
    rows = {row.player: row for row in standings(rounds, Rule(tie_breaks=("table_wins",)))}
    assert rows[1].points == rows[2].points == F(3, 4)
    assert (rows[1].table_wins, rows[2].table_wins) == (1, 0)
    assert rows[1].rank < rows[2].rank
    # Head-to-head alone: equal points, but 2 beat 1 when they met.
    rounds = [
        RoundResult(tables=(T((1, 1), (2, 5)), T((3, 5), (4, 1)))),
        RoundResult(tables=(T((1, 5), (3, 1)), T((2, 1), (4, 5)))),
    ]
    rule = Rule(tie_breaks=("head_to_head",))
    rows = standings(rounds, rule, order=lambda p: p)
    points = {row.player: row.points for row in rows}
    assert points == {1: 1, 2: 1, 3: 1, 4: 1}
    order = [row.player for row in rows]
    # 2 beat 1, 3 beat... 1 beat 3; 4 beat 2; 3 beat 4: every pair that met splits
    # the group of four at one point each: head-to-head among all four is 1 each.
    assert [row.rank for row in rows] == [1, 1, 1, 1] and order == [1, 2, 3, 4]
    two = standings(rounds[:1], rule, order=lambda p: p)
    assert [row.player for row in two] == [2, 3, 1, 4]  # 2 above 1, 3 above 4
    assert [row.rank for row in two] == [1, 1, 3, 3]


def test_head_to_head_splits_a_pair():
    rounds = [
        RoundResult(tables=(T((1, 1), (2, 5)), T((3, 5), (4, 1)))),
        RoundResult(tables=(T((1, 9), (4, 0)), T((2, 0), (3, 2)))),
    ]
    rows = standings(rounds, Rule(tie_breaks=("head_to_head",)), order=lambda p: p)
    # 3 has 2 points, 4 none; 1 and 2 have 1 each, and 2 beat 1 when they met.
    assert [row.player for row in rows] == [3, 2, 1, 4]
    assert [row.rank for row in rows] == [1, 2, 3, 4]


def test_players_without_rounds_and_byes_are_listed():
    rounds = [RoundResult(tables=(T((1, 3), (2, 1), (3, 0)),), byes=(4,))]
    rows = {row.player: row for row in standings(rounds, players=[1, 2, 3, 4, 5])}
    assert rows[4].byes == 1 and rows[4].points == F(1, 2) and rows[4].played == 0
    assert rows[4].game_score == 0 and rows[4].table_wins == 0
    assert rows[5].points == 0 and rows[5].round_points == [None]


def test_rule_refuses_unknown_names():
    with pytest.raises(ValueError):
        Rule(system="elo")
    with pytest.raises(ValueError):
        Rule(tie_breaks=("coin_toss",))
    with pytest.raises(ValueError):
        Rule(bye="double")


def test_meetings_counts_pairs():
    counts = meetings([[[1, 2, 3]], [[1, 2], [3, 4]]])
    assert counts[frozenset((1, 2))] == 2 and counts[frozenset((3, 4))] == 1
    assert frozenset((1, 4)) not in counts


def test_a_table_that_played_no_deal_has_no_winner():
    """A table closed before it played a deal (everyone at 0) gives nobody a table win; a
    game that ended all square is a shared top."""
    unplayed = TableResult(players=(1, 2, 3, 4), scores=(0, 0, 0, 0), played=False)
    square = TableResult(players=(5, 6, 7), scores=(4, 4, 4))
    assert table_winners(unplayed) == set() and table_winners(square) == {5, 6, 7}
    rows = {row.player: row for row in standings([RoundResult(tables=(unplayed, square))])}
    assert [rows[p].table_wins for p in (1, 2, 3, 4, 5, 6, 7)] == [0, 0, 0, 0, 1, 1, 1]
