"""Tokens: issue, use, revoke; sessions with CSRF; throttling of the token endpoint."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scorekeeper.models import Club
from tests.api.helpers import World, error_of

TOKEN_URL = "/api/v1/auth/token/"


def test_token_issued_for_good_credentials_and_it_authenticates(world: World) -> None:
    client = APIClient()
    response = client.post(TOKEN_URL, {"username": "member", "password": "password"})
    assert response.status_code == 200
    body = response.json()
    assert body["username"] == "member"
    assert body["token"] == Token.objects.get(user=world.users["member"]).key

    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    clubs = client.get("/api/v1/clubs/")
    assert clubs.status_code == 200
    assert [club["slug"] for club in clubs.json()] == ["home"]


def test_asking_again_returns_the_same_token(world: World) -> None:
    client = APIClient()
    first = client.post(TOKEN_URL, {"username": "admin", "password": "password"}).json()
    second = client.post(TOKEN_URL, {"username": "admin", "password": "password"}).json()
    assert first["token"] == second["token"]
    assert Token.objects.filter(user=world.users["admin"]).count() == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": "member", "password": "wrong"}, None),
        ({"username": "nobody", "password": "password"}, None),
        ({"username": "member"}, "password"),
        ({"password": "password"}, "username"),
    ],
)
def test_bad_credentials_are_refused(world: World, body: dict[str, str], field: str) -> None:
    response = APIClient().post(TOKEN_URL, body)
    assert response.status_code == 400
    error = error_of(response)
    assert error["field"] == field
    assert error["code"] == ("invalid_credentials" if field is None else "invalid")
    assert not Token.objects.exists()


def test_inactive_user_gets_no_token(world: World) -> None:
    user = world.users["member"]
    user.is_active = False
    user.save()
    response = APIClient().post(TOKEN_URL, {"username": "member", "password": "password"})
    assert response.status_code == 400
    assert error_of(response)["code"] == "invalid_credentials"


def test_revoked_token_gets_401(world: World) -> None:
    client = world.client("member")
    assert client.get("/api/v1/clubs/").status_code == 200

    response = client.delete(TOKEN_URL)
    assert response.status_code == 204
    assert not Token.objects.filter(user=world.users["member"]).exists()

    after = client.get("/api/v1/clubs/")
    assert after.status_code == 401
    assert after["WWW-Authenticate"] == "Token"
    assert error_of(after)["code"] == "authentication_failed"
    # Logging in again gives a new token that works.
    fresh = APIClient().post(TOKEN_URL, {"username": "member", "password": "password"})
    client.credentials(HTTP_AUTHORIZATION=f"Token {fresh.json()['token']}")
    assert client.get("/api/v1/clubs/").status_code == 200


def test_revoking_needs_a_caller(world: World) -> None:
    response = APIClient().delete(TOKEN_URL)
    assert response.status_code == 401
    assert error_of(response)["code"] == "not_authenticated"


def test_anonymous_caller_gets_401_with_a_challenge(world: World) -> None:
    response = APIClient().get("/api/v1/clubs/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert error_of(response)["code"] == "not_authenticated"


def test_session_authentication_enforces_csrf(world: World) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(world.users["member"])
    # Reading needs no CSRF token.
    assert client.get("/api/v1/clubs/").status_code == 200

    body = {"name": "Session club", "slug": "session"}
    refused = client.post("/api/v1/clubs/", body)
    assert refused.status_code == 403
    error = error_of(refused)
    assert error["code"] == "permission_denied"
    assert "CSRF" in error["message"]
    assert not Club.objects.filter(slug="session").exists()

    secret = "a" * 32
    client.cookies["csrftoken"] = secret
    accepted = client.post("/api/v1/clubs/", body, HTTP_X_CSRFTOKEN=secret)
    assert accepted.status_code == 201
    assert Club.objects.filter(slug="session").exists()


def test_token_endpoint_is_throttled(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper.api.views import TokenThrottle

    monkeypatch.setitem(TokenThrottle.THROTTLE_RATES, "auth_token", "2/minute")
    client = APIClient()
    for _ in range(2):
        client.post(TOKEN_URL, {"username": "member", "password": "wrong"})
    response = client.post(TOKEN_URL, {"username": "member", "password": "password"})
    assert response.status_code == 429
    error = error_of(response)
    assert error["code"] == "throttled"
    assert 0 < error["details"]["wait"] <= 60
    assert int(response["Retry-After"]) == error["details"]["wait"]


def test_a_locked_account_is_answered_429_with_the_wait(world: World) -> None:
    """Ten failures for an account (from any addresses, with its username or its email)
    and even the right password is refused, saying for how long and why."""
    for attempt in range(10):
        login = "member" if attempt % 2 else "member@example.org"
        client = APIClient(REMOTE_ADDR=f"10.4.0.{attempt}")
        assert client.post(TOKEN_URL, {"username": login, "password": "wrong"}).status_code == 400
    response = APIClient(REMOTE_ADDR="10.4.1.1").post(
        TOKEN_URL, {"username": "member", "password": "password"}
    )
    assert response.status_code == 429
    error = error_of(response)
    assert error["code"] == "throttled"
    assert "for this account" in error["message"]
    assert "reset the password" in error["message"]
    assert error["details"]["limit"] == "account"
    assert 14 * 60 < error["details"]["wait"] <= 15 * 60
    assert int(response["Retry-After"]) == error["details"]["wait"]


def test_failures_from_one_address_are_limited(world: World, settings: Any) -> None:
    settings.ACCOUNT_RATE_LIMITS = {
        **settings.ACCOUNT_RATE_LIMITS,
        "login_failed": "3/15m/ip,10/15m/key",
    }
    here = APIClient(REMOTE_ADDR="10.5.0.1")
    for login in ("admin", "director", "scorer"):
        assert here.post(TOKEN_URL, {"username": login, "password": "wrong"}).status_code == 400
    response = here.post(TOKEN_URL, {"username": "member", "password": "password"})
    assert response.status_code == 429
    error = error_of(response)
    assert error["code"] == "throttled"
    assert "from this network address" in error["message"]
    assert "account" not in error["message"] and "reset" not in error["message"]
    assert error["details"]["limit"] == "address"
    assert 14 * 60 < error["details"]["wait"] <= 15 * 60
    assert int(response["Retry-After"]) == error["details"]["wait"]
    # Another address is not concerned.
    there = APIClient(REMOTE_ADDR="10.5.0.2")
    assert there.post(TOKEN_URL, {"username": "member", "password": "password"}).status_code == 200
