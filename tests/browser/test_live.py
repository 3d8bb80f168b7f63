"""Every phone at the table current: two phones (two browser contexts) at 390×844 on one
game. A deal saved on one shows on the other without a reload; a deal tapped on both
shows what was recorded, by name, with a one-tap correction; Back shows the current
totals; a save whose answer is lost is reported as saved; a save with no connection is
kept on the phone and sent when the connection is back (more in test_offline.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import services
from scorekeeper.models import Club, Deal, DealRevision, Game, Player, Role
from tests.browser.helpers import LIVE_TIMEOUT, Phone, checked, game_url, lose_the_reply, pill
from tests.factories import member

pytestmark = pytest.mark.django_db(transaction=True)


def tap_deal(
    page: Any, number: int, widow: str, first: str, second: str, save: bool = False
) -> None:
    """Tap deal ``number``'s widow and two first counts (and, with ``save``, save it)."""
    pill(page, number, "widow", widow).click()
    pill(page, number, "tricks-0", first).click()
    pill(page, number, "tricks-1", second).click()
    if save:
        page.get_by_role("button", name=f"Save deal {number}").click()


def test_a_deal_saved_on_one_phone_shows_on_the_other_without_a_reload(
    two_phones: tuple[Any, Any], table: tuple[Club, User, User, Game]
) -> None:
    _club, scorer, other, game = table
    phone_a, phone_b = two_phones
    navigations: list[str] = []
    phone_b.on("framenavigated", lambda frame: navigations.append(frame.url))
    # Phone A saves deal 1; B taps nothing.
    tap_deal(phone_a, 1, "Nobody", "5", "4", save=True)
    phone_a.get_by_role("button", name="Save deal 2").wait_for()
    # Phone B follows by itself: deal 2's form, deal 1 in its scoresheet.
    phone_b.get_by_role("button", name="Save deal 2").wait_for(timeout=LIVE_TIMEOUT)
    assert phone_b.locator("table.sheet tbody tr:not(.fig-line)").count() == 1
    assert navigations == []  # no reload
    # And a deal being tapped on B is kept when A's change (a correction) arrives.
    pill(phone_b, 2, "widow", "Cy").click()
    pill(phone_b, 2, "tricks-0", "3").click()
    before = phone_b.locator("table.sheet tbody tr:not(.fig-line)").inner_text()
    fixed = {"widow": None, "tricks": [7, 3, 3]}
    services.deal_correct(actor=scorer, game=game, number=1, record=fixed, reason="miscounted")
    phone_b.wait_for_function(
        "before => document.querySelector('table.sheet tbody tr:not(.fig-line)')"
        ".innerText !== before",
        arg=before,
        timeout=LIVE_TIMEOUT,
    )
    assert checked(phone_b, 2, "widow") == "2" and checked(phone_b, 2, "tricks-0") == "3"
    pill(phone_b, 2, "tricks-1", "5").click()
    phone_b.get_by_role("button", name="Save deal 2").click()
    phone_b.get_by_role("button", name="Save deal 3").wait_for()
    assert Deal.objects.get(game=game, number=2).record == {"widow": 2, "tricks": [3, 5, 5]}


def test_the_same_deal_tapped_on_two_phones_shows_what_was_recorded_and_corrects_in_one_tap(
    two_phones: tuple[Any, Any], table: tuple[Club, User, User, Game]
) -> None:
    _club, scorer, other, game = table
    phone_a, phone_b = two_phones
    tap_deal(phone_b, 1, "Bob", "3", "6")  # B taps deal 1 ...
    tap_deal(phone_a, 1, "Nobody", "5", "4", save=True)  # ... while A taps it too, and saves first.
    phone_a.get_by_role("button", name="Save deal 2").wait_for()
    # B is told at once, before it saves: the deal as recorded, by player names, who
    # recorded it, and its own entry kept.
    heading = phone_b.get_by_role("heading", name="Deal 1 is already recorded, by scorer")
    heading.wait_for(timeout=LIVE_TIMEOUT)
    panel = phone_b.locator("#collision-1")
    text = panel.inner_text()
    assert "Tricks: Ann 5, Bob 4, Cy 4" in text
    assert "Your entry: Widow: Bob · Tricks: Ann 3, Bob 6, Cy 4" in text
    assert [row.inner_text().split("\t")[0] for row in panel.locator("tbody tr").all()] == [
        "Ann",
        "Bob",
        "Cy",
    ]
    assert phone_b.get_by_role("button", name="Save deal 2").is_visible()
    # Another deal recorded meanwhile: B's page follows, and the question stays.
    services.deal_record(
        actor=scorer, game=game, number=2, record={"widow": None, "tricks": [4, 5, 4]}
    )
    phone_b.get_by_role("button", name="Save deal 3").wait_for(timeout=LIVE_TIMEOUT)
    assert heading.is_visible()
    # One tap: deal 1 corrected with B's entry.
    phone_b.get_by_role("button", name="Correct deal 1 with my entry").click()
    phone_b.get_by_text("Deal 1 corrected.").wait_for()
    assert Deal.objects.get(game=game, number=1).record == {"widow": 1, "tricks": [3, 6, 4]}
    assert DealRevision.objects.filter(game=game, number=1).count() == 2


