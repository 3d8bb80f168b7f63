"""The table sizes a director gets for 6 to 40 players, written out by hand from the rule
(``round_sizes``): tables of the preferred size and the rest sit out, or, with mixed sizes
(prediction whist, 3 to 6 at a table), everyone plays at the number of tables whose
average is nearest the preferred size, sizes within one of each other."""

import pytest

from tournaments.seating import SeatingError, round_sizes

# players: (table sizes, byes)
TABLES_OF_3 = {
    6: ("3 3", 0),
    7: ("3 3", 1),
    8: ("3 3", 2),
    9: ("3 3 3", 0),
    10: ("3 3 3", 1),
    11: ("3 3 3", 2),
    12: ("3 3 3 3", 0),
    13: ("3 3 3 3", 1),
    14: ("3 3 3 3", 2),
    15: ("3 3 3 3 3", 0),
    16: ("3 3 3 3 3", 1),
    17: ("3 3 3 3 3", 2),
    18: ("3 3 3 3 3 3", 0),
    19: ("3 3 3 3 3 3", 1),
    20: ("3 3 3 3 3 3", 2),
    21: ("3 3 3 3 3 3 3", 0),
    22: ("3 3 3 3 3 3 3", 1),
    23: ("3 3 3 3 3 3 3", 2),
    24: ("3 3 3 3 3 3 3 3", 0),
    25: ("3 3 3 3 3 3 3 3", 1),
    26: ("3 3 3 3 3 3 3 3", 2),
    27: ("3 3 3 3 3 3 3 3 3", 0),
    28: ("3 3 3 3 3 3 3 3 3", 1),
    29: ("3 3 3 3 3 3 3 3 3", 2),
    30: ("3 3 3 3 3 3 3 3 3 3", 0),
    31: ("3 3 3 3 3 3 3 3 3 3", 1),
    32: ("3 3 3 3 3 3 3 3 3 3", 2),
    33: ("3 3 3 3 3 3 3 3 3 3 3", 0),
    34: ("3 3 3 3 3 3 3 3 3 3 3", 1),
    35: ("3 3 3 3 3 3 3 3 3 3 3", 2),
    36: ("3 3 3 3 3 3 3 3 3 3 3 3", 0),
    37: ("3 3 3 3 3 3 3 3 3 3 3 3", 1),
    38: ("3 3 3 3 3 3 3 3 3 3 3 3", 2),
    39: ("3 3 3 3 3 3 3 3 3 3 3 3 3", 0),
    40: ("3 3 3 3 3 3 3 3 3 3 3 3 3", 1),
}

TABLES_OF_2 = {
    6: ("2 2 2", 0),
    7: ("2 2 2", 1),
    8: ("2 2 2 2", 0),
    9: ("2 2 2 2", 1),
    10: ("2 2 2 2 2", 0),
    11: ("2 2 2 2 2", 1),
    12: ("2 2 2 2 2 2", 0),
    13: ("2 2 2 2 2 2", 1),
    14: ("2 2 2 2 2 2 2", 0),
    15: ("2 2 2 2 2 2 2", 1),
    16: ("2 2 2 2 2 2 2 2", 0),
    17: ("2 2 2 2 2 2 2 2", 1),
    18: ("2 2 2 2 2 2 2 2 2", 0),
    19: ("2 2 2 2 2 2 2 2 2", 1),
    20: ("2 2 2 2 2 2 2 2 2 2", 0),
    21: ("2 2 2 2 2 2 2 2 2 2", 1),
    22: ("2 2 2 2 2 2 2 2 2 2 2", 0),
    23: ("2 2 2 2 2 2 2 2 2 2 2", 1),
    24: ("2 2 2 2 2 2 2 2 2 2 2 2", 0),
    25: ("2 2 2 2 2 2 2 2 2 2 2 2", 1),
    26: ("2 2 2 2 2 2 2 2 2 2 2 2 2", 0),
    27: ("2 2 2 2 2 2 2 2 2 2 2 2 2", 1),
    28: ("2 2 2 2 2 2 2 2 2 2 2 2 2 2", 0),
    29: ("2 2 2 2 2 2 2 2 2 2 2 2 2 2", 1),
    30: ("2 2 2 2 2 2 2 2 2 2 2 2 2 2 2", 0),
    31: ("2 2 2 2 2 2 2 2 2 2 2 2 2 2 2", 1),
    32: ("2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2", 0),
    33: ("2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2", 1),
    34: ("2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2", 0),
    35: ("2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2", 1),
    36: ("2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2", 0),
    37: ("2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2", 1),
    38: ("2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2", 0),
    39: ("2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2", 1),
    40: ("2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2", 0),
}

