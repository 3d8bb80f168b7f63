"""Whole games entered on the game page in a phone-sized Chromium, by tapping: one of each
of the four games, with a rejected entry, a correction and an undo; entering through a
table link; page weight, tap targets and no sideways scrolling at 360 px.

Taps are counted for one ordinary deal of each game (a tap on a pill or button, or a
key on the number pad) and printed, with the page weight: run with ``-s`` to see them.
"""

from __future__ import annotations

import gzip
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import selectors, services
from scorekeeper.models import Club, Deal, DealRevision, Game, GameStatus, Player, Role
from scorekeeper.pages import game_views
from scorekeeper.pages.game_sheet import signed
from tests.browser.helpers import console_problems, game_url, open_game
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, member

pytestmark = pytest.mark.django_db(transaction=True)

Phone = Callable[..., Any]
WEIGHT_LIMIT = 100 * 1024


class Taps:
    """Taps and number-pad keys, as a player would make them."""

    def __init__(self) -> None:
        self.count = 0

    def tap(self, locator: Any) -> None:
        locator.click()
        self.count += 1

    def type(self, locator: Any, digits: str) -> None:
        self.tap(locator)
        locator.press_sequentially(digits)
        self.count += len(digits)


def pill(page: Any, number: int, group: str, label: str) -> Any:
    """The pill ``label`` of input group ``group`` (e.g. "tricks-1") in deal ``number``'s form."""
    return page.locator(f"#d{number}-{group}").get_by_text(label, exact=True)


def checked(page: Any, number: int, group: str) -> str | None:
    found = page.locator(f"#d{number}-{group} input:checked")
    return found.get_attribute("value") if found.count() else None


def save(taps: Taps, page: Any, number: int) -> None:
    taps.tap(page.get_by_role("button", name=f"Save deal {number}"))


def saved(page: Any, number: int, finished: bool = False) -> None:
    """Wait until deal ``number`` is in: the next deal's form, or the final scores."""
    if finished:
        page.get_by_role("heading", name="Final scores").wait_for()
    else:
        page.get_by_role("button", name=f"Save deal {number + 1}").wait_for()
    assert page.get_by_text(f"Deal {number} saved.").is_visible()


