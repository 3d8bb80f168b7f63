"""Clubs, their rosters and seasons, by role."""

from __future__ import annotations

import datetime

import pytest

from scorekeeper.models import Club, Membership, Player, Role, Season
from tests.api.helpers import World, error_of, error_with
from tests.factories import SeasonFactory


def test_clubs_list_shows_only_the_callers_clubs_with_their_role(world: World) -> None:
    response = world.client("director").get("/api/v1/clubs/")
    assert response.status_code == 200
    assert response.json() == [
        {
            "id": world.club.pk,
            "name": "Home club",
            "slug": "home",
            "results_public": False,
            "role": "director",
        }
    ]
    outsider = world.client("outsider").get("/api/v1/clubs/").json()
    assert [club["slug"] for club in outsider] == ["other"]


def test_creating_a_club_makes_the_caller_its_admin(world: World) -> None:
    client = world.client("member")
    response = client.post(
        "/api/v1/clubs/", {"name": "Tuesday whist", "slug": "tuesday", "results_public": True}
    )
    assert response.status_code == 201
    body = response.json()
    assert body["slug"] == "tuesday" and body["role"] == "admin" and body["results_public"]
    club = Club.objects.get(slug="tuesday")
    assert response["Location"].endswith(f"/api/v1/clubs/{club.pk}/")
    assert Membership.objects.get(club=club, user=world.users["member"]).role == Role.ADMIN
    assert client.get(f"/api/v1/clubs/{club.pk}/").json()["role"] == "admin"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Again", "slug": "home"}, "slug"),  # the service: slug taken
        ({"name": "Bad slug", "slug": "not a slug"}, "slug"),
        ({"slug": "no-name"}, "name"),
        ({"name": "x" * 121, "slug": "long"}, "name"),
    ],
)
def test_club_creation_is_validated(world: World, body: dict[str, str], field: str) -> None:
    before = Club.objects.count()
    response = world.client("admin").post("/api/v1/clubs/", body)
    assert response.status_code == 400
    assert error_of(response)["field"] == field
    assert Club.objects.count() == before


def test_club_detail_is_hidden_from_non_members(world: World) -> None:
    assert world.client("member").get(f"/api/v1/clubs/{world.club.pk}/").status_code == 200
    response = world.client("outsider").get(f"/api/v1/clubs/{world.club.pk}/")
    assert response.status_code == 404
    # Exactly as for a club that does not exist.
    missing = world.client("outsider").get("/api/v1/clubs/999999/")
    assert error_of(response) == error_of(missing)


# --- Players ----------------------------------------------------------------------------------


def test_an_admin_renames_the_club_and_makes_its_results_public(world: World) -> None:
    url = f"/api/v1/clubs/{world.club.pk}/"
    done = world.client("admin").patch(url, {"results_public": True}, format="json")
    assert done.status_code == 200
    assert done.json()["results_public"] is True and done.json()["role"] == "admin"
    renamed = world.client("admin").patch(url, {"name": "  The Kings Head "}, format="json")
    assert renamed.json()["name"] == "The Kings Head" and renamed.json()["results_public"]
    for body, field in (({"name": ""}, "name"), ({"results_public": "yes"}, "results_public")):
        refused = world.client("admin").patch(url, body, format="json")
        assert refused.status_code == 400 and error_of(refused)["field"] == field
    refused = world.client("director").patch(url, {"results_public": False}, format="json")
    assert refused.status_code == 403
    assert "only the club's admins" in error_of(refused)["message"]
    world.club.refresh_from_db()
    assert world.club.name == "The Kings Head" and world.club.results_public


def test_a_field_the_request_does_not_take_is_refused_not_ignored(world: World) -> None:
    """A misspelt field is named, and nothing is done: closing a season with "ends_on"
    (the field is "on") does not end it today as if nothing were asked."""
    season = SeasonFactory(
        club=world.club,
        starts_on=datetime.date(2020, 1, 1),
        ends_on=datetime.date(2099, 12, 31),
    )
    response = world.client("admin").post(
        f"/api/v1/seasons/{season.pk}/close/", {"ends_on": "2030-01-01"}, format="json"
    )
    assert response.status_code == 400
    error = error_of(response)
    assert error["field"] == "ends_on" and "unknown field: this request takes on" in str(error)
    season.refresh_from_db()
    assert season.ends_on == datetime.date(2099, 12, 31)
    url = f"/api/v1/clubs/{world.club.pk}/"
    refused = world.client("admin").patch(url, {"slug": "x"}, format="json")
    assert refused.status_code == 400 and error_of(refused)["field"] == "slug"
    too_early = world.client("admin").post(
        f"/api/v1/seasons/{season.pk}/close/", {"on": "2019-06-01"}, format="json"
    )
    assert too_early.status_code == 400 and error_of(too_early)["field"] == "on"
    assert "starts on 1 Jan 2020" in error_of(too_early)["message"]


def test_roster_lists_players_and_shows_emails_to_staff_only(world: World) -> None:
    Player.objects.filter(name="Ann").update(email="ann@example.org")
    url = f"/api/v1/clubs/{world.club.pk}/players/"
    staff = world.client("scorer").get(url).json()
    assert [p["name"] for p in staff] == ["Ann", "Bob", "Cy", "Dee"]
    assert staff[0]["email"] == "ann@example.org"
    assert staff[0]["club"] == world.club.pk and staff[0]["user"] is None
    members = world.client("member").get(url).json()
    assert [p["name"] for p in members] == ["Ann", "Bob", "Cy", "Dee"]
    assert "email" not in members[0]


