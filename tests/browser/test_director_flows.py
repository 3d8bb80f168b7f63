"""The director's pages in a phone-sized Chromium: registering the roster with "select all",
check-in carrying over to the next round and a player checking out, the new-tournament
form showing only the fields that apply (and nothing wider than 360 px), a swap conflict
naming where the pair met, a guest opening the table link of a closed round, and a refused
check-in that keeps its choice, put right, then Back."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import Club, Player, Role
from scorekeeper.selectors import active_table_link
from tests.factories import ClubFactory, PlayerFactory, member
from tests.tournaments.helpers import WIN, play, seats, tables
from tournaments import services
from tournaments.models import Registration, Round, RoundPlayer, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


@pytest.fixture(autouse=True)
def _close_connections(chromium: Any) -> Iterator[None]:
    """As in test_club_flows: close this thread's connections after each test."""
    yield
    connections.close_all()


@pytest.fixture(autouse=True)
def _tasks_in_process(tasks_in_process: None) -> None:
    """Seating and closing rounds run in-process once the request commits."""


def club_with_roster(count: int = 6) -> tuple[Club, User, dict[str, Player]]:
    club = ClubFactory(name="Kings Arms", slug="kings")
    director = member(club, Role.DIRECTOR, username="dora")
    players = {n: PlayerFactory(club=club, name=n) for n in NAMES[:count]}
    return club, director, players


def cup(club: Club, director: User, rounds: int = 2) -> Tournament:
    return services.tournament_create(
        actor=director,
        club=club,
        name="Friday cup",
        game_type="widow_whist",
        rounds=rounds,
        round_kind="deals",
        round_deals=1,
    )


def cup_all_checked_in(club: Club, director: User, players: dict[str, Player]) -> Tournament:
    """The cup, with every player of the roster registered and checked in."""
    t = cup(club, director)
    services.register(actor=director, tournament=t, players=list(players.values()), check_in=True)
    return t


def seat_and_publish(director: User, t: Tournament) -> Round:
    round, _ = services.round_request(actor=director, tournament=t)
    round.refresh_from_db()
    services.round_publish(actor=director, round=round, notify=False)
    round.refresh_from_db()
    return round


def arrange(director: User, round: Round, layout: list[list[Player]]) -> None:
    """Swap players until the round's tables are ``layout`` (in seat order)."""
    for number, wanted in enumerate(layout, start=1):
        table = round.tables.get(number=number)
        for position, player in enumerate(wanted):
            there = RoundPlayer.objects.get(round=round, table=table, position=position)
            if there.player_id != player.pk:
                services.round_swap(actor=director, round=round, first=there.player, second=player)


def test_select_all_registers_everyone_listed(site: LiveServer, phone: Callable[..., Any]) -> None:
    club, director, players = club_with_roster(7)
    t = cup(club, director)
    services.register(actor=director, tournament=t, players=[players["Ann"]])
    page = phone(director)
    page.goto(f"{site.url}/tournaments/{t.pk}/")
    page.get_by_text("Register players from the roster…").click()
    roster = page.locator(".roster-choices")
    expect(roster.get_by_text("Ann registered")).to_be_visible()  # shown as such
    # The filter narrows the list and what "select all" and "everyone listed" take.
    page.get_by_label("Filter the roster by name").fill("y")
    expect(page.locator("[data-listed-count]")).to_have_text("2")  # Cy, Fay
    expect(roster.get_by_label("Bob")).to_be_hidden()
    page.get_by_label("Filter the roster by name").fill("")
    expect(page.locator("[data-listed-count]")).to_have_text("6")
    page.get_by_label("Select all listed").check()
    for name in NAMES[1:]:
        expect(roster.get_by_label(name)).to_be_checked()
    page.get_by_role("button", name="Register the chosen").click()
    expect(page.get_by_text("Registered and checked in (6)")).to_be_visible()
    registered = Registration.objects.filter(tournament=t)
    assert sorted(registered.values_list("player__name", flat=True)) == sorted(NAMES)
    assert registered.filter(checked_in_round=1).count() == 6  # Ann was not checked in
    expect(page.get_by_text("6 players checked in for round 1")).to_be_visible()


def test_register_everyone_listed_without_javascript(
    site: LiveServer, phone: Callable[..., Any]
) -> None:
    club, director, players = club_with_roster(7)
    t = cup(club, director)
    page = phone(director, javascript=False)
    page.goto(f"{site.url}/tournaments/{t.pk}/")
    expect(page.get_by_label("Select all listed")).to_be_hidden()  # needs the script
    page.get_by_label("Filter the roster by name").fill("e")
    page.get_by_role("button", name="Filter", exact=True).click()
    roster = page.locator(".roster-choices")
    expect(roster.get_by_label("Dee")).to_be_visible()
    expect(roster.get_by_label("Ann")).to_have_count(0)
    page.get_by_role("button", name="Register everyone listed").click()
    expect(page.get_by_text("Registered and checked in (2): Dee, Eve.")).to_be_visible()
    assert set(Registration.objects.values_list("player__name", flat=True)) == {"Dee", "Eve"}