def assert_fits(page: Any, width: int) -> None:
    """At ``width`` px nothing scrolls sideways and every control is a 44 px tap target."""
    page.set_viewport_size({"width": width, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll(
              '#game button, #game a.button, #game summary, #game input:not([type=radio])'
              + ':not([type=hidden]), #game .pills span, table.sheet tbody a'))
            .filter(el => el.offsetParent !== null)
            .map(el => [el.outerHTML.slice(0, 60), el.getBoundingClientRect().height,
                        el.getBoundingClientRect().width])
            .filter(([, h, w]) => h < 44 || w < 44)"""
    )
    assert small == []


@pytest.fixture
def club() -> tuple[Club, User, list[Player]]:
    club = ClubFactory(name="Kings Arms", slug="kings")
    SeasonFactory(club=club)
    scorer = member(club, Role.SCORER, username="scorer")
    players = [PlayerFactory(club=club, name=name) for name in ("Ann", "Bob", "Cy", "Dee")]
    return club, scorer, players


def start(club: tuple[Club, User, list[Player]], game_type: str, seats: int, **kw: Any) -> Game:
    the_club, scorer, players = club
    return services.game_start(
        actor=scorer, club=the_club, game_type=game_type, players=players[:seats], **kw
    )


def test_widow_whist_with_a_rejection_an_undo_and_a_correction(
    site: LiveServer, phone: Phone, club: tuple[Club, User, list[Player]]
) -> None:
    game = start(club, "widow_whist", 3, options={"finish": {"deals": 3}})
    page = open_game(phone, site, club[1], game)
    assert page.get_by_role("heading", name="Deal 1 of 3 · Ann deals").is_visible()
    assert page.title().startswith("Deal 1 of 3 · Ann deals · ")
    taps = Taps()

    # Deal 1: the third player's tricks are filled in from 13 ...
    taps.tap(pill(page, 1, "widow", "Nobody"))
    taps.tap(pill(page, 1, "tricks-0", "6"))
    taps.tap(pill(page, 1, "tricks-1", "6"))
    assert checked(page, 1, "tricks-2") == "1"
    page.locator("#preview-1 table").wait_for()
    assert "Deal 1 would score" in page.locator("#preview-1").inner_text()
    # ... but a player may change them, and the engine's rejection shows beside the tricks.
    pill(page, 1, "tricks-2", "6").click()
    save(Taps(), page, 1)
    error = page.locator("#d1-sec-tricks-error")
    error.wait_for()
    assert "Tricks add up to 18; a deal of widow whist has 13 tricks" in error.inner_text()
    assert [checked(page, 1, f"tricks-{seat}") for seat in range(3)] == ["6", "6", "6"]
    assert checked(page, 1, "widow") == "none"
    pill(page, 1, "tricks-2", "1").click()
    save(Taps(), page, 1)
    saved(page, 1)

    # Deal 2, counted: who took the widow, two players' tricks, save.
    taps = Taps()
    taps.tap(pill(page, 2, "widow", "Bob"))
    taps.tap(pill(page, 2, "tricks-0", "3"))
    taps.tap(pill(page, 2, "tricks-1", "6"))
    assert checked(page, 2, "tricks-2") == "4"
    save(taps, page, 2)
    saved(page, 2)
    print(f"\ntaps per deal: widow whist {taps.count}")
    widow_taps = taps.count

    # Undo deal 2 (a confirm step), and enter it again.
    page.get_by_text("Undo deal 2…").click()
    page.get_by_label("Why? (optional)").fill("wrong widow")
    page.get_by_role("button", name="Undo deal 2").click()
    page.get_by_text("Deal 2 undone.").wait_for()
    assert page.get_by_role("heading", name="Deal 2 of 3 · Bob deals").is_visible()
    # The tab's title follows the page, though only the game's section was swapped in.
    assert page.title().startswith("Deal 2 of 3 · Bob deals · ")
    assert Deal.objects.filter(game=game).count() == 1
    pill(page, 2, "widow", "Nobody").click()
    pill(page, 2, "tricks-0", "5").click()
    pill(page, 2, "tricks-1", "4").click()
    page.get_by_role("button", name="Save deal 2").click()
    saved(page, 2)

    # Correct deal 1: Cy had taken the widow.
    page.locator("table.sheet").get_by_role("link", name="1", exact=True).click()
    page.wait_for_url(f"{game_url(site, game)}d/1/")
    assert page.get_by_role("heading", name="Deal 1 · Ann dealt").is_visible()
    page.get_by_role("group", name="Who took the widow?").get_by_text("Cy").click()
    page.get_by_label("Why is it corrected?").fill("Cy had the widow")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_url(game_url(site, game))
    assert page.get_by_text("Deal 1 corrected.").is_visible()
    page.goto(f"{game_url(site, game)}d/1/")
    assert page.get_by_text("Reason: Cy had the widow").is_visible()
    page.goto(game_url(site, game))

    # Deal 3 ends the game: winners, final totals, a link to share.
    problems = console_problems(page)
    pill(page, 3, "widow", "Nobody").click()
    pill(page, 3, "tricks-0", "4").click()
    pill(page, 3, "tricks-1", "5").click()
    page.get_by_role("button", name="Save deal 3").click()
    saved(page, 3, finished=True)
    # The page kept for offline use is brought up to date, with no script error (a finished
    # game's page has no offline entry data).
    page.wait_for_timeout(1000)
    assert problems == []
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert page.get_by_text("Ann and Bob share the win").is_visible()
    assert page.get_by_role("link", name="Share the result").is_visible()
    assert "/shared/" in page.get_by_label("Link to share").input_value()
    assert DealRevision.objects.filter(game=game, action="correct").count() == 1
    assert widow_taps == 4


def test_italian_whist_to_the_limit(
    site: LiveServer, phone: Phone, club: tuple[Club, User, list[Player]]
) -> None:
    game = start(club, "italian_whist", 3, options={"limit": 5})
    page = open_game(phone, site, club[1], game)
    assert page.get_by_role(
        "heading", name="Deal 1 · Ann deals · No trumps · pass left"
    ).is_visible()
    deals = [((3, 3), (3, 3)), ((5, 2), (1, 4)), ((4, 3), (2, 3))]
    counts = []
    for number, (first, second) in enumerate(deals, start=1):
        taps = Taps()
        for hand, tricks in (("first", first), ("second", second)):
            for seat, count in enumerate(tricks):
                taps.tap(pill(page, number, f"{hand}-{seat}", str(count)))
            assert checked(page, number, f"{hand}-2") == str(9 - sum(tricks))
        save(taps, page, number)
        saved(page, number, finished=number == len(deals))
        counts.append(taps.count)
    print(f"\ntaps per deal: Italian whist {counts[0]}")
    assert counts[0] == 5
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert [deal.scores for deal in game.deals.order_by("number")] == [
        [0, 0, 0],
        [4, -2, -2],
        [2, 0, -2],
    ]
    assert page.get_by_text("Ann wins").is_visible()


def test_third_hand_typed_points_and_counted_cards(
    site: LiveServer, phone: Phone, club: tuple[Club, User, list[Player]]
) -> None:
    game = start(club, "third_hand", 2, options={"target": 150})
    page = open_game(phone, site, club[1], game)
    assert page.get_by_role("heading", name="Deal 1 · Ann deals").is_visible()
    assert page.get_by_text("Third Hand · first past 150 wins").is_visible()

    # Deal 1, counted: no bids, trumps, points typed on the number pad.
    taps = Taps()
    taps.tap(pill(page, 1, "bids-1", "No bid"))
    taps.tap(pill(page, 1, "bids-0", "No bid"))
    taps.tap(page.locator("#d1-trump").get_by_label("hearts"))
    taps.type(page.get_by_label("Ann’s points"), "60")
    taps.type(page.get_by_label("Bob’s points"), "61")
    assert page.get_by_label("Bob’s points").get_attribute("inputmode") == "numeric"
    save(taps, page, 1)
    saved(page, 1)
    print(f"\ntaps per deal: Third Hand {taps.count} (points typed)")
    typed_taps = taps.count

    # Deal 2: Bob deals (he took more); Ann bids Q first, so Bob may only bid K or A.
    assert page.get_by_role("heading", name="Deal 2 · Bob deals").is_visible()
    taps = Taps()
    taps.tap(pill(page, 2, "bids-0", "Q"))
    for rank in ("9", "10", "J", "Q"):
        assert page.locator(f'#d2-bids-1 input[value="{rank}"]').is_disabled()
    assert page.locator('#d2-bids-1 input[value="K"]').is_enabled()
    taps.tap(pill(page, 2, "bids-1", "No bid"))
    taps.tap(page.locator("#d2-trump").get_by_label("spades"))
    taps.tap(pill(page, 2, "exchanged", "No"))
    # Points counted from the captured cards: one tap for Ann, two for Bob.
    taps.tap(page.get_by_text("Tap the captured cards", exact=True))
    for card in ("10S", "10H", "10D", "10C", "JS", "JH", "JD", "JC"):
        taps.tap(page.locator(f'#d2-sec-captured button[data-card="{card}"]'))
    for card in ("AS", "AH", "AD", "AC", "KS", "KH"):
        button = page.locator(f'#d2-sec-captured button[data-card="{card}"]')
        taps.tap(button)
        taps.tap(button)
    assert page.locator('button[data-card="KH"]').get_attribute("aria-label") == (
        "king of hearts: Bob"
    )
    assert "14 of 14 cards" in page.locator("#d2-sec-captured .tally").inner_text()
    assert_fits(page, 360)
    preview = page.locator("#preview-2")
    preview.get_by_text("contract made").wait_for()
    assert "Ann bid Q and needs 80: 80 points, contract made." in preview.inner_text()
    save(taps, page, 2)
    saved(page, 2, finished=True)
    print(f"taps per deal: Third Hand {taps.count} (points counted from the cards)")
    deal = Deal.objects.get(game=game, number=2)
    assert deal.scores == [136, 24]
    assert sorted(deal.record["captured"][1]) == ["AC", "AD", "AH", "AS", "KH", "KS"]
    assert page.get_by_text("Ann wins").is_visible()
    assert typed_taps == 10


def prediction_deal(size: int, dealer: int) -> tuple[dict[int, int], dict[int, int]]:
    """Bids and tricks (seat -> count) of a made-up deal that keeps the hook rule: the
    first bidder bids 1 and takes 1; the second bids 0 and takes the rest but one."""
    first, second = (dealer + 1) % 3, (dealer + 2) % 3
    bids = {first: 1, second: 0, dealer: 1 if size == 1 else 0}
    tricks = {first: 1, second: size - 1}
    return bids, tricks


def test_prediction_whist_all_21_deals_with_bids_kept_on_the_server(
    site: LiveServer, phone: Phone, club: tuple[Club, User, list[Player]]
) -> None:
    game = start(club, "prediction_whist", 3)
    page = open_game(phone, site, club[1], game)
    sizes = [1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1]
    counts = []
    for number, size in enumerate(sizes, start=1):
        dealer = (number - 1) % 3
        bids, tricks = prediction_deal(size, dealer)
        taps = Taps()
        order = [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
        if number == 1:
            status = page.locator("#bids-status-1")
            assert status.inner_text() == "Bids are kept as you tap."
            assert status.get_attribute("role") == "status"
        for seat in order[:2]:
            taps.tap(pill(page, number, f"bids-{seat}", str(bids[seat])))
        if number == 2:
            # A reload (or a dead battery) loses no bids: they are kept as they are tapped.
            page.get_by_text("Bids kept: Cy 1, Ann 0.").wait_for()
            page.reload()
            assert [checked(page, 2, f"bids-{seat}") for seat in order] == ["1", "0", None]
        if size == 1:
            # The dealer may not make the bids add up to 1: their 0 is disabled.
            assert page.locator(f'#d{number}-bids-{dealer} input[value="0"]').is_disabled()
            assert "may not bid 0" in page.locator(f"#d{number}-bids-{dealer} legend").inner_text()
        taps.tap(pill(page, number, f"bids-{dealer}", str(bids[dealer])))
        for seat in order[:2]:
            taps.tap(pill(page, number, f"tricks-{seat}", str(tricks[seat])))
        assert checked(page, number, f"tricks-{dealer}") == "0"
        save(taps, page, number)
        try:
            saved(page, number, finished=number == len(sizes))
        except Exception:
            page.screenshot(path="/tmp/pred-fail.png", full_page=True)
            raise
        counts.append(taps.count)
    print(f"\ntaps per deal: prediction whist {counts[0]} (3 players)")
    assert set(counts) == {6}
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.deal_count == 21
    assert page.get_by_text("wins").first.is_visible()


def test_entering_deals_through_a_table_link(
    site: LiveServer, new_page: Callable[..., Any], club: tuple[Club, User, list[Player]]
) -> None:
    game = start(club, "widow_whist", 3)
    link = services.table_link_create(actor=club[1], game=game)
    page = new_page()  # nobody is signed in
    page.goto(f"{site.url}/t/{link.token}/")
    page.get_by_label("Your name (optional)").fill("Dee")
    page.get_by_role("button", name="Enter deals").click()
    page.wait_for_url(game_url(site, game))
    assert page.get_by_text("Entering as Dee (table link).").is_visible()
    pill(page, 1, "widow", "Cy").click()
    pill(page, 1, "tricks-0", "4").click()
    pill(page, 1, "tricks-1", "4").click()
    page.get_by_role("button", name="Save deal 1").click()
    saved(page, 1)
    deal = Deal.objects.get(game=game)
    assert deal.entered_by is None and deal.entered_by_name == "Dee (table link)"
    assert deal.record == {"widow": 2, "tricks": [4, 4, 5]}


def test_page_weight_tap_targets_and_no_sideways_scrolling(
    site: LiveServer, phone: Phone, club: tuple[Club, User, list[Player]]
) -> None:
    the_club, scorer, players = club
    players += [PlayerFactory(club=the_club, name=name) for name in ("Evangeline", "Fitzgerald")]
    game = services.game_start(
        actor=scorer, club=the_club, game_type="prediction_whist", players=players
    )
    for number in range(1, 7):
        bids = [0] * 6  # one card each: bids may not add up to 1
        tricks = [0] * 6
        tricks[number % 6] = 1
        services.deal_record(
            actor=scorer, game=game, number=number, record={"bids": bids, "tricks": tricks}
        )
    page = phone(scorer)
    # Routing turns the HTTP cache off: the weight of a first visit.
    page.route("**/*", lambda route: route.continue_())
    responses: list[Any] = []
    page.on("response", lambda response: responses.append(response))
    page.goto(game_url(site, game))
    page.wait_for_load_state("networkidle")
    html = css = js = 0
    raw = 0
    for response in responses:
        if response.status == 304 or 300 <= response.status < 400:  # no body of its own
            continue
        try:
            body = response.body()
        except PlaywrightError:  # the browser let go of it (a later request of the page)
            body = page.request.get(response.url).body()
        raw += len(body)
        kind = response.headers.get("content-type", "")
        if "text/html" in kind:
            html += len(body)  # pages are sent as they are
        elif "css" in kind:
            css += len(gzip.compress(body))  # WhiteNoise serves static files compressed
        elif "javascript" in kind:
            js += len(gzip.compress(body))
    # The service worker the page registers: /sw.js (a page: as it is) and its code (a static
    # file). The files it keeps at install are those the page just loaded (its hashed names
    # come from the browser's cache in production).
    loaded = {response.url for response in responses}
    worker = page.request.get(f"{site.url}/sw.js").body()
    sw = len(worker)
    for script in re.findall(rb'"(/static/[^"]+)"', worker):
        if f"{site.url}{script.decode()}" not in loaded and script.endswith(b".js"):
            sw += len(gzip.compress(page.request.get(f"{site.url}{script.decode()}").body()))
    total = html + css + js + sw
    print(
        f"\npage weight (first visit, 6 players, 6 deals): HTML {html / 1024:.1f} KB + "
        f"CSS {css / 1024:.1f} KB + JS {js / 1024:.1f} KB + service worker {sw / 1024:.1f} KB "
        f"(static gzipped, as served) = {total / 1024:.1f} KB; {raw / 1024:.1f} KB "
        "uncompressed (page and its files)"
    )
    assert sw > 1024  # the worker's own code is counted
    assert total < WEIGHT_LIMIT

    for width in (390, 360):
        assert_fits(page, width)
        widths = page.evaluate(
            "Array.from(document.querySelectorAll('table.sheet th, table.sheet td'))"
            ".map(el => el.getBoundingClientRect().right)"
        )
        assert max(widths) <= width
    # Zoom is allowed.
    viewport = page.locator('meta[name="viewport"]').get_attribute("content")
    assert "user-scalable" not in viewport and "maximum-scale" not in viewport
    assert re.search(r"width=device-width", viewport)


def test_a_save_without_a_connection_is_kept_and_sent_again(
    site: LiveServer, phone: Phone, club: tuple[Club, User, list[Player]]
) -> None:
    game = start(club, "italian_whist", 3)
    page = open_game(phone, site, club[1], game)
    for hand, tricks in (("first", (4, 3)), ("second", (2, 2))):
        for seat, count in enumerate(tricks):
            pill(page, 1, f"{hand}-{seat}", str(count)).click()
    page.context.set_offline(True)
    page.get_by_role("button", name="Save deal 1").click()
    # Kept, with its provisional scores (first hand less second), and the next form shown.
    page.get_by_role("button", name="Save deal 2").wait_for()
    assert page.locator("tr.waiting td").all_inner_texts() == ["+2\n2", "+1\n1", "−3\n−3"]
    page.context.set_offline(False)
    page.get_by_text("Online and up to date").wait_for(timeout=15_000)
    assert Deal.objects.get(game=game).record == {"first": [4, 3, 2], "second": [2, 2, 5]}


def test_entering_a_deal_without_javascript(
    site: LiveServer, phone: Phone, club: tuple[Club, User, list[Player]]
) -> None:
    game = start(club, "widow_whist", 3)
    page = phone(club[1], javascript=False)
    page.goto(game_url(site, game))
    pill(page, 1, "widow", "Nobody").click()
    pill(page, 1, "tricks-0", "7").click()
    pill(page, 1, "tricks-1", "2").click()
    page.get_by_role("button", name="Check the scores").click()  # no preview as you tap
    page.wait_for_url(game_url(site, game, "preview/#preview-1"))
    assert "Cy: 4 filled in from what is left." in page.locator("#preview-1").inner_text()
    assert checked(page, 1, "tricks-2") == "4"
    page.reload()  # a reload shows the same entry, without posting anything again
    assert checked(page, 1, "tricks-2") == "4"
    page.get_by_role("button", name="Save deal 1").click()
    page.wait_for_url(game_url(site, game))
    assert page.get_by_text("Deal 1 saved.").is_visible()
    assert Deal.objects.get(game=game).record == {"widow": None, "tricks": [7, 2, 4]}
    # Back: the preview's address now opens the game (no "resubmit the form?" page, and
    # not the saved entry again), with the next deal to enter.
    back = page.go_back()
    assert back is not None and back.url == game_url(site, game)  # (the #preview-1 stays)
    expect(page.get_by_role("button", name="Save deal 2")).to_be_visible()
    assert Deal.objects.filter(game=game).count() == 1


def test_counting_third_hand_cards_without_javascript(
    site: LiveServer, phone: Phone, club: tuple[Club, User, list[Player]]
) -> None:
    """Each tap on a card posts the form: the page comes back at the cards (not at its top),
    the card given to the next player, and a reload keeps what was tapped."""
    game = start(club, "third_hand", 2)
    page = phone(club[1], javascript=False)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(game_url(site, game))
    page.get_by_text("Tap the captured cards").click()
    ace = page.get_by_role("button", name=re.compile(r"^ace of spades: "))
    ace.click()
    page.wait_for_url(re.compile(r"/preview/#d1-sec-captured$"))
    expect(ace).to_have_attribute("aria-label", "ace of spades: Ann")
    expect(ace).to_be_in_viewport()
    ace.click()
    expect(ace).to_have_attribute("aria-label", "ace of spades: Bob")
    page.reload()
    expect(ace).to_have_attribute("aria-label", "ace of spades: Bob")
    assert not Deal.objects.filter(game=game).exists()


def test_quick_taps_preview_the_last_choice_with_no_console_error(
    site: LiveServer,
    phone: Phone,
    club: tuple[Club, User, list[Player]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pills tapped faster than the server answers their previews: each tap comes while
    the last one's preview is on its way (the server is slowed down to make sure of it).
    The preview shows the last choice, and nothing is said in the console (htmx logs an
    aborted request as an error: previews are queued rather than aborted)."""
    game = start(club, "widow_whist", 3)
    answer = game_views.preview_for

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(1)
        return answer(*args, **kwargs)

    monkeypatch.setattr(game_views, "preview_for", slow)
    page = phone(club[1])
    errors = console_problems(page)
    page.goto(game_url(site, game))
    for group, label in (
        ("widow", "Nobody"),
        ("tricks-0", "6"),
        ("tricks-1", "6"),
        ("tricks-0", "2"),
        ("tricks-1", "3"),
        ("tricks-0", "5"),
        ("tricks-1", "4"),
    ):
        pill(page, 1, group, label).click()
    assert checked(page, 1, "tricks-2") == "4"
    scored = selectors.sheet_of(game).preview({"widow": None, "tricks": [5, 4, 4]})
    scores = page.locator("#preview-1 tbody tr td:first-of-type")
    expect(scores).to_have_text([signed(score) for score in scored.scores], timeout=15_000)
    page.wait_for_load_state("networkidle")
    expect(scores).to_have_text([signed(score) for score in scored.scores])
    assert errors == []


def test_a_correction_fills_the_last_count_when_a_count_is_tapped_as_it_was(
    site: LiveServer, phone: Phone, club: tuple[Club, User, list[Player]]
) -> None:
    """Correcting tricks: Ann's count changes, Bob's is tapped again as it was (no change
    to the form): Cy's is the one left, filled in from the 13 tricks."""
    game = start(club, "widow_whist", 3)
    services.deal_record(
        actor=club[1], game=game, number=1, record={"widow": None, "tricks": [5, 4, 4]}
    )
    page = open_game(phone, site, club[1], game, "d/1/")
    pill(page, 1, "tricks-0", "3").click()
    pill(page, 1, "tricks-1", "4").click()
    assert checked(page, 1, "tricks-2") == "6"
    page.get_by_label("Why is it corrected?").fill("Ann had 3")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_url(game_url(site, game))
    assert Deal.objects.get(game=game, number=1).record["tricks"] == [3, 4, 6]
