"""The tournament pages, through the Django test client: a director runs a round from the
dashboard; members read seating and standings; strangers get 404; the public "find your
table"; printable table cards; the polled dashboard part; confirming from the game page.
One file, in the order a tournament day uses the pages."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scorekeeper.errors import InvalidInput
from scorekeeper.models import OutboxJob, Role
from tests.factories import ClubFactory, member
from tests.pages.helpers import error_beside, option_defaults, text_of
from tests.tournaments.helpers import EVEN, WIN, Event, guest, play, seats, tables
from tournaments import selectors, services
from tournaments.models import (
    Registration,
    RegistrationStatus,
    Round,
    RoundStatus,
    SeatingStatus,
    Tournament,
)

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response: Any) -> str:
    return response.content.decode()


def new_tournament(name: str, **fields: str) -> dict[str, str]:
    """What the new widow whist tournament form posts: two rounds of 3 deals at tables of
    3, new opponents, opponents' points, the house rules at their defaults; ``fields``
    change or add to it."""
    return {
        "name": name,
        "rounds": "2",
        "round_kind": "deals",
        "round_deals": "3",
        "seating_method": "new_opponents",
        "points_system": "opponents",
        "table_size": "3",
        **option_defaults("widow_whist"),
        **fields,
    }


def url(name: str, t: Tournament, *args: int) -> str:
    return reverse(name, args=[t.pk, *args])


def running(event: Event, players: int = 6) -> tuple[Tournament, Round]:
    """A tournament with a published first round."""
    t = event.tournament(rounds=2)
    event.enter(t, players)
    round = event.seat(t)
    return t, event.publish(round)


def test_the_director_runs_a_round_through_the_pages(event: Event) -> None:
    director = client_for(event.director)
    new = reverse("tournament-new", args=[event.club.slug, "widow_whist"])
    assert "House rules" in text(director.get(new))
    response = director.post(new, new_tournament("Spring open"))
    t = Tournament.objects.get(name="Spring open")
    assert response.status_code == 302 and response["Location"] == url("tournament", t)
    assert t.round_deals == 3 and t.options["finish"] == {"deals": 3}

    ann, bob, *rest = event.players[:6]
    with event.capture(execute=True):
        director.post(url("tournament-register", t), {"players": [p.pk for p in event.players[:6]]})
        director.post(url("tournament-register-new", t), {"name": "Zed", "check_in": "on"})
        director.post(url("tournament-check-in", t), {"players": [ann.pk, bob.pk]})
        page = director.post(url("tournament-check-in", t), {"everyone": "1"}, follow=True)
    assert "7 checked in for round 1" in text(page)
    zed = Registration.objects.get(tournament=t, player__name="Zed")
    with event.capture(execute=True):
        page = director.post(
            url("tournament-withdraw", t), {"players": [zed.player_id]}, follow=True
        )
    assert "Withdrawn: Zed" in text(page)
    zed.refresh_from_db()
    assert zed.status == RegistrationStatus.WITHDRAWN

    with event.capture(execute=True):  # the seating job runs once the request commits
        director.post(url("tournament-seat", t), {"method": "random"})
    page = director.get(url("tournament", t))
    round = Round.objects.get(tournament=t, number=1)
    assert round.status == RoundStatus.SEATED and round.seating_method == "random"
    assert "Publish round 1" in text(page) and "Swap two players" in text(page)

    first, second = seats(tables(round)[0])[0], seats(tables(round)[1])[0]
    page = director.post(url("tournament-swap", t, 1), {"first": first.pk, "second": first.pk})
    assert page.status_code == 400  # one player twice: refused by the form, nothing moved
    assert "Publish round 1" in text(page) and "twice" in text(page)
    assert '<details class="swap" open>' in text(page)  # the swap form stays open to put right
    assert first in seats(tables(round)[0])
    page = director.post(url("tournament-register", t), {"players": ["0"]})
    assert page.status_code == 400 and "players" in text(page).lower()
    # the refused page's address is the form's: opened again, it leads to the dashboard
    again = director.get(url("tournament-swap", t, 1))
    assert again.status_code == 302 and again["Location"] == url("tournament", t)
    page = director.post(
        url("tournament-register-new", t), {"name": "  ", "email": "dee@example.org"}
    )
    assert page.status_code == 400
    assert "Name: This field is required." in text(page)  # summed up above the forms
    # and beside the field, the form as it was filled in (nothing to type again)
    assert '<p class="field-error" id="new-name_error">This field is required.</p>' in text(page)
    assert 'value="dee@example.org"' in text(page)
    assert '<input type="checkbox" name="check_in"> Check them in' in text(page)
    page = director.post(
        url("tournament-swap", t, 1), {"first": first.pk, "second": second.pk}, follow=True
    )
    assert f"{first.name} and {second.name} have swapped places" in text(page)
    assert second in seats(tables(round)[0]) and first in seats(tables(round)[1])

    with event.capture(execute=True):
        page = director.post(url("tournament-publish", t, 1), follow=True)
    round.refresh_from_db()
    assert round.status == RoundStatus.PLAYING
    assert all(table.game_id for table in tables(round))
    assert "Close round 1" in text(page) and 'data-state="not_started"' in text(page)

    page = director.post(url("tournament-close", t, 1), follow=True)
    assert page.status_code == 409 and not page.redirect_chain  # refused: shown at once
    assert "Round 1 is not closed: tables 1 and 2 have not confirmed" in text(page)
    assert "Close round 1 now (finishes unconfirmed tables at their totals)" in text(page)
    with event.capture(execute=True):
        page = director.post(url("tournament-close", t, 1), {"force": "1"}, follow=True)
    round.refresh_from_db()
    assert round.status == RoundStatus.CLOSED
    assert "Round 1 is closed." in text(page) and "Seat round 2" in text(page)
    standings = text(director.get(url("tournament-standings", t)))
    assert ann.name in standings and "No round has been closed" not in standings


def test_a_refused_dashboard_form_comes_back_as_sent_with_the_reason_beside_it(
    event: Event,
) -> None:
    """Refused by a service (a name the roster has, a withdrawn player among those chosen)
    or by the form (nobody chosen): the dashboard again, 400, the reason beside the field
    or list, everything typed or chosen still there, and never kept by the browser (Back
    after the correction shows the dashboard as it is, not this refusal)."""
    t = event.tournament()
    event.enter(t, 3, check_in=False)
    ann, bob, cy = event.players[:3]
    director = client_for(event.director)

    page = director.post(
        url("tournament-register-new", t),
        {"name": "Ann", "email": "ann.two@example.org", "check_in": "on"},
    )
    html = text(page)
    assert page.status_code == 400
    assert "no-store" in page["Cache-Control"]
    assert error_beside(html, "new-name") == 'The roster already has a player called "Ann"'
    assert 'value="Ann"' in html and 'value="ann.two@example.org"' in html
    assert '<input type="checkbox" name="check_in" checked> Check them in' in html
    assert '<details class="register-new" open>' in html

    with event.capture(execute=True):
        services.withdraw(actor=event.director, tournament=t, players=[cy])
    page = director.post(url("tournament-check-in", t), {"players": [ann.pk, cy.pk]})
    html = text(page)
    assert page.status_code == 400
    assert error_beside(html, "registrations-players") == "Cy has withdrawn; register them again"
    for player, chosen in ((ann, True), (bob, False), (cy, True)):
        box = re.search(rf'<input type="checkbox" name="players" value="{player.pk}" [^>]*>', html)
        assert box is not None and (" checked" in box.group(0)) is chosen, player.name

    page = director.post(url("tournament-register", t), {"check_in": "", "q": "d"})
    html = text(page)
    assert page.status_code == 400
    assert error_beside(html, "roster-players") == "Choose at least one player."
    # "check them in" was left unticked, and stays so; the roster stays filtered as it was
    # (so that "everyone listed" still means the names shown), in the page and its address
    assert '<input type="checkbox" name="check_in"> Check them in for round 1' in html
    assert 'id="roster-q" name="roster" type="search" value="d"' in html
    assert 'data-name="dee"' in html and 'data-name="eve"' not in html
    assert f'data-refused-at="/tournaments/{t.pk}/?roster=d#register"' in html

    # Seating refused (nobody checked in): the method chosen stays chosen.
    page = director.post(url("tournament-seat", t), {"method": "random"})
    assert page.status_code >= 400 and "check players in first" in text(page)
    assert '<option value="random" selected>' in text(page)
    assert '<option value="new_opponents" selected>' not in text(page)

    # What a refused form was sent with shows in that form only.
    page = director.post(url("tournament-announce", t), {"text": " ", "name": "Zed"})
    assert page.status_code in (400, 409)
    assert 'value="Zed"' not in text(page)


def test_create_shows_the_services_refusals(event: Event) -> None:
    event.tournament(name="Taken")
    response = client_for(event.director).post(
        reverse("tournament-new", args=[event.club.slug, "widow_whist"]), new_tournament("Taken")
    )
    assert response.status_code == 400
    assert "already has a tournament called" in text(response)


def test_only_directors_run_tournaments(event: Event) -> None:
    t = event.tournament()
    player = client_for(member(event.club, Role.MEMBER))
    assert (
        player.get(reverse("tournament-new", args=[event.club.slug, "widow_whist"])).status_code
        == 403
    )
    assert player.post(url("tournament-seat", t)).status_code == 403
    page = text(player.get(url("tournament", t)))
    assert "Seat round" not in page and "Register players" not in page


def test_members_see_seating_and_standings_strangers_get_404(event: Event) -> None:
    t, round = running(event)
    reader = client_for(member(event.club, Role.MEMBER))
    seating = reader.get(url("tournament-seating", t))
    assert seating.status_code == 200
    assert all(p.name in text(seating) for p in event.players[:6])
    assert "Table 2" in text(seating)
    projector = text(reader.get(url("tournament-seating", t) + "?projector=1"))
    assert "tournament-screen projector" in projector
    assert reader.get(url("tournament-standings", t)).status_code == 200
    assert reader.get(url("tournament", t)).status_code == 200

    stranger = client_for(member(ClubFactory(), Role.ADMIN))
    for name in ("tournament", "tournament-seating", "tournament-standings", "tournament-find"):
        assert stranger.get(url(name, t)).status_code == 404
    assert stranger.get(url("tournament-cards", t, 1)).status_code == 404
    assert stranger.post(url("tournament-seat", t)).status_code == 404
    assert Client().get(url("tournament-find", t)).status_code == 404
    signed_out = Client().get(url("tournament-seating", t))  # results private: sign in
    assert signed_out.status_code == 302 and "/accounts/login/" in signed_out["Location"]
    assert Client().get(url("tournament", t)).status_code == 302  # to sign in


def test_find_your_table_is_public_for_public_clubs(event: Event) -> None:
    t, round = running(event)
    event.club.results_public = True
    event.club.save()
    anyone = Client()
    page = anyone.get(url("tournament-find", t), {"q": "ann"})
    assert page.status_code == 200
    table = next(tb for tb in tables(round) if event.players[0] in seats(tb))
    assert f"table {table.number}" in text(page)
    # Bob is named only if he sits at Ann's table (as a word: not inside the page's tokens)
    assert not re.search(r"\bBob\b", text(page)) or event.players[1] in seats(table)
    # Whoever sits last at the table, the others read as a list: "with A, B and C ·".
    for player in seats(table):
        found = text(anyone.get(url("tournament-find", t), {"q": player.name}))
        others = [p.name for p in seats(table) if p != player]
        listed = ", ".join(others[:-1]) + " and " + others[-1]
        assert f"with {listed}" in found, found
        assert ", ·" not in found and ", <" not in found
    partial = anyone.get(
        url("tournament-find", t),
        {"q": "zz"},
        headers={"HX-Request": "true", "HX-Target": "find-results"},
    )
    assert text(partial).lstrip().startswith('<div id="find-results"')
    assert "Nobody called" in text(partial)
    assert "/t/" not in text(page)  # no table links for the public
    assert anyone.get(url("tournament-standings", t)).status_code == 200
    # the seating on the projector too, without the members' messages and links
    services.tournament_announce(actor=event.director, tournament=t, text="Members only note")
    seating = text(anyone.get(url("tournament-seating", t) + "?projector=1"))
    assert "tournament-screen projector" in seating and "Table 2" in seating
    assert all(p.name in seating for p in event.players[:6])
    assert "Members only note" not in seating and url("tournament", t) + '"' not in seating
    assert "/t/" not in seating and "/g/" not in seating


def test_table_cards_have_one_qr_code_per_table(event: Event) -> None:
    t, round = running(event)
    page = text(client_for(event.director).get(url("tournament-cards", t, 1)))
    assert page.count("<svg") == round.tables.count() == 2
    assert page.count('class="table-card"') == 2
    assert "/t/" in page
    reader = client_for(member(event.club, Role.MEMBER))
    assert reader.get(url("tournament-cards", t, 1)).status_code == 403


def test_the_dashboard_part_shows_each_tables_state(event: Event) -> None:
    t, round = running(event)
    first, second = tables(round)
    play(first, [WIN[0]])
    director = client_for(event.director)
    phase = f"1:{RoundStatus.PLAYING}"
    part = text(director.get(url("tournament-status", t), {"phase": phase}))
    assert 'data-live="/tournaments/' in part
    assert "Deal 2" in part and "Not started" in part
    play(first, [WIN[1], EVEN])
    part = text(director.get(url("tournament-status", t), {"phase": phase}))
    assert "Finished: waiting for confirmation" in part
    # The round moved on from what the page shows: the page reloads.
    stale = director.get(url("tournament-status", t), {"phase": "1:seating"})
    assert stale.headers["HX-Refresh"] == "true"


def test_take_back_publishing_goes_from_the_polled_part_once_a_table_starts(event: Event) -> None:
    """A dashboard left open since publishing: its polled part offers "Take back publishing"
    until a table records its first deal, then no more (members never see it)."""
    t, round = running(event)
    first, _second = tables(round)
    director = client_for(event.director)
    phase = {"phase": f"1:{RoundStatus.PLAYING}"}
    part = text(director.get(url("tournament-status", t), phase))
    assert "Take back publishing round 1" in part
    reader = client_for(member(event.club, Role.MEMBER))
    assert "Take back publishing" not in text(reader.get(url("tournament-status", t), phase))
    play(first, [WIN[0]])
    part = text(director.get(url("tournament-status", t), phase))
    assert "Deal 2" in part and "Take back publishing" not in part


def test_the_dashboard_part_answers_304_until_a_table_moves(event: Event) -> None:
    t, round = running(event)
    first, second = tables(round)
    director = client_for(event.director)
    status_url = url("tournament-status", t)
    phase = {"phase": f"1:{RoundStatus.PLAYING}"}
    full = director.get(status_url, phase)
    etag = full["ETag"]
    assert full.status_code == 200 and etag.startswith('W/"t')
    assert "no-cache" in full["Cache-Control"] and "private" in full["Cache-Control"]
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in text(full)
    with CaptureQueriesContext(connection) as queries:
        same = director.get(status_url, phase, HTTP_IF_NONE_MATCH=etag)
    assert same.status_code == 304 and same.content == b""
    # The session, the user, the tournament, the membership, one aggregate: no rendering.
    assert len(queries.captured_queries) <= 5
    for change in (
        lambda: play(first, [WIN[0]]),  # a deal at table 1
        lambda: play(second, [WIN[0], WIN[1], EVEN]),  # table 2 plays its three deals
        lambda: services.table_confirm(actor=guest(second, "Eve"), table=second),
    ):
        change()
        moved = director.get(status_url, phase, HTTP_IF_NONE_MATCH=etag)
        assert moved.status_code == 200 and moved["ETag"] != etag
        etag = moved["ETag"]
        assert director.get(status_url, phase, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert "Confirmed" in text(moved)
    # Strangers: 404, with or without an ETag.
    stranger = client_for(member(ClubFactory(slug="elsewhere"), Role.ADMIN))
    assert stranger.get(status_url, phase, HTTP_IF_NONE_MATCH=etag).status_code == 404
    # The dashboard itself is never served from the browser's cache.
    assert "no-store" in director.get(url("tournament", t))["Cache-Control"]


def test_seating_progress_is_polled(event: Event) -> None:
    t = event.tournament()
    event.enter(t, 6)
    with event.capture(execute=False):  # the seating job is not run: still queued
        client_for(event.director).post(url("tournament-seat", t))
    page = text(client_for(event.director).get(url("tournament", t)))
    assert "Seating round 1" in page and 'data-live="/tournaments/' in page
    assert "<progress" in page


def test_a_seating_no_worker_starts_is_shown_stuck_with_a_try_again(event: Event) -> None:
    t = event.tournament()
    event.enter(t, 6)
    director = client_for(event.director)
    member_client = client_for(member(event.club, Role.MEMBER, username="watcher"))
    with event.capture(execute=False):  # the job is lost on its way: still queued
        director.post(url("tournament-seat", t))
    round = Round.objects.get(tournament=t, number=1)
    status_url = url("tournament-status", t) + "?phase=1:seating"
    first = director.get(status_url)
    assert "has not started" not in text(first)
    assert director.get(status_url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    Round.objects.filter(pk=round.pk).update(created_at=timezone.now() - timedelta(minutes=2))
    stuck = director.get(status_url, HTTP_IF_NONE_MATCH=first["ETag"])  # the poll sees it
    assert stuck.status_code == 200 and stuck["ETag"] != first["ETag"]
    assert "has not started since" in text(stuck)
    assert "Try seating round 1 again now" in text(stuck)
    assert "has not started since" in text(director.get(url("tournament", t)))
    seen_by_member = text(member_client.get(url("tournament", t)))
    assert "has not started since" in seen_by_member and "again now" not in seen_by_member

    # Try again: seated in the web process, now, whatever the broker.
    with event.capture(execute=True):
        director.post(url("tournament-seat", t))
    round.refresh_from_db()
    assert round.status == RoundStatus.SEATED and round.seating_status == SeatingStatus.DONE
    job = OutboxJob.objects.filter(task="tournaments.seat_round").latest("pk")
    assert job.sent_at is not None
    assert "has not started" not in text(director.get(url("tournament", t)))


def enter_table(client: Client, table: Any, name: str) -> None:
    from scorekeeper.selectors import active_table_link

    link = active_table_link(table.game)
    client.post(reverse("table-enter", args=[link.token]), {"name": name})


def test_confirm_on_the_game_page_refuses_whoever_recorded_the_last_deal(event: Event) -> None:
    t, round = running(event)
    table = tables(round)[0]
    scorer, checker = Client(), Client()
    enter_table(scorer, table, "Scorer")
    game_url = reverse("game", args=[table.game_id])
    assert "Confirm result" not in text(scorer.get(game_url))
    assert f"table {table.number}" in text(scorer.get(game_url))
    play(table, [WIN[0], WIN[1], EVEN], by="Scorer")
    # whoever recorded the last deal is told someone else confirms, with no button
    page = text(scorer.get(game_url))
    assert "You recorded the last deal or made the latest correction, so someone else" in page
    assert "Confirm result" not in page
    confirm = reverse("tournament-table-confirm", args=[table.pk])
    page = scorer.post(confirm)  # a stale page's button: refused at once, saying why
    assert page.status_code == 403
    assert (
        "You recorded the last deal or made the latest correction: someone else at the table"
        in (text(page))
    )
    table.refresh_from_db()
    assert table.confirmed_at is None

    enter_table(checker, table, seats(table)[1].name)
    with event.capture(execute=True):
        page = checker.post(confirm, follow=True)
    assert "result is confirmed" in text(page)
    table.refresh_from_db()
    assert table.confirmed_at is not None
    assert Client().post(confirm).status_code == 404  # nobody from the table


def last_deal_from_a_phone(event: Event, name: str) -> tuple[Any, Client, Client]:
    """A table of a running round whose last deal (3) was recorded from a phone that came
    in through the table link as ``name`` (the others by "Cy"); that phone, and another."""
    _, round = running(event)
    table = tables(round)[0]
    phone, other_phone = Client(), Client()
    enter_table(phone, table, name)
    play(table, [WIN[0], WIN[1]], by="Cy")
    saved = phone.post(
        reverse("deal-save", args=[table.game_id]),
        {
            "number": "3",
            "idempotency_key": "last",
            "widow": "none",
            "tricks-0": "5",
            "tricks-1": "4",
        },
    )
    assert saved.status_code in (200, 302, 303), text(saved)
    table.refresh_from_db()
    assert table.game.deal_count == 3 and selectors.table_state(table) == ("finished", None)
    return table, phone, other_phone


def test_a_phone_that_recorded_the_last_deal_does_not_confirm_under_another_name(
    event: Event,
) -> None:
    """The table link knows its guests by the names they give, and by the phone: entering
    the link again with another name does not make a second person at the table."""
    table, phone, other_phone = last_deal_from_a_phone(event, "Ann")

    enter_table(phone, table, "Bea")  # the same phone, another name
    game_url = reverse("game", args=[table.game_id])
    page = text(phone.get(game_url))
    assert "You recorded the last deal or made the latest correction, so someone else" in page
    assert "Confirm result" not in page
    confirm = reverse("tournament-table-confirm", args=[table.pk])
    refused = phone.post(confirm)
    assert refused.status_code == 403 and "someone else at the table" in text(refused)
    table.refresh_from_db()
    assert table.confirmed_at is None

    enter_table(other_phone, table, "Bea")  # Bea on her own phone
    assert "Confirm result" in text(other_phone.get(game_url))
    with event.capture(execute=True):
        page = other_phone.post(confirm, follow=True)
    assert "result is confirmed" in text(page)
    table.refresh_from_db()
    assert table.confirmed_by_name == "Bea (table link)"


def test_a_phone_that_gave_no_name_is_told_before_confirming_that_it_recorded_last(
    event: Event,
) -> None:
    """A guest who came in without a name and recorded the last deal is told at once that
    someone else confirms (not asked for a name first, then refused); another nameless
    phone at the table is offered the confirmation."""
    table, phone, other_phone = last_deal_from_a_phone(event, "")
    game_url = reverse("game", args=[table.game_id])
    page = text(phone.get(game_url))
    assert "You recorded the last deal or made the latest correction, so someone else" in page
    assert "Confirm result" not in page
    enter_table(other_phone, table, "")
    page = text(other_phone.get(game_url))
    assert "Confirm result" in page and "Your name" in page
    assert "You recorded the last deal" not in page


def first_table_phone(event: Event, t: Tournament) -> tuple[Round, Any, Client, str]:
    """Six players entered and round 1 published; a phone at table 1 (through its link, as
    "Scorer"), and the address of its game's page."""
    event.enter(t, 6)
    round = event.publish(event.seat(t))
    table = tables(round)[0]
    phone = Client()
    enter_table(phone, table, "Scorer")
    return round, table, phone, reverse("game", args=[table.game_id])


