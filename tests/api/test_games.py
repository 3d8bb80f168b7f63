"""Starting games, listing them, reading one; finishing, abandoning, undoing."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from scorekeeper import access, selectors
from scorekeeper.models import Game, GameStatus, Result
from tests.api.helpers import WIDOW_DEALS, World, client_for, error_of, error_with
from tests.factories import PlayerFactory, SeasonFactory, member


def one_page(payload: dict[str, Any]) -> dict[str, Any]:
    """The selector's payload as the API shows a game whose deals fit on one page."""
    assert payload.pop("more_deals") is False
    return {**payload, "deals_next": None}


def start_body(world: World, **overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "club": world.club.pk,
        "game_type": "widow_whist",
        "players": [p.pk for p in world.players[:3]],
        "options": {"finish": {"deals": 6}},
        "first_dealer": 1,
    }
    body.update(overrides)
    return body


def test_start_a_game(world: World) -> None:
    response = world.client("member").post("/api/v1/games/", start_body(world))
    assert response.status_code == 201
    game = Game.objects.get()
    body = response.json()
    assert response["Location"].endswith(f"/api/v1/games/{game.pk}/")
    assert body == one_page(selectors.game_payload(game))
    assert body["seats"] == [
        {"position": i, "player": p.pk, "name": p.name} for i, p in enumerate(world.players[:3])
    ]
    assert body["options"] == {
        "targets": {"widow": 4, "other": 3},
        "must_trump_when_void": False,
        "finish": {"deals": 6},
    }
    assert body["next_deal"]["number"] == 1 and body["next_deal"]["dealer"] == 1
    assert body["status"] == "in_progress" and not body["finished"] and body["deals"] == []
    assert game.created_by == world.users["member"]


def test_start_with_season_and_date(world: World) -> None:
    start, end = datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)
    season = SeasonFactory(club=world.club, name="2024", starts_on=start, ends_on=end)
    body = start_body(world, played_on="2024-06-01")
    response = world.client("admin").post("/api/v1/games/", body)
    assert response.status_code == 201
    assert response.json()["season"] == season.pk  # found from the date
    assert response.json()["played_on"] == "2024-06-01"


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"game_type": "bridge"}, "game_type", 'unknown game "bridge"'),
        ({"options": {"finish": {"deals": 0}}}, "options.finish.deals", "from 1 to 10000; got 0"),
        ({"options": {"trumps": "spades"}}, "options.trumps", 'no house-rule option "trumps"'),
        ({"options": [1, 2]}, "options", "dictionary"),
        ({"first_dealer": 3}, "first_dealer", "first_dealer"),
        ({"first_dealer": "x"}, "first_dealer", "integer"),
        ({"players": "1,2,3"}, "players", "list"),
        ({"players": ["a", 2, 3]}, "players[0]", "integer"),
        ({"club": 999999}, "club", "no such club"),
        ({"club": "abc"}, "club", "integer"),
        ({"club": 10**30}, "club", ""),
        ({"season": 999999}, "season", "no such season"),
        ({"played_on": "yesterday"}, "played_on", "Date"),
    ],
)
def test_start_is_validated(
    world: World, overrides: dict[str, Any], field: str, message: str
) -> None:
    response = world.client("admin").post("/api/v1/games/", start_body(world, **overrides))
    assert response.status_code == 400, response.json()
    error = error_of(response)
    assert error["field"] == field
    assert message in error["message"]
    assert not Game.objects.exists()


@pytest.mark.parametrize(("game_type", "seats"), [("widow_whist", 2), ("third_hand", 3)])
def test_wrong_player_count_is_refused(world: World, game_type: str, seats: int) -> None:
    body = start_body(
        world, game_type=game_type, options={}, players=[p.pk for p in world.players[:seats]]
    )
    response = world.client("admin").post("/api/v1/games/", body)
    error = error_with(response, 400)
    assert error["field"] == "players"
    assert error["message"].endswith(f"players; this game has {seats}")
    assert not Game.objects.exists()


