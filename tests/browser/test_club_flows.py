"""The club pages in a phone-sized Chromium against ``live_server`` (fixtures in
conftest.py: ``site``, ``phone(user)`` signs in through the sign-in form, ``new_page()``
is a fresh context with nobody signed in): sign in, open the club, start a game through
the pages; show a table link and come in through it with no account."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import services
from scorekeeper.models import Club, Game, Player, Role
from tests.browser.helpers import LIVE_TIMEOUT, console_problems
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    SeasonFactory,
    member,
    one_deal_widow_game,
)

pytestmark = pytest.mark.django_db(transaction=True)

Phone = Callable[[User], Any]
WIDTH = 390


@pytest.fixture
def club() -> tuple[Club, User, list[Player]]:
    club = ClubFactory(name="Kings Arms", slug="kings")
    SeasonFactory(club=club)
    user = member(club, Role.SCORER, username="ann")
    players = [PlayerFactory(club=club, name=name) for name in ("Ann", "Bob", "Cy")]
    return club, user, players


def assert_tap_targets(page: Any) -> None:
    """Every visible control is at least 44 px tall, and nothing scrolls sideways."""
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll(
              'main button, main a.button, main select, main input:not([type=checkbox])'
              + ':not([type=radio]):not([type=hidden]), main .pills span, main .pill span,'
              + ' main summary'))
            .filter(el => el.offsetParent !== null && !el.classList.contains('default-submit'))
            .map(el => [el.outerHTML.slice(0, 80), el.getBoundingClientRect().height])
            .filter(([, h]) => h < 44)"""
    )
    assert small == []
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH


def seat(page: Any, number: int) -> Any:
    return page.get_by_role("combobox", name=re.compile(rf"^Seat {number}\b"))


def test_sign_in_open_the_club_and_start_a_game(
    site: LiveServer,
    phone: Phone,
    club: tuple[Club, User, list[Player]],
    tasks_in_process: None,  # the finished game's ratings computed before the page is read
) -> None:
    the_club, user, players = club
    played = one_deal_widow_game(the_club, user, players, [5, 4, 4])
    page = phone(user)
    # One club: signing in lands on its home.
    assert page.url == f"{site.url}/c/kings/"
    assert page.get_by_role("heading", name="Kings Arms").is_visible()
    assert_tap_targets(page)
    # The standings' game filter (the games the season has) swaps the standings in place
    # (htmx) and keeps the URL; a season of widow whist only: its ratings either way.
    assert page.get_by_text("Italian whist", exact=True).count() == 0
    page.get_by_text("Widow whist", exact=True).click()
    page.wait_for_url(f"{site.url}/c/kings/?game_type=widow_whist&sort=wins")
    page.get_by_role("columnheader", name="Rating").wait_for()

    page.get_by_role("link", name="New game").click()
    page.wait_for_url(f"{site.url}/c/kings/new/")
    page.get_by_role("link", name=re.compile("^Italian whist")).click()
    page.wait_for_url(f"{site.url}/c/kings/new/italian_whist/")
    assert_tap_targets(page)

    seat(page, 1).select_option(label="Cy")
    seat(page, 2).select_option(label="Ann")
    page.get_by_label("Score limit").fill("5")
    # Someone new: typed, and Enter adds them to the roster and the first empty seat.
    page.get_by_label("Add a player").fill("Dee")
    page.get_by_label("Add a player").press("Enter")
    page.get_by_text("Dee is on the roster and seated at seat 3.").wait_for()
    assert page.get_by_label("Score limit").input_value() == "5"  # kept
    # The dealer pills follow the seats.
    page.get_by_text("Seat 2 · Ann").click()
    assert page.get_by_label("Seat 2 (deals first)").is_visible()
    page.get_by_role("button", name="Start the game").click()

    page.wait_for_url(re.compile(rf"^{re.escape(site.url)}/g/\d+/$"))
    game = Game.objects.exclude(pk=played.pk).get()
    assert page.url == f"{site.url}/g/{game.pk}/"
    assert game.game_type == "italian_whist" and game.options == {"limit": 5}
    assert game.first_dealer == 1
    seated = list(game.seats.order_by("position").values_list("player__name", flat=True))
    assert seated == ["Cy", "Ann", "Dee"]


