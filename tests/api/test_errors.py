"""One error format everywhere, and no 500 on bad input."""

from __future__ import annotations

import pytest
from rest_framework.exceptions import ErrorDetail

from scorekeeper.api.errors import flatten
from scorekeeper.models import Club
from tests.api.helpers import WIDOW_DEALS, World, error_of, error_with


def test_malformed_json_is_a_parse_error(world: World) -> None:
    response = world.client("admin").post(
        "/api/v1/clubs/", data=b'{"name": "x", ', content_type="application/json"
    )
    error = error_with(response, 400)
    assert error["code"] == "parse_error"
    assert "JSON" in error["message"]


def test_other_media_types_are_refused(world: World) -> None:
    response = world.client("admin").post(
        "/api/v1/clubs/", data="name=x&slug=y", content_type="application/x-www-form-urlencoded"
    )
    error_with(response, 415, "unsupported_media_type")
    assert not Club.objects.filter(slug="y").exists()


def test_unacceptable_response_type(world: World) -> None:
    response = world.client("admin").get("/api/v1/clubs/", HTTP_ACCEPT="application/xml")
    error_with(response, 406, "not_acceptable")


def test_method_not_allowed(world: World) -> None:
    game = world.start()
    response = world.client("admin").delete(f"/api/v1/games/{game.pk}/")
    error = error_with(response, 405)
    assert error["code"] == "method_not_allowed"
    assert '"DELETE"' in error["message"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/nothing-here/",
        "/api/v1/games/abc/",
        "/api/v1/clubs/x/players/",
        "/api/v1/games/1/deals/one/",
        "/api/v1/games/-1/",
        "/api/v1/seasons/1.5/standings/",
        "/api/v1/clubs",
    ],
)
def test_unknown_addresses_are_404_in_the_error_format(world: World, path: str) -> None:
    for method in ("get", "post", "put", "delete"):
        response = getattr(world.client("admin"), method)(path)
        error = error_with(response, 404)
        assert error["code"] == "not_found"
        assert path in error["message"]
    if not path.endswith("/"):
        assert "end with a slash" in error["message"]


HUGE = "99999999999999999999999"


def test_huge_ids_are_404_not_500(world: World) -> None:
    game = world.record(world.start(), WIDOW_DEALS[0])
    client = world.client("admin")
    for path in (
        f"/api/v1/clubs/{HUGE}/",
        f"/api/v1/clubs/{HUGE}/players/",
        f"/api/v1/games/{HUGE}/",
        f"/api/v1/games/{HUGE}/deals/",
        f"/api/v1/games/{game.pk}/deals/{HUGE}/",
        f"/api/v1/games/{game.pk}/deals/{HUGE}/history/",
    ):
        response = client.get(path)
        assert response.status_code == 404, path
        assert error_of(response)["code"] == "not_found"
    put = client.put(
        f"/api/v1/games/{game.pk}/deals/{HUGE}/",
        {"record": WIDOW_DEALS[0], "reason": "x"},
        HTTP_IF_MATCH="1",
    )
    error_with(put, 404, "not_found")


def test_the_browsable_api_renders(world: World) -> None:
    game = world.record(world.start(), WIDOW_DEALS[0])
    client = world.client("admin")
    for path in (f"/api/v1/games/{game.pk}/", f"/api/v1/games/{game.pk}/deals/1/"):
        response = client.get(path, HTTP_ACCEPT="text/html")
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/html")


def test_validation_errors_list_every_field(world: World) -> None:
    response = world.client("admin").post("/api/v1/clubs/", {"slug": "not a slug!"})
    error = error_with(response, 400)
    assert error["code"] == "invalid"
    assert error["field"] == "name"
    assert error["message"] == "This field is required."
    assert set(error["details"]["errors"]) == {"name", "slug"}
    assert error["deal"] is None


def test_a_body_that_is_not_an_object(world: World) -> None:
    response = world.client("admin").post("/api/v1/clubs/", [1, 2])
    error = error_with(response, 400)
    assert error["field"] is None
    assert "non_field_errors" in error["details"]["errors"]


def test_unexpected_errors_are_500_in_the_error_format(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = world.start()

    def broken(*args: object) -> None:
        raise RuntimeError("the disk caught fire")

    monkeypatch.setattr("scorekeeper.api.views.games.selectors.game_payload", broken)
    response = world.client("admin").get(f"/api/v1/games/{game.pk}/")
    error = error_with(response, 500)
    assert error["code"] == "server_error"
    assert "fire" not in error["message"]  # no internals leak out


def test_flatten_names_nested_fields_like_the_engine() -> None:
    detail = {
        "players": {1: [ErrorDetail("A valid integer is required.")]},
        "record": {"tricks": ["Bad."], "non_field_errors": ["Whole record bad."]},
        "seats": [{}, {"name": ["Required."]}],
        "non_field_errors": ["Top."],
    }
    assert flatten(detail) == {
        "players[1]": ["A valid integer is required."],
        "record.tricks": ["Bad."],
        "record": ["Whole record bad."],
        "seats[1].name": ["Required."],
        "non_field_errors": ["Top."],
    }