def test_player_of_another_club_is_refused_without_naming_them(world: World) -> None:
    stranger = PlayerFactory(club=world.other_club, name="Secret Stranger")
    players = [world.players[0].pk, world.players[1].pk, stranger.pk]
    response = world.client("admin").post("/api/v1/games/", start_body(world, players=players))
    error = error_with(response, 400)
    assert error["field"] == "players"
    assert "Secret Stranger" not in error["message"]
    assert str(stranger.pk) in error["message"]
    assert not Game.objects.exists()


def test_same_player_twice_is_refused(world: World) -> None:
    players = [world.players[0].pk, world.players[0].pk, world.players[1].pk]
    response = world.client("admin").post("/api/v1/games/", start_body(world, players=players))
    assert response.status_code == 400
    assert error_of(response)["field"] == "players"


def test_season_of_another_club_is_refused(world: World) -> None:
    season = SeasonFactory(club=world.other_club)
    response = world.client("admin").post("/api/v1/games/", start_body(world, season=season.pk))
    assert response.status_code == 400
    assert error_of(response)["field"] == "season"


def test_outsider_cannot_start_a_game_in_the_club(world: World) -> None:
    response = world.client("outsider").post("/api/v1/games/", start_body(world))
    error = error_with(response, 400)
    assert (error["field"], error["message"]) == ("club", "no such club")
    assert not Game.objects.exists()


# --- Listing ----------------------------------------------------------------------------------


def test_games_list_is_the_callers_clubs_filterable(world: World) -> None:
    in_progress = world.start()
    finished = world.record(world.start(), *WIDOW_DEALS)
    assert finished.status == GameStatus.FINISHED
    elsewhere = world.users["outsider"]
    other_players = [PlayerFactory(club=world.other_club) for _ in range(3)]
    from scorekeeper import services

    services.game_start(
        actor=elsewhere, club=world.other_club, game_type="widow_whist", players=other_players
    )

    client = world.client("member")
    body = client.get("/api/v1/games/").json()
    assert body["count"] == 2
    assert [g["id"] for g in body["results"]] == [finished.pk, in_progress.pk]
    summary = body["results"][0]
    assert summary["status"] == "finished" and summary["deal_count"] == 6
    assert [r["name"] for r in summary["results"]] == ["Ann", "Bob", "Cy"]
    totals = list(Result.objects.filter(game=finished).order_by("position"))
    assert [r["total"] for r in summary["results"]] == [r.total for r in totals]
    assert [r["won"] for r in summary["results"]] == [r.won for r in totals]

    only = client.get("/api/v1/games/", {"status": "in_progress"}).json()
    assert [g["id"] for g in only["results"]] == [in_progress.pk]
    assert client.get("/api/v1/games/", {"club": world.club.pk}).json()["count"] == 2
    # Filtering by a club the caller cannot see shows nothing, rather than its games.
    assert client.get("/api/v1/games/", {"club": world.other_club.pk}).json()["count"] == 0
    outsider = world.client("outsider").get("/api/v1/games/").json()
    assert outsider["count"] == 1 and outsider["results"][0]["club"] == world.other_club.pk

    page = client.get("/api/v1/games/", {"limit": 1, "offset": 1}).json()
    assert [g["id"] for g in page["results"]] == [in_progress.pk]
    assert page["previous"] is not None and page["next"] is None


@pytest.mark.parametrize(
    ("query", "field"),
    [({"status": "paused"}, "status"), ({"club": "abc"}, "club"), ({"club": "0"}, "club")],
)
def test_games_list_filters_are_validated(world: World, query: dict[str, str], field: str) -> None:
    response = world.client("member").get("/api/v1/games/", query)
    assert response.status_code == 400
    assert error_of(response)["field"] == field


def test_game_detail_is_the_selectors_payload(world: World) -> None:
    game = world.record(world.start(), *WIDOW_DEALS[:2])
    response = world.client("member").get(f"/api/v1/games/{game.pk}/")
    assert response.status_code == 200
    body = response.json()
    assert body == one_page(selectors.game_payload(game))
    assert [d["number"] for d in body["deals"]] == [1, 2]
    assert body["deals"][0]["record"] == WIDOW_DEALS[0]
    assert "targets" in body["deals"][0]  # the engine's context passes through
    assert body["next_deal"]["number"] == 3


