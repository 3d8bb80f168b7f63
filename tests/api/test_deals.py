"""Recording deals: whole games against the rules engine's command line, idempotent
retries, conflicts, refusals; corrections with If-Match; history."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from rules_engine import RuleError, score_record
from scorekeeper.models import Deal, DealRevision, Game, GameStatus, IdempotencyKey, Result
from tests.api.helpers import (
    ITALIAN_DEALS,
    WIDOW_DEALS,
    World,
    engine_score,
    error_of,
    error_with,
)

DB_ONLY_KEYS = ("record", "version", "entered_by", "entered_at")


def deals_url(game: Game | int) -> str:
    pk = game if isinstance(game, int) else game.pk
    return f"/api/v1/games/{pk}/deals/"


def post_deal(
    client: APIClient, game: Game, number: int, record: dict[str, Any], **headers: str
) -> Any:
    return client.post(deals_url(game), {"number": number, **record}, **headers)


def assert_agrees_with_engine(api: dict[str, Any], engine: dict[str, Any]) -> None:
    for key in ("players", "first_dealer", "options", "totals", "finished", "winners", "next_deal"):
        assert api[key] == engine[key], key
    stripped = [{k: v for k, v in d.items() if k not in DB_ONLY_KEYS} for d in api["deals"]]
    assert stripped == engine["deals"]


# --- Whole games, deal by deal ---------------------------------------------------------------

THIRD_HAND = [{"bids": [None, None], "points": [60, 60]}] + [
    {"bids": [None, "Q"], "points": [40, 90], "trump": "S"}
] * 4


def fixed(records: list[dict[str, Any]]) -> Callable[[dict[str, Any], int], dict[str, Any]]:
    return lambda next_deal, index: records[index]


def prediction_deal(next_deal: dict[str, Any], index: int) -> dict[str, Any]:
    """Seat ``index % 3`` takes every trick; all bid exactly, but the dealer bids one
    more or less than they make, so the bids never add up to the hand size (the hook)."""
    size, dealer = next_deal["hand_size"], next_deal["dealer"]
    tricks = [0, 0, 0]
    tricks[index % 3] = size
    bids = list(tricks)
    bids[dealer] = tricks[dealer] + 1 if tricks[dealer] < size else tricks[dealer] - 1
    return {"bids": bids, "tricks": tricks}


@pytest.mark.parametrize(
    ("game_type", "seats", "options", "first_dealer", "make_deal", "deals", "winners"),
    [
        ("widow_whist", 3, {"finish": {"deals": 6}}, 2, fixed(WIDOW_DEALS), 6, None),
        ("third_hand", 2, {}, 0, fixed(THIRD_HAND), 5, [1]),
        ("italian_whist", 3, {"limit": 5}, 1, fixed(ITALIAN_DEALS), 3, [0]),
        ("prediction_whist", 3, {}, 0, prediction_deal, 21, None),
    ],
)
def test_a_whole_game_through_the_api_agrees_with_the_engine(
    world: World,
    game_type: str,
    seats: int,
    options: dict[str, Any],
    first_dealer: int,
    make_deal: Callable[[dict[str, Any], int], dict[str, Any]],
    deals: int,
    winners: list[int] | None,
) -> None:
    client = world.client("scorer")
    players = world.players[:seats]
    start = client.post(
        "/api/v1/games/",
        {
            "club": world.club.pk,
            "game_type": game_type,
            "players": [p.pk for p in players],
            "options": options,
            "first_dealer": first_dealer,
        },
    )
    assert start.status_code == 201, start.json()
    game = start.json()
    record: dict[str, Any] = {
        "game": game_type,
        "players": [p.name for p in players],
        "first_dealer": first_dealer,
        "options": options,
        "deals": [],
    }
    assert_agrees_with_engine(game, engine_score(record))

    while not game["finished"]:
        assert len(record["deals"]) < deals, "the game should have finished by now"
        next_deal = game["next_deal"]
        deal = make_deal(next_deal, len(record["deals"]))
        response = client.post(
            deals_url(game["id"]),
            {"number": next_deal["number"], **deal},
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )
        assert response.status_code == 201, response.json()
        record["deals"].append(deal)
        engine = engine_score(record)
        posted = response.json()
        assert posted["number"] == next_deal["number"] and posted["version"] == 1
        assert posted["scores"] == engine["deals"][-1]["scores"]
        assert posted["totals"] == engine["deals"][-1]["totals"]
        assert response["ETag"] == '"1"'
        game = client.get(f"/api/v1/games/{game['id']}/").json()
        assert_agrees_with_engine(game, engine)

    assert len(record["deals"]) == deals
    assert game["status"] == "finished" and game["next_deal"] is None
    final = engine_score(record)
    assert final["finished"] and game["winners"] == final["winners"]
    if winners is not None:
        assert game["winners"] == winners
    stored = Game.objects.get(pk=game["id"])
    assert stored.status == GameStatus.FINISHED and stored.deal_count == deals
    results = Result.objects.filter(game=stored).order_by("position")
    assert [r.total for r in results] == final["totals"]
    assert [r.position for r in results if r.won] == final["winners"]
    listed = client.get(deals_url(game["id"])).json()
    assert [d["record"] for d in listed] == record["deals"]


# --- Idempotency ------------------------------------------------------------------------------


def test_same_key_and_body_replays_the_first_response(world: World) -> None:
    game = world.start()
    client = world.client("scorer")
    first = post_deal(client, game, 1, WIDOW_DEALS[0], HTTP_IDEMPOTENCY_KEY="key-1")
    assert first.status_code == 201
    assert first["Location"] == "http://testserver" + reverse("api:deal-detail", args=[game.pk, 1])
    again = post_deal(client, game, 1, WIDOW_DEALS[0], HTTP_IDEMPOTENCY_KEY="key-1")
    assert again.status_code == 201
    assert again.json() == first.json()
    assert Deal.objects.filter(game=game).count() == 1
    assert DealRevision.objects.filter(game=game).count() == 1
    # Still the first answer after the game has moved on.
    assert (
        post_deal(client, game, 2, WIDOW_DEALS[1], HTTP_IDEMPOTENCY_KEY="key-2").status_code == 201
    )
    late = post_deal(client, game, 1, WIDOW_DEALS[0], HTTP_IDEMPOTENCY_KEY="key-1")
    assert (late.status_code, late.json()) == (201, first.json())
    assert Deal.objects.filter(game=game).count() == 2


def test_same_key_with_another_body_is_refused(world: World) -> None:
    game = world.start()
    client = world.client("scorer")
    post_deal(client, game, 1, WIDOW_DEALS[0], HTTP_IDEMPOTENCY_KEY="key-1")
    response = post_deal(client, game, 1, WIDOW_DEALS[1], HTTP_IDEMPOTENCY_KEY="key-1")
    assert response.status_code == 422
    error = error_of(response)
    assert (error["code"], error["field"]) == ("idempotency_key_reused", "Idempotency-Key")
    assert Deal.objects.get(game=game).record == WIDOW_DEALS[0]


@pytest.mark.parametrize("key", ["", "   ", "k" * 201])
def test_bad_idempotency_keys_are_refused(world: World, key: str) -> None:
    game = world.start()
    response = post_deal(world.client("scorer"), game, 1, WIDOW_DEALS[0], HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400
    assert error_of(response)["field"] == "Idempotency-Key"
    assert not Deal.objects.exists() and not IdempotencyKey.objects.exists()


# --- Conflicts and refusals -------------------------------------------------------------------


def test_a_number_already_recorded_is_a_conflict_with_the_deal_there(world: World) -> None:
    game = world.start()
    client = world.client("scorer")
    first = post_deal(client, game, 1, WIDOW_DEALS[0])
    response = post_deal(world.client("admin"), game, 1, WIDOW_DEALS[1])
    assert response.status_code == 409
    error = error_of(response)
    assert (error["code"], error["field"], error["deal"]) == ("conflict", "number", 1)
    assert error["details"]["deal"] == first.json()
    assert error["details"]["next_number"] == 2
    assert "by scorer" in error["message"]
    assert Deal.objects.get(game=game).record == WIDOW_DEALS[0]


def test_skipping_ahead_is_a_conflict(world: World) -> None:
    game = world.start()
    response = post_deal(world.client("scorer"), game, 3, WIDOW_DEALS[0])
    assert response.status_code == 409
    error = error_of(response)
    assert error["field"] == "number" and error["details"] == {"next_number": 1}
    assert "the next deal is 1" in error["message"]
    assert not Deal.objects.exists()


def test_a_bad_deal_is_refused_with_the_engines_field_and_message(world: World) -> None:
    game = world.record(world.start(), WIDOW_DEALS[0])
    bad = {"widow": 0, "tricks": [4, 5, 5]}
    with pytest.raises(RuleError) as refused:
        score_record({"game": "widow_whist", "players": ["A", "B", "C"], "deals": [bad]})
    response = post_deal(world.client("scorer"), game, 2, bad)
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid"
    assert (error["field"], error["message"]) == (refused.value.field, refused.value.message)
    assert error["field"] == "tricks" and error["deal"] == 2
    assert Deal.objects.filter(game=game).count() == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"widow": 0, "tricks": [4, 5, 4]}, "number"),
        ({"number": 0, "widow": 0, "tricks": [4, 5, 4]}, "number"),
        ({"number": -1, "widow": 0, "tricks": [4, 5, 4]}, "number"),
        ({"number": "one", "widow": 0, "tricks": [4, 5, 4]}, "number"),
        ({"number": "1", "widow": 0, "tricks": [4, 5, 4]}, "number"),
        ({"number": 1.5, "widow": 0, "tricks": [4, 5, 4]}, "number"),
        ({"number": True, "widow": 0, "tricks": [4, 5, 4]}, "number"),
        ({"number": 10**12, "widow": 0, "tricks": [4, 5, 4]}, "number"),
        ({"number": None, "widow": 0, "tricks": [4, 5, 4]}, "number"),
        ({"number": 1, "widow": 0}, "tricks"),
        ({"number": 1, "widow": 0, "tricks": "lots"}, "tricks"),
        ({"number": 1, "widow": 7, "tricks": [4, 5, 4]}, "widow"),
        ({"number": 1, "widow": 0, "tricks": [4, 5, 4], "bids": [1, 2, 3]}, "bids"),
        ([1, 2, 3], None),
    ],
)
def test_deal_input_is_validated(world: World, body: Any, field: str | None) -> None:
    game = world.start()
    response = world.client("scorer").post(deals_url(game), body)
    assert response.status_code == 400, response.json()
    assert error_of(response)["field"] == field
    assert not Deal.objects.exists()


def test_a_finished_game_takes_no_more_deals(world: World) -> None:
    game = world.record(world.start(), *WIDOW_DEALS)
    assert game.status == GameStatus.FINISHED
    client = world.client("scorer")
    response = post_deal(client, game, 7, WIDOW_DEALS[0])
    assert response.status_code == 409
    assert "finished" in error_of(response)["message"]
    duplicate = post_deal(client, game, 6, WIDOW_DEALS[0])
    assert duplicate.status_code == 409
    assert error_of(duplicate)["details"]["deal"]["number"] == 6
    assert Deal.objects.filter(game=game).count() == 6


def test_deals_list_and_detail(world: World) -> None:
    game = world.record(world.start(), *WIDOW_DEALS[:3])
    client = world.client("member")
    listed = client.get(deals_url(game)).json()
    assert [d["number"] for d in listed] == [1, 2, 3]
    assert [d["record"] for d in listed] == WIDOW_DEALS[:3]
    detail = client.get(f"{deals_url(game)}2/")
    assert detail.status_code == 200
    assert detail.json() == listed[1]
    assert detail["ETag"] == '"1"'
    assert client.get(f"{deals_url(game)}4/").status_code == 404


# --- Corrections ------------------------------------------------------------------------------


def correct(
    client: APIClient, game: Game, number: int, body: dict[str, Any], **headers: str
) -> Any:
    return client.put(f"{deals_url(game)}{number}/", body, **headers)


@pytest.mark.parametrize("if_match", ['"1"', "1", ' "1" '])
def test_correction_rescores_later_deals(world: World, if_match: str) -> None:
    game = world.record(world.start(), *WIDOW_DEALS[:4])
    client = world.client("scorer")
    fixed_deal = {"widow": 1, "tricks": [3, 7, 3]}
    response = correct(
        client, game, 2, {"record": fixed_deal, "reason": "misread"}, HTTP_IF_MATCH=if_match
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["record"] == fixed_deal and body["version"] == 2
    assert response["ETag"] == '"2"'

    records = [WIDOW_DEALS[0], fixed_deal, *WIDOW_DEALS[2:4]]
    engine = engine_score(
        {
            "game": "widow_whist",
            "players": ["Ann", "Bob", "Cy"],
            "options": {"finish": {"deals": 6}},
            "deals": records,
        }
    )
    api = client.get(f"/api/v1/games/{game.pk}/").json()
    assert_agrees_with_engine(api, engine)
    assert [d["version"] for d in api["deals"]] == [1, 2, 1, 1]
    # The later deals' running totals moved with the correction.
    stored = list(Deal.objects.filter(game=game).order_by("number"))
    assert [d.totals for d in stored] == [d["totals"] for d in engine["deals"]]
    assert client.get(f"{deals_url(game)}2/")["ETag"] == '"2"'


def test_stale_if_match_is_refused(world: World) -> None:
    game = world.record(world.start(), *WIDOW_DEALS[:2])
    client = world.client("scorer")
    body = {"record": {"widow": 1, "tricks": [3, 7, 3]}, "reason": "misread"}
    assert correct(client, game, 1, body, HTTP_IF_MATCH='"1"').status_code == 200
    other = {"record": {"widow": 2, "tricks": [3, 3, 7]}, "reason": "no, this"}
    response = correct(world.client("admin"), game, 1, other, HTTP_IF_MATCH='"1"')
    assert response.status_code == 412
    error = error_of(response)
    assert (error["code"], error["deal"]) == ("stale_version", 1)
    assert error["details"]["deal"]["version"] == 2
    assert Deal.objects.get(game=game, number=1).record == body["record"]


def test_missing_if_match_is_428(world: World) -> None:
    game = world.record(world.start(), WIDOW_DEALS[0])
    body = {"record": {"widow": 1, "tricks": [3, 7, 3]}, "reason": "misread"}
    response = correct(world.client("scorer"), game, 1, body)
    assert response.status_code == 428
    assert error_of(response)["code"] == "precondition_required"
    assert Deal.objects.get(game=game).version == 1


@pytest.mark.parametrize("if_match", ["abc", 'W/"1"', '"1', "1, 2", ""])
def test_malformed_if_match_is_400(world: World, if_match: str) -> None:
    game = world.record(world.start(), WIDOW_DEALS[0])
    body = {"record": {"widow": 1, "tricks": [3, 7, 3]}, "reason": "misread"}
    response = correct(world.client("scorer"), game, 1, body, HTTP_IF_MATCH=if_match)
    assert response.status_code == 400
    assert error_of(response)["field"] == "If-Match"
    assert Deal.objects.get(game=game).version == 1


def test_if_match_star_accepts_the_current_version(world: World) -> None:
    game = world.record(world.start(), WIDOW_DEALS[0])
    body = {"record": {"widow": 1, "tricks": [3, 7, 3]}, "reason": "misread"}
    response = correct(world.client("scorer"), game, 1, body, HTTP_IF_MATCH="*")
    assert response.status_code == 200
    assert response.json()["version"] == 2


def test_correction_that_breaks_a_later_deal_names_it(world: World) -> None:
    game = world.start("third_hand", 2, options={})
    world.record(
        game,
        {"bids": [None, None], "points": [80, 40]},  # seat 0 scores more: deals next
        {"bids": ["A", "10"], "points": [110, 20]},  # the dealer (seat 0) tops seat 1's 10
    )
    corrected = {"bids": [None, None], "points": [40, 80]}  # now seat 1 would deal deal 2
    with pytest.raises(RuleError) as refused:
        score_record(
            {
                "game": "third_hand",
                "players": ["Ann", "Bob"],
                "deals": [corrected, {"bids": ["A", "10"], "points": [110, 20]}],
            }
        )
    response = correct(
        world.client("scorer"),
        game,
        1,
        {"record": corrected, "reason": "swapped"},
        HTTP_IF_MATCH="1",
    )
    assert response.status_code == 400
    error = error_of(response)
    assert error["deal"] == 2
    assert error["field"] == refused.value.field == "bids[1]"
    assert error["message"] == (
        "this correction would make deal 2 impossible: " + refused.value.message
    )
    assert Deal.objects.get(game=game, number=1).record == {
        "bids": [None, None],
        "points": [80, 40],
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"record": {"widow": 1, "tricks": [3, 7, 4]}, "reason": "x"}, "tricks"),
        ({"record": {"widow": 1, "tricks": [3, 7, 3]}, "reason": "  "}, "reason"),
        ({"record": {"widow": 1, "tricks": [3, 7, 3]}}, "reason"),
        ({"record": [1, 2], "reason": "x"}, "record"),
        ({"reason": "x"}, "record"),
        ({"record": {"widow": 1, "tricks": [3, 7, 3]}, "reason": "x" * 501}, "reason"),
    ],
)
def test_correction_input_is_validated(world: World, body: dict[str, Any], field: str) -> None:
    game = world.record(world.start(), WIDOW_DEALS[0])
    response = correct(world.client("scorer"), game, 1, body, HTTP_IF_MATCH="1")
    assert response.status_code == 400
    assert error_of(response)["field"] == field
    assert Deal.objects.get(game=game).version == 1


def test_a_correction_that_changes_nothing_is_refused(world: World) -> None:
    game = world.record(world.start(), *WIDOW_DEALS[:2])
    body = {"record": WIDOW_DEALS[1], "reason": "checking"}
    response = correct(world.client("scorer"), game, 2, body, HTTP_IF_MATCH="1")
    error_with(response, 409, "conflict")
    assert "already recorded like this" in error_of(response)["message"]
    assert Deal.objects.get(game=game, number=2).version == 1
    assert DealRevision.objects.filter(game=game, number=2).count() == 1


def test_correcting_a_deal_not_recorded_is_404(world: World) -> None:
    game = world.record(world.start(), WIDOW_DEALS[0])
    body = {"record": WIDOW_DEALS[1], "reason": "x"}
    response = correct(world.client("scorer"), game, 2, body, HTTP_IF_MATCH="1")
    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"


def test_history_lists_every_version(world: World) -> None:
    game = world.record(world.start(), *WIDOW_DEALS[:2])
    scorer, admin = world.client("scorer"), world.client("admin")
    fixed_deal = {"widow": 1, "tricks": [3, 7, 3]}
    correct(scorer, game, 1, {"record": fixed_deal, "reason": "misread"}, HTTP_IF_MATCH="1")
    correct(admin, game, 1, {"record": WIDOW_DEALS[0], "reason": "back"}, HTTP_IF_MATCH="2")
    response = world.client("member").get(f"{deals_url(game)}1/history/")
    assert response.status_code == 200
    history = response.json()
    assert [(h["version"], h["action"], h["changed_by"], h["reason"]) for h in history] == [
        (1, "record", "scorer", ""),
        (2, "correct", "scorer", "misread"),
        (3, "correct", "admin", "back"),
    ]
    assert [h["record"] for h in history] == [WIDOW_DEALS[0], fixed_deal, WIDOW_DEALS[0]]
    assert history[1]["scores"] == [0, 3, 0]  # the widow's taker (seat 1) needs 4, others 3
    assert all(h["changed_at"] for h in history)
    missing = world.client("member").get(f"{deals_url(game)}3/history/")
    assert missing.status_code == 404