def test_after_time_is_called_the_phone_offers_the_deal_in_progress_and_then_no_more(
    event: Event,
) -> None:
    t = event.tournament(name="Timed", round_kind="time", round_minutes=30, grace_minutes=5)
    round, table, phone, game_url = first_table_phone(event, t)
    play(table, [WIN[0]], by="Scorer")
    Round.objects.filter(pk=round.pk).update(time_called_at=timezone.now())
    page = text(phone.get(game_url))
    assert "Save deal 2" in page and "No more deals" not in page  # the deal in progress
    save = reverse("deal-save", args=[table.game_id])
    deal = {"widow": "1", "tricks-0": "3", "tricks-1": "6"}
    assert phone.post(save, {"number": "2", **deal}).status_code == 302
    page = text(phone.get(game_url))
    assert "Deal 2 saved" in page and "Save deal 3" not in page
    assert "No more deals at this table: time was called for round 1" in page
    # its scores stand (not "abandoned"), and nobody at the table is offered to abandon it
    assert "Widow whist: last deal played" in page and "abandoned" not in page
    assert "Abandon the game" not in text(client_for(event.director).get(game_url))
    # A phone that still shows the form (or kept the deal offline) has it recorded, never
    # lost: the table undoes it before it confirms.
    sent = phone.post(save, {"number": "3", **deal}, follow=True)
    assert "Deal 3 saved" in text(sent)
    assert "No more deals at this table: time was called for round 1" in text(sent)
    table.game.refresh_from_db()
    assert table.game.deal_count == 3


