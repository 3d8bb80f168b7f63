"""At the table with no signal (offline.js, queue.js, the service worker): phones at
390×844 enter deals with no connection, or a connection that drops requests, and the
server ends up with each deal exactly once, in order, with the engine's scores. A deal
recorded meanwhile by another phone is shown beside this one's, to keep or to replace;
a deal the server refuses comes back with its message. The page is an installable app."""

from __future__ import annotations

import contextlib
import random
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from rules_engine import score_record
from scorekeeper import services
from scorekeeper.models import Club, Deal, DealRevision, Game, Player
from tests.browser.helpers import Phone, game_url, lose_the_reply, nobody_bids, open_game, pill

pytestmark = pytest.mark.django_db(transaction=True)

SYNC_TIMEOUT = 30.0  # s: waiting deals are sent again within 5 s; generous for a busy machine
#: s: a save whose request hangs is given up after 20 s (queue.js) and sent again within 5 s;
#: twice in a row on a busy machine still fits.
HUNG_TIMEOUT = 60.0
#: s: a service worker's install that hangs is given up after 45 s (service-worker.js) and
#: registered again.
INSTALL_TIMEOUT = 90.0
NAMES = ("Ann", "Bob", "Cy")
#: Widow whist deals as tapped: who took the widow, then Ann's and Bob's tricks (Cy's are
#: filled in from what is left of 13).
DEALS = [
    ("Nobody", 5, 4),
    ("Ann", 6, 3),
    ("Bob", 2, 7),
    ("Cy", 3, 3),
    ("Nobody", 4, 4),
    ("Bob", 1, 8),
    ("Ann", 7, 2),
    ("Nobody", 3, 5),
    ("Cy", 4, 2),
    ("Bob", 5, 5),
]


def enter(page: Any, number: int) -> None:
    """Tap deal ``number`` of DEALS and save it."""
    widow, ann, bob = DEALS[number - 1]
    pill(page, number, "widow", widow).click()
    pill(page, number, "tricks-0", str(ann)).click()
    pill(page, number, "tricks-1", str(bob)).click()
    page.get_by_role("button", name=f"Save deal {number}").click()


def record_of(number: int) -> dict[str, Any]:
    widow, ann, bob = DEALS[number - 1]
    seat = None if widow == "Nobody" else NAMES.index(widow)
    return {"widow": seat, "tricks": [ann, bob, 13 - ann - bob]}


def ready_offline(page: Any) -> None:
    """Wait until the service worker controls the page and keeps a copy of it (an install
    that hangs is given up and tried again)."""
    deadline = time.monotonic() + INSTALL_TIMEOUT
    state = ""
    while state != "kept":
        state = page.evaluate(
            "navigator.serviceWorker.controller === null ?"
            " navigator.serviceWorker.getRegistration().then(r => 'no service worker controls"
            " the page; registered: ' + (r ? ['installing', 'waiting', 'active']"
            ".filter(k => r[k]).map(k => k + ' ' + r[k].state).join(', ') : 'none'))"
            " : caches.open('scorekeeper-pages').then(c => c.match(location.pathname))"
            ".then(r => r ? 'kept' : 'no copy of the page is kept')"
        )
        assert state == "kept" or time.monotonic() < deadline, f"not ready for offline use: {state}"
        page.wait_for_timeout(100)


@pytest.fixture
def offline_page(scorer_page: Any) -> Any:
    """The scorer's game page, once the service worker keeps a copy of it."""
    ready_offline(scorer_page)
    return scorer_page


def wait_for_deals(game: Game, count: int) -> list[Deal]:
    deadline = time.monotonic() + SYNC_TIMEOUT
    while Deal.objects.filter(game=game).count() < count:
        assert time.monotonic() < deadline, "the deals waiting were not sent"
        time.sleep(0.2)
    return list(Deal.objects.filter(game=game).order_by("number"))


