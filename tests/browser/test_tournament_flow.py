"""A director runs a round of a small tournament in a phone-sized Chromium: six players of
widow whist, rounds of three deals. Seat the round, publish it, and watch the dashboard
follow by itself (it polls its version) when a deal is recorded at one table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import Role
from tests.factories import ClubFactory, PlayerFactory, member
from tests.tournaments.helpers import WIN, play, tables, widow_whist_cup
from tournaments.models import Round, RoundStatus

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("tasks_in_process")]


def test_director_seats_publishes_and_watches_the_tables(
    site: LiveServer, phone: Callable[..., Any]
) -> None:
    club = ClubFactory(name="Kings Arms", slug="kings")
    director = member(club, Role.DIRECTOR, username="dora")
    players = [PlayerFactory(club=club, name=n) for n in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")]
    t = widow_whist_cup(director, club, "Friday cup", players)

    page = phone(director)
    page.goto(f"{site.url}/tournaments/{t.pk}/")
    expect(page.get_by_text("6 players checked in for round 1")).to_be_visible()
    page.get_by_role("button", name="Seat round 1").click()
    page.get_by_role("button", name="Publish round 1").click()
    expect(page.get_by_text("Round 1 is published")).to_be_visible()
    round = Round.objects.get(tournament=t, number=1)
    assert round.status == RoundStatus.PLAYING
    first = page.locator("#table-1 .state")
    expect(first).to_have_text("Not started")

    play(tables(round)[0], [WIN[0]])  # a deal recorded at table 1, elsewhere
    expect(first).to_have_text("Deal 2")  # the dashboard polls: no reload
    expect(page.locator("#table-2 .state")).to_have_text("Not started")