def test_keep_what_was_recorded_after_a_save_that_came_second(
    site: LiveServer, phone: Phone, table: tuple[Club, User, User, Game]
) -> None:
    _club, scorer, other, game = table
    phone_b = phone(other)
    phone_b.goto(game_url(site, game))
    tap_deal(phone_b, 1, "Bob", "3", "6")
    # Phone A's save lands while B is about to tap Save: B's save is refused, with the deal.
    phone_b.route("**/version/", lambda route: route.abort())  # B hears nothing until it saves
    services.deal_record(
        actor=scorer, game=game, number=1, record={"widow": None, "tricks": [5, 4, 4]}
    )
    phone_b.get_by_role("button", name="Save deal 1").click()
    phone_b.get_by_role("heading", name="Deal 1 is already recorded, by scorer").wait_for()
    assert "Your entry: Widow: Bob" in phone_b.locator("#collision-1").inner_text()
    phone_b.get_by_role("link", name="Keep what was recorded").click()
    phone_b.get_by_role("button", name="Save deal 2").wait_for()
    # The next deal's form may show (from the page's forms ahead) a moment before the
    # server's page replaces the collision: wait for it to go.
    expect(phone_b.locator("#collision-1")).to_have_count(0)
    assert Deal.objects.get(game=game).record == {"widow": None, "tricks": [5, 4, 4]}


def test_back_after_saving_shows_the_current_totals(
    scorer_page: Any, table: tuple[Club, User, User, Game]
) -> None:
    _club, scorer, _other, game = table
    page = scorer_page
    tap_deal(page, 1, "Nobody", "5", "4", save=True)
    page.get_by_role("button", name="Save deal 2").wait_for()
    page.locator("table.sheet tbody a", has_text="1").click()  # the deal's page
    page.get_by_role("heading", name="Deal 1 · Ann dealt").wait_for()
    # Meanwhile another phone records deal 2.
    services.deal_record(
        actor=scorer, game=game, number=2, record={"widow": None, "tricks": [1, 6, 6]}
    )
    page.go_back()
    page.get_by_role("button", name="Save deal 3").wait_for(timeout=LIVE_TIMEOUT)
    assert page.locator("table.sheet tbody tr:not(.fig-line)").count() == 2
    assert page.get_by_role("button", name="Save deal 2").count() == 0


def test_a_lost_reply_is_reported_as_saved(
    scorer_page: Any, table: tuple[Club, User, User, Game]
) -> None:
    _club, _scorer, _other, game = table
    page = scorer_page

    page.route("**/deal/", lose_the_reply)  # the deal is recorded, its answer lost
    tap_deal(page, 1, "Nobody", "5", "4", save=True)
    page.get_by_text("Deal 1 saved.").wait_for(timeout=LIVE_TIMEOUT)
    page.get_by_role("button", name="Save deal 2").wait_for()
    assert page.get_by_text("Not saved").count() == 0
    assert Deal.objects.filter(game=game).count() == 1


def test_a_save_with_no_connection_is_kept_and_shown_as_waiting(
    scorer_page: Any, table: tuple[Club, User, User, Game]
) -> None:
    _club, _scorer, _other, game = table
    page = scorer_page
    tap_deal(page, 1, "Nobody", "5", "4")
    page.context.set_offline(True)
    page.get_by_role("button", name="Save deal 1").click()
    page.get_by_role("button", name="Save deal 2").wait_for()
    assert "waiting to send" in page.locator("tr.waiting").inner_text()
    assert page.locator("#sync-status").inner_text().startswith("1 deal waiting to send")
    assert not Deal.objects.filter(game=game).exists()
    page.context.set_offline(False)
    page.get_by_text("Online and up to date").wait_for(timeout=3 * LIVE_TIMEOUT)
    assert Deal.objects.get(game=game).record == {"widow": None, "tricks": [5, 4, 4]}


def test_a_guest_at_the_table_link_follows_too_until_the_link_is_revoked(
    site: LiveServer, new_page: Callable[..., Any], table: tuple[Club, User, User, Game]
) -> None:
    _club, scorer, _other, game = table
    link = services.table_link_create(actor=scorer, game=game)
    guest = new_page()  # nobody signed in
    guest.goto(f"{site.url}/t/{link.token}/")
    guest.get_by_label("Your name (optional)").fill("Dee")
    guest.get_by_role("button", name="Enter deals").click()
    guest.get_by_role("button", name="Save deal 1").wait_for()
    services.deal_record(
        actor=scorer, game=game, number=1, record={"widow": None, "tricks": [5, 4, 4]}
    )
    guest.get_by_role("button", name="Save deal 2").wait_for(timeout=LIVE_TIMEOUT)
    # Revoked: the page no longer shows the game.
    services.table_link_revoke(actor=scorer, game=game)
    guest.get_by_role("button", name="Save deal 2").wait_for(state="detached", timeout=LIVE_TIMEOUT)
    assert guest.locator("table.sheet").count() == 0
    expect(guest.get_by_role("heading", name="This link no longer works")).to_be_visible()


