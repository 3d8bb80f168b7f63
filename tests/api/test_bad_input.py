"""Bad input of every kind is a 4xx with a clear message (naming the field where there is
one), never a 500, and writes nothing: numbers far too big, negative deal numbers, a 10 MB
body, JSON nested 1,000 deep, malformed JSON; names with emoji are kept as written. (More
in test_errors.py and test_limits.py: huge ids in URLs, control characters in names.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from scorekeeper.models import Club, Deal, Game, Player
from tests.api.helpers import WIDOW_DEALS, World, error_of, post_raw_deal

BIG = 10**30
WW = "widow_whist"


def _counts() -> tuple[int, ...]:
    return (
        Club.objects.count(),
        Player.objects.count(),
        Game.objects.count(),
        Deal.objects.count(),
    )


def _post(world: World, path: str, body: Any, **headers: str) -> Any:
    return world.client("admin").post(
        path, data=json.dumps(body), content_type="application/json", **headers
    )


def _assert_names(response: Any, field: str) -> None:
    """The error names ``field`` (or a part of it: "tricks[0]", "options.limit") and says
    what is wrong."""
    error = error_of(response)
    assert error["field"] is not None and error["field"].split(".")[0].split("[")[0] == field
    assert error["message"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"number": BIG, **WIDOW_DEALS[0]}, "number"),
        ({"number": -1, **WIDOW_DEALS[0]}, "number"),
        ({"number": 0, **WIDOW_DEALS[0]}, "number"),
        ({"number": 1, "widow": BIG, "tricks": [4, 5, 4]}, "widow"),
        ({"number": 1, "widow": 0, "tricks": [BIG, 5, 4]}, "tricks"),
        ({"number": 1, "widow": 0, "tricks": [-4, 5, 4]}, "tricks"),
        ({"number": 1.5, **WIDOW_DEALS[0]}, "number"),
        ({"number": 1e308, **WIDOW_DEALS[0]}, "number"),
    ],
    ids=[
        "huge",
        "negative",
        "zero",
        "huge widow",
        "huge tricks",
        "negative tricks",
        "1.5",
        "1e308",
    ],
)
def test_a_deal_with_numbers_out_of_range_is_400_naming_the_field(
    world: World, body: dict[str, Any], field: str
) -> None:
    game = world.start()
    before = _counts()
    response = _post(world, f"/api/v1/games/{game.pk}/deals/", body, HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code in (400, 422), response.content[:300]
    _assert_names(response, field)
    assert _counts() == before


def test_negative_and_huge_deal_numbers_in_urls_are_404(world: World) -> None:
    game = world.record(world.start(), WIDOW_DEALS[0])
    client = world.client("admin")
    for number in ("-1", str(BIG)):
        response = client.get(f"/api/v1/games/{game.pk}/deals/{number}/")
        assert response.status_code == 404
        assert error_of(response)["code"] == "not_found"


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/v1/games/", {"club": BIG, "game_type": WW, "players": [1, 2, 3]}, "club"),
        ("/api/v1/games/", {"club": "{club}", "game_type": WW, "players": [BIG] * 3}, "players"),
        ("/api/v1/clubs/{club}/players/", {"name": "x" * 10_000}, "name"),
        ("/api/v1/clubs/", {"name": "Club", "slug": "s" * 1000}, "slug"),
    ],
    ids=["huge club id", "huge player ids", "a name 10,000 long", "a slug 1,000 long"],
)  # fmt: skip
def test_other_bodies_out_of_range_are_400_naming_the_field(
    world: World, path: str, body: dict[str, Any], field: str
) -> None:
    path = path.format(club=world.club.pk)
    body = {k: world.club.pk if v == "{club}" else v for k, v in body.items()}
    before = _counts()
    response = _post(world, path, body)
    assert response.status_code == 400, response.content[:300]
    _assert_names(response, field)
    assert _counts() == before


def test_huge_numbers_in_query_parameters_are_400(world: World) -> None:
    game = world.record(world.start(), WIDOW_DEALS[0])
    client = world.client("admin")
    for query, field in (
        ({"deals_after": BIG}, "deals_after"),
        ({"deals_limit": BIG}, "deals_limit"),
    ):
        response = client.get(f"/api/v1/games/{game.pk}/", query)
        assert response.status_code == 400, (query, response.content[:300])
        assert error_of(response)["field"] == field
    response = client.get("/api/v1/games/", {"limit": BIG})
    assert response.status_code == 400
    assert error_of(response)["field"] == "limit"


def test_a_ten_megabyte_body_is_413_and_writes_nothing(world: World) -> None:
    body = json.dumps({"number": 1, **WIDOW_DEALS[0], "note": "x" * (10 * 1024 * 1024)})
    response = post_raw_deal(world, body, key="big")
    assert response.status_code == 413
    error = error_of(response)
    assert error["code"] == "too_large" and "bytes" in error["message"]
    assert not Deal.objects.exists()


def test_a_ten_megabyte_form_on_a_page_is_413(world: World) -> None:
    game = world.start()
    client = Client()
    client.force_login(world.users["scorer"])
    response = client.post(f"/g/{game.pk}/deal/", {"number": "1", "note": "x" * (10 * 1024 * 1024)})
    assert response.status_code == 413
    assert not Deal.objects.exists()


def test_json_nested_a_thousand_deep_is_400(world: World) -> None:
    body = '{"number": 1, "widow": 0, "tricks": ' + "[" * 1000 + "]" * 1000 + "}"
    response = post_raw_deal(world, body, key="deep")
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "too_deep" and "deep" in error["message"]
    assert not Deal.objects.exists()


@pytest.mark.parametrize("body", [b'{"number": 1,', b"\xff\xfe", b'{"number": NaN}', b""])
def test_malformed_deal_bodies_are_400(world: World, body: bytes) -> None:
    response = post_raw_deal(world, body, key="bad")
    assert response.status_code == 400, response.content[:300]
    assert error_of(response)["message"]
    assert not Deal.objects.exists()


@pytest.mark.parametrize("name", ["Ann 🂡", "🦊🦊", "Zoë 👩‍👩‍👧", "Ünal 中文"])
def test_names_with_emoji_are_kept_as_written(world: World, name: str) -> None:
    response = _post(world, f"/api/v1/clubs/{world.club.pk}/players/", {"name": name})
    assert response.status_code == 201, response.content[:300]
    assert response.json()["name"] == name
    assert Player.objects.get(pk=response.json()["id"]).name == name


def test_pages_refuse_huge_and_negative_numbers_without_a_server_error(world: World) -> None:
    game = world.start()
    client = Client()
    client.force_login(world.users["scorer"])
    for data in (
        {"number": str(BIG), "widow": "0", "tricks": ["4", "5", "4"]},
        {"number": "-1", "widow": "0", "tricks": ["4", "5", "4"]},
        {"number": "1", "widow": str(BIG), "tricks": [str(BIG), "5", "4"]},
        {"number": "1", "widow": "x", "tricks": ["🂡", "5", "4"]},
    ):
        response = client.post(f"/g/{game.pk}/deal/", data)
        assert 200 <= response.status_code < 500, (data, response.status_code)
        if response.status_code == 200:
            assert "error" in response.content.decode()
    assert not Deal.objects.exists()
    for path in (f"/g/{game.pk}/d/{BIG}/", f"/g/{BIG}/", f"/p/{BIG}/", f"/s/{BIG}/standings.csv"):
        assert client.get(path).status_code == 404, path
