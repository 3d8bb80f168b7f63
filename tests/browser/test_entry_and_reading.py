"""Entering and reading, in a phone-sized Chromium: the last count filled in on a
correction and after a rejection; Third Hand's points boxes; the scoresheet's figures of
each deal; the chart; tournament and season standings at 360 px and on a projector."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import services
from scorekeeper.models import Club, Deal, Game, Player, Role
from tests.browser.helpers import nobody_bids, open_game
from tests.browser.test_game_flows import checked, game_url, pill
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, member
from tests.tournaments.helpers import widow_whist_cup
from tournaments.models import Standing

pytestmark = pytest.mark.django_db(transaction=True)

World = tuple[Club, User, list[Player]]


@pytest.fixture(autouse=True)
def _close_connections(chromium: Any) -> Iterator[None]:
    """As in test_club_flows: close this thread's connections after each test."""
    yield
    connections.close_all()


@pytest.fixture
def club() -> World:
    club = ClubFactory(name="Kings Arms", slug="kings")
    SeasonFactory(club=club)
    scorer = member(club, Role.SCORER, username="scorer")
    names = ("Ann", "Bob", "Cy", "Dee", "Evangeline Fitzwilliam", "Fay")
    return club, scorer, [PlayerFactory(club=club, name=name) for name in names]


def start(club: World, game_type: str, seats: int, **kw: Any) -> Game:
    the_club, scorer, players = club
    return services.game_start(
        actor=scorer, club=the_club, game_type=game_type, players=players[:seats], **kw
    )


def record(club: World, game: Game, *records: dict[str, Any]) -> None:
    for number, deal in enumerate(records, start=game.deal_count + 1):
        services.deal_record(actor=club[1], game=game, number=number, record=deal)
    game.refresh_from_db()


def one_widow_deal(club: World) -> Game:
    """Widow whist with deal 1 recorded: no widow, tricks 6, 4 and 3."""
    game = start(club, "widow_whist", 3)
    record(club, game, {"widow": None, "tricks": [6, 4, 3]})
    return game


def counts(page: Any, number: int, prefix: str, seats: int = 3) -> list[str | None]:
    return [checked(page, number, f"{prefix}-{seat}") for seat in range(seats)]


