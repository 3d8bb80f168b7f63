"""The club side of the phone pages: club home, player page, new game, table links,
the shared scoresheet. Django test client; data made through the services. One file for
the pages a club member moves between."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from rules_engine import GAMES
from rules_engine.options import Option
from scorekeeper import selectors, services
from scorekeeper.models import Game, GameStatus, Player, Season, TableLink
from scorekeeper.pages.actors import SESSION_KEY
from scorekeeper.pages.club_forms import GameSetupForm, option_controls, read_options
from scorekeeper.pages.sharing import share_token
from tests.factories import ClubFactory, member
from tests.pages.helpers import (
    World,
    assert_every_input_labelled,
    error_beside,
    option_defaults,
    text_of,
)

pytestmark = pytest.mark.django_db

# Italian whist with {"limit": 5}: +6 -2 -4 after three deals, and finished.
ITALIAN_DEALS = [
    {"first": [3, 3, 3], "second": [3, 3, 3]},
    {"first": [5, 2, 2], "second": [1, 4, 4]},
    {"first": [4, 3, 2], "second": [2, 3, 4]},
]
WIDOW_DEAL = {"widow": None, "tricks": [5, 4, 4]}


def html_of(response: Any) -> str:
    return str(response.content.decode())


# --- Who sees what --------------------------------------------------------------------------


def _club_urls(world: World) -> Iterator[str]:
    game = world.start("italian_whist")
    yield reverse("club", args=[world.club.slug])
    yield reverse("game-new", args=[world.club.slug])
    yield reverse("game-setup", args=[world.club.slug, "italian_whist"])
    yield reverse("player", args=[world.players[0].pk])
    yield reverse("table-link", args=[game.pk])


def test_anonymous_callers_are_sent_to_sign_in(world: World) -> None:
    client = world.client(None)
    for url in _club_urls(world):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"] == f"{reverse('account_login')}?next={url}"


def test_non_members_get_404_so_clubs_are_not_revealed(world: World) -> None:
    client = world.client(world.outsider)
    for url in _club_urls(world):
        assert client.get(url).status_code == 404, url
    assert client.post(reverse("game-setup", args=["kings", "italian_whist"])).status_code == 404
    assert world.client(world.member).get("/c/no-such-club/").status_code == 404
    assert Game.objects.count() == 1


def test_home_goes_straight_to_the_only_club(world: World) -> None:
    response = world.client(world.member).get("/")
    assert response.status_code == 302 and response["Location"] == "/c/kings/"


# --- Club home ------------------------------------------------------------------------------


def test_club_home_shows_games_in_progress_results_and_standings(world: World) -> None:
    ann, bob, cy = world.players[:3]
    italian = world.record(world.start("italian_whist"), ITALIAN_DEALS[0])
    widow = world.record(
        world.start("widow_whist", options={"finish": {"deals": 6}}, first_dealer=1),
        WIDOW_DEAL,
        WIDOW_DEAL,
    )
    finished = world.record(world.start("italian_whist", options={"limit": 5}), *ITALIAN_DEALS)
    assert finished.status == GameStatus.FINISHED

    response = world.client(world.member).get("/c/kings/")
    assert response.status_code == 200
    html, text = html_of(response), text_of(response)
    assert "<h1>Kings Arms</h1>" in html
    assert f'href="/g/{italian.pk}/"' in html and f'href="/g/{widow.pk}/"' in html
    # Italian: deal 2 is next, dealt by seat 1; widow whist: deal 3 of 6, dealt by seat 0
    # (first dealer 1, then 2, then round to 0).
    assert "Deal 2 · Bob deals" in text
    assert "Deal 3 of 6 · Ann deals" in text
    # Recent results: the finished game, its winner and totals.
    assert f'href="/g/{finished.pk}/"' in html
    assert "Won by Ann" in text
    assert "Ann 6" in text and "Bob −2" in text and "Cy −4" in text
    # Standings of this year's season: the finished game only.
    assert "Standings: This year" in text
    rows = re.findall(r'<th scope="row"><a href="/p/(\d+)/"', html)
    assert rows == [str(ann.pk), str(bob.pk), str(cy.pk)]
    assert f'href="/p/{bob.pk}/"' in html  # the roster links to the player pages
    assert 'href="/c/kings/new/"' in html and "New game" in text
    # a member of one club (sent straight to it) can still start another
    assert f'href="{reverse("club-create")}"' in html and "Start another club" in text


def test_standings_filter_by_game_type_and_htmx_partial(
    world: World, django_capture_on_commit_callbacks: Any, tasks_in_process: None
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # its ratings computed
        world.record(world.start("italian_whist", options={"limit": 5}), *ITALIAN_DEALS)
    client = world.client(world.member)
    text = text_of(client.get("/c/kings/?game_type=widow_whist"))
    assert "No finished Widow whist games in This year yet." in text
    html = html_of(client.get("/c/kings/?game_type=italian_whist"))
    assert 'value="italian_whist" checked' in html and "Ann" in html

    partial = client.get(
        "/c/kings/?game_type=italian_whist", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="standings"
    )
    body = html_of(partial)
    assert body.lstrip().startswith('<section id="standings"')
    assert "<html" not in body and "Games in progress" not in body
    # An unknown game type is ignored: all games.
    assert 'value="" checked' in html_of(client.get("/c/kings/?game_type=poker"))
    # A season of one kind of game: all games are that game, ratings and all.
    alone = html_of(client.get("/c/kings/?sort=rating"))
    assert '<option value="rating" selected>' in alone and 'class="rating"' in alone
    assert "choose a game to sort" not in alone
    # Ratings are per game: all games of several kinds are not sorted by rating (nor have
    # the columns), and the page says why.
    widow = world.record(world.start("widow_whist"), WIDOW_DEAL)
    services.game_finish(actor=world.scorer, game=widow)
    every = html_of(client.get("/c/kings/?sort=rating"))
    assert '<option value="rating"' not in every and '<option value="wins" selected>' in every
    assert "choose a game to sort by rating" in every and 'class="rating"' not in every
    one = html_of(client.get("/c/kings/?game_type=italian_whist&sort=rating"))
    assert '<option value="rating" selected>' in one and "choose a game to sort" not in one
    # A game with no ratings (the ratings job has not run for it): no empty rating columns.
    unrated = html_of(client.get("/c/kings/?game_type=widow_whist&sort=rating"))
    assert 'class="rating"' not in unrated and '<option value="rating"' not in unrated
    assert "No ratings for these games." in unrated


def test_scores_of_different_games_are_not_added_up_over_all_games(world: World) -> None:
    client = world.client(world.member)
    assert 'name="game_type"' not in html_of(client.get("/c/kings/"))  # nothing to filter yet
    italian = world.record(world.start("italian_whist", options={"limit": 5}), *ITALIAN_DEALS)
    # One kind of game so far: all games are that game, totals and all.
    alone = html_of(client.get("/c/kings/?sort=total"))
    assert '<option value="total" selected>' in alone and 'class="total"' in alone
    assert "not added up" not in alone
    # the game filter offers the games the season has standings of
    assert 'value="italian_whist"' in alone and 'value="widow_whist"' not in alone

    widow = world.record(world.start("widow_whist"), WIDOW_DEAL)
    services.game_finish(actor=world.scorer, game=widow)
    every = html_of(client.get("/c/kings/"))
    assert 'value="italian_whist"' in every and 'value="widow_whist"' in every
    assert "Ann" in every and 'class="total"' not in every and 'class="per-deal"' not in every
    assert "their scores are not added up" in every
    assert '<option value="total"' not in every and '<option value="placing"' in every
    # A link kept from before, sorted by total: by wins, and the page says why.
    asked = html_of(client.get("/c/kings/?sort=total"))
    assert '<option value="wins" selected>' in asked
    assert "choose a game to sort by score" in asked and "Choose a game for its" not in asked
    # sorted by rating: that note, and why the totals are missing
    rating = html_of(client.get("/c/kings/?sort=rating"))
    assert "choose a game to sort by rating" in rating and "Choose a game for its" in rating
    # One game chosen: its totals.
    one = html_of(client.get("/c/kings/?game_type=italian_whist&sort=total"))
    assert '<option value="total" selected>' in one and 'class="total"' in one
    assert "not added up" not in one
    # The CSV has the page's columns: over all games, no scores (nor ratings); one game's
    # has its scores (and no ratings: none computed here; tests/pages/test_ratings_pages).
    season = world.club.seasons.get()
    csv_url = reverse("season-standings-csv", args=[season.pk])
    rows = client.get(csv_url).content.decode().splitlines()
    assert rows[0].split(",") == ["Player", "Played", "Won", "Average placing"]
    ann = next(row for row in rows if row.startswith("Ann,")).split(",")
    assert ann[1] == "2" and len(ann) == 4
    rows = client.get(csv_url + "?game_type=italian_whist").content.decode().splitlines()
    assert rows[0].split(",") == [
        "Player",
        "Played",
        "Won",
        "Total",
        "Average a game",
        "Average a deal",
        "Average placing",
    ]
    ann = next(row for row in rows if row.startswith("Ann,")).split(",")
    assert ann[3] == str(italian.results.get(position=0).total)


def test_a_club_that_publishes_its_results_shows_its_standings_to_anyone(world: World) -> None:
    """Public results: a visitor (not signed in, or of another club) reads the standings at
    /c/<slug>/standings/ (the club's page sends a visitor there), without links into the
    members' pages; a private club's are for its members, and are not revealed."""
    world.record(world.start("italian_whist", options={"limit": 5}), *ITALIAN_DEALS)
    ann = world.players[0]
    visitor = world.client()
    # Private (the default): sign in; a club that does not exist answers the same.
    for path in ("/c/kings/", "/c/kings/standings/", "/c/nowhere/", "/c/nowhere/standings/"):
        response = visitor.get(path)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert world.client(world.outsider).get("/c/kings/standings/").status_code == 404

    assert world.client(world.outsider).get("/c/kings/").status_code == 404

    world.club.results_public = True
    world.club.save()
    assert visitor.get("/c/kings/")["Location"] == "/c/kings/standings/"
    # someone signed in who is not a member is sent there too
    assert world.client(world.outsider).get("/c/kings/")["Location"] == "/c/kings/standings/"
    for client in (visitor, world.client(world.outsider)):
        response = client.get("/c/kings/standings/?game_type=italian_whist")
        assert response.status_code == 200
        html, text = html_of(response), text_of(response)
        assert "Standings: This year" in text and "anyone may read its standings" in text
        assert re.findall(r'<th scope="row">(\w+)</th>', html) == ["Ann", "Bob", "Cy"]
        assert f"/p/{ann.pk}/" not in html and "/c/kings/ratings/" not in html
        assert "/c/kings/members/" not in html  # the members' menu is not shown
        assert "Download as CSV" in text
    # The filter answers with the standings alone, from the same address.
    partial = visitor.get(
        "/c/kings/standings/?game_type=widow_whist",
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="standings",
    )
    assert html_of(partial).lstrip().startswith('<section id="standings"')
    assert 'hx-get="/c/kings/standings/"' in html_of(partial)
    # A member reads the same page with the links and the club's menu.
    html = html_of(world.client(world.member).get("/c/kings/standings/"))
    assert f'href="/p/{ann.pk}/"' in html and "/c/kings/members/" in html


def test_an_earlier_seasons_standings_are_one_choice_away(world: World) -> None:
    """The standings show today's season; an earlier one is chosen on the page (and from
    the seasons list), and stays readable once a new season has begun."""
    world.record(world.start("italian_whist", options={"limit": 5}), *ITALIAN_DEALS)
    this_year = world.club.seasons.get()
    today = timezone.localdate()
    Season.objects.filter(pk=this_year.pk).update(ends_on=today - timedelta(days=1))
    Game.objects.filter(club=world.club).update(played_on=today - timedelta(days=1))
    later = Season.objects.create(
        club=world.club, name="Winter league", starts_on=today, ends_on=today + timedelta(days=90)
    )
    client = world.client(world.member)
    text = text_of(client.get("/c/kings/standings/"))
    assert "Standings: Winter league" in text and "No finished games in Winter league" in text
    html = html_of(client.get("/c/kings/standings/"))
    assert f'<option value="{this_year.pk}">This year</option>' in html
    assert f'<option value="{later.pk}" selected>Winter league (current)</option>' in html
    earlier = client.get(f"/c/kings/standings/?season={this_year.pk}&sort=wins")
    assert "Standings: This year" in text_of(earlier)
    assert re.findall(r'<th scope="row"><a [^>]*>(\w+)</a></th>', html_of(earlier)) == [
        "Ann",
        "Bob",
        "Cy",
    ]
    assert f"/s/{this_year.pk}/standings.csv?sort=wins" in html_of(earlier)
    # the seasons list links to each season that has started
    seasons = html_of(client.get("/c/kings/seasons/"))
    assert f'href="/c/kings/standings/?season={this_year.pk}"' in seasons
    assert f'href="/c/kings/standings/?season={later.pk}"' in seasons
    # a season of another club, or nonsense, is today's
    elsewhere = Season.objects.create(
        club=ClubFactory(), name="Elsewhere", starts_on=today, ends_on=today
    )
    for asked in ("x", str(elsewhere.pk)):
        shown = text_of(client.get(f"/c/kings/standings/?season={asked}"))
        assert "Standings: Winter league" in shown and "Elsewhere" not in shown
    # with no season today, the latest that has started
    Season.objects.filter(pk=later.pk).delete()
    assert "Standings: This year" in text_of(client.get("/c/kings/standings/"))


def test_club_home_without_a_season(world: World) -> None:
    club = ClubFactory(slug="no-season")
    user = member(club)
    text = text_of(world.client(user).get("/c/no-season/"))
    assert "No season has started yet." in text
    assert "No game is being played right now." in text


# --- Player page ----------------------------------------------------------------------------


def test_player_page_lists_the_players_games(world: World) -> None:
    ann, _, _, dee = world.players[:4]
    finished = world.record(world.start("italian_whist", options={"limit": 5}), *ITALIAN_DEALS)
    playing = world.start("prediction_whist", seats=4)
    not_ann = services.game_start(
        actor=world.scorer, club=world.club, game_type="third_hand", players=world.players[3:5]
    )
    response = world.client(world.member).get(f"/p/{ann.pk}/")
    assert response.status_code == 200
    html, text = html_of(response), text_of(response)
    assert "<h1>Ann</h1>" in html
    assert f'href="/g/{finished.pk}/"' in html and f'href="/g/{playing.pk}/"' in html
    assert f'href="/g/{not_ann.pk}/"' not in html
    assert "1 finished game, 1 won." in text
    assert "Italian whist" in text and "Prediction whist" in text and "In progress" in text
    assert f'href="/g/{not_ann.pk}/"' in html_of(world.client(world.member).get(f"/p/{dee.pk}/"))


# --- New game -------------------------------------------------------------------------------


def test_new_game_lists_every_game_with_its_summary(world: World) -> None:
    response = world.client(world.member).get("/c/kings/new/")
    assert response.status_code == 200
    html = html_of(response)
    for game in GAMES.values():
        assert f'href="/c/kings/new/{game.key}/"' in html
        assert game.name in html and game.summary in html
    assert world.client(world.member).get("/c/kings/new/poker/").status_code == 404


def test_the_options_form_covers_every_option_of_every_game(world: World) -> None:
    """Generated from the engine: a new option shows up (with a known control) by itself."""
    client = world.client(world.scorer)
    for game in GAMES.values():
        controls = option_controls(game)
        assert [c.name for c in controls] == [o.name for o in game.options]
        response = client.get(f"/c/kings/new/{game.key}/")
        assert response.status_code == 200
        html = html_of(response)
        assert_every_input_labelled(html)
        for control in controls:
            assert control.kind != "json", f"{game.key}.{control.name} has no proper control yet"
            assert control.label in html
            for input_ in control.all_inputs:
                assert f'name="{input_.name}"' in html
                assert f'<label for="{input_.id}"' in html
                if input_.kind == "number":
                    tag = re.search(rf'<input type="number" id="{input_.id}"[^>]*>', html)
                    assert tag and 'inputmode="numeric"' in tag.group(0)
                    assert f'min="{input_.minimum}"' in tag.group(0)
                    assert f'max="{input_.maximum}"' in tag.group(0)
        # The form as first shown holds the defaults: read back, they are the engine's.
        defaults = {o.name: o.describe()["default"] for o in game.options}
        posted = option_defaults(game.key)
        form = GameSetupForm(game, list(world.club.players.all()), posted)
        assert form.read_options() == defaults


def test_the_options_form_builder_is_generic() -> None:
    """Shapes no game has yet: a choice with another key, and anything else as JSON."""
    rounds = {"type": "object", "properties": {"rounds": {"type": "integer", "minimum": 1}}}
    options = [
        Option("ending", "Ending", "", {"rounds": 4}, {"oneOf": [rounds]}, _raw, _raw),
        Option("seating", "Seating", "", ["N", "S"], {"type": "array"}, _raw, _raw),
    ]
    rules = SimpleNamespace(options=options)
    ending, seating = option_controls(rules)  # type: ignore[arg-type]
    assert ending.kind == "choice" and ending.selected == "rounds"
    assert [(c.label, c.input and c.input.label) for c in ending.choices] == [("Rounds", "Rounds")]
    assert seating.kind == "json" and seating.inputs[0].value == '["N", "S"]'
    posted = {"opt-ending": "rounds", "opt-ending-rounds": "7", "opt-seating": '["E", "W"]'}
    assert read_options(option_controls(rules, posted)) == {  # type: ignore[arg-type]
        "ending": {"rounds": 7},
        "seating": ["E", "W"],
    }
    bad = option_controls(rules, {**posted, "opt-seating": "[E"})  # type: ignore[arg-type]
    assert read_options(bad) is None and bad[1].inputs[0].error == "Seating: enter a JSON value"


def _raw(value: Any, *args: Any) -> Any:
    return value


def _setup_post(world: World, game_type: str, seats: int, first_dealer: int = 0) -> dict[str, str]:
    data = option_defaults(game_type)
    for seat in range(seats):
        data[f"seat-{seat}"] = str(world.players[seat].pk)
    data["first_dealer"] = str(first_dealer)
    data["action"] = "start"
    return data


def _post_setup(world: World, user: User, game_type: str, data: dict[str, Any]) -> Any:
    return world.client(user).post(f"/c/kings/new/{game_type}/", data)


@pytest.mark.parametrize(
    ("game_type", "seats", "changes", "expected"),
    [
        ("italian_whist", 3, {"opt-limit": "5"}, {"limit": 5}),
        (
            "widow_whist",
            3,
            {"opt-finish": "deals", "opt-finish-deals": "6"},
            {"finish": {"deals": 6}, "targets": {"widow": 4, "other": 3}},
        ),
        (
            "widow_whist",
            3,
            {"opt-targets-widow": "5", "opt-must_trump_when_void": "on"},
            {"targets": {"widow": 5, "other": 3}, "must_trump_when_void": True, "finish": None},
        ),
        ("third_hand", 2, {"opt-target": "300"}, {"target": 300}),
        ("prediction_whist", 4, {"opt-hook": None}, {"hook": False}),
    ],
)
def test_new_game_of_each_type_starts_and_opens_the_game_page(
    world: World, game_type: str, seats: int, changes: dict[str, str | None], expected: Any
) -> None:
    data: dict[str, Any] = _setup_post(world, game_type, seats, first_dealer=1)
    for name, value in changes.items():
        if value is None:
            data.pop(name, None)  # an unticked checkbox is not posted
        else:
            data[name] = value
    response = _post_setup(world, world.member, game_type, data)
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/g/{game.pk}/"
    assert game.game_type == game_type and game.first_dealer == 1
    for name, value in expected.items():
        assert game.options[name] == value
    seated = list(game.seats.order_by("position").values_list("player__name", flat=True))
    assert seated == [p.name for p in world.players[:seats]]
    assert game.created_by == world.member


def test_the_setup_page_shows_seats_dealer_pills_and_defaults(world: World) -> None:
    response = world.client(world.scorer).get("/c/kings/new/prediction_whist/")
    html = html_of(response)
    for seat in range(6):
        assert f'<select id="id_seat-{seat}" name="seat-{seat}"' in html
        assert f'name="first_dealer" value="{seat}"' in html
    assert "Seat 1<span" in html and "(deals first)" in html
    assert "Seat 4" in html and "(optional)" in html
    assert 'name="opt-hook" checked' in html
    assert 'label for="id_new_player">Add a player</label>' in html
    widow = html_of(world.client(world.scorer).get("/c/kings/new/widow_whist/"))
    assert 'value="" checked><span>Open-ended</span>' in widow
    assert "After a number of deals" in widow and "First to a target score" in widow
    assert 'id="id_opt-targets-widow" name="opt-targets-widow" value="4"' in widow


def test_a_bad_option_value_is_shown_beside_its_field_keeping_the_choices(world: World) -> None:
    data = _setup_post(world, "italian_whist", 3, first_dealer=2)
    data["opt-limit"] = "0"
    response = _post_setup(world, world.member, "italian_whist", data)
    assert response.status_code == 400  # refused, and says why beside the field
    html = html_of(response)
    assert error_beside(html, "id_opt-limit") == (
        "Score limit must be a whole number from 1 to 1000; got 0"
    )
    assert 'id="id_opt-limit" name="opt-limit" value="0"' in html
    assert f'<option value="{world.players[1].pk}" selected>Bob</option>' in html
    assert 'name="first_dealer" value="2" checked' in html
    assert not Game.objects.exists()

    data["opt-limit"] = "ten"
    html = html_of(_post_setup(world, world.member, "italian_whist", data))
    assert "enter a whole number from 1 to 1000" in error_beside(html, "id_opt-limit")
    assert 'value="ten"' in html


def test_nested_option_errors_are_shown_beside_their_own_input(world: World) -> None:
    data = _setup_post(world, "widow_whist", 3)
    data.update({"opt-finish": "target", "opt-finish-target": "0"})
    html = html_of(_post_setup(world, world.member, "widow_whist", data))
    assert "The target score must be a whole number from 1 to 10000" in error_beside(
        html, "id_opt-finish-target"
    )
    assert 'value="target" checked' in html

    data.update({"opt-finish": "deals", "opt-finish-deals": "", "opt-targets-widow": "4"})
    html = html_of(_post_setup(world, world.member, "widow_whist", data))
    assert "enter a whole number" in error_beside(html, "id_opt-finish-deals")

    data.update({"opt-finish": "", "opt-targets-widow": "14"})
    html = html_of(_post_setup(world, world.member, "widow_whist", data))
    assert 'Target tricks "widow" must be a whole number from 0 to 13; got 14' in error_beside(
        html, "id_opt-targets-widow"
    )
    assert not Game.objects.exists()


def test_contract_values_that_fall_as_the_bid_rises_are_refused_beside_the_higher_card(
    world: World,
) -> None:
    data = _setup_post(world, "third_hand", 2)
    data["opt-contract_values-A"] = "40"
    response = _post_setup(world, world.member, "third_hand", data)
    assert response.status_code == 400
    assert error_beside(html_of(response), "id_opt-contract_values-A") == (
        'Contract values: a higher bid card asks for at least as many points; "A" (40) is '
        'below "K" (90)'
    )
    assert not Game.objects.exists()


def test_the_wrong_number_of_seats_is_refused_with_the_rules_message(world: World) -> None:
    html = html_of(
        _post_setup(world, world.member, "widow_whist", _setup_post(world, "widow_whist", 2))
    )
    assert error_beside(html, "id_players") == (
        "Widow whist is played by 3 players; this game has 2"
    )
    html = html_of(
        _post_setup(
            world, world.member, "prediction_whist", _setup_post(world, "prediction_whist", 2)
        )
    )
    assert error_beside(html, "id_players") == (
        "Prediction whist is played by 3 to 6 players; this game has 2"
    )
    assert not Game.objects.exists()


def test_seats_must_be_filled_in_order_by_different_players(world: World) -> None:
    data = _setup_post(world, "prediction_whist", 4)
    data.pop("seat-1")
    html = html_of(_post_setup(world, world.member, "prediction_whist", data))
    assert (
        error_beside(html, "id_players") == "Seat 2 is empty: fill the seats in order, with no gaps"
    )

    data = _setup_post(world, "italian_whist", 3)
    data["seat-2"] = data["seat-0"]
    html = html_of(_post_setup(world, world.member, "italian_whist", data))
    assert error_beside(html, "id_players") == "A player can take only one seat"

    data = _setup_post(world, "prediction_whist", 3, first_dealer=4)
    html = html_of(_post_setup(world, world.member, "prediction_whist", data))
    assert "Seat 5 is empty" in error_beside(html, "id_first_dealer")
    assert not Game.objects.exists()


def test_staff_add_a_player_on_the_spot_and_they_take_the_first_empty_seat(
    world: World,
) -> None:
    data = _setup_post(world, "italian_whist", 2)
    data.update({"new_player": "  Zed   Zee ", "action": "add"})
    response = _post_setup(world, world.scorer, "italian_whist", data)
    assert response.status_code == 200
    zed = Player.objects.get(club=world.club, name="Zed Zee")
    html = html_of(response)
    assert f'<option value="{zed.pk}" selected>Zed Zee</option>' in html
    assert "Zed Zee is on the roster and seated at seat 3." in text_of(response)
    assert 'id="id_new_player" name="new_player" value=""' in html

    # Enter in the "Add a player" field presses the default button: it still adds.
    data.update({"new_player": "Ann", "action": "start"})
    html = html_of(_post_setup(world, world.scorer, "italian_whist", data))
    assert error_beside(html, "id_new_player") == 'The roster already has a player called "Ann"'
    assert not Game.objects.exists()

    data.update({"new_player": "", "seat-2": str(zed.pk)})
    response = _post_setup(world, world.scorer, "italian_whist", data)
    game = Game.objects.get()
    assert response["Location"] == f"/g/{game.pk}/"
    assert game.seats.get(position=2).player == zed


def test_plain_members_cannot_add_players(world: World) -> None:
    html = html_of(world.client(world.member).get("/c/kings/new/italian_whist/"))
    assert 'name="new_player"' not in html
    assert "Ask the club's staff to add them" in html
    data = _setup_post(world, "italian_whist", 2)
    data.update({"new_player": "Zed", "action": "add"})
    text = text_of(_post_setup(world, world.member, "italian_whist", data))
    assert "Only the club's staff can add players" in text
    assert not Player.objects.filter(name="Zed").exists()


# --- Table links ----------------------------------------------------------------------------


def test_the_table_link_page_shows_the_link_and_its_qr_code(world: World) -> None:
    game = world.start("widow_whist")
    response = world.client(world.scorer).get(f"/g/{game.pk}/table/")
    assert response.status_code == 200
    link = selectors.active_table_link(game)
    assert link is not None
    html = html_of(response)
    url = f"http://testserver/t/{link.token}/"
    assert f'value="{url}"' in html
    assert re.search(r'<svg viewBox="0 0 \d+ \d+" class="segno">', html)
    assert "<title>QR code of the link</title>" in html
    assert "no-store" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    assert "to enter this game's deals" in text_of(response)
    # A second visit shows the same link.
    world.client(world.scorer).get(f"/g/{game.pk}/table/")
    assert selectors.active_table_link(game) == link
    # Once the game is over, the link is for seeing it and correcting a deal.
    world.record(game, {"widow": None, "tricks": [5, 4, 4]})
    services.game_finish(actor=world.scorer, game=game)
    over = text_of(world.client(world.scorer).get(f"/g/{game.pk}/table/"))
    assert "The game is over. Anyone at the table can scan this code" in over
    assert "see its scoresheet and correct a deal" in over


def test_who_may_open_the_table_link_page(world: World) -> None:
    game = world.start("widow_whist")
    # A plain member who is not seated cannot score the game.
    response = world.client(world.member).get(f"/g/{game.pk}/table/")
    assert response.status_code == 403
    assert not TableLink.objects.exists()
    # A member seated in the game can.
    ann = world.players[0]
    ann.user = world.member
    ann.save()
    assert world.client(world.member).get(f"/g/{game.pk}/table/").status_code == 200


def test_new_link_and_revoke(world: World) -> None:
    game = world.start("widow_whist")
    client = world.client(world.scorer)
    client.get(f"/g/{game.pk}/table/")
    first = selectors.active_table_link(game)
    assert first is not None

    response = client.post(f"/g/{game.pk}/table/", {"action": "new"})
    assert response.status_code == 302 and response["Location"] == f"/g/{game.pk}/table/"
    second = selectors.active_table_link(game)
    assert second is not None and second.token != first.token
    assert world.client(None).get(f"/t/{first.token}/").status_code == 404  # replaced
    assert world.client(None).get(f"/t/{second.token}/").status_code == 200

    response = client.post(f"/g/{game.pk}/table/", {"action": "revoke"}, follow=True)
    text = text_of(response)
    assert "The table link is revoked" in text and "This game has no working table link." in text
    assert selectors.active_table_link(game) is None  # not made again by the page
    gone = world.client(None).get(f"/t/{second.token}/")
    assert gone.status_code == 404
    assert "This link no longer works" in text_of(gone)
    assert world.client(None).get("/t/not-a-token/").status_code == 404


def test_entering_through_the_table_link(world: World) -> None:
    game = world.start("italian_whist")
    link = services.table_link_create(actor=world.scorer, game=game)
    guest = world.client(None)
    response = guest.get(f"/t/{link.token}/")
    assert response.status_code == 200
    html, text = html_of(response), text_of(response)
    assert "Italian whist" in text and "Ann, Bob, Cy" in text
    assert '<label for="id_name">Your name (optional)</label>' in html
    assert "Enter deals" in text
    assert_every_input_labelled(html)

    response = guest.post(f"/t/{link.token}/", {"name": " Bob "})
    assert response.status_code == 302 and response["Location"] == f"/g/{game.pk}/"
    assert guest.session[SESSION_KEY] == {str(game.pk): {"token": link.token, "name": "Bob"}}
    assert guest.get(f"/g/{game.pk}/").status_code == 200  # the game page, as a table guest
    # The name is remembered for the next visit.
    assert 'value="Bob"' in html_of(guest.get(f"/t/{link.token}/"))
    # Another game stays closed to this guest.
    other = world.start("italian_whist")
    assert guest.get(f"/g/{other.pk}/").status_code == 404


# --- Shared scoresheet ----------------------------------------------------------------------


def test_the_shared_scoresheet_needs_no_login(world: World) -> None:
    game = world.record(world.start("italian_whist", options={"limit": 5}), *ITALIAN_DEALS)
    response = world.client(None).get(reverse("game-shared", args=[share_token(game)]))
    assert response.status_code == 200
    html, text = html_of(response), text_of(response)
    assert "Winner: Ann" in text
    assert "1. Ann 6" in text and "2. Bob −2" in text and "3. Cy −4" in text
    # Three deals, each with every player's running total and score.
    assert len(re.findall(r'<th scope="row"><span class="num">\d+</span>', html)) == 3
    assert "6 (+2)" in text  # Ann's total after deal 3, and her score in it
    assert 'name="robots" content="noindex"' in html
    assert "<form" not in html.split("</header>", 1)[1]  # read-only


def test_the_shared_scoresheet_404s_on_a_tampered_token_or_unfinished_game(world: World) -> None:
    game = world.record(world.start("italian_whist", options={"limit": 5}), *ITALIAN_DEALS)
    token = share_token(game)
    client = world.client(None)
    tampered = token[:-1] + ("A" if token[-1] != "A" else "B")
    response = client.get(reverse("game-shared", args=[tampered]))
    assert response.status_code == 404
    assert "Scoresheet not found" in text_of(response)
    assert client.get("/shared/nonsense/").status_code == 404
    playing = world.start("italian_whist")
    assert client.get(reverse("game-shared", args=[share_token(playing)])).status_code == 404


def test_a_players_seasons_add_up_scores_only_of_one_kind_of_game(world: World) -> None:
    ann = world.players[0]
    italian = world.record(world.start("italian_whist", options={"limit": 5}), *ITALIAN_DEALS)
    [season] = selectors.player_seasons(ann)
    assert season["games"] == 1 and season["total"] == italian.results.get(player=ann).total
    widow = world.record(
        world.start("widow_whist", options={"finish": {"deals": 1}}),
        {"widow": None, "tricks": [6, 4, 3]},
    )
    assert widow.status == GameStatus.FINISHED
    [season] = selectors.player_seasons(ann)
    assert season["games"] == 2 and season["total"] is None
    html = world.client(world.member).get(reverse("player", args=[ann.pk])).content.decode()
    assert 'title="Games of different kinds: their scores are not added up">–</abbr>' in html