def assert_recorded_as_the_engine_scores(game: Game, count: int) -> None:
    deals = wait_for_deals(game, count)
    records = [record_of(number) for number in range(1, count + 1)]
    engine = score_record({"game": "widow_whist", "players": list(NAMES), "deals": records})
    assert [deal.number for deal in deals] == list(range(1, count + 1))
    assert [deal.record for deal in deals] == records
    assert [deal.scores for deal in deals] == [list(d.scores) for d in engine.deals]
    # Each recorded once: one revision a deal, nothing corrected or doubled.
    assert DealRevision.objects.filter(game=game).count() == count


def waiting_rows(page: Any) -> list[str]:
    return [row.inner_text().split("\n")[0] for row in page.locator("tr.waiting th").all()]


def test_five_deals_entered_offline_across_a_reload_and_a_new_tab_are_recorded_once_in_order(
    site: LiveServer, offline_page: Any, table: tuple[Club, User, User, Game]
) -> None:
    _club, _scorer, _other, game = table
    page = offline_page
    context = page.context
    context.set_offline(True)
    enter(page, 1)
    page.get_by_role("button", name="Save deal 2").wait_for()
    assert waiting_rows(page) == ["1"]
    # The provisional scores: Ann 5 - 3, Bob 4 - 3, Cy 4 - 3.
    assert page.locator("tr.waiting td").all_inner_texts() == ["+2\n2", "+1\n1", "+1\n1"]
    enter(page, 2)
    page.get_by_role("button", name="Save deal 3").wait_for()
    assert page.locator("#sync-status").inner_text().startswith("2 deals waiting to send")

    # A reload with no network: the page from the phone's own copy, the deals still waiting.
    requests: list[str] = []
    page.on("requestfinished", lambda request: requests.append(request.url))
    page.reload()
    page.get_by_role("button", name="Save deal 3").wait_for()
    assert waiting_rows(page) == ["1", "2"]
    assert page.get_by_role("heading", name="Deal 3 · Cy deals").is_visible()
    enter(page, 3)
    page.get_by_role("button", name="Save deal 4").wait_for()

    # A new tab (the first one left open), then the first one reloaded.
    tab = context.new_page()
    tab.goto(game_url(site, game))
    tab.get_by_role("button", name="Save deal 4").wait_for()
    enter(tab, 4)
    tab.get_by_role("button", name="Save deal 5").wait_for()
    tab.close()
    page.reload()
    page.get_by_role("button", name="Save deal 5").wait_for()
    assert waiting_rows(page) == ["1", "2", "3", "4"]
    enter(page, 5)
    # The page came with the forms of five deals: the sixth's comes with the connection.
    page.get_by_text("Deal 6’s form comes back once the deals waiting are sent.").wait_for()
    assert page.locator("#sync-status").inner_text().startswith("5 deals waiting to send")
    assert not Deal.objects.filter(game=game).exists()
    # Nothing went to the network: every answer came from the service worker's copies.
    assert all(game_url(site, game) in r or "/static/" in r for r in requests), requests

    context.set_offline(False)
    assert_recorded_as_the_engine_scores(game, 5)
    page.get_by_text("Online and up to date").wait_for(timeout=SYNC_TIMEOUT * 1000)
    # The server's sheet is swapped in once the last deal is sent: wait for it.
    rows = page.locator("table.sheet tbody tr:not(.fig-line)")
    expect(rows).to_have_count(5, timeout=SYNC_TIMEOUT * 1000)
    assert waiting_rows(page) == []
    page.get_by_role("button", name="Save deal 6").wait_for()