def fits(page: Any, width: int) -> None:
    """Nothing scrolls sideways at ``width`` px."""
    page.set_viewport_size({"width": width, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def phone_widths(page: Any) -> Iterator[int]:
    """390 then 360 px, the page checked at each to scroll nothing sideways."""
    for width in (390, 360):
        fits(page, width)
        yield width


# --- The last count, filled in whenever all but one are changed ----------------------------


def test_correcting_a_widow_whist_deal_fills_in_the_third_players_tricks(
    site: LiveServer, phone: Any, club: World
) -> None:
    game = one_widow_deal(club)
    page = open_game(phone, site, club[1], game, "d/1/")
    assert counts(page, 1, "tricks") == ["6", "4", "3"]
    # One count changed: nothing else moves (the player may change a second one).
    pill(page, 1, "tricks-0", "5").click()
    assert counts(page, 1, "tricks") == ["5", "4", "3"]
    # Two changed: the third is what is left of 13, and shows it was filled in.
    pill(page, 1, "tricks-1", "5").click()
    assert counts(page, 1, "tricks") == ["5", "5", "3"]
    pill(page, 1, "tricks-1", "2").click()
    assert counts(page, 1, "tricks") == ["5", "2", "6"]
    assert page.locator("#d1-tricks-2").get_attribute("data-filled") == "1"
    page.get_by_label("Why is it corrected?").fill("Bob had two")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_url(game_url(site, game))
    assert page.get_by_text("Deal 1 corrected.").is_visible()
    assert Deal.objects.get(game=game, number=1).record["tricks"] == [5, 2, 6]


def test_after_a_rejected_correction_two_changed_counts_fill_in_the_third(
    site: LiveServer, phone: Any, club: World
) -> None:
    game = one_widow_deal(club)
    page = open_game(phone, site, club[1], game, "d/1/")
    pill(page, 1, "tricks-0", "8").click()
    page.get_by_label("Why is it corrected?").fill("Ann had more")
    page.get_by_role("button", name="Save the correction").click()
    error = page.locator("#d1-sec-tricks-error")
    error.wait_for()
    assert "Tricks add up to 15" in error.inner_text()
    assert counts(page, 1, "tricks") == ["8", "4", "3"]
    pill(page, 1, "tricks-0", "7").click()
    pill(page, 1, "tricks-1", "2").click()
    assert counts(page, 1, "tricks") == ["7", "2", "4"]
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_url(game_url(site, game))
    assert Deal.objects.get(game=game, number=1).record["tricks"] == [7, 2, 4]
    # Back: the deal as it now stands (the refusal was shown in place: no form sent again).
    page.go_back()
    assert page.url == game_url(site, game) + "d/1/"
    expect(page.get_by_role("heading", name="Deal 1 · Ann dealt")).to_be_visible()
    expect(page.get_by_text("Corrected (version 2)")).to_be_visible()


def test_a_correction_answered_with_an_error_is_sent_again_the_plain_way(
    site: LiveServer, phone: Any, club: World
) -> None:
    """The in-place send (htmx) answered 500: the form is sent as without JavaScript, and
    the browser shows that answer (here the save goes through)."""
    game = one_widow_deal(club)
    page = open_game(phone, site, club[1], game, "d/1/")
    failed: list[str] = []

    def fail_in_place(route: Any) -> None:
        if route.request.method == "POST" and route.request.headers.get("hx-request"):
            failed.append(route.request.url)
            route.fulfill(status=500, body="Server error")
        else:
            route.continue_()

    page.route("**/d/1/", fail_in_place)
    pill(page, 1, "tricks-0", "5").click()
    pill(page, 1, "tricks-1", "5").click()
    page.get_by_label("Why is it corrected?").fill("Bob had five")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_url(game_url(site, game))
    assert failed, "the in-place send was not made"
    assert Deal.objects.get(game=game, number=1).record["tricks"] == [5, 5, 3]


def test_after_a_rejected_save_two_changed_counts_fill_in_the_third(
    site: LiveServer, phone: Any, club: World
) -> None:
    game = start(club, "widow_whist", 3)
    page = open_game(phone, site, club[1], game)
    pill(page, 1, "widow", "Nobody").click()
    pill(page, 1, "tricks-0", "6").click()
    pill(page, 1, "tricks-1", "6").click()
    pill(page, 1, "tricks-2", "6").click()  # the filled-in 1, overridden
    page.get_by_role("button", name="Save deal 1").click()
    page.locator("#d1-sec-tricks-error").wait_for()
    assert counts(page, 1, "tricks") == ["6", "6", "6"]
    pill(page, 1, "tricks-0", "4").click()
    assert counts(page, 1, "tricks") == ["4", "6", "6"]
    pill(page, 1, "tricks-1", "4").click()
    assert counts(page, 1, "tricks") == ["4", "4", "5"]
    page.get_by_role("button", name="Save deal 1").click()
    page.get_by_role("button", name="Save deal 2").wait_for()
    assert Deal.objects.get(game=game).record == {"widow": None, "tricks": [4, 4, 5]}


def test_correcting_an_italian_whist_deal_fills_in_each_hand(
    site: LiveServer, phone: Any, club: World
) -> None:
    game = start(club, "italian_whist", 3)
    record(club, game, {"first": [3, 3, 3], "second": [3, 3, 3]})
    page = open_game(phone, site, club[1], game, "d/1/")
    pill(page, 1, "first-1", "4").click()
    pill(page, 1, "first-2", "1").click()
    pill(page, 1, "second-0", "5").click()
    pill(page, 1, "second-2", "2").click()
    assert counts(page, 1, "first") == ["4", "4", "1"]
    assert counts(page, 1, "second") == ["5", "2", "2"]
    page.get_by_label("Why is it corrected?").fill("miscounted")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_url(game_url(site, game))
    assert Deal.objects.get(game=game).record == {"first": [4, 4, 1], "second": [5, 2, 2]}


# --- Third Hand's points boxes --------------------------------------------------------------


def test_third_hand_points_boxes_line_up_and_a_rejection_is_said_once(
    site: LiveServer, phone: Any, club: World
) -> None:
    the_club, scorer, players = club
    game = services.game_start(
        actor=scorer, club=the_club, game_type="third_hand", players=[players[4], players[0]]
    )
    page = open_game(phone, site, scorer, game)
    nobody_bids(page, 1, players=2)
    page.get_by_label("Evangeline Fitzwilliam’s points").fill("5")
    page.get_by_label("Ann’s points").fill("100")
    page.get_by_role("button", name="Save deal 1").click()
    page.locator("#d1-points-0-error").wait_for()
    assert page.get_by_text("5 points cannot be made of captured cards").count() == 1
    for width in phone_widths(page):
        first = page.locator("#d1-points-0-input").bounding_box()
        second = page.locator("#d1-points-1-input").bounding_box()
        assert first["y"] == second["y"] and first["height"] == second["height"]
        assert abs(first["width"] - second["width"]) < 1
        assert second["x"] + second["width"] <= width
        # The error is below both boxes, not beside one of them.
        error = page.locator("#d1-points-0-error").bounding_box()
        assert error["y"] >= first["y"] + first["height"]
        assert error["width"] > first["width"] + second["width"]
    assert page.locator("#d1-points-0-input").get_attribute("aria-invalid") == "true"


# --- Standings at 360 px and on a projector -------------------------------------------------

#: Cells whose text is cut (wider than the cell), other than the players' names.
CLIPPED = """sel => Array.from(document.querySelectorAll(sel))
    .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1)
    .map(el => el.textContent.trim())"""


def cells_fit(page: Any, table: str, width: int) -> None:
    """Every column shows whole (the last within ``width``); names stay on one line."""
    assert page.evaluate(CLIPPED, f"{table} thead th, {table} td") == []
    right = page.evaluate(
        f"Math.max(...Array.from(document.querySelectorAll('{table} th, {table} td'))"
        ".filter(el => el.offsetParent !== null).map(el => el.getBoundingClientRect().right))"
    )
    assert right <= width
    heights = page.evaluate(
        f"Array.from(document.querySelectorAll('{table} tbody tr'))"
        ".map(tr => tr.getBoundingClientRect().height)"
    )
    assert max(heights) < 1.5 * min(heights)  # no row taller for a wrapped name


LONG = "Bartholomew Featherstonehaugh-Smythe"


def tournament_with_standings(club: World) -> Any:
    the_club, _, players = club
    director = member(the_club, Role.DIRECTOR, username="director")
    players.append(PlayerFactory(club=the_club, name=LONG))
    tournament = widow_whist_cup(director, the_club, "Autumn open", rounds=6)
    points = [
        (Decimal("4.500"), [1, 0.5, 1, 1, 0.5, 0.5]),
        (Decimal("3.750"), [0.75, 0.5, 1, 0.5, 0.5, 0.5]),
        (Decimal("2.333"), [0.333, 0.5, 0.5, 0.5, 0.25, 0.25]),
        (Decimal("1.000"), [0, 0, 0.25, 0.25, 0.25, 0.25]),
        (Decimal("0.583"), [0, 0.333, 0.25, 0, 0, None]),
        (Decimal("0.000"), [0, 0, 0, 0, 0, 0]),
        (Decimal("0.000"), [0, 0, 0, 0, 0, 0]),
    ]
    order = [players[6], *players[:6]]
    for rank, (player, (total, per_round)) in enumerate(zip(order, points, strict=True), 1):
        Standing.objects.create(
            tournament=tournament,
            player=player,
            rank=rank,
            points=total,
            game_score=-1234 if rank == 7 else 1000 - 100 * rank,
            opponents_points=Decimal("1.000"),
            table_wins=12 - rank,
            rounds_played=6,
            byes=0,
            round_points=per_round,
        )
    return tournament, director


def test_tournament_standings_fit_360_px_with_one_points_format(
    site: LiveServer, phone: Any, club: World
) -> None:
    tournament, director = tournament_with_standings(club)
    page = phone(director)
    page.goto(f"{site.url}/tournaments/{tournament.pk}/standings/")
    table = "table.standings-table"
    for width in phone_widths(page):
        cells_fit(page, table, width)
        assert page.locator(f"{table} thead th", has_text="Wins").is_visible()
    points = page.locator(f"{table} tbody td:nth-child(3)").all_inner_texts()
    assert points == ["4½", "3¾", "2⅓", "1", "0.6", "0", "0"]
    assert "0.500" not in page.locator(table).inner_text()
    # The long name is on one line, cut with an ellipsis; the whole name is its title.
    name = page.locator(f"{table} tbody th", has_text="Bartholomew")
    assert name.get_attribute("title") == LONG
    style = name.evaluate(
        "el => [getComputedStyle(el).whiteSpace, getComputedStyle(el).textOverflow]"
    )
    assert style == ["nowrap", "ellipsis"]
    # Each round's points: behind a toggle on a phone; the table then scrolls in its box.
    assert not page.locator(f"{table} td.per-round").first.is_visible()
    page.get_by_text("Points of each round", exact=True).click()
    assert page.locator(f"{table} td.per-round").first.is_visible()
    assert page.locator(f"{table} tbody tr").first.locator("td.per-round").all_inner_texts() == [
        "1",
        "½",
        "1",
        "1",
        "½",
        "½",
    ]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.locator(f"{table} tbody tr").nth(4).locator("td.per-round").last.inner_text() == "–"


def test_the_rounds_toggle_works_without_javascript(
    site: LiveServer, phone: Any, club: World
) -> None:
    tournament, director = tournament_with_standings(club)
    page = phone(director, javascript=False)
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(f"{site.url}/tournaments/{tournament.pk}/standings/")
    cell = page.locator("table.standings-table td.per-round").first
    assert not cell.is_visible()
    page.get_by_text("Points of each round", exact=True).click()
    assert cell.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_tournament_standings_on_a_projector_read_from_5_m(
    site: LiveServer, phone: Any, club: World
) -> None:
    tournament, director = tournament_with_standings(club)
    page = phone(director)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{site.url}/tournaments/{tournament.pk}/standings/")
    page.get_by_role("link", name="Projector (large type)").click()
    page.wait_for_url("**projector=1**")
    table = "table.standings-table"
    sizes = page.evaluate(
        f"""() => [document.querySelector('{table} tbody td'),
                   document.querySelector('{table} tbody th'),
                   document.querySelector('{table} thead th')]
            .map(el => parseFloat(getComputedStyle(el).fontSize))"""
    )
    assert min(sizes) >= 28
    row = page.locator(f"{table} tbody tr").first.bounding_box()
    assert row["height"] >= 48
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    cells_fit(page, table, 1280)


def three_games_each_won_by_another(club: World) -> Any:
    """Bob gets a very long name, and Ann, Bob and Cy each win one of three one-deal widow
    whist games; the club's scorer."""
    _club, scorer, players = club
    players[1].name = LONG
    players[1].save()
    for winner in range(3):
        game = start(club, "widow_whist", 3, options={"finish": {"deals": 1}})
        tricks = [3, 3, 3]
        tricks[winner] = 7
        record(club, game, {"widow": None, "tricks": tricks})
    return scorer


def test_season_standings_fit_360_px(site: LiveServer, phone: Any, club: World) -> None:
    scorer = three_games_each_won_by_another(club)
    page = phone(scorer)
    page.goto(f"{site.url}/c/kings/")
    table = "table.standings"
    for width in phone_widths(page):
        cells_fit(page, table, width)
    link = page.locator(f"{table} tbody th a", has_text="Bartholomew")
    assert link.get_attribute("title") == LONG
    assert link.evaluate("el => getComputedStyle(el).whiteSpace") == "nowrap"
    assert link.evaluate("el => el.scrollWidth > el.clientWidth")  # cut, with an ellipsis


def test_standings_with_ratings_and_a_players_page_fit_360_px(
    site: LiveServer, phone: Any, club: World, tasks_in_process: None
) -> None:
    scorer = three_games_each_won_by_another(club)
    page = phone(scorer)
    page.goto(f"{site.url}/c/kings/?game_type=widow_whist&sort=rating")
    table = "table.standings"
    assert page.locator(f"{table} thead").inner_text().split()[-2:] == ["Rating", "±"]
    for width in phone_widths(page):
        cells_fit(page, table, width)
    # The two averages give way to the rating on a phone (unless sorted by one of them),
    # and the page says where they are.
    assert not page.locator(f"{table} th.per-deal").is_visible()
    assert page.get_by_text("More columns on a wider screen, or in the CSV").is_visible()
    page.get_by_label("Sort by").select_option("per_deal")
    page.wait_for_url("**sort=per_deal**")
    assert page.locator(f"{table} th.per-deal").is_visible()
    assert not page.locator(f"{table} th.place").is_visible()
    assert not page.locator(f"{table} th.total").is_visible()
    cells_fit(page, table, 360)
    page.locator(f"{table} tbody th a").first.click()
    page.get_by_role("heading", name="Ratings").wait_for()
    assert page.locator("figure.chart svg").count() == 1
    for width in (390, 360):
        fits(page, width)


# --- The scoresheet's figures and the chart ---------------------------------------------------


def show_figures(page: Any, figures: Any) -> None:
    """Open "Show each deal’s figures", checking ``figures`` were hidden until then."""
    assert not figures.first.is_visible()
    page.get_by_text("Show each deal’s figures").click()


def six_player_prediction(club: World) -> Game:
    game = start(club, "prediction_whist", 6)
    for number in range(1, 7):
        tricks = [0] * 6
        tricks[number % 6] = 1
        record(club, game, {"bids": [0] * 6, "tricks": tricks})
    return game


def test_the_scoresheet_shows_each_deals_figures_at_360_px(
    site: LiveServer, phone: Any, club: World
) -> None:
    page = open_game(phone, site, club[1], six_player_prediction(club))
    figures = page.locator("table.sheet .fig")
    assert figures.count() == 36
    show_figures(page, figures)
    assert figures.first.is_visible()
    first = page.locator("table.sheet tbody tr").first.locator(".fig").all_inner_texts()
    assert first == ["0/0", "0/1", "0/0", "0/0", "0/0", "0/0"]
    assert "the bid/the tricks taken" in page.locator(".figures-toggle").inner_text()
    for width in phone_widths(page):
        assert page.evaluate(CLIPPED, "table.sheet td") == []
        right = page.evaluate(
            "Math.max(...Array.from(document.querySelectorAll('table.sheet th, table.sheet td'))"
            ".map(el => el.getBoundingClientRect().right))"
        )
        assert right <= width
    summary = page.locator(".figures-toggle summary").bounding_box()
    assert summary["height"] >= 44


def test_the_figures_stay_shown_after_a_deal_is_saved(
    site: LiveServer, phone: Any, club: World
) -> None:
    game = one_widow_deal(club)
    page = open_game(phone, site, club[1], game)
    line = page.locator("table.sheet tr.fig-line")
    show_figures(page, line)
    assert line.first.inner_text() == "Nobody took the widow"
    assert page.locator("table.sheet tbody tr").first.locator(".fig").all_inner_texts() == [
        "6",
        "4",
        "3",
    ]
    pill(page, 2, "widow", "Bob").click()
    pill(page, 2, "tricks-0", "3").click()
    pill(page, 2, "tricks-1", "6").click()
    page.get_by_role("button", name="Save deal 2").click()
    page.get_by_role("button", name="Save deal 3").wait_for()
    assert line.nth(1).is_visible()
    assert line.nth(1).inner_text() == "Bob took the widow"


def test_the_figures_without_javascript_and_third_hands_contract(
    site: LiveServer, phone: Any, club: World
) -> None:
    game = start(club, "third_hand", 2)
    record(club, game, {"bids": [None, "Q"], "points": [40, 80]})
    page = phone(club[1], javascript=False)
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(game_url(site, game))
    line = page.locator("table.sheet tr.fig-line").first
    show_figures(page, line)
    assert line.is_visible()
    assert line.inner_text() == "Bob bid Q, needed 80: made"
    cells = page.locator("table.sheet tbody tr").first.locator(".fig").all_inner_texts()
    assert cells == ["40", "80"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_chart_labels_never_overlap_and_each_line_has_its_own_marker(
    site: LiveServer, phone: Any, club: World
) -> None:
    game = six_player_prediction(club)
    page = phone(club[1])
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(game_url(site, game))
    boxes = """sel => Array.from(document.querySelectorAll(sel)).map(el => {
        const r = el.getBoundingClientRect(); return [r.top, r.bottom, r.right]; })"""

    def apart(found: list[list[float]]) -> bool:
        ordered = sorted(box[:2] for box in found)
        return all(b[0] >= a[1] - 0.5 for a, b in zip(ordered, ordered[1:], strict=False))

    ticks = page.evaluate(boxes, ".chart text.tick[text-anchor=end]")
    assert 2 <= len(ticks) <= 5 and apart(ticks)
    labels = page.evaluate(boxes, ".chart text.end-label")
    assert len(labels) == 6 and apart(labels)
    chart_right = page.locator(".chart > svg").bounding_box()
    assert max(label[2] for label in labels) <= chart_right["x"] + chart_right["width"] + 0.5
    markers = page.locator(".chart g.series").evaluate_all(
        "els => els.map(el => el.getAttribute('data-marker'))"
    )
    assert len(set(markers)) == 6
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
