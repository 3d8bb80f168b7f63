"""The rules of the next deals as data (rules_engine.constraints): what a phone checks and
scores offline must agree with the engine. A small reading of the data here (as the
page's script reads it) is compared with the engine's verdict, message for message."""

from __future__ import annotations

from typing import Any

import pytest

from rules_engine import RuleError, new_scoresheet
from rules_engine.constraints import deal_constraints
from tests.rules_engine.helpers import NAMES


def first_failure(deal: dict[str, Any], record: dict[str, Any], names: list[str]) -> str | None:
    """The message of the first check ``record`` breaks (as the page reads the checks)."""
    for check in deal["checks"]:
        values = record.get(check["field"])
        kind, message = check["check"], check["message"]
        if kind in ("range", "one_of"):
            for seat, value in enumerate(values):
                allowed = (
                    check["min"] <= value <= check["max"]
                    if kind == "range"
                    else value in check["values"]
                )
                if not allowed:
                    return message.format(name=names[seat], value=value)
        elif kind in ("sum", "sum_range"):
            low, high = (check["total"],) * 2 if kind == "sum" else (check["min"], check["max"])
            if not low <= sum(values) <= high:
                return message.format(sum=sum(values))
        elif kind == "pairs" and values[1] not in check["pairs"].get(str(values[0]), []):
            return message.format(value0=values[0], value1=values[1])
        elif kind == "not_sum":
            seat = check["seat"]
            forbidden = check["total"] - (sum(values) - values[seat])
            if sum(values) == check["total"]:
                return message.format(name=names[seat], forbidden=forbidden)
        elif kind == "above":
            seat, over, order = check["seat"], check["over"], check["order"]
            given = values[seat] is not None and values[over] is not None
            if given and order.index(values[seat]) <= order.index(values[over]):
                return message.format(name=names[seat], value=values[seat], over=values[over])
    return None


def scores(deal: dict[str, Any], record: dict[str, Any], seats: int) -> list[int]:
    """Each seat's score read off the deal's score table."""

    def key(spec: dict[str, str], seat: int) -> int:
        if "field" in spec:
            return int(record[spec["field"]][seat])
        return 1 if record[spec["is_seat"]] == seat else 0

    table = deal["score"]["table"]
    first, second = deal["score"]["keys"]
    return [table[key(first, seat)][key(second, seat)] for seat in range(seats)]


def agrees(game: str, players: int, record: dict[str, Any], **options: Any) -> None:
    """The data's verdict on ``record`` as the next deal is the engine's."""
    names = list(NAMES[:players])
    sheet = new_scoresheet(game, names, options=options or None)
    deal = deal_constraints(sheet)[0]
    failure = first_failure(deal, record, names)
    try:
        scored = sheet.preview(record)
    except RuleError as error:
        assert failure == error.message
        return
    assert failure is None
    if deal["score"] is not None:
        assert scores(deal, record, players) == list(scored.scores)


@pytest.mark.parametrize(
    "record",
    [
        {"widow": 1, "tricks": [4, 5, 4]},
        {"widow": None, "tricks": [3, 3, 7]},
        {"widow": 2, "tricks": [0, 13, 0]},
        {"widow": 0, "tricks": [5, 6, 1]},
        {"widow": 0, "tricks": [5, 6, 3]},
    ],
)
def test_widow_whist_checks_and_scores_agree_with_the_engine(record: dict[str, Any]) -> None:
    agrees("widow_whist", 3, record)
    agrees("widow_whist", 3, record, targets={"widow": 5, "other": 2})


@pytest.mark.parametrize(
    "record",
    [
        {"bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]},
        {"bids": [0, 0, 0, 1], "tricks": [0, 1, 0, 0]},
        {"bids": [0, 1, 0, 0], "tricks": [1, 0, 0, 0]},
        {"bids": [1, 0, 0, 1], "tricks": [1, 1, 0, 0]},
    ],
)
def test_prediction_whist_checks_and_scores_agree_with_the_engine(record: dict[str, Any]) -> None:
    agrees("prediction_whist", 4, record)
    agrees("prediction_whist", 4, record, hook=False)


def test_prediction_whist_forbids_the_dealers_bid_that_makes_the_hand_size() -> None:
    sheet = new_scoresheet("prediction_whist", ["Ann", "Bob", "Cy"])
    deal = deal_constraints(sheet)[0]
    hook = [check for check in deal["checks"] if check["check"] == "not_sum"]
    assert hook == [
        {
            "check": "not_sum",
            "field": "bids",
            "seat": 0,
            "total": 1,
            "message": "{name} deals and bids last, and may not make the bids add up to the "
            "hand size (1): {name} may not bid {forbidden}",
        }
    ]
    assert deal["score"]["table"] == [[5, -1], [-1, 6]]


@pytest.mark.parametrize(
    "record",
    [
        {"first": [3, 3, 3], "second": [2, 3, 4]},
        {"first": [4, 3, 3], "second": [2, 3, 4]},
        {"first": [3, 3, 3], "second": [2, 3, 3]},
    ],
)
def test_italian_whist_checks_and_scores_agree_with_the_engine(record: dict[str, Any]) -> None:
    agrees("italian_whist", 3, record)


@pytest.mark.parametrize(
    "record",
    [
        {"bids": ["K", "Q"], "points": [70, 50]},
        {"bids": ["Q", "K"], "points": [70, 50]},
        {"bids": [None, "9"], "points": [70, 50]},
        {"bids": [None, None], "points": [75, 50]},
        {"bids": [None, None], "points": [10, 50]},
        {"bids": [None, None], "points": [0, 140]},
        {"bids": ["A", None], "points": [140, 0]},
    ],
)
def test_third_hand_checks_agree_with_the_engine(record: dict[str, Any]) -> None:
    agrees("third_hand", 2, record)


def test_third_hand_has_no_score_table_and_only_the_next_deal_is_known() -> None:
    """Who deals next follows the scores, so nothing is said of the deals after."""
    sheet = new_scoresheet("third_hand", ["Ann", "Bob"])
    deals = deal_constraints(sheet, ahead=5)
    assert [(deal["number"], deal["dealer"], deal["score"]) for deal in deals] == [(1, 0, None)]


def test_the_deals_ahead_follow_the_dealer_and_the_context() -> None:
    sheet = new_scoresheet("prediction_whist", ["Ann", "Bob", "Cy"])
    deals = deal_constraints(sheet, ahead=5)
    assert [(d["number"], d["dealer"], d["hand_size"]) for d in deals] == [
        (1, 0, 1),
        (2, 1, 1),
        (3, 2, 1),
        (4, 0, 2),
        (5, 1, 3),
    ]
    italian = new_scoresheet("italian_whist", ["Ann", "Bob", "Cy"])
    assert [d["trumps"] for d in deal_constraints(italian, ahead=6)] == [
        "none",
        "none",
        "none",
        "spades",
        "spades",
        "spades",
    ]


def test_a_game_of_fixed_length_has_no_deals_ahead_beyond_its_end() -> None:
    sheet = new_scoresheet("widow_whist", ["Ann", "Bob", "Cy"], options={"finish": {"deals": 2}})
    assert [deal["number"] for deal in deal_constraints(sheet, ahead=5)] == [1, 2]
    sheet.extend([{"widow": None, "tricks": [5, 4, 4]}] * 2)
    assert deal_constraints(sheet, ahead=5) == []