def test_a_round_of_n_deals_heads_the_tables_game_with_its_own_last_deal(event: Event) -> None:
    """Prediction whist's game is 24 deals (3 players) but the round is 2: the table's page
    says "Deal 1 of 2" and why, and after deal 2 heads no deal 3."""
    t = event.tournament(name="Short", game_type="prediction_whist", round_deals=2)
    _round, table, phone, game_url = first_table_phone(event, t)
    page = text(phone.get(game_url))
    assert "Deal 1 of 2 ·" in page and "round 1 is 2 deals" in page
    heading = re.search(
        r'<h1 id="game-title"[^>]*>([^<]*)</h1>', phone.get(game_url).content.decode()
    )
    assert heading is not None and heading.group(1).startswith("Deal 1 of 2 · ")
    assert "24 deals" not in page
    # a member who only watches reads the same
    watcher = client_for(member(event.club, Role.MEMBER, username="watcher"))
    assert "Deal 1 of 2 ·" in text(watcher.get(game_url))
    players = len(seats(table))
    no_bids = {"bids": [0] * players, "tricks": [1] + [0] * (players - 1)}
    play(table, [no_bids], by="Scorer")
    assert "Deal 2 of 2 ·" in text(phone.get(game_url))
    play(table, [no_bids], by="Scorer")
    page = text(phone.get(game_url))
    assert "Deal 3" not in page and "No more deals at this table" in page
    watching = text(watcher.get(game_url))
    assert "Deal 3" not in watching and "Deal 2 of 2" not in watching
    assert "Enter deal" not in watching


