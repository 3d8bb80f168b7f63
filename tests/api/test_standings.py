"""Season standings: public or members only."""

from __future__ import annotations

import datetime

import pytest

from scorekeeper import services
from scorekeeper.models import Season
from tests.api.helpers import ITALIAN_DEALS, WIDOW_DEALS, World, error_of
from tests.factories import SeasonFactory

TODAY = datetime.date.today()


@pytest.fixture
def season(world: World) -> Season:
    start, end = TODAY - datetime.timedelta(days=30), TODAY + datetime.timedelta(days=30)
    return SeasonFactory(club=world.club, name="This season", starts_on=start, ends_on=end)


def url(season: Season | int) -> str:
    pk = season if isinstance(season, int) else season.pk
    return f"/api/v1/seasons/{pk}/standings/"


def test_standings_over_finished_games(world: World, season: Season) -> None:
    # Widow whist, finished: totals from WIDOW_DEALS.
    widow = world.record(world.start(), *WIDOW_DEALS)
    # Italian whist with Dee instead of Ann, finished.
    italian = services.game_start(
        actor=world.users["scorer"],
        club=world.club,
        game_type="italian_whist",
        players=world.players[1:4],
        options={"limit": 5},
    )
    world.record(italian, *ITALIAN_DEALS)
    # In progress and abandoned games do not count.
    world.record(world.start(), WIDOW_DEALS[0])
    abandoned = world.record(world.start(), *WIDOW_DEALS[:2])
    services.game_abandon(actor=world.users["admin"], game=abandoned)

    response = world.client("member").get(url(season))
    assert response.status_code == 200
    body = response.json()
    assert body["season"]["id"] == season.pk and body["game_type"] is None
    rows = {row["name"]: row for row in body["standings"]}
    assert set(rows) == {"Ann", "Bob", "Cy", "Dee"}
    ann = widow.results.get(position=0)
    assert rows["Ann"]["games_played"] == 1
    assert rows["Ann"]["games_won"] == int(ann.won)
    # Widow and Italian whist: their points are not added up over all games.
    assert all(
        row["total_score"] is None
        and row["average_score"] is None
        and row["average_per_deal"] is None
        and row["rating"] is None  # ratings are kept per game
        and row["average_placing"] >= 1
        for row in body["standings"]
    )
    assert rows["Bob"]["games_played"] == 2
    assert rows["Dee"]["games_played"] == 1
    assert sum(row["games_won"] for row in body["standings"]) >= 2

    only = world.client("member").get(url(season), {"game_type": "italian_whist"}).json()
    assert only["game_type"] == "italian_whist"
    assert {row["name"] for row in only["standings"]} == {"Bob", "Cy", "Dee"}
    assert all(row["games_played"] == 1 for row in only["standings"])
    # sorted by what is not there: by wins, and the answer says so
    for asked in ("total", "per_deal", "rating"):
        mixed = world.client("member").get(url(season), {"sort": asked}).json()
        assert mixed["sort"] == "wins" and mixed["game_type"] is None
        wins = [row["games_won"] for row in mixed["standings"]]
        assert wins == sorted(wins, reverse=True)
    widow_only = world.client("member").get(url(season), {"game_type": "widow_whist"}).json()
    rows = {row["name"]: row for row in widow_only["standings"]}
    assert rows["Ann"]["total_score"] == ann.total


def test_a_season_of_one_game_adds_its_scores_over_all_games(world: World, season: Season) -> None:
    first = world.record(world.start(), *WIDOW_DEALS)
    second = world.record(world.start(), *WIDOW_DEALS)
    body = world.client("member").get(url(season), {"sort": "total"}).json()
    assert body["game_type"] == "widow_whist"  # all games: the season's one kind
    totals = [row["total_score"] for row in body["standings"]]
    assert totals == sorted(totals, reverse=True)
    ann = first.results.get(position=0).total + second.results.get(position=0).total
    assert {row["name"]: row["total_score"] for row in body["standings"]}["Ann"] == ann


def test_bad_game_type_is_400(world: World, season: Season) -> None:
    response = world.client("member").get(url(season), {"game_type": "snap"})
    assert response.status_code == 400
    assert error_of(response)["field"] == "game_type"


@pytest.mark.parametrize(
    ("public", "caller", "status"),
    [
        (False, "anonymous", 401),
        (False, "outsider", 404),
        (False, "member", 200),
        (False, "admin", 200),
        (True, "anonymous", 200),
        (True, "outsider", 200),
        (True, "member", 200),
        (True, "admin", 200),
    ],
)
def test_standings_public_or_members_only(
    world: World, season: Season, public: bool, caller: str, status: int
) -> None:
    world.club.results_public = public
    world.club.save()
    world.record(world.start(), *WIDOW_DEALS)
    response = world.client(caller).get(url(season))
    assert response.status_code == status
    if status == 200:
        assert len(response.json()["standings"]) == 3
    else:
        assert "standings" not in response.json()
        error_of(response)


@pytest.mark.parametrize(("caller", "status"), [("anonymous", 401), ("member", 404)])
def test_a_missing_season_looks_like_a_private_one(world: World, caller: str, status: int) -> None:
    missing = world.client(caller).get(url(999999))
    assert missing.status_code == status
    assert world.client(caller).get(url(10**25)).status_code == status
