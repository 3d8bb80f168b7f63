"""The tournament endpoints under /api/v1/: every one tried by an anonymous caller, a
member of another club, a plain member of the club and its director; the error format;
and a tournament run through the API."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from scorekeeper.models import Player, Role
from tests.api.helpers import client_for, error_of
from tests.factories import ClubFactory, PlayerFactory, member
from tests.tournaments.helpers import EVEN, WIN, play, tables
from tournaments import services
from tournaments.models import Registration, Round, RoundStatus, Table, Tournament

CALLERS = ("anonymous", "outsider", "member", "director")


@dataclass
class Scene:
    users: dict[str, User]
    players: dict[str, Player]
    tournament: Tournament
    round: Round
    capture: Callable[..., Any]
    table: Table | None = None

    def client(self, caller: str) -> APIClient:
        return client_for(None if caller == "anonymous" else self.users[caller])

    def publish(self) -> None:
        with self.capture(execute=True):
            services.round_publish(actor=self.users["director"], round=self.round, notify=False)

    def ann_table(self) -> Table:
        return Table.objects.get(round=self.round, seats__player=self.players["Ann"])


@pytest.fixture
def scene(db: None, django_capture_on_commit_callbacks: Callable[..., Any]) -> Scene:
    club, other = ClubFactory(name="Home", slug="home"), ClubFactory(name="Other", slug="other")
    users = {
        "director": member(club, Role.DIRECTOR, username="director"),
        "member": member(club, Role.MEMBER, username="ann"),
        "outsider": member(other, Role.ADMIN, username="outsider"),
    }
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")
    players = {name: PlayerFactory(club=club, name=name) for name in names}
    players["Ann"].user = users["member"]
    players["Ann"].save()
    director = users["director"]
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name="Spring cup",
        game_type="widow_whist",
        rounds=3,
        round_kind="deals",
        round_deals=3,
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.register(
            actor=director,
            tournament=tournament,
            players=[players[n] for n in names[:6]],
            check_in=True,
        )
        services.register(actor=director, tournament=tournament, players=[players["Gus"]])
        round, _ = services.round_request(actor=director, tournament=tournament)
    round.refresh_from_db()
    assert round.status == RoundStatus.SEATED
    return Scene(users, players, tournament, round, django_capture_on_commit_callbacks)


def _play_ann_table(scene: Scene) -> None:
    scene.publish()
    play(scene.ann_table(), [WIN[0], WIN[1], EVEN], by="Scorer")


def _confirmed_ann_table(scene: Scene) -> None:
    _play_ann_table(scene)
    with scene.capture(execute=True):
        services.table_confirm(actor=scene.users["member"], table=scene.ann_table())


def _close_ready(scene: Scene) -> None:
    scene.publish()


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str  # formatted with {t}, {club}, {round}, {table}
    expect: tuple[int, int, int, int]  # anonymous, outsider, member, director
    body: Callable[[Scene], Any] | dict[str, Any] | None = None  # None: sent without one
    prepare: Callable[[Scene], None] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def data(self, scene: Scene) -> Any:
        return self.body(scene) if callable(self.body) else self.body


def _players(*names: str) -> Callable[[Scene], dict[str, list[int]]]:
    """A body naming players of the scene by name."""
    return lambda scene: {"players": [scene.players[name].pk for name in names]}


READ = (401, 404, 200, 200)  # the club's members read
DIRECTOR = (401, 404, 403, 200)  # only its director
CLUB = "/api/v1/clubs/{club}/tournaments/"
T = "/api/v1/tournaments/{t}/"
R = T + "rounds/{round}/"
ZED = {"new_players": [{"name": "Zed"}], "check_in": True}
NEW = {"name": "Third hand night", "game_type": "third_hand", "rounds": 2, "round_kind": "game"}
ENDPOINTS = [
    Endpoint("list", "get", CLUB, READ),
    Endpoint("create", "post", CLUB, (401, 404, 403, 201), body=NEW),
    Endpoint("detail", "get", T, READ),
    Endpoint("registrations", "get", T + "registrations/", READ),
    Endpoint("register", "post", T + "registrations/", DIRECTOR, body=ZED),
    Endpoint("check_in", "post", T + "registrations/check-in/", DIRECTOR, body=_players("Gus")),
    Endpoint("check_out", "post", T + "registrations/check-out/", DIRECTOR, body=_players("Ann")),
    Endpoint("withdraw", "post", T + "registrations/withdraw/", DIRECTOR, body=_players("Gus")),
    Endpoint("rounds", "get", T + "rounds/", READ),
    Endpoint("seat_next", "post", T + "rounds/", (401, 404, 403, 202), body={}),
    Endpoint("round", "get", R, READ),
    Endpoint("publish", "post", R + "publish/", DIRECTOR, body={"notify": False}),
    Endpoint("close", "post", R + "close/", DIRECTOR, body={"force": True}, prepare=_close_ready),
    Endpoint("swap", "post", R + "swap/", DIRECTOR, body=_players("Ann", "Dee")),
    Endpoint("tables", "get", R + "tables/", READ),
    # Only a player seated at the table confirms: Ann (the member), not the director.
    Endpoint(
        "confirm",
        "post",
        R + "tables/{table}/confirm/",
        (401, 404, 200, 403),
        body={},
        prepare=_play_ann_table,
    ),
    Endpoint(
        "reopen",
        "post",
        R + "tables/{table}/reopen/",
        DIRECTOR,
        body={"reason": "deal 2 went to the wrong seat"},
        prepare=_confirmed_ann_table,
    ),
    Endpoint("standings", "get", T + "standings/", READ),
]


def _path(endpoint: Endpoint, scene: Scene) -> str:
    return endpoint.path.format(
        t=scene.tournament.pk,
        club=scene.tournament.club_id,
        round=scene.round.number,
        table=scene.ann_table().number,
    )


def _snapshot(scene: Scene) -> tuple[Any, ...]:
    return (
        Tournament.objects.count(),
        list(Registration.objects.values_list("player_id", "status", "checked_in_round")),
        list(Round.objects.values_list("number", "status")),
        list(scene.round.players.values_list("player_id", "table_id", "position")),
        list(Table.objects.values_list("pk", "confirmed_at")),
    )


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=lambda e: e.name)
def test_access(scene: Scene, endpoint: Endpoint, caller: str) -> None:
    if endpoint.prepare:
        endpoint.prepare(scene)
    expected = endpoint.expect[CALLERS.index(caller)]
    before = _snapshot(scene)
    client = scene.client(caller)
    path = _path(endpoint, scene)
    kwargs: dict[str, Any] = {"format": "json"}
    if endpoint.body is not None:
        kwargs["data"] = endpoint.data(scene)
    response = getattr(client, endpoint.method)(path, **kwargs)
    assert response.status_code == expected, (caller, response.content[:300])
    if expected >= 400:
        error = error_of(response)
        assert _snapshot(scene) == before  # a refusal changes nothing
        if expected == 404:
            assert error["code"] == "not_found"
            # Exactly what a tournament that does not exist gives.
            missing = path.replace(f"/tournaments/{scene.tournament.pk}/", "/tournaments/999999/")
            missing = missing.replace(f"/clubs/{scene.tournament.club_id}/", "/clubs/999999/")
            other = getattr(client, endpoint.method)(missing, **kwargs)
            assert other.status_code == 404 and error_of(other)["message"] == error["message"]
        if expected == 401:
            assert error["code"] in ("not_authenticated", "authentication_failed")
    elif endpoint.method == "get":
        assert _snapshot(scene) == before  # a read changes nothing


def test_standings_of_a_public_club_are_public(scene: Scene) -> None:
    club = scene.tournament.club
    club.results_public = True
    club.save()
    for caller in ("anonymous", "outsider"):
        response = scene.client(caller).get(f"/api/v1/tournaments/{scene.tournament.pk}/standings/")
        assert response.status_code == 200
        assert response.json()["tournament"]["name"] == "Spring cup"
    # Everything else stays the club's.
    assert (
        scene.client("anonymous").get(f"/api/v1/tournaments/{scene.tournament.pk}/").status_code
        == 401
    )
    assert scene.client("anonymous").get("/api/v1/tournaments/999999/standings/").status_code == 401


def test_refusals_name_the_field(scene: Scene) -> None:
    client = scene.client("director")
    t = scene.tournament
    response = client.post(
        f"/api/v1/clubs/{t.club_id}/tournaments/",
        {
            "name": "X",
            "game_type": "widow_whist",
            "rounds": 2,
            "round_kind": "deals",
            "round_deals": 3,
            "options": {"targets": {"widow": 99}},
        },
        format="json",
    )
    assert response.status_code == 400
    assert error_of(response)["field"] == "options.targets.widow"
    stranger = PlayerFactory(club=ClubFactory())
    response = client.post(
        f"/api/v1/tournaments/{t.pk}/registrations/", {"players": [stranger.pk]}, format="json"
    )
    assert response.status_code == 400 and error_of(response)["field"] == "players"
    # All or nothing: a new player whose name is taken registers nobody.
    hal = PlayerFactory(club=t.club, name="Hal")
    response = client.post(
        f"/api/v1/tournaments/{t.pk}/registrations/",
        {"players": [hal.pk], "new_players": [{"name": "ann"}]},
        format="json",
    )
    assert response.status_code == 400 and error_of(response)["field"] == "name"
    assert not Registration.objects.filter(tournament=t, player=hal).exists()
    # a new player's field the request does not take is refused by name, not ignored
    response = client.post(
        f"/api/v1/tournaments/{t.pk}/registrations/",
        {"players": [hal.pk], "new_players": [{"name": "Ida", "mail": "ida@example.com"}]},
        format="json",
    )
    assert response.status_code == 400 and "mail" in error_of(response)["field"]
    assert "unknown field" in error_of(response)["message"]
    assert not Registration.objects.filter(tournament=t, player=hal).exists()
    response = client.post(
        f"/api/v1/tournaments/{t.pk}/rounds/1/swap/", {"players": [1]}, format="json"
    )
    assert response.status_code == 400 and error_of(response)["field"] == "players"
    scene.publish()
    response = client.post(f"/api/v1/tournaments/{t.pk}/rounds/1/close/", {}, format="json")
    assert response.status_code == 409
    error = error_of(response)
    assert error["code"] == "conflict" and error["details"]["unconfirmed"] == [1, 2]
    assert client.get(f"/api/v1/tournaments/{t.pk}/rounds/7/").status_code == 404
    assert client.get(f"/api/v1/tournaments/{t.pk}/rounds/1/tables/9/confirm/").status_code in (
        404,
        405,
    )


def test_a_round_through_the_api(scene: Scene) -> None:
    director = scene.client("director")
    t = scene.tournament
    base = f"/api/v1/tournaments/{t.pk}/"
    # Asking again for the next round while round 1 is open answers round 1.
    response = director.post(base + "rounds/", {}, format="json")
    assert response.status_code == 202
    body = response.json()
    assert body["number"] == 1 and body["seating_status"] == "done"
    assert body["seating_progress"] == 100 and body["tables"] == 2 and body["byes"] == []
    assert response["Location"].endswith(f"/api/v1/tournaments/{t.pk}/rounds/1/")
    tables_body = director.get(base + "rounds/1/tables/").json()
    assert [table["state"] for table in tables_body] == ["not_started", "not_started"]
    assert all(len(table["seats"]) == 3 for table in tables_body)
    swap = director.post(
        base + "rounds/1/swap/",
        {"players": [scene.players["Ann"].pk, scene.players["Bob"].pk]},
        format="json",
    ).json()
    assert swap["conflicts"] == [] and len(swap["tables"]) == 2
    published = director.post(base + "rounds/1/publish/", {"notify": False}, format="json")
    assert published.json()["status"] == "playing"
    play(scene.ann_table(), [WIN[0]], by="Scorer")
    states = [
        (table["state"], table["deal"]) for table in director.get(base + "rounds/1/tables/").json()
    ]
    assert ("playing", 2) in states
    play(scene.ann_table(), [WIN[1], EVEN], by="Scorer")
    number = scene.ann_table().number
    confirmed = scene.client("member").post(
        base + f"rounds/1/tables/{number}/confirm/", {}, format="json"
    )
    assert confirmed.status_code == 200
    assert confirmed.json()["state"] == "confirmed" and confirmed.json()["confirmed_by"] == "ann"
    other = next(table for table in tables(scene.round) if table.number != number)
    play(other, [EVEN, EVEN, EVEN], by="Scorer")
    with scene.capture(execute=True):
        closed = director.post(base + "rounds/1/close/", {"force": True}, format="json")
    assert closed.json()["status"] == "closed" and closed.json()["close_reason"] == "director"
    standings = director.get(base + "standings/").json()
    assert len(standings["standings"]) == 7  # Gus registered, not yet played
    assert standings["standings"][0]["rank"] == 1 and standings["updated_at"]
    detail = director.get(base).json()
    assert detail["status"] == "running" and detail["check_in_round"] == 2
    registrations = director.get(base + "registrations/").json()
    # A check-in carries over: the six who played round 1 are still checked in for round 2
    # (Gus registered without checking in).
    present = {r["name"] for r in registrations if r["checked_in"]}
    assert present == {"Ann", "Bob", "Cy", "Dee", "Eve", "Fay"}
    # Fay leaves: she checks out (and stays registered); Gus checks in.
    out = director.post(
        base + "registrations/check-out/", {"players": [scene.players["Fay"].pk]}, format="json"
    )
    assert out.status_code == 200
    fay = next(r for r in out.json() if r["name"] == "Fay")
    assert (fay["status"], fay["checked_in"], fay["checked_out_round"]) == ("active", False, 2)
    director.post(
        base + "registrations/check-in/", {"players": [scene.players["Gus"].pk]}, format="json"
    )
    with scene.capture(execute=True):
        asked = director.post(base + "rounds/", {}, format="json")
    assert asked.status_code == 202 and asked.json()["number"] == 2
    assert director.get(base + "rounds/2/").json()["seating_status"] == "done"
    seated = {
        seat["name"]
        for table in director.get(base + "rounds/2/tables/").json()
        for seat in table["seats"]
    }
    assert seated == {"Ann", "Bob", "Cy", "Dee", "Eve", "Gus"}


def test_register_everyone_on_the_roster_through_the_api(scene: Scene) -> None:
    director = scene.client("director")
    t = scene.tournament
    extra = PlayerFactory(club=t.club, name="Hal")
    PlayerFactory(club=t.club, name="Old", active=False)
    response = director.post(
        f"/api/v1/tournaments/{t.pk}/registrations/",
        {"everyone": True, "check_in": True},
        format="json",
    )
    assert response.status_code == 200
    names = {r["name"]: r for r in response.json()}
    assert set(names) == {"Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"}
    assert names[extra.name]["late"] and names[extra.name]["checked_in_round"] == 2
    bad = director.post(f"/api/v1/tournaments/{t.pk}/registrations/", {}, format="json")
    assert bad.status_code == 400 and error_of(bad)["field"] == "players"


def test_a_confirmed_table_is_locked_in_the_api_until_the_director_reopens_it(
    scene: Scene,
) -> None:
    _confirmed_ann_table(scene)
    table = scene.ann_table()
    game = f"/api/v1/games/{table.game_id}/"
    ann, director = scene.client("member"), scene.client("director")
    detail = ann.get(game).json()
    assert detail["locked"] is True and "confirmed by ann" in detail["locked_reason"]
    undo = ann.post(game + "undo/", {}, format="json")
    assert undo.status_code == 409
    assert "only the tournament director can reopen" in error_of(undo)["message"]
    version = detail["deals"][1]["version"]
    fix = {"record": WIN[2], "reason": "wrong seat"}
    put = director.put(game + "deals/2/", fix, format="json", HTTP_IF_MATCH=str(version))
    assert put.status_code == 409 and error_of(put)["code"] == "conflict"
    assert ann.get(game).json()["deals"][1]["record"] == WIN[1]  # nothing changed
    path = f"{T.format(t=scene.tournament.pk)}rounds/{scene.round.number}/tables/{table.number}/"
    empty = director.post(path + "reopen/", {"reason": ""}, format="json")
    assert empty.status_code == 400 and error_of(empty)["field"] == "reason"
    reopened = director.post(path + "reopen/", {"reason": "wrong seat"}, format="json")
    assert reopened.status_code == 200, reopened.content
    body = reopened.json()
    assert body["locked"] is False and body["state"] == "finished"
    assert body["reopened_by"] == "director" and body["reopen_reason"] == "wrong seat"
    put = director.put(game + "deals/2/", fix, format="json", HTTP_IF_MATCH=str(version))
    assert put.status_code == 200, put.content
    again = director.post(path + "reopen/", {"reason": "again"}, format="json")
    assert again.status_code == 409


def test_the_tables_last_deal_shows_once_time_is_called_before_the_clock_runs(
    scene: Scene,
) -> None:
    """The API gives the same last deal as the phones' pages and the tables' states: once
    a timed round's time is called, the deal then in progress, before the clock's job."""
    from django.utils import timezone

    director = scene.users["director"]
    timed = services.tournament_create(
        actor=director,
        club=scene.tournament.club,
        name="Timed cup",
        game_type="widow_whist",
        rounds=1,
        round_kind="time",
        round_minutes=30,
    )
    with scene.capture(execute=True):
        services.register(
            actor=director,
            tournament=timed,
            players=list(scene.players.values())[:6],
            check_in=True,
        )
        round, _ = services.round_request(actor=director, tournament=timed)
    round.refresh_from_db()
    services.round_publish(actor=director, round=round, notify=False)
    first = tables(round)[0]
    play(first, [WIN[0]], by="Scorer")
    path = f"/api/v1/tournaments/{timed.pk}/rounds/1/tables/"
    assert [t["deal_limit"] for t in scene.client("director").get(path).json()] == [None, None]
    Round.objects.filter(pk=round.pk).update(time_called_at=timezone.now())
    body = scene.client("director").get(path).json()
    assert [(t["deal_limit"], t["state"]) for t in body] == [(2, "playing"), (1, "not_started")]
