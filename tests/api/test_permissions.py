"""Every endpoint, tried by four callers: anonymous, a member of another club, a plain
member of the club, and its admin.

Besides the status: refusals leave the database as it was and have the error shape;
reads change nothing; what a non-member gets for a club's object is exactly what they
get for an object that does not exist; a non-member's lists show nothing of the club."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import resolve

from scorekeeper import services
from scorekeeper.models import Game, Invitation, Role, Season
from tests.api.helpers import CALLERS, WIDOW_DEALS, World, error_of, snapshot
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, member

TODAY = datetime.date.today()


@dataclass
class Scene:
    world: World
    game: Game
    season: Season
    public_season: Season
    invitation: Invitation
    later_season: Season  # to come, no game in it: it can be deleted

    def ids(self) -> dict[str, int]:
        players = self.world.players
        return {
            "club": self.world.club.pk,
            "game": self.game.pk,
            "season": self.season.pk,
            "public_season": self.public_season.pk,
            "scorer_user": self.world.users["scorer"].pk,
            "player": players[0].pk,
            "claimed": players[1].pk,
            "unseated": players[3].pk,
            "invitation": self.invitation.pk,
            "later_season": self.later_season.pk,
        }


@pytest.fixture
def scene(world: World) -> Scene:
    start, end = TODAY - datetime.timedelta(days=10), TODAY + datetime.timedelta(days=10)
    season = SeasonFactory(club=world.club, name="Now", starts_on=start, ends_on=end)
    # An open-ended game with two deals: it can take a third, be corrected, undone,
    # finished or abandoned.
    game = world.record(world.start(options={}), *WIDOW_DEALS[:2])
    public = ClubFactory(name="Open club", slug="open", results_public=True)
    public_season = SeasonFactory(club=public, name="Open", starts_on=start, ends_on=end)
    strangers = [PlayerFactory(club=public, name=f"Open {i}") for i in range(3)]
    host = member(public, Role.SCORER, username="host")
    open_game = services.game_start(
        actor=host,
        club=public,
        game_type="widow_whist",
        players=strangers,
        options={"finish": {"deals": 1}},
    )
    services.deal_record(actor=host, game=open_game, number=1, record=WIDOW_DEALS[0])
    invitation = services.invitation_create(
        actor=world.users["admin"], club=world.club, role=Role.SCORER, max_uses=10
    )
    services.player_claim(actor=world.users["director"], player=world.players[1])
    later_season = SeasonFactory(
        club=world.club,
        name="Later",
        starts_on=datetime.date(2098, 1, 1),
        ends_on=datetime.date(2098, 12, 31),
    )
    return Scene(
        world=world,
        game=game,
        season=season,
        public_season=public_season,
        invitation=invitation,
        later_season=later_season,
    )


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str
    expect: tuple[int, int, int, int]  # anonymous, outsider, member, admin
    body: Callable[[Scene], Any] | dict[str, Any] | None = None  # None: sent without one
    headers: dict[str, str] = field(default_factory=dict)
    changes_state: bool = True  # when it succeeds (for writes)

    def data(self, scene: Scene) -> Any:
        return self.body(scene) if callable(self.body) else self.body


def _start_body(scene: Scene) -> dict[str, Any]:
    players = [p.pk for p in scene.world.players[:3]]
    return {"club": scene.world.club.pk, "game_type": "widow_whist", "players": players}


def _link_to_scorer(scene: Scene) -> dict[str, Any]:
    return {"user": scene.world.users["scorer"].pk}


def _merge_into_cy(scene: Scene) -> dict[str, Any]:
    return {"into": scene.world.players[2].pk}


API = "/api/v1/"
CLUB = API + "clubs/{club}/"
GAME = API + "games/{game}/"
READ = (401, 404, 200, 200)  # the club's members read
STAFF = (401, 404, 403, 200)  # the club's staff only: a plain member is refused
CREATE = (401, 404, 403, 201)
DELETE = (401, 404, 403, 204)
SIGNED_IN = (401, 200, 200, 200)  # any signed-in user, of the club or not
EVERYONE = (200, 200, 200, 200)
LOGIN = {"username": "director", "password": "password"}
NEW_CLUB = {"name": "New", "slug": "new"}
RENAME = {"name": "Annie", "active": False}
SEASON = {"name": "Next", "starts_on": "2099-01-01", "ends_on": "2099-12-31"}
INVITATION = {"role": "member", "days": 3, "max_uses": 20}
CORRECTION = {"record": {"widow": 1, "tricks": [3, 7, 3]}, "reason": "misread"}
IF_MATCH_1 = {"HTTP_IF_MATCH": '"1"'}
TRICK = {"game": "widow_whist", "cards": ["10H", "AS", "2C"]}

ENDPOINTS = [
    Endpoint("token issue", "POST", API + "auth/token/", EVERYONE, body=LOGIN, changes_state=False),
    Endpoint("token revoke", "DELETE", API + "auth/token/", (401, 204, 204, 204)),
    Endpoint("clubs list", "GET", API + "clubs/", SIGNED_IN),
    Endpoint("clubs create", "POST", API + "clubs/", (401, 201, 201, 201), body=NEW_CLUB),
    Endpoint("club detail", "GET", CLUB, READ),
    Endpoint("club update", "PATCH", CLUB, STAFF, body={"results_public": True}),
    Endpoint("players list", "GET", CLUB + "players/", READ),
    Endpoint("players create", "POST", CLUB + "players/", CREATE, body={"name": "Eve"}),
    Endpoint("player update", "PATCH", CLUB + "players/{player}/", STAFF, body=RENAME),
    Endpoint("player link", "POST", CLUB + "players/{player}/link/", STAFF, body=_link_to_scorer),
    Endpoint("player claim", "POST", CLUB + "players/{player}/claim/", (401, 404, 200, 200)),
    Endpoint(
        "player claim decision",
        "POST",
        CLUB + "players/{claimed}/claim/decision/",
        STAFF,
        body={"accept": True},
    ),
    Endpoint(
        "player merge",
        "POST",
        CLUB + "players/{unseated}/merge/",
        STAFF,
        body=_merge_into_cy,
    ),
    Endpoint("members list", "GET", CLUB + "members/", READ),
    Endpoint(
        "member role", "PATCH", CLUB + "members/{scorer_user}/", STAFF, body={"role": "director"}
    ),
    Endpoint("member remove", "DELETE", CLUB + "members/{scorer_user}/", DELETE),
    Endpoint("invitations list", "GET", CLUB + "invitations/", STAFF),
    Endpoint("invitations create", "POST", CLUB + "invitations/", CREATE, body=INVITATION),
    Endpoint("invitation revoke", "DELETE", CLUB + "invitations/{invitation}/", DELETE),
    Endpoint(
        "invitation accept",
        "POST",
        API + "invitations/accept/",
        SIGNED_IN,
        body=lambda s: {"token": s.invitation.token},
        changes_state=False,  # the admin keeps a higher role: nothing to change
    ),
    Endpoint("seasons list", "GET", CLUB + "seasons/", READ),
    Endpoint("season close", "POST", API + "seasons/{season}/close/", STAFF, body={}),
    Endpoint("season rename", "PATCH", API + "seasons/{season}/", STAFF, body={"name": "Then"}),
    Endpoint("season delete", "DELETE", API + "seasons/{later_season}/", DELETE),
    Endpoint("seasons create", "POST", CLUB + "seasons/", CREATE, body=SEASON),
    Endpoint("standings (private club)", "GET", API + "seasons/{season}/standings/", READ),
    Endpoint(
        "standings (public club)", "GET", API + "seasons/{public_season}/standings/", EVERYONE
    ),
    Endpoint("games list", "GET", API + "games/", SIGNED_IN),
    Endpoint("games create", "POST", API + "games/", (401, 400, 201, 201), body=_start_body),
    Endpoint("game detail", "GET", GAME, READ),
    Endpoint("game finish", "POST", GAME + "finish/", STAFF),
    Endpoint("game abandon", "POST", GAME + "abandon/", STAFF),
    Endpoint("game undo", "POST", GAME + "undo/", STAFF, body={"reason": "oops"}),
    Endpoint("deals list", "GET", GAME + "deals/", READ),
    Endpoint(
        "deals create",
        "POST",
        GAME + "deals/",
        CREATE,
        body={"number": 3, **WIDOW_DEALS[2]},
        headers={"HTTP_IDEMPOTENCY_KEY": "matrix"},
    ),
    Endpoint("deal detail", "GET", GAME + "deals/1/", READ),
    Endpoint("deal correct", "PUT", GAME + "deals/1/", STAFF, body=CORRECTION, headers=IF_MATCH_1),
    Endpoint("deal history", "GET", GAME + "deals/1/history/", READ),
    Endpoint(
        "rules trick", "POST", API + "rules/trick/", SIGNED_IN, body=TRICK, changes_state=False
    ),
]


def test_every_api_route_and_method_is_in_the_matrix() -> None:
    from scorekeeper.api import urls

    ids = dict.fromkeys(
        (
            "club",
            "game",
            "season",
            "public_season",
            "scorer_user",
            "player",
            "claimed",
            "unseated",
            "invitation",
            "later_season",
        ),
        1,
    )
    tried = {(resolve(e.path.format(**ids)).url_name, e.method) for e in ENDPOINTS}
    routes = set()
    for pattern in urls.urlpatterns:
        if pattern.name == "not-found":
            continue
        view = pattern.callback.view_class  # type: ignore[union-attr]
        for method in ("get", "post", "put", "patch", "delete"):
            if hasattr(view, method):
                routes.add((pattern.name, method.upper()))
    assert routes == tried


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
def test_permission_matrix(scene: Scene, endpoint: Endpoint, caller: str) -> None:
    world = scene.world
    expected = endpoint.expect[CALLERS.index(caller)]
    client = world.client(caller)
    path = endpoint.path.format(**scene.ids())
    body = endpoint.data(scene)
    before = snapshot()

    response = client.generic(
        endpoint.method,
        path,
        data=b"" if body is None else json.dumps(body),
        content_type="application/json",
        **endpoint.headers,
    )

    assert response.status_code == expected, (response.status_code, response.content[:300])
    after = snapshot()
    if expected >= 400:
        error = error_of(response)
        assert (
            error["code"]
            == {
                400: "invalid",
                401: "not_authenticated",
                403: "permission_denied",
                404: "not_found",
            }[expected]
        )
        assert after == before, "a refused request changed the database"
    elif endpoint.method == "GET":
        assert after == before
    elif endpoint.changes_state:
        assert after != before, "a successful write changed nothing"

    if caller == "outsider":
        # Nothing of the club shows, whatever the answer.
        content = response.content.decode()
        assert "Home club" not in content
        for player in world.players:
            assert f'"{player.name}"' not in content
    if expected == 404:
        # Exactly what a caller gets for an object that does not exist.
        missing_ids = {key: 999999 for key in scene.ids()}
        missing = client.generic(
            endpoint.method,
            endpoint.path.format(**missing_ids),
            data=b"" if body is None else json.dumps(body),
            content_type="application/json",
            **endpoint.headers,
        )
        assert missing.status_code == 404
        assert error_of(missing) == error_of(response)