def test_ten_deals_on_a_connection_that_drops_requests_are_recorded_once_each(
    scorer_page: Any, table: tuple[Club, User, User, Game]
) -> None:
    _club, _scorer, _other, game = table
    page = scorer_page
    dice = random.Random(11)
    fates: list[str] = []
    started = time.monotonic()

    def flaky(route: Any) -> None:
        fate = dice.choice(["through", "through", "lost before", "lost after"])
        fates.append(fate)
        try:
            if fate == "lost before":
                route.abort()
            elif fate == "lost after":
                lose_the_reply(route)
            else:
                route.continue_()
        except Exception as error:  # the request must not be left hanging: it is lost
            fates[-1] = f"{fate}, then {error!r}"
            with contextlib.suppress(Exception):  # unless it was answered already
                route.abort()
        fates[-1] = f"{time.monotonic() - started:.1f} s: {fates[-1]}"

    page.route("**/deal/", flaky)
    for number in range(1, 11):
        enter(page, number)
        # The next form: at once, or once the deals waiting are through (five at most wait).
        try:
            page.get_by_role("button", name=f"Save deal {number + 1}").wait_for(
                timeout=HUNG_TIMEOUT * 1000
            )
        except Exception as error:
            status = page.locator("#sync-status").inner_text()
            raise AssertionError(f"after deal {number}: {status!r}; sends: {fates}") from error
    assert any("lost before" in fate for fate in fates)
    assert any("lost after" in fate for fate in fates)
    page.unroute("**/deal/")
    assert_recorded_as_the_engine_scores(game, 10)
    page.get_by_text("Online and up to date").wait_for(timeout=SYNC_TIMEOUT * 1000)


def test_a_deal_recorded_by_another_phone_meanwhile_is_kept_or_replaced_as_chosen(
    two_phones: tuple[Any, Any], table: tuple[Club, User, User, Game]
) -> None:
    _club, scorer, other, game = table
    phone_a, phone_b = two_phones
    # Deal 1: A, offline, enters it; B records it first. A keeps B's.
    phone_a.context.set_offline(True)
    enter(phone_a, 1)
    phone_a.get_by_role("button", name="Save deal 2").wait_for()
    pill(phone_b, 1, "widow", "Cy").click()
    pill(phone_b, 1, "tricks-0", "2").click()
    pill(phone_b, 1, "tricks-1", "2").click()
    phone_b.get_by_role("button", name="Save deal 1").click()
    phone_b.get_by_role("button", name="Save deal 2").wait_for()
    phone_a.context.set_offline(False)
    heading = phone_a.get_by_role("heading", name="Deal 1 is already recorded, by Bob")
    heading.wait_for(timeout=SYNC_TIMEOUT * 1000)
    panel = phone_a.locator("#collision-1").inner_text()
    assert "Tricks: Ann 2, Bob 2, Cy 9" in panel
    assert "Your entry: Widow: nobody took it · Tricks: Ann 5, Bob 4, Cy 4" in panel
    phone_a.get_by_role("link", name="Keep what was recorded").click()
    phone_a.get_by_role("button", name="Save deal 2").wait_for()
    phone_a.wait_for_timeout(1000)  # nothing is sent again
    assert phone_a.locator("#collision-1").count() == 0
    assert Deal.objects.get(game=game, number=1).record == {"widow": 2, "tricks": [2, 2, 9]}
    assert phone_a.evaluate(f"ScorekeeperQueue.kept({game.pk}).then(items => items.length)") == 0

    # Deal 2: the same, and A replaces B's with its own: a correction, with its reason.
    phone_a.context.set_offline(True)
    enter(phone_a, 2)
    phone_a.get_by_role("button", name="Save deal 3").wait_for()
    services.deal_record(
        actor=other, game=game, number=2, record={"widow": None, "tricks": [1, 1, 11]}
    )
    phone_a.context.set_offline(False)
    phone_a.get_by_role("heading", name="Deal 2 is already recorded, by Bob").wait_for(
        timeout=SYNC_TIMEOUT * 1000
    )
    phone_a.get_by_role("button", name="Correct deal 2 with my entry").click()
    phone_a.get_by_text("Deal 2 corrected.").wait_for()
    assert Deal.objects.get(game=game, number=2).record == record_of(2)
    revisions = DealRevision.objects.filter(game=game, number=2).order_by("version")
    assert [revision.reason for revision in revisions][1].startswith("Entered on two phones")
    assert Deal.objects.filter(game=game).count() == 2
    assert phone_a.evaluate(f"ScorekeeperQueue.kept({game.pk}).then(items => items.length)") == 0


