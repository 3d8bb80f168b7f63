"""POST /api/v1/rules/trick/: the rules assistant through the API."""

from __future__ import annotations

import pytest

from tests.api.helpers import World, client_for, error_of

URL = "/api/v1/rules/trick/"


def test_a_trick_is_judged(world: World) -> None:
    response = world.client("member").post(
        URL, {"game": "prediction_whist", "trump": "H", "cards": ["QS", "9H", "KS"]}
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["winner"] == 1
    assert body["winning_card"] == "9H"
    assert body["decided"] is True
    assert [card["card"] for card in body["cards"]] == ["QS", "9H", "KS"]
    assert body["explanation"][-1].startswith("Seat 1 wins the trick with the 9♥")


def test_a_joker_choice_is_listed_not_guessed(world: World) -> None:
    response = world.client("scorer").post(
        URL,
        {
            "game": "italian_whist",
            "deal": 4,
            "half": "second",
            "players": ["Ann", "Bob", "Cy"],
            "cards": ["QH", "BJ", "5D"],
        },
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["winner"] is None
    assert sorted(c["winner"] for c in body["choices"]) == [0, 1]
    assert body["cards"][1]["options"][0]["suit"] == "S"


def test_revokes_are_reported(world: World) -> None:
    response = world.client("member").post(
        URL,
        {
            "game": "widow_whist",
            "cards": ["5H", "2C", "AD"],
            "options": {"must_trump_when_void": True},
            "held": [None, None, ["AD", "3C"]],
        },
    )
    assert response.status_code == 200, response.content
    assert [r["seat"] for r in response.json()["revokes"]] == [2]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "third_hand", "trump": "S", "cards": ["7H", "9H"]}, "cards[0]"),
        ({"game": "third_hand", "cards": ["AH", "9H"]}, "trump"),
        ({"game": "widow_whist", "cards": ["AH", "KH"]}, "cards"),
        ({"game": "widow_whist", "cards": ["AH", "KH", "QH"], "half": "first"}, "half"),
        ({"game": "euchre", "cards": ["AH"]}, "game"),
        ({"game": "widow_whist", "cards": [1, 2, 3]}, "cards[0]"),
        ({"game": "widow_whist", "cards": ["AH", "KH", "QH"], "leader": 7}, "leader"),
    ],
)
def test_bad_tricks_get_400_naming_the_field(world: World, body: dict, field: str) -> None:
    response = world.client("member").post(URL, body)
    assert response.status_code == 400
    error = error_of(response)
    assert error["field"] == field, error


def test_the_assistant_needs_a_logged_in_caller(world: World) -> None:
    response = client_for(None).post(URL, {"game": "widow_whist", "cards": ["AH", "KH", "QH"]})
    assert response.status_code == 401
