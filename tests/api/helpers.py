"""Helpers for the API tests (fixtures are in conftest.py)."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from rules_engine import cli
from scorekeeper import services
from scorekeeper.models import (
    Club,
    Deal,
    DealRevision,
    Game,
    Invitation,
    Membership,
    Player,
    Season,
    TableLink,
)
from tournaments.models import Registration, Round, Table

# The four callers every endpoint is tried with.
CALLERS = ("anonymous", "outsider", "member", "admin")

WIDOW_DEALS = [
    {"widow": 0, "tricks": [4, 5, 4]},
    {"widow": None, "tricks": [3, 3, 7]},
    {"widow": 2, "tricks": [2, 6, 5]},
    {"widow": 1, "tricks": [5, 4, 4]},
    {"widow": 0, "tricks": [6, 3, 4]},
    {"widow": 2, "tricks": [3, 3, 7]},
]
# Italian whist with {"limit": 5}: totals 6, -2, -4 after three deals, and finished.
ITALIAN_DEALS = [
    {"first": [3, 3, 3], "second": [3, 3, 3]},
    {"first": [5, 2, 2], "second": [1, 4, 4]},
    {"first": [4, 3, 2], "second": [2, 3, 4]},
]


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@dataclass
class World:
    club: Club
    other_club: Club
    users: dict[str, User]
    players: list[Player]

    def client(self, caller: str) -> APIClient:
        return client_for(None if caller == "anonymous" else self.users[caller])

    def start(self, game_type: str = "widow_whist", seats: int = 3, **kwargs: Any) -> Game:
        """A game started by the club's scorer, through the service."""
        kwargs.setdefault("options", {"finish": {"deals": 6}} if game_type == "widow_whist" else {})
        return services.game_start(
            actor=self.users["scorer"],
            club=self.club,
            game_type=game_type,
            players=self.players[:seats],
            **kwargs,
        )

    def record(self, game: Game, *records: dict[str, Any]) -> Game:
        for record in records:
            game.refresh_from_db()
            services.deal_record(
                actor=self.users["scorer"], game=game, number=game.deal_count + 1, record=record
            )
        game.refresh_from_db()
        return game


def post_raw_deal(world: World, body: str | bytes, key: str = "raw-1") -> Any:
    """POST ``body`` as it is, as deal 1 of a new game, by the scorer: the response, after
    checking that no deal was written."""
    game = world.start()
    response = world.client("scorer").post(
        f"/api/v1/games/{game.pk}/deals/",
        data=body,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    assert not Deal.objects.filter(game=game).exists()
    return response


def snapshot() -> tuple[Any, ...]:
    """Everything a request could change, to compare before and after it."""
    return (
        list(Club.objects.values_list("pk", "name", "results_public")),
        list(Membership.objects.values_list("pk", "role")),
        list(Player.objects.values_list("pk", "name", "active", "user", "claimed_by")),
        list(Season.objects.values_list("pk", "name", "ends_on")),
        list(Invitation.objects.values_list("pk", "uses", "revoked_at")),
        list(Game.objects.values_list("pk", "status", "deal_count", "revision")),
        list(Deal.objects.values_list("pk", "version", "record")),
        DealRevision.objects.count(),
        Token.objects.count(),
        list(TableLink.objects.values_list("pk", "revoked_at")),
        list(Round.objects.values_list("pk", "status", "seating_status")),
        list(Table.objects.values_list("pk", "confirmed_at", "reopened_at")),
        list(Registration.objects.values_list("pk", "status")),
    )


def error_of(response: Any) -> dict[str, Any]:
    """The error of a response, after checking it has exactly the API's error shape."""
    body = response.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert set(error) == {"code", "message", "field", "deal", "details"}, error
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error["details"], dict)
    return dict(error)


def error_with(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The error of a response answered with ``status`` (and ``code``, when given), after
    checking it has the API's error shape."""
    assert response.status_code == status, response.content[:300]
    error = error_of(response)
    if code is not None:
        assert error["code"] == code, error
    return error


def engine_score(record: dict[str, Any]) -> dict[str, Any]:
    """What ``python -m rules_engine score -`` prints for ``record``."""
    out = io.StringIO()
    code = cli.main(["score", "-"], stdin=io.StringIO(json.dumps(record)), out=out)
    assert code == cli.EXIT_OK, out.getvalue()
    return dict(json.loads(out.getvalue()))
