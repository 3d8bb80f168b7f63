"""A director's evening at phone size: the settings changed before the start, round 1
seated, a swap naming one player twice refused, the round published and taken back and
published again, a message read at a table, and a timed round's clock counting down on a
table's page."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.db.models import F
from django.utils import timezone
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import Game
from scorekeeper.selectors import active_table_link
from tests.browser.test_director_flows import club_with_roster, cup
from tests.tournaments.helpers import EVEN, WIN, play, tables
from tournaments import services
from tournaments.models import Round, RoundStatus, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _tasks_in_process(tasks_in_process: None) -> None:
    """Seating runs in-process once the request commits."""


def test_a_directors_evening(
    site: LiveServer, phone: Callable[..., Any], new_page: Callable[..., Any]
) -> None:
    club, director, players = club_with_roster(6)
    t = cup(club, director)
    services.register(actor=director, tournament=t, players=list(players.values()), check_in=True)
    page = phone(director)
    page.goto(f"{site.url}/tournaments/{t.pk}/")

    # The settings: a timed round of 30 minutes instead of one deal.
    page.get_by_role("link", name="Edit settings").click()
    page.get_by_label("Name").fill("Friday night cup")
    page.get_by_label("A round is", exact=True).select_option("time")
    page.get_by_label("Minutes in a round").fill("30")
    page.get_by_role("button", name="Save the settings").click()
    page.get_by_text("Friday night cup's settings are saved.").wait_for()
    t.refresh_from_db()
    assert (t.name, t.round_kind, t.round_minutes) == ("Friday night cup", "time", 30)

    # Round 1; a swap that names Ann twice is refused before anything changes.
    page.get_by_role("button", name="Seat round 1").click()
    page.get_by_role("button", name="Publish round 1").wait_for()
    before = [p.pk for table in tables(Round.objects.get(tournament=t)) for p in table.seats.all()]
    page.get_by_text("Swap two players…").click()
    ann = str(players["Ann"].pk)
    page.get_by_label("Swap", exact=True).select_option(value=ann)
    page.get_by_label("with").select_option(value=ann)
    page.get_by_role("button", name="Swap them").click()
    expect(page.locator("#swap-second_error")).to_have_text(
        "Ann is chosen twice; choose two different players to swap."
    )
    expect(page.get_by_label("with")).to_have_value(ann)
    after = [p.pk for table in tables(Round.objects.get(tournament=t)) for p in table.seats.all()]
    assert after == before

    # Published by mistake, taken back, published again.
    page.get_by_role("button", name="Publish round 1").click()
    page.get_by_text("Take back publishing round 1…").click()
    # The round's part of the dashboard follows the tables by itself: a change there (here a
    # game's revision) swaps it in, and the confirm step opened stays open.
    page.evaluate("document.getElementById('round-status').dataset.before = 'swap'")
    Game.objects.filter(pk=tables(Round.objects.get(tournament=t))[0].game_id).update(
        revision=F("revision") + 1
    )
    expect(page.locator("#round-status[data-before]")).to_have_count(0)  # swapped
    expect(page.get_by_role("button", name="Take back round 1")).to_be_visible()
    page.get_by_role("button", name="Take back round 1").click()
    page.get_by_text("Round 1 is taken back").wait_for()
    round = Round.objects.get(tournament=t)
    assert round.status == RoundStatus.SEATED and all(x.game_id is None for x in tables(round))
    page.get_by_role("button", name="Publish round 1").click()
    page.get_by_label("Message to every table").fill("Last round starts at 21:30")
    page.get_by_role("button", name="Send to the tables").click()
    page.get_by_text("The message is shown at every table.").wait_for()

    # At table 1, through its link: the message, and the clock counting down.
    round.refresh_from_db()
    Round.objects.filter(pk=round.pk).update(time_called_at=timezone.now() + timedelta(minutes=2))
    table = tables(round)[0]
    assert table.game is not None
    link = active_table_link(table.game)
    assert link is not None
    guest = new_page()  # a second phone, at the table
    guest.goto(f"{site.url}/t/{link.token}/")
    guest.get_by_role("button", name="Enter deals").click()
    guest.get_by_text("Last round starts at 21:30").wait_for()
    clock = guest.locator("[data-clock-left]")
    # The server's words ("1 minute to go") until the page's clock takes over (m:ss).
    guest.wait_for_function(
        "() => /^[12]:\\d\\d to go$/.test(document.querySelector('[data-clock-left]').textContent)"
    )
    first = clock.inner_text()
    assert re.fullmatch(r"[12]:\d\d to go", first), first
    guest.wait_for_function(
        "t => document.querySelector('[data-clock-left]').textContent !== t", arg=first
    )
    # The director sees the same clock, and no Edit or Delete once the round is played.
    page.goto(f"{site.url}/tournaments/{t.pk}/")
    assert page.locator("[data-clock-end]").count() == 1
    assert page.get_by_role("link", name="Edit settings").count() == 0
    # The message is taken down (no longer true): the table's phone follows, no reload.
    take_down = page.get_by_role("button", name="Take down")
    # Its name says which message to screen readers; the button shows "Take down" alone.
    said = take_down.locator(".sr-only").bounding_box()
    assert said is not None and said["width"] <= 1 and said["height"] <= 1, said
    take_down.click()
    page.get_by_text("The message is taken down").wait_for()
    guest.get_by_text("Last round starts at 21:30").wait_for(state="detached", timeout=10_000)
    # The projector's clock counts down through its asking every 5 s (answered "nothing
    # moved"): it is never put back to an older copy of the page.
    page.goto(f"{site.url}/tournaments/{t.pk}/seating/?projector=1")
    seconds_left = """() => {
        const m = /^(\\d+):(\\d\\d) to go$/.exec(
            document.querySelector('[data-clock-left]').textContent);
        return m ? 60 * Number(m[1]) + Number(m[2]) : null;
    }"""
    page.wait_for_function(seconds_left)
    start = page.evaluate(seconds_left)
    readings = []
    for _ in range(12):
        page.wait_for_timeout(1000)
        readings.append(page.evaluate(seconds_left))
    assert None not in readings, readings
    assert all(b <= a for a, b in zip([start, *readings][:-1], readings, strict=True)), readings
    assert 9 <= start - readings[-1] <= 14, (start, readings)
    assert Tournament.objects.get(pk=t.pk).rounds.get().status == RoundStatus.PLAYING

    # Time is called while the table plays its second deal: the phone's clock says so (and
    # when the round closes), the deal in progress can still be saved, and once another
    # phone saved it this one follows and offers no deal after it.
    # (Its game open-ended, as a timed round's games are when the house rules say so.)
    Game.objects.filter(pk=table.game_id).update(options={**table.game.options, "finish": None})
    play(table, [WIN[0]], by="Ann")
    soon = timezone.now() + timedelta(seconds=4)
    Round.objects.filter(pk=round.pk).update(time_called_at=soon)
    guest.reload()
    guest.get_by_role("button", name="Save deal 2").wait_for()
    guest.get_by_text(
        re.compile(
            r"Time is called: finish the deal in progress, and start no new one\. "
            r"The round closes at \d\d:\d\d\."
        )
    ).wait_for()
    play(table, [EVEN], by="Ann")
    guest.get_by_text("No more deals at this table: time was called for round 1").wait_for()
    assert guest.get_by_role("button", name=re.compile("Save deal")).count() == 0