def test_bids_changed_on_either_phone_show_on_both(
    site: LiveServer, phone: Phone, table: tuple[Club, User, User, Game]
) -> None:
    """Prediction whist's bids are kept as they are tapped, on the server: a bid tapped on
    one phone shows on the other, and a bid changed there shows back on the first (which
    would otherwise save its own old bid over it)."""
    club, scorer, other, _game = table
    players = list(Player.objects.filter(club=club).order_by("name"))
    game = services.game_start(
        actor=scorer, club=club, game_type="prediction_whist", players=players
    )
    phone_a, phone_b = phone(scorer), phone(other)
    phone_a.goto(game_url(site, game))
    phone_b.goto(game_url(site, game))
    pill(phone_a, 1, "bids-1", "1").click()
    expect(phone_b.locator("#d1-bids-1 input:checked")).to_have_value("1", timeout=LIVE_TIMEOUT)
    pill(phone_b, 1, "bids-1", "0").click()
    pill(phone_b, 1, "bids-2", "1").click()
    expect(phone_a.locator("#d1-bids-1 input:checked")).to_have_value("0", timeout=LIVE_TIMEOUT)
    expect(phone_a.locator("#d1-bids-2 input:checked")).to_have_value("1", timeout=LIVE_TIMEOUT)
    # What A taps next still goes through, and B follows it.
    pill(phone_a, 1, "bids-0", "1").click()
    expect(phone_b.locator("#d1-bids-0 input:checked")).to_have_value("1", timeout=LIVE_TIMEOUT)
    assert checked(phone_a, 1, "bids-1") == "0"


def test_a_game_abandoned_on_one_phone_says_so_and_by_whom_on_the_other(
    two_phones: tuple[Any, Any], table: tuple[Club, User, User, Game]
) -> None:
    """Bob's phone is half-way through a deal when the scorer abandons the game (started by
    mistake) on theirs: Bob's form goes, and his page says who abandoned it, without a
    reload; the Back button on the scorer's phone does not bring the question back."""
    _club, _scorer, _other, game = table
    phone_a, phone_b = two_phones
    tap_deal(phone_a, 1, "Nobody", "5", "4", save=True)
    phone_b.get_by_role("button", name="Save deal 2").wait_for(timeout=LIVE_TIMEOUT)
    pill(phone_b, 2, "widow", "Cy").click()
    navigations: list[str] = []
    phone_b.on("framenavigated", lambda frame: navigations.append(frame.url))

    phone_a.get_by_role("link", name="Abandon the game…").click()
    phone_a.get_by_role("heading", name="Abandon the game?").wait_for()
    phone_a.get_by_role("button", name="Abandon the game").click()
    phone_a.get_by_text("Game abandoned: it keeps its deals and counts nowhere.").wait_for()

    expect(phone_b.locator("#game-title")).to_have_text(
        "Widow whist: abandoned", timeout=LIVE_TIMEOUT
    )
    expect(phone_b.locator(".ended-by")).to_contain_text("Abandoned by scorer (")
    assert phone_b.get_by_role("button", name="Save deal 2").count() == 0
    assert navigations == []  # no reload
    phone_a.go_back()  # to the question: the game, saying it is abandoned already
    phone_a.get_by_text("The game is already abandoned.").wait_for()
    game.refresh_from_db()
    assert game.status == "abandoned" and game.ended_by_name == "scorer"


def test_a_member_following_the_game_is_not_told_to_correct_deals(
    site: LiveServer, phone: Callable[..., Any], table: tuple[Club, User, User, Game]
) -> None:
    """A club member who does not score follows the game on their phone: the sheet under it
    (rendered once for everyone) tells them to tap a deal to see it, not to correct it; the
    scorer's phone says both."""
    club, scorer, _other, game = table
    services.deal_record(
        actor=scorer, game=game, number=1, record={"widow": None, "tricks": [5, 4, 4]}
    )
    watcher = phone(member(club, Role.MEMBER, username="watcher"))
    watcher.goto(game_url(site, game))
    hint = watcher.locator(".sheet + .hint")
    expect(hint).to_contain_text("Tap a deal’s number to see it.", use_inner_text=True)
    expect(hint.locator(".or-correct")).to_be_hidden()
    scorers = phone(scorer)
    scorers.goto(game_url(site, game))
    expect(scorers.locator(".sheet + .hint")).to_contain_text(
        "Tap a deal’s number to see it or correct it.", use_inner_text=True
    )
