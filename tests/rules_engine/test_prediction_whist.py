import pytest

from rules_engine import RuleError, new_scoresheet, parse_card, trick_winner
from rules_engine.cards import Suit
from rules_engine.games.prediction_whist import deal_score, hand_sizes, pack
from tests.rules_engine.helpers import play, rejection

GAME = "prediction_whist"


def valid_deal(size: int, players: int, dealer: int) -> dict:
    """Everyone but the dealer bids 0 and takes nothing; the dealer bids 0 too (sum 0 != size)."""
    tricks = [0] * players
    tricks[dealer] = size
    return {"bids": [0] * players, "tricks": tricks}


def full_game(players: int) -> list[dict]:
    sizes = hand_sizes(players)
    return [valid_deal(size, players, i % players) for i, size in enumerate(sizes)]


def test_three_player_sequence():
    assert hand_sizes(3) == (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1)


def test_five_player_sequence():
    assert hand_sizes(5) == (1,) * 5 + (2, 3, 4, 5, 6, 7) + (8,) * 5 + (7, 6, 5, 4, 3, 2) + (1,) * 5


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_whole_game_follows_the_sequence(players):
    sheet = play(GAME, players, full_game(players))
    assert len(sheet.deals) == 3 * players + 12
    assert [d.context["hand_size"] for d in sheet.deals] == list(hand_sizes(players))
    assert [d.context["trumps_turned"] for d in sheet.deals] == [
        size < 8 for size in hand_sizes(players)
    ]
    assert sheet.finished and sheet.next_deal is None
    assert sheet.winners  # someone wins
    error = rejection(GAME, players, [*full_game(players), valid_deal(1, players, 0)])
    assert error.deal == 3 * players + 12


def test_pack_removes_low_ranks():
    assert pack(3) == ("9", "10", "J", "Q", "K", "A")
    assert pack(4)[0] == "7" and pack(5)[0] == "5" and pack(6)[0] == "3"
    assert all(len(pack(n)) * 4 == 8 * n for n in range(3, 7))


def test_score_tables():
    assert [deal_score(b, b) for b in range(9)] == [5, 6, 8, 11, 15, 20, 26, 33, 41]
    assert [deal_score(0, k) for k in range(1, 9)] == [-1, -3, -6, -10, -15, -21, -28, -36]
    assert deal_score(5, 2) == -6 and deal_score(2, 5) == -6


def test_scores_through_a_record():
    # Deal 4 for 3 players is 2 cards; dealer is seat 0 (first_dealer 1, then 2, 0, 1...).
    sheet = play(
        GAME,
        3,
        [
            valid_deal(1, 3, 1),
            valid_deal(1, 3, 2),
            valid_deal(1, 3, 0),
            {"bids": [2, 1, 0], "tricks": [2, 0, 0]},
        ],
        first_dealer=1,
    )
    fourth = sheet.deals[3]
    assert fourth.dealer == 1 and fourth.context["hand_size"] == 2
    assert list(fourth.scores) == [8, -1, 5]


def test_hook_rule_names_the_forbidden_bid():
    # 4 cards, dealer seat 0 bids last; others bid 1 and 2, so the dealer may not bid 1.
    deals = full_game(3)[:6]
    deal = {"bids": [1, 1, 2], "tricks": [1, 1, 2]}
    assert play(GAME, 3, deals).next_deal.as_dict() == {
        "number": 7,
        "dealer": 0,
        "hand_size": 5,
        "trumps_turned": True,
    }
    deals = full_game(3)[:5]  # next is deal 6: 4 cards, dealer seat 2
    deal = {"bids": [1, 2, 1], "tricks": [1, 2, 1]}
    error = rejection(GAME, 3, [*deals, deal])
    assert (error.deal, error.field) == (5, "bids[2]")
    assert "Cy may not bid 1" in error.message
    sheet = play(GAME, 3, [*deals, deal], options={"hook": False})
    assert list(sheet.deals[5].scores) == [6, 8, 6]


def test_no_trump_on_eight_card_deals():
    deals = full_game(3)
    ninth = dict(deals[9], trump="H")
    assert rejection(GAME, 3, [*deals[:9], ninth]).field == "trump"
    eighth = dict(deals[8], trump="H")
    assert play(GAME, 3, [*deals[:8], eighth]).deals[8].record["trump"] == "H"


@pytest.mark.parametrize(
    ("deal", "field"),
    [
        ({"bids": [2, 0, 0], "tricks": [1, 0, 0]}, "bids[0]"),
        ({"bids": [0, 0, 0], "tricks": [1, 1, 0]}, "tricks"),
        ({"bids": [0, 0, 0], "tricks": [0, 0, 2]}, "tricks[2]"),
        ({"bids": [0, 0], "tricks": [1, 0, 0]}, "bids"),
        ({"bids": [0, 0, 0], "tricks": [1, 0, 0], "trump": "X"}, "trump"),
        ({"tricks": [1, 0, 0]}, "bids"),
    ],
)
def test_rejections(deal, field):
    error = rejection(GAME, 3, [deal])
    assert (error.deal, error.field) == (0, field)


@pytest.mark.parametrize("players", [2, 7])
def test_three_to_six_players(players):
    error = rejection(GAME, players, [])
    assert error.field == "players" and "3 to 6 players" in error.message


def test_source_trick_example():
    # seeds/004: trumps hearts; K♣ A♠ A♦ -> K♣; Q♠ 9♥ K♠ -> 9♥; J♥ Q♥ A♣ -> Q♥; 8♦ J♠ Q♣ -> 8♦.
    tricks = [("KC", "AS", "AD"), ("QS", "9H", "KS"), ("JH", "QH", "AC"), ("8D", "JS", "QC")]
    winners = [trick_winner([parse_card(c, "card") for c in t], Suit.HEARTS) for t in tricks]
    assert winners == [0, 1, 1, 0]


def test_bids_entered_before_play_are_checked_as_they_are_kept() -> None:
    sheet = new_scoresheet("prediction_whist", ["Ann", "Bob", "Cy"])
    context = sheet.next_deal
    assert context is not None and context.info["hand_size"] == 1
    game, table = sheet.game, sheet.table
    assert game.check_draft(table, context, {"bids": [1, None, 0]}) == {"bids": [1, None, 0]}
    with pytest.raises(RuleError, match="Bob's bid must be a whole number from 0 to 1") as bad:
        game.check_draft(table, context, {"bids": [0, 2, None]})
    assert bad.value.field == "bids[1]"
    for wrong in ({"bids": [0, 0]}, {"bids": "0,0,0"}, {}):
        with pytest.raises(RuleError, match="one entry per seat"):
            game.check_draft(table, context, wrong)
    with pytest.raises(RuleError, match="Bob's bid"):
        game.check_draft(table, context, {"bids": [0, True, None]})
    widow = new_scoresheet("widow_whist", ["Ann", "Bob", "Cy"])
    assert widow.next_deal is not None
    with pytest.raises(RuleError, match="keeps nothing of a deal before it is played"):
        widow.game.check_draft(widow.table, widow.next_deal, {"bids": [0, 0, 0]})
