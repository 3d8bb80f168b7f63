"""Ratings on the pages and through the API: the standings' new columns, their order and
CSV; the club's ratings; a player's page; who may see them."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Rating, Role
from tests.factories import ClubFactory, member
from tests.pages.helpers import World, text_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_in_process")]


def finished_widow(world: World, seats: list[Any], tricks: list[int]) -> Any:
    game = services.game_start(
        actor=world.scorer,
        club=world.club,
        game_type="widow_whist",
        players=seats,
        options={"finish": {"deals": 1}},
    )
    services.deal_record(
        actor=world.scorer, game=game, number=1, record={"widow": None, "tricks": tricks}
    )
    return game


@pytest.fixture
def rated(world: World, django_capture_on_commit_callbacks: Any) -> World:
    ann, bob, cy, dee = world.players[:4]
    with django_capture_on_commit_callbacks(execute=True):
        finished_widow(world, [ann, bob, cy], [7, 3, 3])  # Ann +4, Bob 0, Cy 0
    with django_capture_on_commit_callbacks(execute=True):
        finished_widow(world, [bob, ann, cy], [6, 4, 3])  # Bob +3, Ann +1, Cy 0
    with django_capture_on_commit_callbacks(execute=True):
        finished_widow(world, [cy, ann, dee], [3, 6, 4])  # Ann +3, Dee +1, Cy 0
    return world


def test_standings_gain_rating_columns_and_sort(rated: World) -> None:
    client = rated.client(rated.member)
    page = client.get(reverse("club", args=[rated.club.slug]) + "?game_type=widow_whist")
    text = text_of(page)
    assert "Rating" in text and "/deal" in text
    ann = Rating.objects.get(player__name="Ann", game_type="widow_whist")
    assert str(ann.shown) in text
    by_rating = client.get(
        reverse("club", args=[rated.club.slug]) + "?game_type=widow_whist&sort=rating"
    )
    rows = [
        r
        for r in text_of(by_rating).split("Standings of", 1)[1].split()
        if r in {"Ann", "Bob", "Cy", "Dee"}
    ]
    ratings = dict(Rating.objects.values_list("player__name", "shown"))
    assert rows[: len(ratings)] == sorted(ratings, key=lambda name: -ratings[name])


def test_standings_through_the_api(rated: World) -> None:
    from rest_framework.test import APIClient

    season = rated.club.seasons.get()
    client = APIClient()
    client.force_authenticate(rated.member)
    body = client.get(
        f"/api/v1/seasons/{season.pk}/standings/?game_type=widow_whist&sort=rating"
    ).json()
    rows = body["standings"]
    assert body["sort"] == "rating"
    assert [row["rating"] for row in rows] == sorted((row["rating"] for row in rows), reverse=True)
    ann = next(row for row in rows if row["name"] == "Ann")
    assert ann["rating"] == Rating.objects.get(player__name="Ann").shown
    assert ann["rating_change"] == ann["rating"] - 1000  # her first season: from 1000
    assert ann["average_per_deal"] == 2.67  # 4 + 1 + 3 over three one-deal games
    # Without a game type, over a season of widow whist only: the same rows, ratings too,
    # and the answer says which game they are of.
    plain = client.get(f"/api/v1/seasons/{season.pk}/standings/?sort=rating").json()
    assert plain["game_type"] == "widow_whist" and plain["sort"] == "rating"
    assert plain["standings"] == rows
    bad = client.get(f"/api/v1/seasons/{season.pk}/standings/?sort=luck")
    assert bad.status_code == 400
    assert bad.json()["error"]["field"] == "sort"


def test_standings_as_csv(rated: World) -> None:
    season = rated.club.seasons.get()
    url = reverse("season-standings-csv", args=[season.pk]) + "?game_type=widow_whist&sort=total"
    response = rated.client(rated.member).get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:3] == ["Player", "Played", "Won"] and rows[0][7:] == ["Rating", "Rating change"]
    assert rows[1][0] == "Ann" and rows[1][3] == "8"
    assert rows[1][7] == str(Rating.objects.get(player__name="Ann").shown)
    # Over all games of a season of widow whist only: the same table, ratings included.
    every = rated.client(rated.member).get(url.replace("game_type=widow_whist&", ""))
    assert list(csv.reader(io.StringIO(every.content.decode()))) == rows
    # Not for another club's members; anyone for a club whose results are public.
    assert rated.client(rated.outsider).get(url).status_code == 404
    rated.club.results_public = True
    rated.club.save()
    assert rated.client().get(url).status_code == 200


def test_a_name_that_looks_like_a_formula_is_kept_as_text(world: World) -> None:
    from scorekeeper.pages.rating_views import _safe

    assert _safe("=HYPERLINK(1)") == "'=HYPERLINK(1)"
    assert _safe("Ann") == "Ann"


def test_the_clubs_ratings_and_the_explanation(rated: World) -> None:
    client = rated.client(rated.member)
    page = client.get(reverse("club-ratings", args=[rated.club.slug]) + "?game_type=widow_whist")
    text = text_of(page)
    names = [name for name in text.split() if name in {"Ann", "Bob", "Cy", "Dee"}]
    assert names[0] == "Ann"  # the highest rating first
    assert (
        rated.client(rated.outsider)
        .get(reverse("club-ratings", args=[rated.club.slug]))
        .status_code
        == 404
    )
    explained = text_of(client.get(reverse("ratings-explained")))
    assert "1000 + 40 × (skill − 3 × uncertainty)" in explained


def test_a_players_page(rated: World) -> None:
    ann = rated.players[0]
    response = rated.client(rated.member).get(reverse("player", args=[ann.pk]))
    text = text_of(response)
    html = response.content.decode()
    rating = Rating.objects.get(player=ann)
    assert f"Widow whist {rating.shown} after 3 games" in text
    assert "<svg" in html and "rating over 3 games" in html  # the chart
    assert "Rating 1000 →" in text  # her first game's change
    # Cy met three times, always behind Ann: her best record.
    assert "Cy : ahead 3, level 0, behind 0 (3 games)" in text
    assert "Season by season" in text
    assert rated.client(rated.outsider).get(reverse("player", args=[ann.pk])).status_code == 404


def test_an_admin_sees_a_recomputation_waiting(world: World) -> None:
    admin = member(world.club, Role.ADMIN, username="boss")
    finished_widow(world, world.players[:3], [7, 3, 3])  # its job is queued, not run
    page = text_of(world.client(admin).get(reverse("club-ratings", args=[world.club.slug])))
    assert "ratings are being worked out again (queued): 0 of 0 games" in page
    plain = text_of(world.client(world.member).get(reverse("club-ratings", args=[world.club.slug])))
    assert "worked out again" not in plain
    ClubFactory()  # another club's jobs are not shown (none here): the page still answers


def test_equal_ratings_share_their_rank() -> None:
    from scorekeeper.pages.rating_views import _ranked

    shown = [1138, 1138, 1090, 1000, 1000, 1000, 950]
    ratings = [Rating(mu=0, sigma=1, shown=value) for value in shown]
    assert [rank for rank, _ in _ranked(ratings)] == [1, 1, 3, 4, 4, 4, 7]
