import pytest

from rules_engine import RuleError, new_scoresheet, score_record
from rules_engine.games.third_hand import possible_points
from tests.rules_engine.helpers import play, rejection

GAME = "third_hand"


def deal(bids, points, **extra):
    return {"bids": bids, "points": points, **extra}


@pytest.mark.parametrize(
    ("bids", "points", "scores", "holder", "contract", "made"),
    [
        # Dealer is seat 0, so seat 1 bids first.
        ([None, None], [60, 60], [60, 60], None, None, None),
        # Seat 1 bids Q (80) face up and takes 90 against 40: 90 + 50.
        ([None, "Q"], [40, 90], [40, 140], 1, 80, True),
        # Seat 1 bids K (90) and takes 70 against 50: 70 - 20.
        ([None, "K"], [50, 70], [50, 50], 1, 90, False),
        # Seat 1 bids 10 (60), the dealer tops it with A (100); both face up: doubled.
        # Dealer takes 110 against 20: 110 + 2 * 90.
        (["A", "10"], [110, 20], [290, 20], 0, 100, True),
        # Dealer bids 9 (50) after a pass; takes 40 against 60: 40 - 20.
        (["9", None], [40, 60], [20, 60], 0, 50, False),
        # Exactly the contract value is made.
        ([None, "J"], [40, 70], [40, 100], 1, 70, True),
        # A doubled failure: seat 1 bids J, dealer tops with Q (80), takes 60 v 60.
        (["Q", "J"], [60, 60], [60, 60], 0, 80, False),
    ],
)
def test_scoring(bids, points, scores, holder, contract, made):
    sheet = play(GAME, 2, [deal(bids, points)])
    played = sheet.deals[0]
    assert list(played.scores) == scores
    assert (played.context["holder"], played.context["contract"], played.context["made"]) == (
        holder,
        contract,
        made,
    )


def test_captured_cards_score_like_points():
    captured = [
        ["QH", "10S", "AD", "9C"],  # 10 + 10 + 1 + 9 = 30
        ["KH", "KS", "KD", "KC", "QS", "QD", "QC", "JH", "JS", "10D"],  # 100
    ]
    by_cards = play(GAME, 2, [{"bids": [None, "Q"], "captured": captured}])
    by_points = play(GAME, 2, [deal([None, "Q"], [30, 100])])
    assert by_cards.deals[0].scores == by_points.deals[0].scores == (30, 170)
    assert by_cards.deals[0].record["points"] == [30, 100]
    lower = [[c.lower() for c in captured[0]], captured[1]]
    assert play(GAME, 2, [{"bids": [None, "Q"], "captured": lower}]).totals == (30, 170)


def test_next_dealer_is_the_higher_scorer_or_on_a_tie_the_non_dealer():
    sheet = play(
        GAME,
        2,
        [
            deal([None, None], [50, 70]),  # seat 1 scores more: deals next
            deal([None, None], [80, 40]),  # seat 0 scores more: deals next
            deal([None, None], [60, 60]),  # tie with seat 0 dealing: seat 1 deals
            deal([None, None], [60, 60]),  # tie with seat 1 dealing: seat 0 deals
        ],
    )
    assert [d.dealer for d in sheet.deals] == [0, 1, 0, 1]
    assert sheet.next_deal is not None and sheet.next_deal.dealer == 0


def test_net_points_decide_the_next_dealer():
    # Seat 1 (non-dealer) captures more, but fails a K contract: 70 - 10 = 60 < 80.
    sheet = play(GAME, 2, [deal([None, "K"], [60, 70]), deal([None, None], [60, 60])])
    assert list(sheet.deals[0].scores) == [60, 60]
    # Tie: the non-dealer (seat 1) deals next.
    assert sheet.deals[1].dealer == 1


def test_game_ends_when_a_total_passes_500():
    run = [deal([None, None], [100, 30])] * 5  # seat 0 reaches exactly 500
    sheet = play(GAME, 2, run, first_dealer=1)
    assert sheet.totals == (500, 150)
    assert not sheet.finished
    sheet = play(GAME, 2, [*run, deal([None, None], [10, 90])])
    assert sheet.totals == (510, 240)
    assert sheet.finished and sheet.winners == (0,)
    assert (
        rejection(GAME, 2, [*run, deal([None, None], [10, 90]), deal([None, None], [60, 60])]).deal
        == 6
    )


def test_equal_top_totals_play_on():
    # 70 v 70 cannot be captured (70 takes 7 or 8 cards); 60 v 60 can (6 + 8 cards).
    assert rejection(GAME, 2, [deal([None, None], [70, 70])]).field == "points"
    run = [deal([None, None], [60, 60])] * 9  # 540 each
    sheet = play(GAME, 2, run)
    assert sheet.totals == (540, 540) and not sheet.finished
    sheet = play(GAME, 2, [*run, deal([None, None], [60, 70])])
    assert sheet.finished and sheet.winners == (1,)


