"""Entering and reading, in a phone-sized Chromium: the last count filled in on a
correction and after a rejection; Third Hand's points boxes; the scoresheet's figures of
each deal; the chart; tournament and season standings at 360 px and on a projector."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from pytest_django.live_server_helper import LiveServer

from scorekeeper import services
from scorekeeper.models import Club, Deal, Game, Player, Role
from tests.browser.test_game_flows import checked, game_url, pill
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, member

pytestmark = pytest.mark.django_db(transaction=True)

World = tuple[Club, User, list[Player]]


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


def counts(page: Any, number: int, prefix: str, seats: int = 3) -> list[str | None]:
    return [checked(page, number, f"{prefix}-{seat}") for seat in range(seats)]


def fits(page: Any, width: int) -> None:
    """Nothing scrolls sideways at ``width`` px."""
    page.set_viewport_size({"width": width, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= width


# --- The last count, filled in whenever all but one are changed ----------------------------


def test_correcting_a_widow_whist_deal_fills_in_the_third_players_tricks(
    site: LiveServer, phone: Any, club: World
) -> None:
    game = start(club, "widow_whist", 3)
    record(club, game, {"widow": None, "tricks": [6, 4, 3]})
    page = phone(club[1])
    page.goto(f"{game_url(site, game)}d/1/")
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
    game = start(club, "widow_whist", 3)
    record(club, game, {"widow": None, "tricks": [6, 4, 3]})
    page = phone(club[1])
    page.goto(f"{game_url(site, game)}d/1/")
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


def test_after_a_rejected_save_two_changed_counts_fill_in_the_third(
    site: LiveServer, phone: Any, club: World
) -> None:
    game = start(club, "widow_whist", 3)
    page = phone(club[1])
    page.goto(game_url(site, game))
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
    page = phone(club[1])
    page.goto(f"{game_url(site, game)}d/1/")
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
    page = phone(scorer)
    page.goto(game_url(site, game))
    pill(page, 1, "bids-1", "No bid").click()
    pill(page, 1, "bids-0", "No bid").click()
    page.get_by_label("Evangeline Fitzwilliam’s points").fill("5")
    page.get_by_label("Ann’s points").fill("100")
    page.get_by_role("button", name="Save deal 1").click()
    page.locator("#d1-points-0-error").wait_for()
    assert page.get_by_text("5 points cannot be made of captured cards").count() == 1
    for width in (390, 360):
        fits(page, width)
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