def test_a_deal_refused_when_it_is_sent_comes_back_with_the_message_and_is_fixed(
    site: LiveServer, phone: Phone, table: tuple[Club, User, User, Game]
) -> None:
    club, scorer, _other, _game = table
    ann, bob = Player.objects.filter(club=club, name__in=("Ann", "Bob")).order_by("name")
    game = services.game_start(actor=scorer, club=club, game_type="third_hand", players=[ann, bob])
    page = open_game(phone, site, scorer, game)
    page.context.set_offline(True)
    nobody_bids(page, 1, players=2)
    # A check made on the phone: points that no captured cards make are not kept.
    page.get_by_label("Ann’s points").fill("60")
    page.get_by_label("Bob’s points").fill("5")
    page.get_by_role("button", name="Save deal 1").click()
    page.get_by_text("Bob's 5 points cannot be made of captured cards").wait_for()
    assert page.evaluate(f"ScorekeeperQueue.kept({game.pk}).then(items => items.length)") == 0
    # The cards tapped instead, 13 of them: only the server counts captured cards.
    page.get_by_label("Ann’s points").fill("")
    page.get_by_label("Bob’s points").fill("")
    page.get_by_text("Tap the captured cards", exact=True).click()
    for card in ("AS", "KS", "QS", "JS", "10S", "9S", "AH"):
        page.locator(f'#d1-sec-captured button[data-card="{card}"]').click()
    for card in ("QH", "JH", "10H", "9H", "AD", "KD"):
        button = page.locator(f'#d1-sec-captured button[data-card="{card}"]')
        button.click()
        button.click()
    page.get_by_role("button", name="Save deal 1").click()
    page.get_by_text("Deal 2’s form comes back once the deals waiting are sent.").wait_for()
    assert waiting_rows(page) == ["1"]
    assert "Ann deals, bids second: No bid" in page.locator("tr.waiting td").inner_text()

    page.context.set_offline(False)
    error = page.locator("#d1-sec-captured .field-error")
    error.wait_for(timeout=SYNC_TIMEOUT * 1000)
    assert error.inner_text() == "Ann captured 7 cards; tricks are won two cards at a time"
    assert not Deal.objects.filter(game=game).exists()
    assert page.locator("#sync-status").inner_text().startswith("Online")
    capture = page.locator("#d1-sec-captured details")
    if capture.get_attribute("open") is None:
        page.get_by_text("Tap the captured cards", exact=True).click()
    page.locator('#d1-sec-captured button[data-card="KH"]').click()
    page.get_by_role("button", name="Save deal 1").click()
    page.get_by_text("Deal 1 saved.").wait_for(timeout=SYNC_TIMEOUT * 1000)
    deal = Deal.objects.get(game=game)
    assert [len(cards) for cards in deal.record["captured"]] == [8, 6]
    assert deal.scores == [61, 50]  # nobody bid: each scores the points captured
    assert DealRevision.objects.filter(game=game).count() == 1


def test_the_game_page_is_an_installable_app(
    site: LiveServer, offline_page: Any, table: tuple[Club, User, User, Game]
) -> None:
    _club, _scorer, _other, game = table
    page = offline_page
    cdp = page.context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == []
    assert manifest["url"] == f"{site.url}/g/{game.pk}/manifest.webmanifest"
    # The one thing Chromium holds against it is the test's throwaway profile (a browser
    # context is an incognito one): nothing of the manifest or the service worker.
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == []
    worker = page.request.get(f"{site.url}/sw.js")
    assert worker.headers["service-worker-allowed"] == "/"


@pytest.fixture
def last_deal_two(table: tuple[Club, User, User, Game]) -> Any:
    """The table's game takes 2 deals at most (as a tournament round of 2 deals would)."""
    from scorekeeper import deal_limits

    game = table[3]

    def limiter(candidate: Game) -> deal_limits.DealLimit | None:
        if candidate.pk != game.pk:
            return None
        return deal_limits.DealLimit(last=2, reason="round 1 is 2 deals")

    deal_limits.register(limiter)
    yield limiter
    deal_limits.unregister(limiter)


def two_deals_offline(page: Any, said: str) -> None:
    """With no connection, deals 1 and 2 entered; then the phone says ``said`` and offers no
    form for deal 3."""
    page.context.set_offline(True)
    enter(page, 1)
    page.get_by_role("button", name="Save deal 2").wait_for()
    enter(page, 2)
    expect(page.locator(".waiting-form")).to_have_text(said)
    assert page.locator("form[data-entry]").count() == 0