def test_a_bad_value_is_shown_beside_its_field(
    site: LiveServer, phone: Phone, club: tuple[Club, User, list[Player]]
) -> None:
    page = phone(club[1])
    page.goto(f"{site.url}/c/kings/new/widow_whist/")
    for number, name in enumerate(("Ann", "Bob", "Cy"), start=1):
        seat(page, number).select_option(label=name)
    deals = page.get_by_label("Number of deals", exact=True)
    assert not deals.is_visible()  # asked for once "after a number of deals" is chosen
    page.get_by_text("After a number of deals").click()
    deals.fill("0")
    deals.press("Enter")  # Enter starts the game (it does not add a player)
    error = page.locator("#id_opt-finish-deals_error")
    assert "The number of deals must be a whole number from 1 to 10000" in error.inner_text()
    assert page.get_by_label("Number of deals", exact=True).input_value() == "0"
    assert seat(page, 3).input_value() != ""
    assert not Game.objects.exists()


def test_show_a_table_link_and_enter_deals_through_it(
    site: LiveServer,
    phone: Phone,
    new_page: Callable[[], Any],
    club: tuple[Club, User, list[Player]],
) -> None:
    the_club, user, players = club
    game = services.game_start(actor=user, club=the_club, game_type="widow_whist", players=players)
    # The scorer shows the table link: its QR code and URL.
    scorer = phone(user)
    scorer.goto(f"{site.url}/g/{game.pk}/table/")
    qr = scorer.locator("figure.qr svg")
    assert qr.is_visible() and qr.bounding_box()["width"] >= 300
    url = scorer.get_by_label("The link").input_value()
    assert re.fullmatch(rf"{re.escape(site.url)}/t/[\w-]+/", url)
    assert_tap_targets(scorer)
    # One tap copies it, to paste into the table's chat.
    scorer.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.url)
    scorer.get_by_role("button", name="Copy the link").click()
    scorer.get_by_role("button", name="Copied").wait_for()
    assert scorer.evaluate("navigator.clipboard.readText()") == url

    page = new_page()  # a fresh context: nobody is signed in
    page.goto(url)
    assert page.get_by_role("heading", name="Widow whist").is_visible()
    assert page.get_by_text("Ann, Bob, Cy").is_visible()
    assert_tap_targets(page)
    page.get_by_label("Your name (optional)").fill("Bob")
    page.get_by_role("button", name="Enter deals").click()
    page.wait_for_url(f"{site.url}/g/{game.pk}/")

    scorer.get_by_role("button", name="Revoke").click()
    scorer.get_by_text("This game has no working table link.").wait_for()
    # The guest's open page follows (it reloads itself and says so); then the link itself
    # no longer opens. (Opening it while that reload runs would race the reload.)
    expect(page.get_by_role("heading", name="This link no longer works")).to_be_visible(
        timeout=LIVE_TIMEOUT
    )
    response = page.goto(url)
    assert response is not None and response.status == 404
    assert page.get_by_role("heading", name="This link no longer works").is_visible()


@pytest.mark.parametrize("javascript", [False, True], ids=["no-js", "js"])
def test_a_refused_player_is_seen_however_long_the_roster(
    site: LiveServer, phone: Any, club: tuple[Club, User, list[Player]], javascript: bool
) -> None:
    """The roster's "Add a player" form is below every player: when the name is refused,
    the page comes back with the field and its error in view (a 360×740 phone)."""
    the_club = club[0]
    admin = member(the_club, Role.ADMIN, username="sec")
    for number in range(20):
        PlayerFactory(club=the_club, name=f"Player {number}")
    page = phone(admin, javascript=javascript)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{site.url}/c/kings/roster/")
    add = page.locator("section", has=page.get_by_role("heading", name="Add a player"))
    add.get_by_label("Name", exact=True).fill("Bob")
    add.get_by_role("button", name="Add", exact=True).click()
    error = page.get_by_text('the roster already has a player called "Bob"')
    error.wait_for()
    box = error.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740
    assert page.evaluate("document.activeElement.id") == "id_name"


def test_the_club_pages_with_no_console_error(
    site: LiveServer, phone: Phone, club: tuple[Club, User, list[Player]]
) -> None:
    """htmx and the pages' scripts say nothing in the console: no htmx attribute whose
    selector finds nothing (the deal form's ``hx-disabled-elt="find .save"``, inherited by
    its preview and bids parts, where it found nothing, once did), no script error."""
    the_club, user, players = club
    game = services.game_start(actor=user, club=the_club, game_type="widow_whist", players=players)
    page = phone(user)
    errors = console_problems(page)
    for path in (
        "/c/kings/",
        "/c/kings/members/",
        "/c/kings/roster/",
        "/c/kings/seasons/",
        "/c/kings/new/",
        "/me/games/",
        f"/g/{game.pk}/",
        f"/g/{game.pk}/trick/",
    ):
        page.goto(f"{site.url}{path}")
        page.wait_for_load_state("networkidle")
    # The deal form's preview, asked for with htmx when a pill is chosen.
    page.goto(f"{site.url}/g/{game.pk}/")
    with page.expect_response(re.compile(r"/preview/$")):
        page.locator("#d1-widow").get_by_text("Nobody", exact=True).click()
    page.goto(f"{site.url}/c/kings/")
    page.get_by_label("Sort by").select_option(index=1)  # htmx fetches the standings
    try:
        page.wait_for_url(re.compile(r"sort="))
    finally:
        assert errors == []


