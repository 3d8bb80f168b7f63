"""Black-box contract tests for ``python -m rules_engine``.

Every expected number below is derived by hand from /work/shared/RULES.md (the
authority) and the source texts it cites; the arithmetic is in the comments.
These tests deliberately know nothing about the engine's internals: they feed a
game record on stdin and read the JSON it prints. One file: the contract is one
command line, checked game by game.
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from tests.rules_engine.helpers import run_engine

NAMES3 = ["Ann", "Bob", "Cy"]
NAMES2 = ["Ann", "Bob"]


# --------------------------------------------------------------------------- helpers


def run_score_raw(text: str) -> subprocess.CompletedProcess[str]:
    return run_engine("score", "-", stdin=text)


def score(record: dict[str, Any]) -> dict[str, Any]:
    """Score a record that must be valid; return the parsed result."""
    proc = run_score_raw(json.dumps(record))
    assert proc.returncode == 0, (proc.returncode, proc.stdout, proc.stderr)
    out = json.loads(proc.stdout)
    assert isinstance(out, dict)
    return out


def score_error(payload: dict[str, Any] | str) -> dict[str, Any]:
    """Score a record that must be rejected; return the ``error`` object."""
    text = payload if isinstance(payload, str) else json.dumps(payload)
    proc = run_score_raw(text)
    assert proc.returncode == 2, (proc.returncode, proc.stdout[:2000], proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    out = json.loads(proc.stdout)  # exactly one JSON document on stdout
    assert isinstance(out, dict) and set(out) == {"error"}, out
    err = out["error"]
    assert isinstance(err, dict), err
    assert {"deal", "field", "message"} <= set(err), err
    assert isinstance(err["message"], str) and err["message"].strip(), err
    return err


def assert_deal_error(payload: dict[str, Any] | str, index: int) -> dict[str, Any]:
    err = score_error(payload)
    assert err["deal"] == index, err
    assert isinstance(err["field"], str) and err["field"], err
    return err


def assert_record_error(payload: dict[str, Any] | str) -> dict[str, Any]:
    err = score_error(payload)
    assert err["deal"] is None, err
    return err


def rec(game: str, players: list[str], deals: list[Any], **extra: Any) -> dict[str, Any]:
    r: dict[str, Any] = {"game": game, "players": players}
    r.update(extra)
    r["deals"] = deals
    return r


def col(out: dict[str, Any], key: str) -> list[Any]:
    return [d[key] for d in out["deals"]]


# --------------------------------------------------------------------------- games listing


def test_games_listing() -> None:
    proc = run_engine("games")
    assert proc.returncode == 0, proc.stderr
    json.loads(proc.stdout)
    for word in (
        "widow_whist",
        "third_hand",
        "italian_whist",
        "prediction_whist",
        "targets",
        "must_trump_when_void",
        "finish",
        "contract_values",
        "target",
        "limit",
        "hook",
    ):
        assert word in proc.stdout, word


# =========================================================================== widow whist


def ww(deals: list[Any], **extra: Any) -> dict[str, Any]:
    return rec("widow_whist", NAMES3, deals, **extra)


@pytest.mark.parametrize(
    "widow, tricks, targets, scores",
    [
        # Seed 002: "player A took dummy and made 5 tricks... score +1": 5 - 4 = +1.
        # Others 4 - 3 = +1 each.  5 + 4 + 4 = 13.
        (0, [5, 4, 4], [4, 3, 3], [1, 1, 1]),
        # Seed 002: "player B took 6 tricks ... +3": 6 - 3 = +3 (nobody took the widow).
        # 4 - 3 = 1, 3 - 3 = 0.  6 + 4 + 3 = 13.
        (None, [6, 4, 3], [3, 3, 3], [3, 1, 0]),
        # Seed 002: "player C took 1 trick ... -2": 1 - 3 = -2; 6 - 3 = +3 twice. 1+6+6 = 13.
        (None, [1, 6, 6], [3, 3, 3], [-2, 3, 3]),
        # RULES: "2 of 4 = -2, 6 of 3 = +3": seat 1 widow: 2 - 4 = -2; 5 - 3 = 2; 6 - 3 = 3.
        (1, [5, 2, 6], [3, 4, 3], [2, -2, 3]),
        # RULES: "4 of 4 = 0": seat 2 widow: 3-3=0, 6-3=3, 4-4=0.
        (2, [3, 6, 4], [3, 3, 4], [0, 3, 0]),
    ],
)
def test_widow_single_deal(
    widow: int | None, tricks: list[int], targets: list[int], scores: list[int]
) -> None:
    out = score(ww([{"widow": widow, "tricks": tricks}]))
    assert out["game"] == "widow_whist"
    assert out["players"] == NAMES3
    assert out["first_dealer"] == 0
    d = out["deals"][0]
    assert d["number"] == 1 and d["dealer"] == 0
    assert d["targets"] == targets
    assert d["scores"] == scores
    assert d["totals"] == scores
    assert out["totals"] == scores
    assert out["finished"] is False and out["winners"] == []
    assert out["next_deal"]["number"] == 2 and out["next_deal"]["dealer"] == 1


def test_widow_default_options_resolved() -> None:
    out = score(ww([]))
    assert out["options"]["targets"] == {"widow": 4, "other": 3}
    assert out["options"]["must_trump_when_void"] is False
    assert out["deals"] == [] and out["totals"] == [0, 0, 0]
    assert out["finished"] is False and out["winners"] == []
    assert out["next_deal"]["number"] == 1 and out["next_deal"]["dealer"] == 0


def test_widow_six_deals_rotation_from_first_dealer_2() -> None:
    deals = [
        {"widow": 0, "tricks": [3, 5, 5]},  # targets 4,3,3 -> -1, 2, 2   totals -1, 2, 2
        {"widow": None, "tricks": [4, 4, 5]},  # 3,3,3 -> 1, 1, 2         totals  0, 3, 4
        {"widow": 2, "tricks": [2, 3, 8]},  # 3,3,4 -> -1, 0, 4           totals -1, 3, 8
        {"widow": 1, "tricks": [0, 13, 0]},  # 3,4,3 -> -3, 9, -3         totals -4,12, 5
        {"widow": None, "tricks": [3, 3, 7]},  # 0, 0, 4                  totals -4,12, 9
        {"widow": 0, "tricks": [4, 4, 5]},  # 4,3,3 -> 0, 1, 2            totals -4,13,11
    ]
    out = score(ww(deals, first_dealer=2))
    assert out["first_dealer"] == 2
    assert col(out, "number") == [1, 2, 3, 4, 5, 6]
    # deal passes to the left: 2, (2+1)%3=0, 1, 2, 0, 1; next 2
    assert col(out, "dealer") == [2, 0, 1, 2, 0, 1]
    assert col(out, "targets") == [[4, 3, 3], [3, 3, 3], [3, 3, 4], [3, 4, 3], [3, 3, 3], [4, 3, 3]]
    assert col(out, "scores") == [
        [-1, 2, 2],
        [1, 1, 2],
        [-1, 0, 4],
        [-3, 9, -3],
        [0, 0, 4],
        [0, 1, 2],
    ]
    assert col(out, "totals") == [
        [-1, 2, 2],
        [0, 3, 4],
        [-1, 3, 8],
        [-4, 12, 5],
        [-4, 12, 9],
        [-4, 13, 11],
    ]
    assert out["totals"] == [-4, 13, 11]
    # no `finish` option: open-ended
    assert out["finished"] is False and out["winners"] == []
    assert out["next_deal"]["number"] == 7 and out["next_deal"]["dealer"] == 2


FIRST_TWO = [
    {"widow": None, "tricks": [5, 5, 3]},  # 2, 2, 0        totals 2, 2, 0
    {"widow": 0, "tricks": [4, 4, 5]},  # 4,3,3 -> 0, 1, 2  totals 2, 3, 2
]


def test_widow_finish_deals_not_yet() -> None:
    out = score(ww(FIRST_TWO, options={"finish": {"deals": 3}}))
    assert out["totals"] == [2, 3, 2]
    assert out["finished"] is False and out["winners"] == []
    assert out["next_deal"]["number"] == 3 and out["next_deal"]["dealer"] == 2


@pytest.mark.parametrize(
    "third, totals, winners",
    [
        # 5,4,4 no widow -> 2,1,1 ; totals 4,4,3 -> shared win seats 0 and 1
        ({"widow": None, "tricks": [5, 4, 4]}, [4, 4, 3], [0, 1]),
        # 3,3,7 no widow -> 0,0,4 ; totals 2,3,6 -> seat 2
        ({"widow": None, "tricks": [3, 3, 7]}, [2, 3, 6], [2]),
        # widow 1, 4,5,4 -> 1,1,1 ; totals 3,4,3 -> seat 1
        ({"widow": 1, "tricks": [4, 5, 4]}, [3, 4, 3], [1]),
    ],
)
def test_widow_finish_after_three_deals(
    third: dict[str, Any], totals: list[int], winners: list[int]
) -> None:
    out = score(ww(FIRST_TWO + [third], options={"finish": {"deals": 3}}))
    assert out["totals"] == totals
    assert out["finished"] is True
    assert sorted(out["winners"]) == winners
    assert out["next_deal"] is None


def test_widow_deal_after_finish_deals_rejected() -> None:
    deals = FIRST_TWO + [{"widow": None, "tricks": [5, 4, 4]}, {"widow": None, "tricks": [5, 4, 4]}]
    assert_deal_error(ww(deals, options={"finish": {"deals": 3}}), 3)


@pytest.mark.parametrize(
    "second, totals, winners",
    [
        # 6,4,3 -> 3,1,0 ; totals 5,3,0 -> reaches 5 exactly
        ({"widow": None, "tricks": [6, 4, 3]}, [5, 3, 0], [0]),
        # 9,2,2 -> 6,-1,-1 ; totals 8,1,-1 -> "reaches T or more"
        ({"widow": None, "tricks": [9, 2, 2]}, [8, 1, -1], [0]),
        # 6,6,1 -> 3,3,-2 ; totals 5,5,-2 -> shared
        ({"widow": None, "tricks": [6, 6, 1]}, [5, 5, -2], [0, 1]),
        # widow 2: 2,3,8 -> -1,0,4 ; totals 1,2,4 -> not yet
        ({"widow": 2, "tricks": [2, 3, 8]}, [1, 2, 4], None),
    ],
)
def test_widow_finish_target(
    second: dict[str, Any], totals: list[int], winners: list[int] | None
) -> None:
    first = {"widow": None, "tricks": [5, 5, 3]}  # 2, 2, 0 -> below 5
    only_first = score(ww([first], options={"finish": {"target": 5}}))
    assert only_first["finished"] is False and only_first["next_deal"]["number"] == 2
    out = score(ww([first, second], options={"finish": {"target": 5}}))
    assert out["totals"] == totals
    if winners is None:
        assert out["finished"] is False and out["winners"] == []
        assert out["next_deal"]["number"] == 3 and out["next_deal"]["dealer"] == 2
    else:
        assert out["finished"] is True
        assert sorted(out["winners"]) == winners
        assert out["next_deal"] is None


def test_widow_deal_after_finish_target_rejected() -> None:
    deals = [
        {"widow": None, "tricks": [5, 5, 3]},  # totals 2,2,0
        {"widow": None, "tricks": [6, 4, 3]},  # totals 5,3,0 -> finished
        {"widow": None, "tricks": [5, 5, 3]},
    ]
    assert_deal_error(ww(deals, options={"finish": {"target": 5}}), 2)


def test_widow_custom_targets() -> None:
    deals = [
        {"widow": 1, "tricks": [4, 5, 4]},  # targets 4,5,4 -> 0, 0, 0
        {"widow": None, "tricks": [4, 4, 5]},  # targets 4,4,4 -> 0, 0, 1
        {"widow": 0, "tricks": [7, 6, 0]},  # targets 5,4,4 -> 2, 2, -4
    ]
    out = score(ww(deals, options={"targets": {"widow": 5, "other": 4}}))
    assert out["options"]["targets"] == {"widow": 5, "other": 4}
    assert col(out, "targets") == [[4, 5, 4], [4, 4, 4], [5, 4, 4]]
    assert col(out, "scores") == [[0, 0, 0], [0, 0, 1], [2, 2, -4]]
    assert out["totals"] == [2, 2, -3]  # 0+0+2, 0+0+2, 0+1-4


GOOD_WW = {"widow": None, "tricks": [5, 4, 4]}


@pytest.mark.parametrize(
    "bad",
    [
        # the seed's +1/+3/-2 as one deal: 5 + 6 + 1 = 12, not 13
        {"widow": 0, "tricks": [5, 6, 1]},
        {"widow": None, "tricks": [14, 0, 0]},
        {"widow": None, "tricks": [14, -1, 0]},  # sums to 13 but 14 and -1 are out of 0..13
        {"widow": None, "tricks": [-1, 7, 7]},  # sums to 13
        {"widow": None, "tricks": [3.5, 4.5, 5]},  # sums to 13, not whole numbers
        {"widow": None, "tricks": ["3", 5, 5]},
        {"widow": None, "tricks": [True, 6, 6]},  # a boolean is not a trick count
        {"widow": 3, "tricks": [5, 4, 4]},  # seats are 0..2
        {"widow": -1, "tricks": [5, 4, 4]},
    ],
)
def test_widow_bad_deal_rejected(bad: dict[str, Any]) -> None:
    # bad deal is the second one -> deal index 1
    assert_deal_error(ww([GOOD_WW, bad]), 1)


@pytest.mark.parametrize("players", [NAMES2, ["A", "B", "C", "D"]])
def test_widow_wrong_player_count(players: list[str]) -> None:
    assert_record_error(rec("widow_whist", players, []))


# =========================================================================== third hand
#
# Card points: A 1, K/Q/J/10 10, 9 9.  Deck: 4 aces, 4 nines, 16 ten-point cards.
# Each pair of points below is realisable from disjoint cards with an even number of
# cards per player and 14 in all (cards noted as aces/nines/tens).


def th(deals: list[Any], **extra: Any) -> dict[str, Any]:
    return rec("third_hand", NAMES2, deals, **extra)


def test_third_hand_default_options() -> None:
    out = score(th([]))
    assert out["options"]["target"] == 500
    assert out["options"]["contract_values"] == {
        "9": 50,
        "10": 60,
        "J": 70,
        "Q": 80,
        "K": 90,
        "A": 100,
    }
    assert out["next_deal"]["number"] == 1 and out["next_deal"]["dealer"] == 0


@pytest.mark.parametrize(
    "bids, points, scores, holder, contract, made, next_dealer",
    [
        # No bids: each scores own points. 70 (6 tens+9+A, 8 cards) / 50 (4 tens+9+A, 6 cards).
        # Seat 0 scored more -> seat 0 deals next.
        ([None, None], [70, 50], [70, 50], None, None, None, 0),
        # Non-dealer (seat 1) bids Q = 80, dealer passes -> seat 1 holds, not doubled.
        # h = 90 (8 tens+9+A, 10 cards) >= 80 made: 90 + |90-40| = 140; other 40 (4 tens).
        ([None, "Q"], [40, 90], [40, 140], 1, 80, True, 1),
        # Dealer (seat 0) makes the first bid A = 100 after a pass.  h = 80 (8 tens) < 100
        # failed: 80 - |80-40| = 40; other 40 (2 tens+2 nines+2 aces).  Tie 40/40 ->
        # the non-dealer (seat 1) deals next.
        (["A", None], [80, 40], [40, 40], 0, 100, False, 1),
        # Non-dealer bids 10 (60), dealer overbids K (90): dealer holds, doubled.
        # h = 100 (10 tens) made: diff 70 doubled 140 -> 240; other 30 (2 tens+9+A).
        (["K", "10"], [100, 30], [240, 30], 0, 90, True, 0),
        # Non-dealer 9, dealer J (70): doubled.  h = 60 (6 tens) < 70 failed:
        # 60 - 2*|60-70| = 40; other 70.  Seat 1 scored more -> seat 1 deals.
        (["J", "9"], [60, 70], [40, 70], 0, 70, False, 1),
    ],
)
def test_third_hand_single_deal(
    bids: list[str | None],
    points: list[int],
    scores: list[int],
    holder: int | None,
    contract: int | None,
    made: bool | None,
    next_dealer: int,
) -> None:
    out = score(th([{"bids": bids, "points": points}]))
    d = out["deals"][0]
    assert d["number"] == 1 and d["dealer"] == 0
    assert d["holder"] == holder
    assert d["contract"] == contract
    assert d["made"] is made
    assert d["scores"] == scores
    assert d["totals"] == scores
    assert out["finished"] is False and out["winners"] == []
    assert out["next_deal"]["number"] == 2
    assert out["next_deal"]["dealer"] == next_dealer


def test_third_hand_dealer_changes() -> None:
    deals = [
        # D1 dealer 0, no bids: 50 / 70 -> seat 1 more -> next dealer 1.  totals 50, 70
        {"bids": [None, None], "points": [50, 70]},
        # D2 dealer 1, non-dealer seat 0 bids Q (80); h=90 made: 90+50=140; other 40.
        # seat 0 more -> next dealer 0.  totals 190, 110
        {"bids": ["Q", None], "points": [90, 40]},
        # D3 dealer 0 bids A (100) after a pass; h=80 failed: 80-40=40; other 40. tie ->
        # non-dealer (seat 1) deals next.  totals 230, 150
        {"bids": ["A", None], "points": [80, 40]},
        # D4 dealer 1: non-dealer seat 0 bids 9, dealer seat 1 bids 10 (60) -> seat 1 holds,
        # doubled.  h=60 >= 60 made: 60 + 2*10 = 80; other 70.  seat 1 more -> dealer 1.
        # totals 230+70 = 300, 150+80 = 230
        {"bids": ["9", "10"], "points": [70, 60]},
    ]
    out = score(th(deals))
    assert col(out, "dealer") == [0, 1, 0, 1]
    assert col(out, "holder") == [None, 0, 0, 1]
    assert col(out, "contract") == [None, 80, 100, 60]
    assert col(out, "made") == [None, True, False, True]
    assert col(out, "scores") == [[50, 70], [140, 40], [40, 40], [70, 80]]
    assert col(out, "totals") == [[50, 70], [190, 110], [230, 150], [300, 230]]
    assert out["totals"] == [300, 230]
    assert out["finished"] is False and out["winners"] == []
    assert out["next_deal"]["number"] == 5 and out["next_deal"]["dealer"] == 1


def test_third_hand_first_dealer_1_tie_goes_to_non_dealer() -> None:
    # dealer 1, non-dealer 0.  No bids, 60/60 (6 tens | 4 tens+2 nines+2 aces) -> tie ->
    # the non-dealer, seat 0, deals next.
    out = score(th([{"bids": [None, None], "points": [60, 60]}], first_dealer=1))
    assert out["deals"][0]["dealer"] == 1
    assert out["deals"][0]["scores"] == [60, 60]
    assert out["next_deal"]["dealer"] == 0


CAPTURED_SEAT0 = ["KH", "QH", "JH", "10H"]  # 4 cards, 40 points
CAPTURED_SEAT1 = ["KS", "QS", "JS", "10S", "KD", "QD", "JD", "10D", "9C", "AD"]  # 80+9+1 = 90


def test_third_hand_captured_same_as_points() -> None:
    # Seat 1 (non-dealer) bids Q (80) and makes it with 90: 90 + 50 = 140; seat 0 40.
    by_cards = score(th([{"bids": [None, "Q"], "captured": [CAPTURED_SEAT0, CAPTURED_SEAT1]}]))
    by_points = score(th([{"bids": [None, "Q"], "points": [40, 90]}]))
    for out in (by_cards, by_points):
        d = out["deals"][0]
        assert d["scores"] == [40, 140]
        assert d["totals"] == [40, 140]
        assert d["holder"] == 1 and d["contract"] == 80 and d["made"] is True
        assert out["next_deal"]["dealer"] == 1
    assert by_cards["totals"] == by_points["totals"]


def test_third_hand_captured_no_contract() -> None:
    # "QH","10S","AD","9C": 10+10+1+9 = 30 (4 cards); seat 1: 10 ten-point cards = 100.
    cards0 = ["QH", "10S", "AD", "9C"]
    cards1 = ["KH", "JH", "10H", "KS", "QS", "JS", "KD", "QD", "JD", "10D"]
    out = score(th([{"bids": [None, None], "captured": [cards0, cards1]}]))
    assert out["deals"][0]["scores"] == [30, 100]
    assert out["next_deal"]["dealer"] == 1


def test_third_hand_custom_contract_values() -> None:
    values = {"9": 40, "10": 55, "J": 65, "Q": 95, "K": 105, "A": 120}
    # seat 1 bids Q worth 95 now; h=90 < 95 failed: 90 - 50 = 40; other 40. tie -> seat 1.
    out = score(
        th([{"bids": [None, "Q"], "points": [40, 90]}], options={"contract_values": values})
    )
    d = out["deals"][0]
    assert out["options"]["contract_values"] == values
    assert d["contract"] == 95 and d["made"] is False
    assert d["scores"] == [40, 40]
    assert out["next_deal"]["dealer"] == 1


# [100, 20]: 8 tens + 2 nines + 2 aces (12 cards) / 2 tens. Seat 0 always scores more,
# so seat 0 keeps the deal.
HUNDRED = {"bids": [None, None], "points": [100, 20]}


def test_third_hand_exactly_500_does_not_finish() -> None:
    out = score(th([HUNDRED] * 5))  # 5 * 100 = 500, not MORE than 500
    assert out["totals"] == [500, 100]
    assert out["finished"] is False and out["winners"] == []
    assert out["next_deal"]["number"] == 6 and out["next_deal"]["dealer"] == 0


def test_third_hand_just_over_500_finishes() -> None:
    # 101 = 9 tens + 9 + 2 aces (12 cards); other 2 tens.  4*100 + 101 = 501 > 500.
    out = score(th([HUNDRED] * 4 + [{"bids": [None, None], "points": [101, 20]}]))
    assert col(out, "dealer") == [0, 0, 0, 0, 0]
    assert out["totals"] == [501, 100]
    assert out["finished"] is True
    assert out["winners"] == [0]
    assert out["next_deal"] is None


def test_third_hand_deal_after_finish_rejected() -> None:
    deals = [HUNDRED] * 4 + [{"bids": [None, None], "points": [101, 20]}, HUNDRED]
    assert_deal_error(th(deals), 5)


def test_third_hand_equal_top_plays_on() -> None:
    tie = {"bids": [None, None], "points": [60, 60]}
    # target 100. D1 dealer 0: 60/60 tie -> dealer 1.  D2 dealer 1: 60/60 -> totals
    # 120/120, both over 100 but equal -> play on; tie -> non-dealer 0 deals.
    out = score(th([tie, tie], options={"target": 100}))
    assert out["totals"] == [120, 120]
    assert col(out, "dealer") == [0, 1]
    assert out["finished"] is False and out["winners"] == []
    assert out["next_deal"]["number"] == 3 and out["next_deal"]["dealer"] == 0
    # D3 dealer 0: 70/50 -> totals 190/170 -> finished, seat 0 wins.
    out = score(th([tie, tie, {"bids": [None, None], "points": [70, 50]}], options={"target": 100}))
    assert out["totals"] == [190, 170]
    assert out["finished"] is True and out["winners"] == [0]
    assert out["next_deal"] is None


GOOD_TH = {"bids": [None, None], "points": [70, 50]}  # dealer 0 -> next dealer 0


@pytest.mark.parametrize(
    "bad",
    [
        {"bids": [None, None], "points": [55, 60]},  # 55 is no sum of an even card count
        {"bids": [None, None], "points": [49, 50]},  # 99 < 100
        {"bids": [None, None], "points": [71, 70]},  # 141 > 140
        # 140 needs 14 ten-point cards, so 50 would be 5 cards (odd): impossible pair
        {"bids": [None, None], "points": [50, 90]},
        {"bids": ["Q", "Q"], "points": [70, 50]},  # dealer (0) not higher than non-dealer Q
        {"bids": ["10", "Q"], "points": [70, 50]},  # dealer lower than non-dealer
        {"bids": [None, "8"], "points": [70, 50]},  # rank outside 9..A
        {"bids": ["8", None], "points": [70, 50]},
        {"bids": [None, None], "captured": [["KH", "QH", "JH", "QH"], CAPTURED_SEAT1]},  # dup
        {"bids": [None, None], "captured": [["KH", "QH", "JH", "8H"], CAPTURED_SEAT1]},  # 8H
        {"bids": [None, None], "captured": [["KH", "QH", "JH"], CAPTURED_SEAT1]},  # 13 cards
        # 14 cards but 3 / 11: odd per player
        {"bids": [None, None], "captured": [["KH", "QH", "JH"], CAPTURED_SEAT1 + ["KC"]]},
        # the same card in both players' piles
        {"bids": [None, None], "captured": [["KH", "QH", "JH", "KS"], CAPTURED_SEAT1]},
    ],
)
def test_third_hand_bad_deal_rejected(bad: dict[str, Any]) -> None:
    assert_deal_error(th([GOOD_TH, bad]), 1)


def test_third_hand_three_players_rejected() -> None:
    assert_record_error(rec("third_hand", NAMES3, []))


# =========================================================================== italian whist


def iw(deals: list[Any], **extra: Any) -> dict[str, Any]:
    return rec("italian_whist", NAMES3, deals, **extra)


ZERO_IW = {"first": [3, 3, 3], "second": [3, 3, 3]}  # scores 0, 0, 0


def test_italian_cycle_and_rotation() -> None:
    out = score(iw([ZERO_IW] * 7, first_dealer=1))
    assert out["options"]["limit"] == 10
    assert col(out, "number") == [1, 2, 3, 4, 5, 6, 7]
    assert col(out, "dealer") == [1, 2, 0, 1, 2, 0, 1]
    assert col(out, "trumps") == ["none", "none", "none", "spades", "spades", "spades", "none"]
    assert col(out, "pass") == ["left", "right", "keep", "left", "right", "keep", "left"]
    assert out["totals"] == [0, 0, 0]
    assert out["finished"] is False and out["winners"] == []
    nd = out["next_deal"]
    # deal 8 = cycle position 2: no trumps, pass right; dealer (1 + 7) % 3 = 2
    assert (nd["number"], nd["dealer"], nd["trumps"], nd["pass"]) == (8, 2, "none", "right")


@pytest.mark.parametrize(
    "n_before, number, trumps, pass_",
    [
        (0, 1, "none", "left"),
        (2, 3, "none", "keep"),
        (3, 4, "spades", "left"),
        (5, 6, "spades", "keep"),
        (11, 12, "spades", "keep"),
        (12, 13, "none", "left"),
    ],
)
def test_italian_next_deal_context(n_before: int, number: int, trumps: str, pass_: str) -> None:
    out = score(iw([ZERO_IW] * n_before))
    nd = out["next_deal"]
    assert nd["number"] == number and nd["dealer"] == (number - 1) % 3
    assert nd["trumps"] == trumps and nd["pass"] == pass_


def test_italian_scores_first_minus_second() -> None:
    deals = [
        {"first": [5, 3, 1], "second": [2, 3, 4]},  # 3, 0, -3
        {"first": [0, 9, 0], "second": [4, 0, 5]},  # -4, 9, -5  totals -1, 9, -8
    ]
    out = score(iw(deals))
    assert col(out, "scores") == [[3, 0, -3], [-4, 9, -5]]
    for s in col(out, "scores"):
        assert sum(s) == 0
    assert out["totals"] == [-1, 9, -8]
    assert out["finished"] is False  # nobody at +-10


def test_italian_default_limit_10() -> None:
    d1 = {"first": [9, 0, 0], "second": [0, 4, 5]}  # 9, -4, -5
    out = score(iw([d1]))
    assert out["totals"] == [9, -4, -5] and out["finished"] is False
    assert out["next_deal"]["number"] == 2 and out["next_deal"]["dealer"] == 1
    d2 = {"first": [1, 4, 4], "second": [0, 5, 4]}  # 1, -1, 0 -> totals 10, -5, -5
    out = score(iw([d1, d2]))
    assert out["totals"] == [10, -5, -5]
    assert out["finished"] is True and out["winners"] == [0]
    assert out["next_deal"] is None
    assert_deal_error(iw([d1, d2, ZERO_IW]), 2)


@pytest.mark.parametrize(
    "deal, totals, winners",
    [
        ({"first": [6, 2, 1], "second": [1, 3, 5]}, [5, -1, -4], [0]),  # +5 reached
        ({"first": [1, 4, 4], "second": [6, 2, 1]}, [-5, 2, 3], [2]),  # -5 reached, top 3
        ({"first": [4, 4, 1], "second": [1, 1, 7]}, [3, 3, -6], [0, 1]),  # -6; shared top
        ({"first": [4, 4, 1], "second": [2, 2, 5]}, [2, 2, -4], None),  # nobody at +-5
    ],
)
def test_italian_limit_5(
    deal: dict[str, Any], totals: list[int], winners: list[int] | None
) -> None:
    out = score(iw([deal], options={"limit": 5}))
    assert out["options"]["limit"] == 5
    assert out["totals"] == totals
    if winners is None:
        assert out["finished"] is False and out["winners"] == []
        assert out["next_deal"]["number"] == 2
    else:
        assert out["finished"] is True
        assert sorted(out["winners"]) == winners
        assert out["next_deal"] is None


@pytest.mark.parametrize(
    "bad",
    [
        {"first": [3, 3, 2], "second": [3, 3, 3]},  # first sums to 8
        {"first": [3, 3, 3], "second": [4, 3, 3]},  # second sums to 10
        {"first": [-1, 5, 5], "second": [3, 3, 3]},  # sums to 9 but negative
        {"first": [3, 3, 3], "second": [10, -1, 0]},
    ],
)
def test_italian_bad_deal_rejected(bad: dict[str, Any]) -> None:
    assert_deal_error(iw([ZERO_IW, bad]), 1)


def test_italian_four_players_rejected() -> None:
    assert_record_error(rec("italian_whist", ["A", "B", "C", "D"], []))


# =========================================================================== prediction whist

SIZES3 = [1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1]
SIZES5 = [1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1, 1]


def sizes_for(n: int) -> list[int]:
    # RULES: 1 (once per player), 2..7, 8 (once per player), 7..2, 1 (once per player)
    return [1] * n + list(range(2, 8)) + [8] * n + list(range(7, 1, -1)) + [1] * n


def pw_filler(n: int, count: int, first_dealer: int = 0) -> list[dict[str, Any]]:
    """All bid 0 (sum 0 != hand size, hook-safe); the seat left of the dealer takes
    every trick.  That seat scores -h(h+1)/2, the others +5."""
    sizes = sizes_for(n)
    deals = []
    for k in range(count):
        h = sizes[k]
        dealer = (first_dealer + k) % n
        tricks = [0] * n
        tricks[(dealer + 1) % n] = h
        deals.append({"bids": [0] * n, "tricks": tricks})
    return deals


def pw(n: int, deals: list[Any], **extra: Any) -> dict[str, Any]:
    return rec("prediction_whist", [f"P{i}" for i in range(n)], deals, **extra)


def test_prediction_sizes_formula_matches_source_lists() -> None:
    assert sizes_for(3) == SIZES3 and len(SIZES3) == 3 * 3 + 12
    assert sizes_for(5) == SIZES5 and len(SIZES5) == 3 * 5 + 12


def test_prediction_empty_game_next_deal() -> None:
    out = score(pw(3, []))
    assert out["options"]["hook"] is True
    nd = out["next_deal"]
    assert (nd["number"], nd["dealer"], nd["hand_size"], nd["trumps_turned"]) == (1, 0, 1, True)


def test_prediction_three_player_full_game() -> None:
    out = score(pw(3, pw_filler(3, 21)))
    assert col(out, "number") == list(range(1, 22))
    assert col(out, "hand_size") == SIZES3
    assert col(out, "trumps_turned") == [s != 8 for s in SIZES3]
    assert col(out, "dealer") == [k % 3 for k in range(21)]
    # Deal k (1-based): dealer (k-1)%3, taker k%3.
    # seat 0 takes deals 3,6,9,12,15,18,21: sizes 1,4,7,8,5,2,1 -> T = 1+10+28+36+15+3+1 = 94
    # seat 1 takes deals 1,4,...,19: sizes 1,2,5,8,7,4,1 -> T = 1+3+15+36+28+10+1 = 94
    # seat 2 takes deals 2,5,...,20: sizes 1,3,6,8,6,3,1 -> T = 1+6+21+36+21+6+1 = 92
    # each seat gets +5 on the other 14 deals = 70.
    assert out["totals"] == [70 - 94, 70 - 94, 70 - 92]  # -24, -24, -22
    assert out["deals"][0]["scores"] == [5, -1, 5]
    assert out["deals"][9]["scores"] == [5, -36, 5]  # deal 10: 8 cards, taker seat 1
    assert out["finished"] is True
    assert out["winners"] == [2]
    assert out["next_deal"] is None


def test_prediction_three_player_deal_after_end_rejected() -> None:
    deals = pw_filler(3, 21) + [{"bids": [0, 0, 0], "tricks": [1, 0, 0]}]
    assert_deal_error(pw(3, deals), 21)


@pytest.mark.parametrize("played", [0, 3, 4, 9, 10, 12, 13, 20])
def test_prediction_three_player_next_deal(played: int) -> None:
    out = score(pw(3, pw_filler(3, played)))
    nd = out["next_deal"]
    assert nd["number"] == played + 1
    assert nd["dealer"] == played % 3
    assert nd["hand_size"] == SIZES3[played]
    assert nd["trumps_turned"] is (SIZES3[played] != 8)
    assert out["finished"] is False and out["winners"] == []


def test_prediction_five_player_full_game() -> None:
    out = score(pw(5, pw_filler(5, 27, first_dealer=3), first_dealer=3))
    assert col(out, "hand_size") == SIZES5
    assert col(out, "trumps_turned") == [s != 8 for s in SIZES5]
    assert col(out, "dealer") == [(3 + k) % 5 for k in range(27)]
    assert out["finished"] is True and out["next_deal"] is None
    assert out["winners"]


@pytest.mark.parametrize("played", [0, 4, 5, 11, 15, 16, 22, 26])
def test_prediction_five_player_next_deal(played: int) -> None:
    out = score(pw(5, pw_filler(5, played)))
    nd = out["next_deal"]
    assert nd["number"] == played + 1 and nd["dealer"] == played % 5
    assert nd["hand_size"] == SIZES5[played]
    assert nd["trumps_turned"] is (SIZES5[played] != 8)


@pytest.mark.parametrize("n", [4, 6])
def test_prediction_other_player_counts(n: int) -> None:
    total = 3 * n + 12  # 24 for 4 players, 30 for 6
    out = score(pw(n, pw_filler(n, total)))
    assert len(out["deals"]) == total
    assert col(out, "hand_size") == sizes_for(n)
    assert out["finished"] is True and out["next_deal"] is None
    assert_deal_error(pw(n, pw_filler(n, total) + [pw_filler(n, 1)[0]]), total)


# Deal 10 of a 3-player game: 8 cards, dealer 0 (bids last), no trumps turned.
@pytest.mark.parametrize(
    "bids, tricks, scores",
    [
        # bids sum 9 != 8.  exact 8 -> 5+36 = 41; exact 0 -> 5; bid 1 got 0 -> -1
        ([8, 0, 1], [8, 0, 0], [41, 5, -1]),
        # bids sum 7.  exact 0 -> 5; exact 7 -> 5+28 = 33; bid 0 got 1 -> -1
        ([0, 7, 0], [0, 7, 1], [5, 33, -1]),
        # sum 10.  exact 6 -> 5+21 = 26; exact 2 -> 5+3 = 8; bid 2 got 0 -> off 2 -> -3
        ([6, 2, 2], [6, 2, 0], [26, 8, -3]),
        # sum 12.  exact 5 -> 20; exact 3 -> 11; bid 4 got 0 -> off 4 -> -10
        ([5, 3, 4], [5, 3, 0], [20, 11, -10]),
        # sum 7.  exact 4 -> 15; bid 0 got 3 -> -6; bid 3 got 1 -> off 2 -> -3
        ([4, 0, 3], [4, 3, 1], [15, -6, -3]),
        # sum 16.  off 8 each -> -36
        ([0, 8, 8], [8, 0, 0], [-36, -36, -36]),
        # sum 13.  7 got 0 -> -28; 0 got 7 -> -28; 6 got 1 -> off 5 -> -15
        ([7, 0, 6], [0, 7, 1], [-28, -28, -15]),
        # sum 9.  exact 1 -> 6; 1 got 7 -> off 6 -> -21; 7 got 0 -> -28
        ([1, 1, 7], [1, 7, 0], [6, -21, -28]),
    ],
)
def test_prediction_score_table(bids: list[int], tricks: list[int], scores: list[int]) -> None:
    out = score(pw(3, pw_filler(3, 9) + [{"bids": bids, "tricks": tricks}]))
    d = out["deals"][-1]
    assert d["number"] == 10 and d["dealer"] == 0
    assert d["hand_size"] == 8 and d["trumps_turned"] is False
    assert d["scores"] == scores


def test_prediction_first_deal_totals() -> None:
    # first_dealer 2: deal 1 has 1 card, bids 0,0,0 (sum 0 != 1).  Seat 0 takes the trick:
    # bid 0 got 1 -> -1; others exact 0 -> 5.
    out = score(pw(3, [{"bids": [0, 0, 0], "tricks": [1, 0, 0]}], first_dealer=2))
    d = out["deals"][0]
    assert d["dealer"] == 2 and d["hand_size"] == 1 and d["trumps_turned"] is True
    assert d["scores"] == [-1, 5, 5] and out["totals"] == [-1, 5, 5]
    assert out["next_deal"]["dealer"] == 0 and out["next_deal"]["hand_size"] == 1


def test_prediction_hook_rule() -> None:
    # deal 1, 1 card, dealer 0 bids last; bids 0+1+0 = 1 = hand size -> forbidden
    bad = {"bids": [0, 1, 0], "tricks": [0, 1, 0]}
    assert_deal_error(pw(3, [bad]), 0)
    # deal 4 (2 cards, dealer 0): bids 1+1+0 = 2 -> forbidden; reported at index 3
    assert_deal_error(pw(3, pw_filler(3, 3) + [{"bids": [0, 1, 1], "tricks": [0, 1, 1]}]), 3)
    # with hook off it is allowed: everyone exact -> 5, 6, 5
    out = score(pw(3, [bad], options={"hook": False}))
    assert out["options"]["hook"] is False
    assert out["deals"][0]["scores"] == [5, 6, 5]


@pytest.mark.parametrize(
    "bad",
    [
        {"bids": [2, 0, 0], "tricks": [1, 0, 0]},  # bid 2 > hand size 1
        {"bids": [0, -1, 0], "tricks": [1, 0, 0]},  # negative bid
        {"bids": [0, 0, 0], "tricks": [1, 1, 0]},  # tricks sum 2 != 1
        {"bids": [0, 0, 0], "tricks": [0, 0, 0]},  # tricks sum 0 != 1
        {"bids": [0, 0, 0], "tricks": [2, -1, 0]},  # sums to 1 but out of range
        {"bids": [0, 0], "tricks": [1, 0, 0]},  # too few bids
    ],
)
def test_prediction_bad_deal_rejected(bad: dict[str, Any]) -> None:
    # second deal (index 1) is again a 1-card deal, dealer 1
    assert_deal_error(pw(3, pw_filler(3, 1) + [bad]), 1)


@pytest.mark.parametrize("n", [2, 7])
def test_prediction_wrong_player_count(n: int) -> None:
    assert_record_error(pw(n, []))


# =========================================================================== record level


@pytest.mark.parametrize(
    "payload",
    [
        {"game": "bridge", "players": NAMES3, "deals": []},
        {"game": "widow_whist", "players": NAMES3, "options": {"colour": "red"}, "deals": []},
        {"game": "italian_whist", "players": NAMES3, "options": {"limit": 0}, "deals": []},
        {"game": "italian_whist", "players": NAMES3, "options": {"limit": "ten"}, "deals": []},
        {"game": "widow_whist", "players": NAMES3, "options": {"finish": "soon"}, "deals": []},
        {"game": "prediction_whist", "players": NAMES3, "options": {"hook": "maybe"}, "deals": []},
        {
            "game": "third_hand",
            "players": NAMES2,
            "options": {"contract_values": "lots"},
            "deals": [],
        },
        {"game": "italian_whist", "players": "Ann,Bob,Cy", "deals": []},
        {"game": "widow_whist", "players": NAMES3, "first_dealer": 3, "deals": []},
        {"game": "widow_whist", "players": NAMES3, "first_dealer": -1, "deals": []},
        {"game": "third_hand", "players": NAMES2, "first_dealer": 2, "deals": []},
        "this is not json {",
        "[]",
        json.dumps([{"game": "widow_whist", "players": NAMES3, "deals": []}]),
    ],
)
def test_record_level_rejections(payload: dict[str, Any] | str) -> None:
    assert_record_error(payload)


# =========================================================================== robustness

W = '{"game": "widow_whist", "players": ["A", "B", "C"], '
IT = '{"game": "italian_whist", "players": ["A", "B", "C"], '
T = '{"game": "third_hand", "players": ["A", "B"], '
P = '{"game": "prediction_whist", "players": ["A", "B", "C"], '

MALFORMED = [
    W + '"deals": {"0": {"widow": null, "tricks": [5, 4, 4]}}}',
    W + '"deals": [[null, [5, 4, 4]]]}',
    W + '"deals": [{"widow": null, "tricks": null}]}',
    W + '"deals": [{"widow": null, "tricks": "544"}]}',
    W + '"deals": [{"widow": null, "tricks": [5, 8]}]}',
    W + '"deals": [{"widow": null, "tricks": [5, 4, 4, 0]}]}',
    W + '"deals": [{"widow": null, "tricks": [[5], [4], [4]]}]}',
    W + '"deals": [{"widow": null, "tricks": {"a": 5, "b": 4, "c": 4}}]}',
    W + '"deals": [null]}',
    W + '"deals": [{}]}',
    W + '"deals": [{"widow": "1", "tricks": [4, 5, 4]}]}',
    W + '"deals": [{"widow": [1], "tricks": [4, 5, 4]}]}',
    W + '"deals": [{"widow": null, "tricks": [NaN, 6, 7]}]}',
    W + '"deals": [{"widow": null, "tricks": [1e400, 0, 0]}]}',
    W + '"deals": "abc"}',
    W + '"deals": null}',
    W + '"options": [], "deals": []}',
    W + '"options": "finish", "deals": []}',
    W + '"first_dealer": "0", "deals": []}',
    W + '"first_dealer": 1.5, "deals": []}',
    W + '"deals": ' + "[" * 100000 + "]" * 100000 + "}",
    '{"game": 42, "players": ["A", "B", "C"], "deals": []}',
    '{"game": null, "players": ["A", "B", "C"], "deals": []}',
    '{"game": ["widow_whist"], "players": ["A", "B", "C"], "deals": []}',
    '{"game": "widow_whist", "players": null, "deals": []}',
    '{"game": "widow_whist", "players": {"A": 1, "B": 2, "C": 3}, "deals": []}',
    '{"players": ["A", "B", "C"], "deals": []}',
    '"hello"',
    "42",
    "null",
    "",
    "\x00\x01{",
    "{" * 50000,
    IT + '"deals": [{"first": null, "second": [3, 3, 3]}]}',
    IT + '"deals": [{"first": [3, 3, 3], "second": "999"}]}',
    IT + '"deals": [{"first": [9, 0], "second": [3, 3, 3]}]}',
    IT + '"deals": [{"first": [3, 3, 3]}]}',
    IT + '"deals": [{"first": [3.0, 3.5, 2.5], "second": [3, 3, 3]}]}',
    T + '"deals": [{"bids": "QQ", "points": [70, 50]}]}',
    T + '"deals": [{"bids": [null], "points": [70, 50]}]}',
    T + '"deals": [{"bids": [null, {"rank": "Q"}], "points": [70, 50]}]}',
    T + '"deals": [{"bids": [null, null], "points": null}]}',
    T + '"deals": [{"bids": [null, null], "points": ["70", "50"]}]}',
    T + '"deals": [{"bids": [null, null], "points": [70.5, 49.5]}]}',
    T + '"deals": [{"bids": [null, null]}]}',
    T + '"deals": [{"bids": [null, null], "captured": "QH"}]}',
    T + '"deals": [{"bids": [null, null], "captured": [["QH"]]}]}',
    T + '"deals": [{"bids": [null, null], "captured": [[1, 2], [3, 4]]}]}',
    P + '"deals": [{"bids": [[0], 0, 0], "tricks": [1, 0, 0]}]}',
    P + '"deals": [{"bids": [0, 0, 0], "tricks": {"a": 1}}]}',
    P + '"deals": [{"bids": null, "tricks": [1, 0, 0]}]}',
    P + '"deals": [{"bids": [0, 0, 0], "tricks": [true, false, false]}]}',
    P + '"deals": [{"bids": [0, 0, "0"], "tricks": [1, 0, 0]}]}',
]


@pytest.mark.parametrize("text", MALFORMED, ids=[f"malformed{i}" for i in range(len(MALFORMED))])
def test_malformed_input_is_a_clean_error(text: str) -> None:
    score_error(text)