def test_checked_in_players_are_still_present_in_round_two_and_one_checks_out(
    site: LiveServer, phone: Callable[..., Any]
) -> None:
    club, director, players = club_with_roster(7)
    t = cup_all_checked_in(club, director, players)
    round1 = seat_and_publish(director, t)
    services.round_close(actor=director, round=round1, force=True)

    page = phone(director)
    page.goto(f"{site.url}/tournaments/{t.pk}/")
    expect(page.get_by_text("7 players checked in for round 2")).to_be_visible()  # carried over
    page.locator("#registrations").get_by_label("Gus").check()
    page.get_by_role("button", name="Check out the chosen").click()
    expect(page.get_by_text("Checked out from round 2: Gus.")).to_be_visible()
    expect(page.get_by_text("6 players checked in for round 2")).to_be_visible()
    gus_row = page.locator("#registrations tr", has_text="Gus")
    expect(gus_row).to_contain_text("Checked out")
    expect(page.locator("#registrations tr", has_text="Ann")).to_contain_text("Checked in")
    page.get_by_role("button", name="Seat round 2").click()
    expect(page.get_by_role("button", name="Publish round 2")).to_be_visible()
    round2 = Round.objects.get(tournament=t, number=2)
    seated = set(round2.players.values_list("player__name", flat=True))
    assert seated == set(NAMES) - {"Gus"}


def test_the_new_tournament_form_shows_the_fields_that_apply(
    site: LiveServer, phone: Callable[..., Any]
) -> None:
    club, director, _ = club_with_roster(0)
    page = phone(director)
    page.goto(f"{site.url}/tournaments/c/{club.slug}/new/prediction_whist/")
    deals, minutes = page.get_by_label("Deals in a round"), page.get_by_label("Minutes in a round")
    grace = page.get_by_label("Minutes to finish the deal in progress")
    placing = page.get_by_label("Placing points, first place first")
    bye_points = page.get_by_label("Fixed amount for a bye")
    mixed = page.get_by_label("Mix table sizes rather than give byes")
    expect(deals).to_be_visible()
    expect(mixed).to_be_visible()  # prediction whist mixes sizes
    for hidden in (minutes, grace, placing, bye_points):
        expect(hidden).to_be_hidden()
    page.get_by_label("A round is", exact=True).select_option("time")
    expect(deals).to_be_hidden()
    expect(minutes).to_be_visible()
    expect(grace).to_be_visible()
    page.get_by_label("Points system").select_option("placing")
    expect(placing).to_be_visible()
    page.get_by_label("A bye scores").select_option("fixed")
    expect(bye_points).to_be_visible()
    page.get_by_label("A round is", exact=True).select_option("game")
    expect(minutes).to_be_hidden()
    expect(deals).to_be_hidden()
    # Nothing is cut off on a narrow phone.
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # Widow whist: its finish option does not apply to rounds of deals.
    page.goto(f"{site.url}/tournaments/c/{club.slug}/new/widow_whist/")
    finish = page.locator('[data-applies-when="round_kind=game,time"]')
    expect(finish).to_be_hidden()
    expect(page.get_by_label("Mix table sizes rather than give byes")).to_have_count(0)
    page.get_by_label("A round is", exact=True).select_option("game")
    expect(finish).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # Without JavaScript every field shows, with a note saying when it applies.
    plain = phone(director, javascript=False)
    plain.set_viewport_size({"width": 360, "height": 740})
    plain.goto(f"{site.url}/tournaments/c/{club.slug}/new/prediction_whist/")
    for label in ("Deals in a round", "Minutes in a round", "Fixed amount for a bye"):
        expect(plain.get_by_label(label)).to_be_visible()
    expect(plain.get_by_text("Only for timed rounds.").first).to_be_visible()
    assert plain.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_swap_conflict_names_the_table_where_the_pair_met(
    site: LiveServer, phone: Callable[..., Any]
) -> None:
    club, director, p = club_with_roster(6)
    t = cup_all_checked_in(club, director, p)
    round1, _ = services.round_request(actor=director, tournament=t)
    round1.refresh_from_db()
    arrange(director, round1, [[p["Ann"], p["Bob"], p["Cy"]], [p["Dee"], p["Eve"], p["Fay"]]])
    services.round_publish(actor=director, round=round1, notify=False)
    services.round_close(actor=director, round=round1, force=True)
    round2, _ = services.round_request(actor=director, tournament=t)
    round2.refresh_from_db()
    # Swapping Bob into table 2 brings Ann and Bob together again: they met at table 1
    # of round 1 (not at table 2, where they meet now).
    arrange(director, round2, [[p["Bob"], p["Cy"], p["Fay"]], [p["Ann"], p["Eve"], p["Dee"]]])
    page = phone(director)
    page.goto(f"{site.url}/tournaments/{t.pk}/")
    page.get_by_text("Swap two players…").click()
    page.get_by_label("Swap", exact=True).select_option(label="Bob · table 1")
    page.get_by_label("with", exact=True).select_option(label="Dee · table 2")
    page.get_by_role("button", name="Swap them").click()
    expect(page.get_by_text("Bob and Dee have swapped places")).to_be_visible()
    expect(
        page.locator(".messages").get_by_text("Ann and Bob already met at table 1 of round 1")
    ).to_be_visible()
    assert [s.name for s in seats(round2.tables.get(number=2))] == ["Ann", "Eve", "Bob"]