@pytest.mark.parametrize(
    ("caller", "status"),
    [("admin", 201), ("director", 201), ("scorer", 201), ("member", 403), ("outsider", 404)],
)
def test_adding_players_is_for_staff(world: World, caller: str, status: int) -> None:
    url = f"/api/v1/clubs/{world.club.pk}/players/"
    response = world.client(caller).post(url, {"name": "  Eve   Smith ", "email": "e@x.org"})
    assert response.status_code == status
    added = Player.objects.filter(club=world.club, name="Eve Smith")
    if status == 201:
        assert response.json()["name"] == "Eve Smith"
        assert response.json()["email"] == "e@x.org"
        assert added.count() == 1
    else:
        assert error_of(response)["code"] == ("permission_denied" if status == 403 else "not_found")
        assert not added.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [({"name": "ann"}, "name"), ({"name": "   "}, "name"), ({"name": "Z", "email": "x"}, "email")],
)
def test_player_validation(world: World, body: dict[str, str], field: str) -> None:
    response = world.client("admin").post(f"/api/v1/clubs/{world.club.pk}/players/", body)
    assert response.status_code == 400
    assert error_of(response)["field"] == field
    assert Player.objects.filter(club=world.club).count() == 4


# --- Seasons ----------------------------------------------------------------------------------


def test_seasons_are_listed_latest_first(world: World) -> None:
    for year in (2024, 2025):
        start, end = datetime.date(year, 1, 1), datetime.date(year, 12, 31)
        SeasonFactory(club=world.club, name=str(year), starts_on=start, ends_on=end)
    SeasonFactory(club=world.other_club, name="Elsewhere")
    response = world.client("member").get(f"/api/v1/clubs/{world.club.pk}/seasons/")
    assert response.status_code == 200
    assert [(s["name"], s["starts_on"]) for s in response.json()] == [
        ("2025", "2025-01-01"),
        ("2024", "2024-01-01"),
    ]


@pytest.mark.parametrize(
    ("caller", "status"),
    [("admin", 201), ("director", 201), ("scorer", 403), ("member", 403), ("outsider", 404)],
)
def test_adding_seasons_is_for_admins_and_directors(world: World, caller: str, status: int) -> None:
    body = {"name": "Spring", "starts_on": "2025-03-01", "ends_on": "2025-05-31"}
    response = world.client(caller).post(f"/api/v1/clubs/{world.club.pk}/seasons/", body)
    assert response.status_code == status
    if status == 201:
        assert response.json() == {
            "id": Season.objects.get(name="Spring").pk,
            "club": world.club.pk,
            "name": "Spring",
            "starts_on": "2025-03-01",
            "ends_on": "2025-05-31",
        }
    else:
        error_of(response)
        assert not Season.objects.filter(name="Spring").exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "Back", "starts_on": "2025-05-01", "ends_on": "2025-04-01"}, "ends_on"),
        ({"name": "Overlap", "starts_on": "2025-02-01", "ends_on": "2025-02-10"}, "starts_on"),
        ({"name": "Bad date", "starts_on": "2025-13-01", "ends_on": "2025-12-31"}, "starts_on"),
        ({"name": "Winter", "starts_on": "2026-01-01", "ends_on": "2026-02-01"}, "name"),
        ({"name": "Typo", "starts_on": "0026-01-01", "ends_on": "2026-02-01"}, "starts_on"),
        ({"name": "Far", "starts_on": "2026-01-01", "ends_on": "9999-12-31"}, "ends_on"),
    ],
)
def test_season_validation(world: World, body: dict[str, str], field: str) -> None:
    start, end = datetime.date(2025, 1, 1), datetime.date(2025, 2, 28)
    SeasonFactory(club=world.club, name="Winter", starts_on=start, ends_on=end)
    response = world.client("director").post(f"/api/v1/clubs/{world.club.pk}/seasons/", body)
    assert response.status_code == 400
    error = error_of(response)
    assert error["field"] == field
    assert error["code"] == "invalid"
    assert Season.objects.filter(club=world.club).count() == 1


def test_a_season_is_renamed_and_one_without_games_deleted(world: World) -> None:
    admin = world.client("admin")
    season = SeasonFactory(
        club=world.club,
        name="Sring",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 6, 30),
    )
    world.start(played_on=datetime.date(2026, 2, 1))
    renamed = admin.patch(f"/api/v1/seasons/{season.pk}/", {"name": "Spring"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Spring"
    director = world.client("director")
    SeasonFactory(
        club=world.club,
        name="Summer",
        starts_on=datetime.date(2026, 7, 1),
        ends_on=datetime.date(2026, 8, 31),
    )
    taken = director.patch(f"/api/v1/seasons/{season.pk}/", {"name": "Summer"}, format="json")
    assert error_with(taken, 400)["field"] == "name"
    assert 'already has a season called "Summer"' in error_of(taken)["message"]
    unknown = admin.patch(f"/api/v1/seasons/{season.pk}/", {"title": "x"}, format="json")
    assert error_with(unknown, 400)["field"] == "title"
    kept = error_with(admin.delete(f"/api/v1/seasons/{season.pk}/"), 409)
    assert "1 game was played in Spring" in kept["message"]
    empty = SeasonFactory(
        club=world.club,
        name="Oops",
        starts_on=datetime.date(2061, 1, 1),
        ends_on=datetime.date(2061, 2, 1),
    )
    assert admin.delete(f"/api/v1/seasons/{empty.pk}/").status_code == 204
    assert not Season.objects.filter(pk=empty.pk).exists()
    assert admin.delete(f"/api/v1/seasons/{empty.pk}/").status_code == 404