def test_the_club_home_links_to_its_tournaments(event: Event) -> None:
    page = text(client_for(event.director).get(reverse("club", args=[event.club.slug])))
    assert reverse("tournament-list", args=[event.club.slug]) in page
    event.tournament(name="Listed")
    listing = text(
        client_for(event.director).get(reverse("tournament-list", args=[event.club.slug]))
    )
    assert "Listed" in listing and "New tournament" in listing


def test_create_with_placing_points_mixed_tables_and_fixed_byes(event: Event) -> None:
    response = client_for(event.director).post(
        reverse("tournament-new", args=[event.club.slug, "prediction_whist"]),
        {
            "name": "Big night",
            "rounds": "3",
            "round_kind": "time",
            "round_minutes": "45",
            "grace_minutes": "5",
            "seating_method": "standings",
            "points_system": "placing",
            "placing_points": "5, 3, 1, 0",
            "table_size": "4",
            "mixed_sizes": "on",
            "bye_score": "fixed",
            "bye_points": "1.5",
            **option_defaults("prediction_whist"),
        },
    )
    t = Tournament.objects.get(name="Big night")
    assert response.status_code == 302
    assert (t.round_minutes, t.grace_minutes, t.mixed_sizes) == (45, 5, True)
    assert [float(p) for p in t.placing_points] == [5, 3, 1, 0]
    assert (t.bye_score, float(t.bye_points)) == ("fixed", 1.5)
    # The settings page shows the amount as typed (1.5, not 1.500).
    edit = client_for(event.director).get(reverse("tournament-edit", args=[t.pk]))
    assert 'name="bye_points" value="1.5"' in edit.content.decode()


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("3, one, 0", "placing points are numbers separated by commas, e.g. 3, 1, 0"),
        ("inf, nan", "placing points are numbers from 0 to 1000"),
        ("1e308, 1e309", "placing points are numbers from 0 to 1000"),
        ("3, -1", "placing points are numbers from 0 to 1000"),
        ("5000", "placing points are numbers from 0 to 1000"),
        ("3/2/1/0", "a table has at most 3 players: at most 3 placing points"),
    ],
)
def test_placing_points_must_be_numbers(event: Event, typed: str, said: str) -> None:
    response = client_for(event.director).post(
        reverse("tournament-new", args=[event.club.slug, "widow_whist"]),
        new_tournament("Typo cup", points_system="placing", placing_points=typed),
    )
    assert response.status_code == 400
    assert said in error_beside(text(response), "id_placing_points").lower()
    assert not Tournament.objects.filter(name="Typo cup").exists()