def test_a_guest_opening_a_closed_rounds_table_link_sees_the_round_is_closed(
    site: LiveServer, new_page: Callable[..., Any]
) -> None:
    club, director, players = club_with_roster(6)
    club.results_public = True
    club.save()
    t = cup_all_checked_in(club, director, players)
    round = seat_and_publish(director, t)
    table = tables(round)[0]
    link = active_table_link(table.game)
    assert link is not None
    play(table, [WIN[0]])
    # a phone already at the table's game page through the link
    sitting = new_page()
    sitting.goto(f"{site.url}/t/{link.token}/")
    sitting.get_by_role("button", name="Enter deals").click()
    sitting.locator("table.sheet").wait_for()
    services.round_close(actor=director, round=round, force=True)
    first, second, third = (p.name for p in seats(table))
    # it follows the close (the link is revoked) and says why, not "not found"
    expect(sitting.get_by_role("heading", name="Round 1 is closed")).to_be_visible(timeout=20_000)
    sitting.reload()
    expect(sitting.get_by_role("heading", name="Round 1 is closed")).to_be_visible()

    page = new_page()
    page.goto(f"{site.url}/t/{link.token}/")
    expect(page.get_by_role("heading", name="Round 1 is closed")).to_be_visible()
    expect(
        page.get_by_text(
            f"Round 1 of Friday cup is closed; the result of table 1 stands as "
            f"{first} 4, {second} 0, {third} 0."
        )
    ).to_be_visible()
    expect(page.get_by_text("mistyped")).to_have_count(0)
    page.get_by_role("link", name="Standings of Friday cup").click()
    expect(page).to_have_url(f"{site.url}/tournaments/{t.pk}/standings/")


def test_a_refused_check_in_keeps_the_choice_and_back_after_the_correction_shows_it_done(
    site: LiveServer, phone: Callable[..., Any]
) -> None:
    """The director ticks Ann and Bob, who withdrew, and checks them in: refused, beside the
    list, with the focus on the reason and both still ticked. Unticking Bob and checking in
    again works; Back then shows the dashboard as it now is (the refusal is not kept)."""
    club, director, players = club_with_roster(4)
    t = cup(club, director)
    services.register(actor=director, tournament=t, players=list(players.values()))
    services.withdraw(actor=director, tournament=t, players=[players["Bob"]])
    page = phone(director)
    page.goto(f"{site.url}/tournaments/{t.pk}/")
    listed = page.locator("#registrations")
    listed.get_by_label("Ann").check()
    listed.get_by_label("Bob").check()
    with page.expect_navigation() as refused:
        page.get_by_role("button", name="Check in the chosen").click()
    assert refused.value is not None and refused.value.status == 400
    reason = page.locator("#registrations-players_error")
    expect(reason).to_have_text("Bob has withdrawn; register them again")
    expect(reason).to_be_focused()
    expect(listed.get_by_label("Ann")).to_be_checked()
    expect(listed.get_by_label("Bob")).to_be_checked()
    expect(listed.get_by_label("Cy")).not_to_be_checked()
    assert page.url == f"{site.url}/tournaments/{t.pk}/"  # a reload opens the dashboard

    listed.get_by_label("Bob").uncheck()
    page.get_by_role("button", name="Check in the chosen").click()
    expect(page.get_by_text("1 checked in for round 1;")).to_be_visible()
    page.go_back()  # to the refusal's place in the history: the dashboard, as it now is
    assert page.url == f"{site.url}/tournaments/{t.pk}/"
    expect(page.locator("#registrations tr", has_text="Ann")).to_contain_text("Checked in")
    expect(page.locator("#registrations-players_error")).to_have_count(0)
    assert Registration.objects.get(tournament=t, player=players["Ann"]).checked_in_round == 1