def test_offline_entry_stops_at_the_tables_last_deal(
    site: LiveServer, last_deal_two: Any, offline_page: Any, table: tuple[Club, User, User, Game]
) -> None:
    _club, _scorer, _other, game = table
    page = offline_page
    two_deals_offline(
        page, "No more deals at this table: round 1 is 2 deals, and deal 2 was its last."
    )
    assert waiting_rows(page) == ["1", "2"]
    page.context.set_offline(False)
    assert_recorded_as_the_engine_scores(game, 2)
    expect(page.get_by_text("No more deals at this table")).to_be_visible()
    assert page.locator("form[data-entry]").count() == 0


def test_offline_entry_stops_at_the_games_own_last_deal(
    site: LiveServer, scorer_page: Any, table: tuple[Club, User, User, Game]
) -> None:
    club, scorer, _other, _game = table
    players = [seat.player for seat in _game.seats.select_related("player").order_by("position")]
    game = services.game_start(
        actor=scorer,
        club=club,
        game_type="widow_whist",
        players=players,
        options={"finish": {"deals": 2}},
    )
    page = scorer_page
    page.goto(game_url(site, game))
    ready_offline(page)
    two_deals_offline(
        page, "Deal 2 was the game’s last: its final scores show once the deals waiting are sent."
    )
    expect(page.locator("#game-title")).to_have_text("Last deal entered")
    page.context.set_offline(False)
    assert_recorded_as_the_engine_scores(game, 2)
    expect(page.get_by_role("heading", name="Final scores")).to_be_visible(timeout=30_000)


def test_a_copy_the_phone_could_not_keep_at_first_is_kept_on_a_later_try(
    site: LiveServer, phone: Any, table: tuple[Club, User, User, Game]
) -> None:
    """A flaky connection drops the service worker's first two fetches of the game page
    (the copy it keeps for opening the page with no network): the page notices there is
    no copy and asks again, and a reload with no network then still opens the game."""
    _club, scorer, _other, game = table
    page = phone(scorer)
    path = game_url(site, game).removeprefix(site.url)
    dropped: list[str] = []

    def drop_twice(route: Any) -> None:
        request = route.request
        if request.service_worker is not None and len(dropped) < 2:
            dropped.append(request.url)
            route.abort()
        else:
            route.continue_()

    page.context.route(f"**{path}", drop_twice)
    page.goto(game_url(site, game))
    ready_offline(page)
    assert len(dropped) == 2, "the service worker's fetches of the page were not dropped"
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("button", name="Save deal 1")).to_be_visible()


def test_a_page_loaded_past_the_service_worker_is_taken_under_its_control(
    offline_page: Any, site: LiveServer, table: tuple[Club, User, User, Game]
) -> None:
    """A page whose load did not go through the service worker (a hard reload; or a page
    opened while the worker was being installed, which its first claim missed) asks to be
    kept, and the worker then takes it under its control too."""
    page = offline_page
    with page.expect_navigation():
        page.context.new_cdp_session(page).send("Page.reload", {"ignoreCache": True})
    ready_offline(page)  # fails when no service worker ever controls the page
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("button", name="Save deal 1")).to_be_visible()


def test_a_service_worker_whose_files_did_not_come_is_installed_again(
    site: LiveServer, phone: Any, table: tuple[Club, User, User, Game]
) -> None:
    """The service worker's fetch of a file to keep at install is dropped: that install
    fails, the page registers the worker again, and the game still opens with no network."""
    _club, scorer, _other, game = table
    page = phone(scorer)
    dropped: list[str] = []

    def drop_first(route: Any) -> None:
        if route.request.service_worker is not None and not dropped:
            dropped.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.context.route("**/static/css/site.css", drop_first)
    page.goto(game_url(site, game))
    ready_offline(page)
    assert dropped, "no file the service worker fetched was dropped"
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("button", name="Save deal 1")).to_be_visible()