def test_custom_target_and_contract_values():
    sheet = play(
        GAME,
        2,
        [deal([None, "9"], [60, 70])],
        options={"target": 100, "contract_values": {"9": 75}},
    )
    assert list(sheet.deals[0].scores) == [60, 60]  # 70 < 75: failed
    assert sheet.options["contract_values"]["A"] == 100


@pytest.mark.parametrize(
    ("deal_record", "field", "words"),
    [
        (deal([None, None], [55, 50]), "points[0]", "55"),
        (deal([None, None], [50, 49]), "points", "99"),
        (deal([None, None], [71, 70]), "points", "141"),
        (deal(["Q", "Q"], [60, 60]), "bids[0]", "higher"),
        (deal(["J", "Q"], [60, 60]), "bids[0]", "higher"),
        (deal([None, "8"], [60, 60]), "bids[1]", "9"),
        (deal([None, 11], [60, 60]), "bids[1]", "9"),
        (deal([None, None], [60, 60], exchanged=True), "exchanged", "contract"),
        (deal([None, None], [60, 60], trump="X"), "trump", "suit"),
        (deal([None, None], [60.0, 60]), "points[0]", "whole"),
        ({"bids": [None, None]}, "points", "points"),
        ({"points": [60, 60]}, "bids", "bid"),
        (deal([None], [60, 60]), "bids", "2"),
    ],
)
def test_rejections(deal_record, field, words):
    error = rejection(GAME, 2, [deal_record])
    assert (error.deal, error.field) == (0, field)
    assert words in error.message


TWELVE = ["KH", "KS", "KD", "KC", "QS", "QD", "QC", "JH", "JS", "10D", "JD", "JC"]


@pytest.mark.parametrize(
    ("captured", "field"),
    [
        ([["QH", "QH"], TWELVE], "captured[0]"),  # duplicate
        ([["8H", "QH"], TWELVE], "captured[0][0]"),  # not in the 24-card deck
        ([["QH"], TWELVE], "captured[0]"),  # odd number of cards
        ([["QH", "AH", "9H", "9S"], TWELVE[:8]], "captured"),  # 12 cards in all
        ([["QH", "AH"], [*TWELVE, "9S", "9D"]], "captured"),  # 16 cards in all
        ([["QX", "AH"], TWELVE], "captured[0][0]"),
        (["QH", TWELVE], "captured[0]"),
    ],
)
def test_bad_captured_cards(captured, field):
    error = rejection(GAME, 2, [{"bids": [None, None], "captured": captured}])
    assert (error.deal, error.field) == (0, field)


def test_points_that_disagree_with_captured_cards():
    captured = [["QH", "AH"], TWELVE]  # 11 and 120
    error = rejection(GAME, 2, [{"bids": [None, None], "captured": captured, "points": [20, 111]}])
    assert error.field == "points"


def test_possible_points_bounds():
    pairs = possible_points()
    assert all(100 <= a + b <= 140 for a, b in pairs)
    assert (0, 140) in pairs and (140, 0) in pairs
    assert (4, 96) in pairs  # four aces against four nines and six tens
    assert not any(55 in pair for pair in pairs)


@pytest.mark.parametrize("players", [1, 3])
def test_two_players_only(players):
    assert rejection(GAME, players, []).field == "players"


def test_a_new_game_s_contract_values_do_not_fall_as_the_bid_card_rises():
    """A dealer takes the contract over with a higher card: it asks for as many points at
    least (equal values are a house's choice). Checked when a game is set up."""
    with pytest.raises(RuleError) as refused:
        new_scoresheet(GAME, ["Ann", "Bob"], options={"contract_values": {"A": 40}}, set_up=True)
    assert refused.value.field == "options.contract_values.A"
    assert refused.value.message == (
        'Contract values: a higher bid card asks for at least as many points; "A" (40) is '
        'below "K" (90)'
    )
    sheet = new_scoresheet(
        GAME, ["Ann", "Bob"], options={"contract_values": {"9": 60, "K": 100}}, set_up=True
    )
    assert sheet.options["contract_values"] == {
        "9": 60,
        "10": 60,
        "J": 70,
        "Q": 80,
        "K": 100,
        "A": 100,
    }


def test_a_stored_game_with_falling_contract_values_is_still_read_and_scored():
    """Values accepted before the set-up check was added: the game is read, not set up."""
    falling = {"contract_values": {"A": 40}}
    assert (
        new_scoresheet(GAME, ["Ann", "Bob"], options=falling).options["contract_values"]["A"] == 40
    )
    sheet = score_record(
        {
            "game": GAME,
            "players": ["Ann", "Bob"],
            "options": falling,
            "deals": [deal([None, "A"], [60, 70])],
        }
    )
    assert list(sheet.deals[0].scores) == [60, 80]  # 70 >= 40: made, 70 + |70 - 60|
