"""The rules assistant at phone size: from the game page, tap a trick's cards in order and
read who won it and why; the same with JavaScript off; Back takes a card back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from pytest_django.live_server_helper import LiveServer

from scorekeeper import services
from tests.browser.test_entry_and_reading import World, club, fits, start  # noqa: F401
from tests.browser.test_game_flows import game_url

pytestmark = pytest.mark.django_db(transaction=True)


def tap(page: Any, label: str) -> None:
    page.get_by_role("button", name=label, exact=True).click()


@pytest.mark.parametrize("javascript", [True, False])
def test_judging_an_italian_whist_joker_trick_from_the_game_page(
    club: World,  # noqa: F811
    site: LiveServer,
    phone: Callable[..., Any],
    javascript: bool,
) -> None:
    _, scorer, _ = club
    game = start(club, "italian_whist", 3)
    # Deal 1 recorded: deal 2 is no trumps too; deal 4 would be spades.
    services.deal_record(
        actor=scorer, game=game, number=1, record={"first": [3, 3, 3], "second": [3, 3, 3]}
    )
    page = phone(scorer, javascript=javascript)
    page.goto(game_url(site, game))
    page.get_by_role("link", name="Who won this trick?").click()
    page.get_by_role("heading", name="Who won this trick?").wait_for()
    # Deal 2: Bob dealt, so Cy (his left) leads the first hand.
    assert page.get_by_label("Led by").input_value() == "2"
    tap(page, "queen of hearts")
    page.get_by_text("1 of 3 cards played").wait_for()
    tap(page, "ace of spades")  # a mistake...
    page.get_by_role("button", name="Take back the last card").click()
    page.get_by_text("1 of 3 cards played").wait_for()
    tap(page, "red joker")
    tap(page, "king of hearts")
    verdict = page.locator(".verdict")
    verdict.get_by_text("It depends on the joker’s player").wait_for()
    text = verdict.inner_text()
    # Cy led the Q♥, Ann followed with the red joker, Bob with the K♥: as the ace the
    # joker wins for Ann, as a heart from 2 to J Bob wins.
    assert "with the red joker as the A♥, Ann wins" in text
    assert "Ann would normally choose" in text
    assert page.locator(".trick-played").inner_text().split() == [
        "Cy", "Q♥", "Ann", "🃏R", "Bob", "K♥",
    ]  # fmt: skip
    fits(page, 360)


def test_prediction_whist_trumps_chosen_then_the_winner(
    club: World,  # noqa: F811
    site: LiveServer,
    phone: Callable[..., Any],
) -> None:
    _, scorer, _ = club
    game = start(club, "prediction_whist", 3)
    page = phone(scorer)
    page.goto(f"{site.url}/g/{game.pk}/trick/")
    page.get_by_label("Trumps (the turned card)").select_option("H")
    page.wait_for_url("**trump=H**")
    for card in ("queen of spades", "nine of hearts", "king of spades"):
        tap(page, card)
    page.locator(".verdict-head").get_by_text("Cy wins the trick").wait_for()
    # The source's example: Q♠ 9♥ K♠ with hearts trumps, the 9♥ wins (Bob led: Cy's).
    assert "the only trump" in page.locator(".verdict").inner_text()
    # The browser's Back button takes the last tap back.
    page.go_back()
    page.get_by_text("2 of 3 cards played").wait_for()
