import pytest

from tests.rules_engine.helpers import play, rejection

GAME = "italian_whist"
EVEN = {"first": [3, 3, 3], "second": [3, 3, 3]}


def test_six_deal_cycle_repeats():
    sheet = play(GAME, 3, [EVEN] * 12)
    # No trumps for three deals, then spades for three; the pass goes left, right, kept.
    expected = [(trumps, way) for trumps in ("none", "spades") for way in ("left", "right", "keep")]
    expected *= 2
    assert [(d.context["trumps"], d.context["pass"]) for d in sheet.deals] == expected
    assert [d.dealer for d in sheet.deals] == [0, 1, 2] * 4
    assert sheet.next_deal is not None
    assert sheet.next_deal.as_dict() == {
        "number": 13,
        "dealer": 0,
        "trumps": "none",
        "pass": "left",
    }


def test_scores_first_minus_second_sum_to_zero():
    sheet = play(GAME, 3, [{"first": [5, 3, 1], "second": [0, 2, 7]}])
    assert list(sheet.deals[0].scores) == [5, 1, -6]
    assert sum(sheet.deals[0].scores) == 0


def test_game_ends_at_plus_or_minus_limit():
    deal = {"first": [5, 2, 2], "second": [1, 4, 4]}  # +4 -2 -2
    sheet = play(GAME, 3, [deal, deal, deal])
    assert list(sheet.totals) == [12, -6, -6]
    assert sheet.finished and sheet.winners == (0,)
    # Reaching -limit ends the game too; the highest total still wins.
    losing = {"first": [0, 4, 5], "second": [5, 2, 2]}  # -5 +2 +3
    sheet = play(GAME, 3, [losing], options={"limit": 5})
    assert sheet.finished and sheet.winners == (2,)
    shared = {"first": [5, 4, 0], "second": [0, 0, 9]}  # +5 +4 -9
    sheet = play(
        GAME, 3, [shared, {"first": [3, 4, 2], "second": [4, 4, 1]}], options={"limit": 10}
    )
    assert list(sheet.totals) == [4, 4, -8]
    assert not sheet.finished
    sheet = play(GAME, 3, [{"first": [4, 4, 1], "second": [1, 1, 7]}], options={"limit": 3})
    assert sheet.finished and sheet.winners == (0, 1)


@pytest.mark.parametrize(
    ("deal", "field"),
    [
        ({"first": [4, 3, 3], "second": [3, 3, 3]}, "first"),
        ({"first": [3, 3, 3], "second": [10, -1, 0]}, "second[0]"),
        ({"first": [3, 3, 3], "second": [-1, 5, 5]}, "second[0]"),
        ({"first": [3, 3, 3]}, "second"),
        ({"first": [3, 3, 3, 0], "second": [3, 3, 3]}, "first"),
        ({"first": "333", "second": [3, 3, 3]}, "first"),
    ],
)
def test_rejections(deal, field):
    error = rejection(GAME, 3, [deal])
    assert (error.deal, error.field) == (0, field)


@pytest.mark.parametrize("limit", [0, -5, "ten", 2.5, None])
def test_bad_limit(limit):
    error = rejection(GAME, 3, [], options={"limit": limit})
    assert error.field == "options.limit"


def test_four_players_refused():
    assert rejection(GAME, 4, []).field == "players"