def test_placing_points_typed_as_the_choice_shows_them(event: Event) -> None:
    """3/1/0, as the points system's choice writes it, is 3, 1, 0."""
    response = client_for(event.director).post(
        reverse("tournament-new", args=[event.club.slug, "widow_whist"]),
        new_tournament("Slash cup", points_system="placing", placing_points="3/1/0"),
    )
    assert response.status_code == 302
    t = Tournament.objects.get(name="Slash cup")
    assert [float(p) for p in t.placing_points] == [3, 1, 0]


@pytest.mark.parametrize("placing", [[3, float("inf")], [1e309], [-1], [True, 0], ["3"], []])
def test_the_service_refuses_placing_points_that_are_not_numbers_of_points(
    event: Event, placing: list[Any]
) -> None:
    with pytest.raises(InvalidInput) as refused:
        event.tournament(points_system="placing", placing_points=placing)
    assert refused.value.field == "placing_points"
    assert refused.value.message == "placing points are numbers from 0 to 1000"


def test_a_tournament_s_house_rules_are_checked_together_when_set_up_not_when_seated(
    event: Event,
) -> None:
    falling = {"contract_values": {"A": 40}}
    with pytest.raises(InvalidInput) as refused:
        event.tournament(game_type="third_hand", options=falling)
    assert refused.value.field == "options.contract_values.A"
    # One set up before the check: its tables still start with the values it kept.
    t = event.tournament(game_type="third_hand")
    Tournament.objects.filter(pk=t.pk).update(
        options={**t.options, "contract_values": {**t.options["contract_values"], "A": 40}}
    )
    t.refresh_from_db()
    event.enter(t, 4)
    round = event.publish(event.seat(t))
    assert [table.game.options["contract_values"]["A"] for table in tables(round)] == [40, 40]


