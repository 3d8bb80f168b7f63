"""A confirmed table's result stands, as two phones at the table and the director see it:
a guest who opened a correction before the result was confirmed cannot change it after,
the page says why, and only the director reopens the table (with a reason) so that it
can be corrected and confirmed again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper import selectors as core_selectors
from scorekeeper.models import Deal, Role
from tests.factories import ClubFactory, PlayerFactory, member
from tests.tournaments.helpers import EVEN, WIN, play, tables, widow_whist_cup
from tournaments import services
from tournaments.models import Round, Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_in_process")]


def _guest(new_page: Callable[..., Any], url: str, token: str, name: str) -> Any:
    page = new_page()
    page.goto(f"{url}/t/{token}/")
    page.get_by_label("Your name (optional)").fill(name)
    page.get_by_role("button", name="Enter deals").click()
    expect(page.locator("#game")).to_be_visible()
    return page


def test_a_confirmed_result_cannot_be_changed_until_the_director_reopens_it(
    site: LiveServer, phone: Callable[..., Any], new_page: Callable[..., Any]
) -> None:
    club = ClubFactory(name="Kings Arms", slug="kings")
    director = member(club, Role.DIRECTOR, username="dora")
    players = [PlayerFactory(club=club, name=n) for n in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")]
    t = widow_whist_cup(director, club, "Friday cup", players)
    round, _ = services.round_request(actor=director, tournament=t)
    round = Round.objects.get(pk=round.pk)
    services.round_publish(actor=director, round=round, notify=False)
    table = tables(round)[0]
    game = table.game
    assert game is not None
    link = core_selectors.active_table_link(game)
    assert link is not None
    play(table, [WIN[0], EVEN, EVEN], by="Ann")

    first = _guest(new_page, site.url, link.token, "Ann")
    expect(first.get_by_text("Undo deal 3")).to_have_count(0)  # a finished game: no undo
    first.goto(f"{site.url}/g/{game.pk}/d/3/")  # Ann opens a correction of deal 3 ...
    expect(first.get_by_role("button", name="Save the correction")).to_be_visible()

    second = _guest(new_page, site.url, link.token, "Bob")
    second.get_by_role("button", name="Confirm result").click()
    expect(second.get_by_text("Table 1's result is confirmed")).to_be_visible()
    expect(second.get_by_text("result confirmed by Bob")).to_be_visible()

    # ... and saves it after Bob confirmed: refused, nothing written, the page says why.
    first.get_by_label("Why is it corrected?").fill("I miscounted")
    first.get_by_role("button", name="Save the correction").click()
    expect(first.get_by_role("alert")).to_contain_text("Not corrected: the game is locked")
    expect(first.get_by_role("alert")).to_contain_text("only the tournament director can reopen")
    expect(first.get_by_role("button", name="Save the correction")).to_have_count(0)
    assert Deal.objects.get(game=game, number=3).version == 1
    first.goto(f"{site.url}/g/{game.pk}/")
    expect(first.locator(".locked")).to_contain_text("confirmed by Bob")
    expect(first.locator("details.reopen")).to_have_count(0)  # guests cannot reopen

    # The director reopens it, saying why; the table sees who and why.
    director_page = phone(director)
    director_page.goto(f"{site.url}/g/{game.pk}/")
    director_page.get_by_text("Reopen table 1…").click()
    director_page.get_by_label("Why is it reopened?").fill("Ann miscounted deal 3")
    director_page.get_by_role("button", name="Reopen table 1").click()
    expect(director_page.get_by_text("Table 1 is reopened")).to_be_visible()
    first.goto(f"{site.url}/g/{game.pk}/d/3/")
    expect(first.locator(".locked")).to_have_count(0)
    first.goto(f"{site.url}/g/{game.pk}/")
    expect(first.locator(".reopened")).to_contain_text("Reopened by dora")
    expect(first.locator(".reopened")).to_contain_text("Ann miscounted deal 3")
    director_page.goto(f"{site.url}/tournaments/{t.pk}/")
    expect(director_page.locator("#table-1 .state")).to_contain_text("Reopened by dora")
    assert Table.objects.get(pk=table.pk).confirmed_at is None