# --- Finish, abandon, undo ---------------------------------------------------------------------


def test_finish_by_hand(world: World) -> None:
    game = world.record(world.start(options={}), *WIDOW_DEALS[:2])
    response = world.client("scorer").post(f"/api/v1/games/{game.pk}/finish/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "finished" and body["finished"]
    top = max(body["totals"])
    assert body["winners"] == [i for i, t in enumerate(body["totals"]) if t == top]
    assert body["next_deal"] is None
    again = world.client("scorer").post(f"/api/v1/games/{game.pk}/finish/")
    error_with(again, 409, "conflict")


def test_finish_and_abandon_take_no_fields(world: World) -> None:
    """A field sent to finish or abandon is refused by name: nothing is done as if it had
    been understood."""
    game = world.record(world.start(options={}), WIDOW_DEALS[0])
    for action in ("finish", "abandon"):
        sent = world.client("admin").post(f"/api/v1/games/{game.pk}/{action}/", {"reason": "x"})
        error = error_with(sent, 400)
        assert error["field"] == "reason"
        assert "unknown field: this request takes no fields" in error["message"]
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS


def test_a_game_without_deals_cannot_be_finished(world: World) -> None:
    game = world.start()
    response = world.client("admin").post(f"/api/v1/games/{game.pk}/finish/")
    assert response.status_code == 409
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS


def test_abandon(world: World) -> None:
    game = world.record(world.start(), WIDOW_DEALS[0])
    response = world.client("admin").post(f"/api/v1/games/{game.pk}/abandon/")
    assert response.status_code == 200
    assert response.json()["status"] == "abandoned"
    assert response.json()["next_deal"] is None
    assert response.json()["ended_by"] == world.users["admin"].get_username()
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED
    again = world.client("admin").post(f"/api/v1/games/{game.pk}/abandon/")
    assert again.status_code == 409
    # whoever sees the game is told it is abandoned already, whatever their rights
    seen = world.client("member").post(f"/api/v1/games/{game.pk}/abandon/")
    assert error_with(seen, 409, "conflict")["message"] == "the game is already abandoned"
    # a member who neither started it nor keeps the club's scores is told who may
    other = world.start()
    refused = world.client("member").post(f"/api/v1/games/{other.pk}/abandon/")
    error_with(refused, 403, "permission_denied")
    assert refused.json()["error"]["message"] == access.ABANDON_WHILE_PLAYED
    other.refresh_from_db()
    assert other.status == GameStatus.IN_PROGRESS
    deal = world.client("admin").post(
        f"/api/v1/games/{game.pk}/deals/", {"number": 2, **WIDOW_DEALS[1]}
    )
    assert deal.status_code == 409


def test_a_finished_game_is_abandoned_by_an_admin_or_director_only(world: World) -> None:
    """A finished game counts in the standings: a scorer corrects its deals, and only the
    club's admins and directors take it out (a game played by mistake)."""
    game = world.record(world.start(), *WIDOW_DEALS)
    assert game.status == GameStatus.FINISHED
    refused = world.client("scorer").post(f"/api/v1/games/{game.pk}/abandon/")
    error_with(refused, 403, "permission_denied")
    assert "only the club's admins and directors" in refused.json()["error"]["message"]
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert Result.objects.filter(game=game, won=True).exists()
    done = world.client("admin").post(f"/api/v1/games/{game.pk}/abandon/")
    assert done.status_code == 200 and done.json()["status"] == "abandoned"
    assert not Result.objects.filter(game=game, won=True).exists()


def test_undo_takes_back_the_last_deal_and_reopens_a_finished_game(world: World) -> None:
    game = world.record(world.start(), *WIDOW_DEALS)
    assert game.status == GameStatus.FINISHED
    response = world.client("scorer").post(
        f"/api/v1/games/{game.pk}/undo/", {"reason": "wrong table"}
    )
    assert response.status_code == 200
    body = response.json()
    assert body["undone"] == 6
    assert [d["number"] for d in body["game"]["deals"]] == [1, 2, 3, 4, 5]
    assert body["game"]["status"] == "in_progress" and body["game"]["next_deal"]["number"] == 6
    game.refresh_from_db()
    assert game.deal_count == 5 and game.status == GameStatus.IN_PROGRESS
    history = world.client("scorer").get(f"/api/v1/games/{game.pk}/deals/6/history/").json()
    assert [(h["action"], h["reason"]) for h in history] == [
        ("record", ""),
        ("undo", "wrong table"),
    ]
    assert world.client("scorer").get(f"/api/v1/games/{game.pk}/deals/6/").status_code == 404


def test_undo_without_deals_is_a_conflict(world: World) -> None:
    game = world.start()
    response = world.client("scorer").post(f"/api/v1/games/{game.pk}/undo/", {})
    error_with(response, 409, "conflict")


def test_a_seated_member_may_score_their_own_game(world: World) -> None:
    seated = world.players[0]
    seated.user = world.users["member"]
    seated.save()
    game = world.start()
    client = world.client("member")
    response = client.post(f"/api/v1/games/{game.pk}/deals/", {"number": 1, **WIDOW_DEALS[0]})
    assert response.status_code == 201
    assert response.json()["entered_by"] == "member"
    assert client.post(f"/api/v1/games/{game.pk}/undo/").status_code == 200
    # but a player who only sits in the game finishes it rather than abandon it (as on
    # its page: a tournament table's game is the director's to end)
    refused = error_with(client.post(f"/api/v1/games/{game.pk}/abandon/"), 403)
    assert "whoever started the game can abandon it" in refused["message"]
    game.refresh_from_db()
    assert game.status == "in_progress"


def test_a_member_who_started_a_game_scores_it_where_they_do_not_sit(world: World) -> None:
    """Someone keeps the score of a table they do not play at: the member who started the
    game may score it (as its players may); another member may not."""
    started = world.client("member").post("/api/v1/games/", start_body(world))
    assert started.status_code == 201, started.content
    game = started.json()["id"]
    deal = {"number": 1, **WIDOW_DEALS[0]}
    refused = client_for(member(world.club)).post(f"/api/v1/games/{game}/deals/", deal)
    assert refused.status_code == 403
    recorded = world.client("member").post(f"/api/v1/games/{game}/deals/", deal)
    assert recorded.status_code == 201 and recorded.json()["entered_by"] == "member"
    assert world.client("member").post(f"/api/v1/games/{game}/abandon/").status_code == 200


def test_a_long_game_lists_its_deals_a_page_at_a_time(world: World) -> None:
    game = world.start(options={"finish": {"deals": 30}})
    world.record(game, *(WIDOW_DEALS + WIDOW_DEALS[:1]))
    client = world.client("member")
    first = client.get(f"/api/v1/games/{game.pk}/", {"deals_limit": 3}).json()
    assert [d["number"] for d in first["deals"]] == [1, 2, 3]
    assert first["deal_count"] == 7
    assert first["deals_next"].endswith(f"/api/v1/games/{game.pk}/?deals_after=3&deals_limit=3")
    numbers = [d["number"] for d in first["deals"]]
    url = first["deals_next"]
    while url:
        page = client.get(url).json()
        numbers += [d["number"] for d in page["deals"]]
        assert page["totals"] == first["totals"]
        url = page["deals_next"]
    assert numbers == list(range(1, 8))
    # By default one page holds 200 deals: this game's all.
    whole = client.get(f"/api/v1/games/{game.pk}/").json()
    assert [d["number"] for d in whole["deals"]] == numbers and whole["deals_next"] is None


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"deals_limit": 0}, "deals_limit"),
        ({"deals_limit": 5000}, "deals_limit"),
        ({"deals_after": -1}, "deals_after"),
        ({"deals_after": "x"}, "deals_after"),
    ],
)
def test_deal_paging_is_validated(world: World, query: dict[str, Any], field: str) -> None:
    game = world.start()
    response = world.client("member").get(f"/api/v1/games/{game.pk}/", query)
    assert response.status_code == 400
    assert error_of(response)["field"] == field