def test_a_round_of_more_deals_than_the_game_has_is_refused(event: Event) -> None:
    """Prediction whist has 3 deals a player and 12 more: 24 at tables of 4, 30 of 6."""
    with pytest.raises(InvalidInput) as refused:
        event.tournament(game_type="prediction_whist", table_size=4, round_deals=25)
    assert refused.value.field == "round_deals"
    assert refused.value.message == (
        "a game of Prediction whist has 24 deals at most (4 players): a round of 25 deals would "
        'end with the game; for whole games choose "A whole game"'
    )
    # Tables of 6 may be seated among tables of 4: up to 30 deals.
    mixed = event.tournament(
        name="Mixed", game_type="prediction_whist", table_size=4, mixed_sizes=True, round_deals=30
    )
    assert mixed.round_deals == 30
    with pytest.raises(InvalidInput, match="30 deals at most \\(6 players\\)"):
        event.tournament(
            name="Long",
            game_type="prediction_whist",
            table_size=4,
            mixed_sizes=True,
            round_deals=31,
        )
    # A game whose length is a house rule ends with the round: any number of deals.
    assert event.tournament(name="Widow", round_deals=100).round_deals == 100


def test_refused_tie_breaks_and_grace_are_named_as_their_fields(event: Event) -> None:
    with pytest.raises(InvalidInput) as refused:
        event.tournament(tie_breaks=["game_score", "game_score"])
    assert refused.value.field == "tie_breaks"
    with pytest.raises(InvalidInput) as refused:
        event.tournament(round_kind="time", round_minutes=30, grace_minutes=500)
    assert refused.value.field == "grace_minutes"
    assert "grace" not in refused.value.message and "0 to 120" in refused.value.message


def test_a_refused_choice_is_named_with_its_values_and_labels(event: Event) -> None:
    with pytest.raises(InvalidInput) as refused:
        event.tournament(seating_method="alphabetical")
    assert refused.value.message == (
        'the seating method is one of new_opponents ("New opponents"), standings ("By '
        'standings (Swiss)") or random ("Random")'
    )


