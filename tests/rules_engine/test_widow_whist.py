import pytest

from tests.rules_engine.helpers import play, rejection

GAME = "widow_whist"


@pytest.mark.parametrize(
    ("widow", "tricks", "scores"),
    [
        # seeds/002: A took the dummy and made 5 (+1), B took 6 (+3); C's 1 trick (-2)
        # shown in a deal that adds up to 13.
        (0, [5, 6, 2], [1, 3, -1]),
        (0, [5, 7, 1], [1, 4, -2]),
        # seeds/000: widow taker with 2 tricks -2, 4 tricks 0, 5 tricks +1;
        # others: 4 tricks +1, 5 tricks +2.
        (1, [4, 2, 7], [1, -2, 4]),
        (1, [5, 4, 4], [2, 0, 1]),
        (2, [3, 5, 5], [0, 2, 1]),
        # Nobody took the widow: everyone's target is 3.
        (None, [4, 4, 5], [1, 1, 2]),
    ],
)
def test_deal_scores_tricks_minus_target(widow, tricks, scores):
    sheet = play(GAME, 3, [{"widow": widow, "tricks": tricks}])
    assert list(sheet.deals[0].scores) == scores
    expected_targets = [4 if seat == widow else 3 for seat in range(3)]
    assert sheet.deals[0].context["targets"] == expected_targets


def test_seed_examples_as_one_deal_are_impossible():
    # +1/+3/-2 in one deal needs 5 + 6 + 1 = 12 tricks.
    error = rejection(GAME, 3, [{"widow": 0, "tricks": [5, 6, 1]}])
    assert error.deal == 0
    assert error.field == "tricks"
    assert error.message == "tricks add up to 12; a deal of widow whist has 13 tricks"


def test_dealer_passes_left_and_totals_run():
    deals = [{"widow": None, "tricks": [5, 4, 4]}] * 4
    sheet = play(GAME, 3, deals, first_dealer=2)
    assert [d.dealer for d in sheet.deals] == [2, 0, 1, 2]
    assert [list(d.totals) for d in sheet.deals] == [[2, 1, 1], [4, 2, 2], [6, 3, 3], [8, 4, 4]]
    assert sheet.next_deal is not None and sheet.next_deal.dealer == 0
    assert not sheet.finished and sheet.winners == ()


def test_finish_after_n_deals_with_shared_win():
    deals = [
        {"widow": 0, "tricks": [6, 4, 3]},  # +2 +1 0
        {"widow": 1, "tricks": [3, 4, 6]},  # 0 0 +3
        {"widow": None, "tricks": [3, 5, 5]},  # 0 +2 +2
    ]
    sheet = play(GAME, 3, deals, options={"finish": {"deals": 3}})
    assert list(sheet.totals) == [2, 3, 5]
    assert sheet.finished and sheet.winners == (2,)
    assert sheet.next_deal is None
    tied = play(GAME, 3, deals[:2], options={"finish": {"deals": 2}})
    assert list(tied.totals) == [2, 1, 3]
    shared = play(GAME, 3, [{"widow": None, "tricks": [5, 5, 3]}], options={"finish": {"deals": 1}})
    assert shared.winners == (0, 1)


def test_finish_at_target_score():
    deal = {"widow": None, "tricks": [7, 3, 3]}  # +4 0 0
    sheet = play(GAME, 3, [deal, deal], options={"finish": {"target": 8}})
    assert sheet.finished and sheet.winners == (0,)
    error = rejection(GAME, 3, [deal, deal, deal], options={"finish": {"target": 8}})
    assert error.deal == 2 and "finished" in error.message


def test_open_ended_game_never_finishes():
    sheet = play(GAME, 3, [{"widow": None, "tricks": [13, 0, 0]}] * 30)
    assert not sheet.finished
    assert sheet.totals[0] == 300


def test_custom_targets():
    sheet = play(GAME, 3, [{"widow": 1, "tricks": [4, 5, 4]}], options={"targets": {"widow": 5}})
    assert list(sheet.deals[0].scores) == [1, 0, 1]
    assert sheet.options["targets"] == {"widow": 5, "other": 3}


@pytest.mark.parametrize(
    ("deal", "field"),
    [
        ({"widow": None, "tricks": [14, 0, -1]}, "tricks[0]"),
        ({"widow": None, "tricks": [-1, 7, 7]}, "tricks[0]"),
        ({"widow": None, "tricks": [3.5, 4.5, 5]}, "tricks[0]"),
        ({"widow": None, "tricks": ["3", 5, 5]}, "tricks[0]"),
        ({"widow": None, "tricks": [True, 6, 6]}, "tricks[0]"),
        ({"widow": None, "tricks": [6, 7]}, "tricks"),
        ({"widow": None, "tricks": [4, 4, 4]}, "tricks"),
        ({"widow": 3, "tricks": [4, 4, 5]}, "widow"),
        ({"widow": "Ann", "tricks": [4, 4, 5]}, "widow"),
        ({"tricks": [4, 4, 5]}, "widow"),
        ({"widow": None}, "tricks"),
        ({"widow": None, "tricks": [4, 4, 5], "trump": "C"}, "trump"),
    ],
)
def test_rejections_name_the_field(deal, field):
    error = rejection(GAME, 3, [{"widow": None, "tricks": [5, 4, 4]}, deal])
    assert error.deal == 1
    assert error.field == field
    assert error.message


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"finish": {"deals": 0}}, "options.finish.deals"),
        ({"finish": {"rounds": 3}}, "options.finish"),
        ({"finish": {"deals": 3, "target": 21}}, "options.finish"),
        ({"targets": {"widow": 14}}, "options.targets.widow"),
        ({"targets": {"dummy": 4}}, "options.targets"),
        ({"must_trump_when_void": "yes"}, "options.must_trump_when_void"),
        ({"limit": 10}, "options.limit"),
    ],
)
def test_bad_options(options, field):
    error = rejection(GAME, 3, [], options=options)
    assert error.deal is None and error.field == field


@pytest.mark.parametrize("players", [2, 4])
def test_three_players_only(players):
    error = rejection(GAME, players, [])
    assert error.field == "players" and "3 players" in error.message
