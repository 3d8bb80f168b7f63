"""Each game's ``record_schema`` (what the API's schema shows of a deal) takes the records
the engine accepts, and refuses keys the engine refuses."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from rules_engine import GAMES, new_scoresheet

ACCEPTED: dict[str, list[dict[str, Any]]] = {
    "widow_whist": [{"widow": 0, "tricks": [4, 5, 4]}, {"widow": None, "tricks": [5, 4, 4]}],
    "italian_whist": [{"first": [3, 3, 3], "second": [5, 2, 2]}],
    "prediction_whist": [{"bids": [1, 0, 1, 0], "tricks": [1, 0, 0, 0], "trump": "S"}],
    "third_hand": [
        {"bids": [None, "Q"], "points": [60, 80]},
        {
            "bids": ["9", None],
            "captured": [
                ["AS", "10H", "KS", "QS", "JS", "10S"],
                ["9S", "AH", "KH", "QH", "JH", "9H", "AD", "KD"],
            ],
            "trump": "H",
            "exchanged": False,
        },
    ],
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_records_schema_is_valid_json_schema(game: str) -> None:
    Draft202012Validator.check_schema(GAMES[game].record_schema)
    assert set(ACCEPTED) == set(GAMES)


@pytest.mark.parametrize(("game", "record"), [(g, r) for g, rs in ACCEPTED.items() for r in rs])
def test_records_the_engine_takes_fit_the_schema(game: str, record: dict[str, Any]) -> None:
    seats = len(next(v for v in record.values() if isinstance(v, list)))
    sheet = new_scoresheet(game, ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"][:seats])
    if game == "prediction_whist":  # deal 1 has 8 cards each: play to a deal of 1 card
        while sheet.next_deal is not None and sheet.next_deal.info["hand_size"] != 1:
            size = sheet.next_deal.info["hand_size"]
            sheet.add({"bids": [0] * seats, "tricks": [size] + [0] * (seats - 1)})
    sheet.add(record)  # the engine takes it
    Draft202012Validator(GAMES[game].record_schema).validate(record)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_unknown_key_or_a_missing_one_is_outside_the_schema(game: str) -> None:
    validator = Draft202012Validator(GAMES[game].record_schema)
    record = ACCEPTED[game][0]
    assert not validator.is_valid({**record, "colour": "red"})
    required = GAMES[game].record_schema["required"]
    assert not validator.is_valid({k: v for k, v in record.items() if k != required[0]})