def test_the_dashboard_shows_the_clock_of_a_timed_round(event: Event) -> None:
    t = event.tournament(name="Timed", round_kind="time", round_minutes=30, grace_minutes=5)
    event.enter(t, 6)
    round = event.publish(event.seat(t))
    assert round.time_called_at is not None and round.deadline is not None
    director = client_for(event.director)
    page = text_of(director.get(url("tournament", t)))
    assert f"Time is called at {round.time_called_at:%H:%M}" in page
    assert f"closes by {round.deadline:%H:%M}" in page
    with event.capture(execute=True):
        services.rounds_close_due(now=round.time_called_at + timedelta(seconds=1))
    page = text_of(director.get(url("tournament", t)))
    assert f"Time called at {round.time_called_at:%H:%M}: finish the deal in progress" in page


def test_register_everyone_listed_from_the_roster(event: Event) -> None:
    from tests.factories import PlayerFactory

    t = event.tournament()
    director = client_for(event.director)
    ann, bob = event.players[:2]
    services.register(actor=event.director, tournament=t, players=[ann])
    PlayerFactory(club=event.club, name="Annabel")
    PlayerFactory(club=event.club, name="Retired", active=False)
    response = director.get(url("tournament", t))
    assert "Ann registered" in text_of(response)  # shown as such, without a box to tick
    roster_box = 'name="players" value="{}" data-unregistered'
    assert roster_box.format(bob.pk) in text(response)
    assert roster_box.format(ann.pk) not in text(response)
    assert "Register everyone listed" in text_of(response)
    assert "data-listed-count>9<" in text(response)  # Bob to Ida, and Annabel
    # The filter works without JavaScript (a GET), and "everyone listed" follows it.
    filtered = director.get(url("tournament", t), {"roster": "ann"})
    assert "data-listed-count>1<" in text(filtered)
    assert 'value="ann"' in text(filtered)
    page = director.post(
        url("tournament-register", t), {"everyone": "1", "q": "ann", "check_in": "on"}, follow=True
    )
    assert "Registered and checked in (1): Annabel." in text_of(page)
    names = set(Registration.objects.filter(tournament=t).values_list("player__name", flat=True))
    assert names == {"Ann", "Annabel"}
    with event.capture(execute=True):
        page = director.post(url("tournament-register", t), {"everyone": "1"}, follow=True)
    assert Registration.objects.filter(tournament=t).count() == 10  # not the inactive one
    assert not Registration.objects.filter(tournament=t, player__name="Retired").exists()
    assert Registration.objects.get(tournament=t, player=bob).checked_in_round is None
    again = director.post(url("tournament-register", t), {"everyone": "1"}, follow=True)
    assert "Everyone listed is registered already." in text_of(again)
    member_page = client_for(member(event.club, Role.MEMBER))
    assert member_page.post(url("tournament-register", t), {"everyone": "1"}).status_code == 403


def test_check_in_carries_over_and_players_check_out_on_the_dashboard(event: Event) -> None:
    t, round = running(event, 7)
    gus = event.players[6]
    director = client_for(event.director)
    page = director.post(url("tournament-check-out", t), {"players": [gus.pk]}, follow=True)
    assert f"Checked out from round 2: {gus.name}." in text_of(page)
    # checked out twice, and with someone present: said apart
    fay = event.players[5]
    page = director.post(url("tournament-check-out", t), {"players": [gus.pk]}, follow=True)
    assert f"{gus.name} was not checked in: nothing to check out." in text_of(page)
    page = director.post(url("tournament-check-out", t), {"players": [fay.pk, gus.pk]}, follow=True)
    assert f"Checked out from round 2: {fay.name}. ({gus.name} was not checked in.)" in (
        text_of(page)
    )
    director.post(url("tournament-check-in", t), {"players": [fay.pk]})
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round, force=True)
    page = text_of(director.get(url("tournament", t)))
    assert "6 players checked in for round 2" in page  # nobody checked in again
    assert "(7 registered, 6 checked in for round 2)" in page
    assert "Checked out" in page and "Check out the chosen" in page
    page = director.post(url("tournament-check-in", t), {"players": [gus.pk]}, follow=True)
    assert "7 players checked in for round 2" in text_of(page)
    assert "stay checked in for later rounds until they check out" in text_of(page)


def test_the_new_tournament_form_says_when_each_field_applies(event: Event) -> None:
    director = client_for(event.director)
    new = reverse("tournament-new", args=[event.club.slug, "widow_whist"])
    page = text(director.get(new))
    assert 'data-applies-when="round_kind=deals"' in page
    assert page.count('data-applies-when="round_kind=time"') == 2  # minutes and grace
    assert 'data-applies-when="points_system=placing"' in page
    assert 'data-applies-when="bye_score=fixed"' in page
    assert 'data-applies-when="round_kind=game,time"' in page  # widow whist's finish option
    assert "Only for timed rounds." in page and "Only for rounds of a number of deals." in page
    assert "mixed_sizes" not in page  # widow whist has one table size
    assert 'name="mixed_sizes"' in text(
        director.get(reverse("tournament-new", args=[event.club.slug, "prediction_whist"]))
    )
    # Fields that do not apply are ignored, even when wrong.
    response = director.post(
        new,
        {
            "name": "Ignored bits",
            "rounds": "2",
            "round_kind": "deals",
            "round_deals": "4",
            "round_minutes": "soon",
            "grace_minutes": "-5",
            "seating_method": "new_opponents",
            "points_system": "opponents",
            "placing_points": "3, one, 0",
            "table_size": "3",
            "bye_score": "average",
            "bye_points": "lots",
            **option_defaults("widow_whist"),
            "opt-finish": "target",
            "opt-finish-target": "",  # the finish option does not apply to rounds of deals
        },
    )
    assert response.status_code == 302, text_of(response)
    t = Tournament.objects.get(name="Ignored bits")
    assert (t.round_deals, t.round_minutes, t.grace_minutes) == (4, None, 10)
    assert t.options["finish"] == {"deals": 4} and float(t.bye_points) == 0
    # Where they apply, they are checked.
    response = director.post(
        new,
        {
            "name": "Timed",
            "rounds": "2",
            "round_kind": "time",
            "round_minutes": "soon",
            "seating_method": "new_opponents",
            "points_system": "opponents",
            "table_size": "3",
            **option_defaults("widow_whist"),
        },
    )
    assert response.status_code == 400 and not Tournament.objects.filter(name="Timed").exists()