#: The elements reaching past a phone's width (the test's failure names them).
WIDEST = f"""() => Array.from(document.querySelectorAll('main *, header *'))
    .filter(e => e.getBoundingClientRect().right > {WIDTH + 1})
    .map(e => e.tagName.toLowerCase() + '.' + String(e.className).replace(/ /g, '.')
        + ' "' + (e.textContent || '').trim().slice(0, 30) + '"')
    .slice(0, 30)"""


def test_long_names_stay_on_a_phone_screen(site: LiveServer, phone: Phone) -> None:
    """A name typed without a space (up to the 100 characters a name may have) wraps or
    shortens on every page that shows it: nothing scrolls sideways."""
    club = ClubFactory(name="The " + "Longname" * 14, slug="long")
    admin = member(club, Role.ADMIN, username="a" * 40)
    names = ["W" * 100, "Bartholomew-" * 8, "Cy", "Dee"]
    players = [PlayerFactory(club=club, name=name) for name in names]
    game = services.game_start(
        actor=admin, club=club, game_type="prediction_whist", players=players
    )
    page = phone(admin)
    paths = ["/c/long/", "/c/long/roster/", "/c/long/members/", "/c/long/seasons/"]
    paths += [f"/g/{game.pk}/", f"/g/{game.pk}/table/", f"/p/{players[0].pk}/", "/me/games/"]
    paths += [f"/c/long/new/{key}/" for key in ("widow_whist", "prediction_whist")]
    overflowing = {}
    for path in paths:
        page.goto(site.url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > WIDTH:
            overflowing[path] = page.evaluate(WIDEST)
    assert overflowing == {}


def test_ratings_read_whole_on_a_phone(
    site: LiveServer, phone: Phone, tasks_in_process: None
) -> None:
    """A player's rating chart shows its axis labels whole (1000, not "000"), and the
    rated standings show each rating change whole on a 390 px screen."""
    club = ClubFactory(slug="rated")
    SeasonFactory(club=club)
    admin = member(club, Role.ADMIN)
    players = [PlayerFactory(club=club, name=name) for name in ("Alice Martin", "Bob", "Cy")]
    for tricks in ([9, 2, 2], [2, 9, 2], [9, 2, 2]):
        game = services.game_start(
            actor=admin,
            club=club,
            game_type="widow_whist",
            players=players,
            options={"finish": {"deals": 1}},
        )
        services.deal_record(
            actor=admin, game=game, number=1, record={"widow": None, "tricks": tricks}
        )
    page = phone(admin)
    page.goto(f"{site.url}/p/{players[0].pk}/")
    ticks = page.locator(".chart text.tick")
    assert ticks.count() > 2
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('.chart')].flatMap(chart => {
            const box = chart.querySelector('svg').getBoundingClientRect();
            return [...chart.querySelectorAll('text')]
              .filter(t => { const r = t.getBoundingClientRect();
                             return r.left < box.left - 0.5 || r.right > box.right + 0.5; })
              .map(t => t.textContent);
        })"""
    )
    assert clipped == []
    page.goto(f"{site.url}/c/rated/standings/?game_type=widow_whist&sort=rating")
    changes = page.evaluate(
        """() => [...document.querySelectorAll('table.standings tbody tr')].map(row => {
            const cell = row.cells[row.cells.length - 1];
            return [cell.textContent.trim(), cell.scrollWidth <= cell.clientWidth];
        })"""
    )
    assert len(changes) == 3 and all(re.fullmatch(r"[+−-]?\d+", text) for text, _ in changes)
    assert all(whole for _, whole in changes), changes


def test_the_club_s_admin_pages_have_full_tap_targets(
    site: LiveServer, phone: Phone, club: tuple[Club, User, list[Player]]
) -> None:
    """Members (Change, Remove…, Withdraw…), roster (Rename…, Merge…) and seasons (End it
    today…, Rename…, Delete…): every control 44 px tall, nothing scrolling sideways."""
    the_club = club[0]
    admin = member(the_club, Role.ADMIN, username="sec")
    services.invitation_create(actor=admin, club=the_club)
    page = phone(admin)
    for path in ("members", "roster", "seasons"):
        page.goto(f"{site.url}/c/kings/{path}/")
        assert page.locator("main summary").count() >= 2, path
        assert_tap_targets(page)
