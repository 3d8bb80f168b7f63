"""Limits that hold behind a proxy and across worker processes; no 500 from any body."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from pytest_django import Settings
from rest_framework.test import APIClient

from scorekeeper.api.limits import TokenThrottle
from scorekeeper.models import Club
from tests.api.helpers import World, error_of, post_raw_deal
from tests.support import gunicorn

TOKEN_URL = "/api/v1/auth/token/"
ROOT = Path(__file__).resolve().parents[2]


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# --- Bodies: too big (413), too deep (400), before any view runs --------------------------------


def test_a_body_over_the_limit_is_413_without_logging_in(db: None, settings: Settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"username": "x" * 2000, "password": "p"})
    response = APIClient().post(TOKEN_URL, data=body, content_type="application/json")
    assert response.status_code == 413
    error = error_of(response)
    assert error["code"] == "too_large"
    assert "1000 bytes" in error["message"]
    assert error["details"] == {"limit": 1000}


def test_the_default_body_limit_refuses_three_megabytes(db: None) -> None:
    body = json.dumps({"username": "x" * (3 * 1024 * 1024), "password": "p"})
    response = APIClient().post(TOKEN_URL, data=body, content_type="application/json")
    assert response.status_code == 413
    assert error_of(response)["details"]["limit"] == settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def _post_raw_deal(world: World, body: str) -> tuple[int, str]:
    """POST ``body`` as deal 1 of a new game: the status and the error code (and that no
    deal was written)."""
    response = post_raw_deal(world, body)
    return response.status_code, error_of(response)["code"]


def test_a_deal_over_the_limit_is_413_and_nothing_is_written(
    world: World, settings: Settings
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"number": 1, "widow": 0, "tricks": [4, 5, 4], "note": "x" * 2000})
    assert _post_raw_deal(world, body) == (413, "too_large")


@pytest.mark.parametrize("depth", [33, 100_000])
def test_json_nested_too_deep_is_400_without_logging_in(db: None, depth: int) -> None:
    body = '{"username": ' + _nested(depth) + ', "password": "p"}'
    response = APIClient().post(TOKEN_URL, data=body, content_type="application/json")
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "too_deep"
    assert "32 deep" in error["message"]


def test_a_deeply_nested_deal_is_400_and_nothing_is_written(world: World) -> None:
    body = '{"number": 1, "widow": 0, "tricks": ' + _nested(50_000) + "}"
    assert _post_raw_deal(world, body) == (400, "too_deep")


def test_nesting_within_the_limit_reaches_the_view(world: World) -> None:
    response = world.client("admin").post(
        "/api/v1/clubs/",
        data='{"name": ' + _nested(30) + ', "slug": "deep"}',
        content_type="application/json",
    )
    assert response.status_code == 400
    assert error_of(response)["field"] == "name"
    assert not Club.objects.filter(slug="deep").exists()


def test_a_page_form_over_the_limit_is_413_not_a_server_error(
    world: World, settings: Settings
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = APIClient().post("/accounts/login/", {"username": "x" * 2000, "password": "p"})
    assert response.status_code == 413
    assert "larger than 1000 bytes" in response.content.decode()


# --- The client's address: only as far as the trusted proxies say --------------------------------


def _wrong_passwords(client: APIClient, count: int, **headers: str) -> list[int]:
    return [
        client.post(TOKEN_URL, {"username": "member", "password": "wrong"}, **headers).status_code
        for _ in range(count)
    ]


@pytest.fixture
def token_rate_3(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(TokenThrottle.THROTTLE_RATES, "auth_token", "3/minute")


def test_a_new_forwarded_for_each_request_does_not_escape_the_limit(
    world: World, token_rate_3: None
) -> None:
    client = APIClient()
    codes = [
        client.post(
            TOKEN_URL,
            {"username": "member", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        ).status_code
        for n in range(5)
    ]
    assert codes == [400, 400, 400, 429, 429]


def test_behind_one_proxy_the_address_it_adds_is_the_client(
    world: World, token_rate_3: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rest_framework.settings import api_settings

    monkeypatch.setattr(api_settings, "NUM_PROXIES", 1)
    client = APIClient()
    # The proxy appends the address it saw; what the client wrote before it is not believed.
    first = _wrong_passwords(client, 4, HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.7")
    assert first == [400, 400, 400, 429]
    forged = _wrong_passwords(client, 1, HTTP_X_FORWARDED_FOR="9.9.9.9, 198.51.100.7")
    assert forged == [429]
    other_client = _wrong_passwords(client, 1, HTTP_X_FORWARDED_FOR="198.51.100.8")
    assert other_client == [400]


# --- Unknown tokens are limited per address ---------------------------------------------------


def test_guessing_tokens_is_limited_per_address(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(TokenThrottle.THROTTLE_RATES, "bad_token", "5/minute")
    guesser = APIClient()
    codes = []
    for n in range(8):
        guesser.credentials(HTTP_AUTHORIZATION=f"Token {n:040x}")
        codes.append(guesser.get("/api/v1/clubs/").status_code)
    assert codes == [401] * 5 + [429] * 3
    # Even a real token from that address waits; another address is not affected.
    member = world.client("member")
    assert member.get("/api/v1/clubs/").status_code == 429
    assert member.get("/api/v1/clubs/", REMOTE_ADDR="192.0.2.50").status_code == 200


# --- The limit is shared by every worker process ----------------------------------------------


def _database_url() -> str:
    db = settings.DATABASES["default"]
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    host = db.get("HOST") or "127.0.0.1"
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{user}{password}@{host}:{db.get('PORT') or 5432}/{db['NAME']}"


@pytest.fixture
def two_servers(transactional_db: None) -> Iterator[list[str]]:
    """Two separate server processes on one database and one cache, as under gunicorn."""
    env = {"DATABASE_URL": _database_url(), "API_TOKEN_RATE": "4/minute", "DEBUG": "false"}
    with gunicorn(env=env) as first, gunicorn(env=env) as second:
        yield [first, second]


def _post(url: str, body: dict[str, str]) -> int:
    request = urllib.request.Request(
        url + TOKEN_URL,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_two_worker_processes_count_one_limit(
    two_servers: list[str], django_user_model: type
) -> None:
    django_user_model.objects.create_user("member", password="password")
    wrong = {"username": "member", "password": "wrong"}
    codes = [_post(two_servers[n % 2], wrong) for n in range(4)]
    assert codes == [400, 400, 400, 400]
    # Each process has answered two; the shared count is four, the limit.
    assert _post(two_servers[0], {"username": "member", "password": "password"}) == 429
    assert _post(two_servers[1], {"username": "member", "password": "password"}) == 429


# --- Names and text ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Ann\bie", "Bob\u0001", "Cy\x7f", "Dee\u202eeviL"])
def test_names_refuse_control_characters(world: World, name: str) -> None:
    client = world.client("admin")
    player = client.post(f"/api/v1/clubs/{world.club.pk}/players/", {"name": name})
    assert player.status_code == 400
    error = error_of(player)
    assert error["field"] == "name"
    assert "control characters (U+" in error["message"]
    club = client.post("/api/v1/clubs/", {"name": name, "slug": "ctl"})
    assert club.status_code == 400 and error_of(club)["field"] == "name"
    assert not Club.objects.filter(slug="ctl").exists()
    assert (
        not world.club.players.filter(name__startswith=name[:2])
        .exclude(name__in=[p.name for p in world.players])
        .exists()
    )


def test_the_service_refuses_control_characters_too(world: World) -> None:
    from scorekeeper import services
    from scorekeeper.errors import InvalidInput

    with pytest.raises(InvalidInput) as refused:
        services.player_create(actor=world.users["admin"], club=world.club, name="Eve\x08")
    assert refused.value.field == "name"
    assert "U+0008" in refused.value.message


def test_a_number_is_not_a_name(world: World) -> None:
    response = world.client("admin").post("/api/v1/clubs/", {"name": 0, "slug": "zero"})
    assert response.status_code == 400
    error = error_of(response)
    assert error["field"] == "name"
    assert error["message"] == "must be a string"
    assert not Club.objects.filter(slug="zero").exists()


def test_an_unknown_email_is_empty_and_the_schema_does_not_call_it_an_email(world: World) -> None:
    response = world.client("admin").get(f"/api/v1/clubs/{world.club.pk}/players/")
    assert response.status_code == 200
    assert {player["email"] for player in response.json()} == {""}
    schema = world.client("admin").get("/api/schema/", HTTP_ACCEPT="application/json").json()
    email = schema["components"]["schemas"]["PlayerOutput"]["properties"]["email"]
    assert "format" not in email