# Prediction whist, preferred 4, mixed 3 to 6: nobody sits out. With n = 4k + r:
# r = 1 one table of 5 (average 4 + 1/k beats 4 - 3/(k+1)); r = 2 two tables of 3
# (4 - 2/(k+1) beats 4 + 2/k); r = 3 one table of 3.
PREDICTION_WHIST_4 = {
    6: "3 3",
    7: "4 3",
    8: "4 4",
    9: "5 4",
    10: "4 3 3",
    11: "4 4 3",
    12: "4 4 4",
    13: "5 4 4",
    14: "4 4 3 3",
    15: "4 4 4 3",
    16: "4 4 4 4",
    17: "5 4 4 4",
    18: "4 4 4 3 3",
    19: "4 4 4 4 3",
    20: "4 4 4 4 4",
    21: "5 4 4 4 4",
    22: "4 4 4 4 3 3",
    23: "4 4 4 4 4 3",
    24: "4 4 4 4 4 4",
    25: "5 4 4 4 4 4",
    26: "4 4 4 4 4 3 3",
    27: "4 4 4 4 4 4 3",
    28: "4 4 4 4 4 4 4",
    29: "5 4 4 4 4 4 4",
    30: "4 4 4 4 4 4 3 3",
    31: "4 4 4 4 4 4 4 3",
    32: "4 4 4 4 4 4 4 4",
    33: "5 4 4 4 4 4 4 4",
    34: "4 4 4 4 4 4 4 3 3",
    35: "4 4 4 4 4 4 4 4 3",
    36: "4 4 4 4 4 4 4 4 4",
    37: "5 4 4 4 4 4 4 4 4",
    38: "4 4 4 4 4 4 4 4 3 3",
    39: "4 4 4 4 4 4 4 4 4 3",
    40: "4 4 4 4 4 4 4 4 4 4",
}


def spelled(sizes: list[int]) -> str:
    return " ".join(str(size) for size in sizes)


def test_the_tables_cover_6_to_40_players():
    expected = list(range(6, 41))
    assert list(TABLES_OF_3) == list(TABLES_OF_2) == list(PREDICTION_WHIST_4) == expected


@pytest.mark.parametrize(
    ("size", "expected"), [(3, TABLES_OF_3), (2, TABLES_OF_2)], ids=["of 3", "of 2"]
)
@pytest.mark.parametrize("players", range(6, 41))
def test_tables_of_one_size(players, size, expected):
    sizes, byes = round_sizes(players, size, size, size, mixed=False)
    assert (spelled(sizes), byes) == expected[players]


@pytest.mark.parametrize("players", range(6, 41))
def test_prediction_whist_mixed_around_4(players):
    assert round_sizes(players, 4, 3, 6, mixed=True) == (
        [int(size) for size in PREDICTION_WHIST_4[players].split()],
        0,
    )


def test_without_mixed_sizes_the_rest_sit_out():
    assert round_sizes(26, 4, 3, 6, mixed=False) == ([4] * 6, 2)
    # one allowed size is not mixed, whatever the tournament says
    assert round_sizes(7, 3, 3, 3, mixed=True) == ([3, 3], 1)


def test_sizes_that_cannot_be_seated_are_refused():
    with pytest.raises(SeatingError, match="a table needs 3") as caught:
        round_sizes(2, 3, 3, 3, mixed=False)
    assert caught.value.field == "players"
    with pytest.raises(SeatingError, match="a table needs 4"):
        round_sizes(3, 4, 3, 6, mixed=False)
    with pytest.raises(SeatingError, match="a table needs 3"):
        round_sizes(2, 4, 3, 6, mixed=True)
    with pytest.raises(SeatingError, match="not allowed") as caught:
        round_sizes(9, 4, 3, 3, mixed=False)
    assert caught.value.field == "table_size"