def test_a_guest_opening_a_closed_rounds_table_link_is_told_so(event: Event) -> None:
    from scorekeeper.selectors import active_table_link

    t, round = running(event)
    table = tables(round)[0]
    token = active_table_link(table.game).token
    play(table, [WIN[0]])
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round, force=True)
    names = [p.name for p in seats(table)]
    gone = Client().get(reverse("table-enter", args=[token]))
    page = text_of(gone)
    assert gone.status_code == 404  # as for a link never made
    assert "Round 1 is closed" in page and "mistyped" not in page
    assert (
        f"Round 1 of {t.name} is closed; the result of table 1 stands as "
        f"{names[0]} 4, {names[1]} 0, {names[2]} 0." in page
    )
    assert url("tournament-standings", t) not in text(gone)  # results are not public
    event.club.results_public = True
    event.club.save()
    assert url("tournament-standings", t) in text(
        Client().get(reverse("table-enter", args=[token]))
    )
    # A link that never existed still gets the generic page.
    assert "mistyped" in text_of(Client().get(reverse("table-enter", args=["nope" * 8])))


def test_a_round_closed_before_its_tables_confirmed_says_which_had_played_out(
    event: Event,
) -> None:
    t, round = running(event)
    played, idle = tables(round)
    play(played, [WIN[0], WIN[1], EVEN])  # its 3 deals: finished, not confirmed
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round, force=True)
    page = text(client_for(event.director).get(url("tournament", t)))
    assert page.count("Closed unconfirmed") == 1 and page.count("Closed unfinished") == 1
    # and a phone still at each table is told as much
    from scorekeeper.models import TableLink
    from tournaments.revoked_links import explain_closed_round

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    said = {
        table.number: explain_closed_round(request, "", TableLink.objects.get(game=table.game))
        for table in (played, idle)
    }
    assert said[played.number].message.endswith(
        "Nobody at the table had confirmed it when the round was closed."
    )
    assert said[idle.number].message.endswith(
        "The table had not finished: the round was closed at its totals."
    )


def test_a_member_who_recorded_the_last_deal_signs_out_and_is_still_known_at_the_link(
    event: Event,
) -> None:
    """A scorer records the last deal on their phone, signs out and enters the table link
    under another name: the phone is still theirs, so someone else confirms."""
    t, round = running(event)
    table = tables(round)[0]
    scorer = member(event.club, Role.SCORER, username="keeper")
    phone = Client()
    phone.force_login(scorer)
    game_url = reverse("game", args=[table.game_id])
    assert phone.get(game_url).status_code == 200
    play(table, [WIN[0], WIN[1]], by="Cy")
    saved = phone.post(
        reverse("deal-save", args=[table.game_id]),
        {"number": "3", "idempotency_key": "k", "widow": "none", "tricks-0": "5", "tricks-1": "4"},
    )
    assert saved.status_code in (200, 302, 303), text(saved)
    table.refresh_from_db()
    assert table.game.deal_count == 3
    assert table.game.deals.get(number=3).entered_by == scorer

    phone.post(reverse("account_logout"))  # signs out as a browser does: its cookies stay
    assert phone.get(reverse("my-games")).status_code == 302  # signed out indeed
    enter_table(phone, table, "Dot")
    page = text(phone.get(game_url))
    assert "You recorded the last deal or made the latest correction" in page
    refused = phone.post(reverse("tournament-table-confirm", args=[table.pk]))
    assert refused.status_code == 403
    table.refresh_from_db()
    assert table.confirmed_at is None


def test_a_tables_game_is_not_abandoned_by_hand(event: Event) -> None:
    """A tournament table's game ends with its round: its director is told so on the page
    that would ask, and the service (the API's way too) refuses; the game and its table's
    result stay as they were."""
    from scorekeeper import services as core
    from scorekeeper.errors import Conflict

    t, round = running(event)
    table = tables(round)[0]
    play(table, [WIN[0]], by="Cy")
    director = client_for(event.director)
    asked = text(director.get(reverse("game-abandon", args=[table.game_id])))
    assert f"table {table.number} of round 1 of {t.name}: it ends when the round closes" in asked
    assert "Abandon the game?" not in asked
    refused = text(director.post(reverse("game-abandon", args=[table.game_id]), follow=True))
    assert "it ends when the round closes" in refused
    with pytest.raises(Conflict, match="it ends when the round closes"):
        core.game_abandon(actor=event.director, game=table.game)
    table.refresh_from_db()
    assert table.game.status == "in_progress" and table.game.deal_count == 1
    api = Client()
    api.force_login(event.director)
    answer = api.post(f"/api/v1/games/{table.game_id}/abandon/", content_type="application/json")
    assert answer.status_code == 409
    assert "ends when the round closes" in answer.json()["error"]["message"]
