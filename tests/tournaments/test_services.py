"""Tournament services: registration, check-in, seating, swaps, play, confirmation,
closing, the clock, standings and notices: one tournament's life in order, one file."""

from __future__ import annotations

import datetime
from dataclasses import replace
from decimal import Decimal

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper import selectors as core_selectors
from scorekeeper import services as core
from scorekeeper.deal_limits import DealLimit
from scorekeeper.errors import Conflict, InvalidInput, NotAllowed
from scorekeeper.models import GameStatus, Role
from tests.factories import ClubFactory, PlayerFactory, member
from tests.tournaments.helpers import EVEN, WIN, Event, guest, play, seats, tables
from tournaments import models, selectors, services, tasks

pytestmark = pytest.mark.django_db


def arrange(event: Event, round: models.Round, layout: list[list[str]]) -> None:
    """Swap players until the round's tables are ``layout`` (names in seat order)."""
    by_name = {p.name: p for p in event.players}
    for number, names in enumerate(layout, start=1):
        table = round.tables.get(number=number)
        for position, name in enumerate(names):
            there = models.RoundPlayer.objects.get(round=round, table=table, position=position)
            if there.player.name != name:
                services.round_swap(
                    actor=event.director, round=round, first=there.player, second=by_name[name]
                )
    for number, names in enumerate(layout, start=1):
        assert [p.name for p in seats(round.tables.get(number=number))] == names


def first_round_published(event: Event, t: models.Tournament) -> models.Round:
    """Six players entered; round 1 seated as Ann, Bob, Cy and Dee, Eve, Fay, and
    published."""
    event.enter(t, 6)
    round1 = event.seat(t)
    arrange(event, round1, [["Ann", "Bob", "Cy"], ["Dee", "Eve", "Fay"]])
    event.publish(round1)
    return round1


def confirm(event: Event, table: models.Table, name: str = "Checker") -> models.Table:
    with event.capture(execute=True):
        return services.table_confirm(actor=guest(table, name), table=table)


# --- Creating a tournament -------------------------------------------------------------------


def test_create_checks_the_house_rules_and_the_round(event):
    t = event.tournament(round_deals=6)
    assert t.options["finish"] == {"deals": 6}  # widow whist ends itself after the round
    assert t.table_size == 3 and t.status == models.TournamentStatus.OPEN
    with pytest.raises(InvalidInput) as caught:
        event.tournament(name="B", options={"targets": {"widow": 14}})
    assert caught.value.field == "options.targets.widow"
    with pytest.raises(InvalidInput) as caught:
        event.tournament(name="C", table_size=4)
    assert caught.value.field == "table_size"
    with pytest.raises(InvalidInput) as caught:
        event.tournament(name="D", round_kind="game")  # open-ended widow whist
    assert caught.value.field == "options.finish"
    assert event.tournament(name="E", round_kind="game", options={"finish": {"target": 21}})
    with pytest.raises(InvalidInput):
        event.tournament(name="F", round_kind="time")  # no minutes
    with pytest.raises(InvalidInput):
        event.tournament(name="G", game_type="widow_whist", mixed_sizes=True)
    with pytest.raises(InvalidInput):
        event.tournament(name="Autumn open")  # the name is taken
    with pytest.raises(NotAllowed):
        services.tournament_create(
            actor=member(event.club, Role.SCORER),
            club=event.club,
            name="H",
            game_type="third_hand",
            rounds=2,
            round_kind="game",
        )


# --- Registration, check-in, withdrawal, late arrivals ----------------------------------------


def test_registration_check_in_withdrawal_and_late_arrival(event):
    t = event.tournament()
    ann, bob, cy, dee, eve, fay, gus = event.players[:7]
    services.register(actor=event.director, tournament=t, players=[ann, bob, cy, dee, eve, fay])
    services.register(actor=event.director, tournament=t, players=[ann])  # no second row
    assert models.Registration.objects.filter(tournament=t).count() == 6
    checked = services.check_in(actor=event.director, tournament=t, players=[ann, bob, cy])
    assert {r.checked_in_round for r in checked} == {1}
    with event.capture(execute=True):
        services.withdraw(actor=event.director, tournament=t, players=[fay])
    assert models.Registration.objects.get(tournament=t, player=fay).status == "withdrawn"
    with pytest.raises(InvalidInput):
        services.check_in(actor=event.director, tournament=t, players=[fay])
    with pytest.raises(InvalidInput):
        services.check_in(actor=event.director, tournament=t, players=[gus])  # not registered
    zed = services.register_new(actor=event.director, tournament=t, name="Zed", check_in=True)
    assert zed.player.club == event.club and zed.checked_in_round == 1
    services.check_in(actor=event.director, tournament=t, players=[dee, eve])
    assert selectors.checked_in(t, 1).count() == 6
    with pytest.raises(InvalidInput):
        services.register(
            actor=event.director, tournament=t, players=[PlayerFactory(club=ClubFactory())]
        )
    with pytest.raises(NotAllowed):
        services.register(actor=member(event.club), tournament=t, players=[gus])

    round = event.seat(t)
    assert round.status == models.RoundStatus.SEATED
    assert {p.player_id for p in round.players.all()} == {
        ann.pk,
        bob.pk,
        cy.pk,
        dee.pk,
        eve.pk,
        zed.player_id,
    }
    event.publish(round)
    # A late arrival: registered and checked in for round 2 while round 1 is played.
    (late,) = services.register(actor=event.director, tournament=t, players=[gus], check_in=True)
    assert late.late and late.checked_in_round == 2
    # Nobody withdraws from a round in play; after it closes they may.
    with pytest.raises(Conflict):
        services.withdraw(actor=event.director, tournament=t, players=[ann])
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round, force=True)
        services.withdraw(actor=event.director, tournament=t, players=[ann])
    ann_row = models.Registration.objects.get(tournament=t, player=ann)
    assert ann_row.withdrawn_after_round == 1 and ann_row.checked_in_round is None
    # A withdrawn player comes back by registering again.
    services.register(actor=event.director, tournament=t, players=[fay], check_in=True)
    assert models.Registration.objects.get(tournament=t, player=fay).status == "active"


# --- Seating ---------------------------------------------------------------------------------


def test_seating_a_round_seats_every_checked_in_player_once(event):
    t = event.tournament()
    event.enter(t, 8, check_in=False)
    services.check_in(actor=event.director, tournament=t, players=event.players[:7])
    round = event.seat(t)
    assert (round.seating_status, round.seating_progress) == (models.SeatingStatus.DONE, 100)
    places = list(round.players.all())
    assert len(places) == 7
    assert {p.player_id for p in places} == {p.pk for p in event.players[:7]}
    assert [table.size for table in tables(round)] == [3, 3]
    assert len([p for p in places if p.table_id is None]) == 1
    for table in tables(round):
        assert table.seats.count() == 3
        assert 0 <= table.first_dealer < 3


def test_a_round_by_standings_is_planned_with_the_rounds_still_to_play(event, monkeypatch):
    from tournaments import seating_adapter

    asked = []
    real = seating_adapter.plan_round

    def spy(request, progress=None):
        asked.append((request.method, request.rounds_left))
        return real(request, progress)

    monkeypatch.setattr(seating_adapter, "plan_round", spy)
    t = event.tournament(rounds=5, seating_method="standings")
    event.enter(t, 9)
    round = event.seat(t)
    assert round.seating_status == models.SeatingStatus.DONE
    assert asked == [("standings", 5)]


def test_byes_rotate_fairly_over_rounds(event):
    t = event.tournament(rounds=3, round_deals=1)
    event.enter(t, 7)
    byes = []
    for number in (1, 2, 3):
        if number > 1:
            event.check_in_all(t)
        round = event.seat(t)
        byes += [p.player_id for p in round.players.filter(table__isnull=True)]
        event.publish(round)
        with event.capture(execute=True):
            services.round_close(actor=event.director, round=round, force=True)
    assert len(byes) == len(set(byes)) == 3
    bye_standings = models.Standing.objects.filter(tournament=t, byes=1)
    assert {s.player_id for s in bye_standings} == set(byes)


def test_prediction_whist_mixes_table_sizes(event):
    t = event.tournament(
        game_type="prediction_whist", table_size=4, mixed_sizes=True, round_kind="game"
    )
    event.enter(t, 7)
    round = event.seat(t)
    assert sorted(table.size for table in tables(round)) == [3, 4]
    assert not round.players.filter(table__isnull=True).exists()
    event.publish(round)
    assert sorted(len(table.game.seats.all()) for table in tables(round)) == [3, 4]


def test_too_few_players_are_refused_before_anything_is_queued(event):
    t = event.tournament()
    event.enter(t, 2)
    with pytest.raises(Conflict) as caught:
        event.seat(t)
    assert caught.value.message == (
        "too few players checked in to seat a round (2 players; a table needs 3); "
        "check players in first"
    )
    assert not t.rounds.exists()


def test_the_seat_task_is_idempotent(event):
    t = event.tournament()
    event.enter(t, 7)
    with event.capture(execute=False) as callbacks:
        round, queued = services.round_request(actor=event.director, tournament=t)
    assert queued and len(callbacks) == 1
    # Asking again answers the same round (and sends the job again, in case).
    again, queued_again = services.round_request(actor=event.director, tournament=t)
    assert again.pk == round.pk and queued_again
    round.refresh_from_db()
    assert round.seating_status == models.SeatingStatus.QUEUED
    first = tasks.seat_round.apply(args=(t.pk, 1)).get()
    second = tasks.seat_round.apply(args=(t.pk, 1)).get()
    assert services.round_request(actor=event.director, tournament=t) == (round, False)
    assert first == second == {"round": round.pk, "seating_status": "done"}
    assert t.rounds.count() == 1
    assert models.RoundPlayer.objects.filter(round__tournament=t).count() == 7
    assert models.Table.objects.filter(round=round).count() == 2
    # The database seats nobody twice in a round, whatever the code does.
    with pytest.raises(IntegrityError), transaction.atomic():
        models.RoundPlayer.objects.create(round=round, player=event.players[0])


def test_a_failed_seating_says_why_and_can_be_queued_again(event):
    t = event.tournament()
    event.enter(t, 3)
    with event.capture(execute=False):
        round, _ = services.round_request(actor=event.director, tournament=t)
    # Two of the three leave before the job runs.
    models.Registration.objects.filter(tournament=t, player__in=event.players[:2]).update(
        checked_in_round=None
    )
    tasks.seat_round.apply(args=(t.pk, 1))
    round.refresh_from_db()
    assert round.seating_status == models.SeatingStatus.FAILED
    assert "a table needs 3" in round.seating_error
    with pytest.raises(Conflict):
        services.round_request(actor=event.director, tournament=t)
    services.check_in(actor=event.director, tournament=t, players=event.players[:3])
    again = event.seat(t)
    assert again.pk == round.pk and again.seating_status == models.SeatingStatus.DONE


def test_swap_before_publishing_flags_a_repeated_meeting(event):
    t = event.tournament(rounds=2, round_deals=1)
    round1 = first_round_published(event, t)
    with pytest.raises(Conflict):  # published: no more swaps
        services.round_swap(
            actor=event.director, round=round1, first=event.players[0], second=event.players[3]
        )
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round1, force=True)
    event.check_in_all(t)
    round2 = event.seat(t)
    arrange(event, round2, [["Ann", "Dee", "Eve"], ["Bob", "Cy", "Fay"]])
    conflicts = selectors.round_conflicts(round2)
    # Six players at two tables of three: somebody meets again (Dee-Eve, Bob-Cy).
    assert {c.names for c in conflicts} == {("Dee", "Eve"), ("Bob", "Cy")}
    by_name = {p.name: p for p in event.players}
    found = services.round_swap(
        actor=event.director, round=round2, first=by_name["Eve"], second=by_name["Bob"]
    )
    assert [p.name for p in seats(round2.tables.get(number=1))] == ["Ann", "Dee", "Bob"]
    pairs = {c.names for c in found}
    assert ("Ann", "Bob") in pairs  # they met in round 1: allowed, but flagged
    (flag,) = [c for c in found if c.names == ("Ann", "Bob")]
    assert flag.table == 1 and flag.message == "Ann and Bob already met at table 1 of round 1"
    assert flag.met_at == ((1, 1),)
    with pytest.raises(NotAllowed):
        services.round_swap(
            actor=member(event.club), round=round2, first=by_name["Ann"], second=by_name["Cy"]
        )
    with pytest.raises(InvalidInput):
        services.round_swap(
            actor=event.director, round=round2, first=by_name["Ann"], second=by_name["Gus"]
        )


def test_a_bye_swapped_onto_someone_who_had_one_is_flagged(event):
    t = event.tournament(rounds=2, round_deals=1)
    event.enter(t, 7)
    round1 = event.seat(t)
    (bye1,) = round1.players.filter(table__isnull=True)
    event.publish(round1)
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round1, force=True)
    event.check_in_all(t)
    round2 = event.seat(t)
    (bye2,) = round2.players.filter(table__isnull=True)
    assert bye2.player_id != bye1.player_id
    found = services.round_swap(
        actor=event.director, round=round2, first=bye1.player, second=bye2.player
    )
    assert any(c.kind == "second_bye" and c.players == (bye1.player_id,) for c in found)


def test_two_players_who_both_sit_out_are_not_swapped(event):
    t = event.tournament(rounds=1)
    event.enter(t, 8)  # tables of 3: two sit out
    round = event.seat(t)
    first, second = (p.player for p in round.players.filter(table__isnull=True))
    with pytest.raises(InvalidInput, match="both sit out round 1: swapping them changes nothing"):
        services.round_swap(actor=event.director, round=round, first=first, second=second)


# --- Publishing, confirming, closing ---------------------------------------------------------


def test_publishing_starts_ordinary_games_with_table_links_and_tells_players(event, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://score.example.org"
    t = event.tournament()
    event.enter(t, 7)
    round = event.seat(t)
    event.publish(round, notify=True)
    assert round.status == models.RoundStatus.PLAYING
    for table in tables(round):
        game = table.game
        assert game is not None and game.club == event.club
        assert game.game_type == "widow_whist" and game.options["finish"] == {"deals": 3}
        assert game.first_dealer == table.first_dealer
        assert [s.player for s in game.seats.order_by("position")] == seats(table)
        assert game.table_links.filter(revoked_at__isnull=True).count() == 1
        assert selectors.table_state(table) == ("not_started", None)
    assert len(mail.outbox) == 7
    subjects = sorted(message.subject for message in mail.outbox)
    assert sum("you have a bye" in subject for subject in subjects) == 1
    table_mail = next(m for m in mail.outbox if "table 1" in m.subject)
    assert "deals first" in table_mail.body
    # the table's link, whole: a phone opens it from the email
    link = core_selectors.active_table_link(tables(round)[0].game)
    assert link is not None
    assert f"Enter the scores at https://score.example.org/t/{link.token}/" in table_mail.body
    # Sent once: a repeat (a retried job) sends nothing more.
    assert services.round_notify(round_id=round.pk) == 0
    with pytest.raises(Conflict):
        services.round_publish(actor=event.director, round=round)


def test_confirm_needs_a_second_person_at_the_table(event):
    t = event.tournament(rounds=1)
    event.enter(t, 6)
    ann_user = member(event.club, Role.MEMBER, username="ann")
    ann = event.players[0]
    ann.user = ann_user
    ann.save()
    round = event.seat(t)
    event.publish(round)
    table = models.Table.objects.get(round=round, seats__player=ann)
    play(table, [WIN[0], EVEN], by="Scorer")
    assert selectors.table_state(table) == ("playing", 3)
    with pytest.raises(Conflict):  # not finished yet
        services.table_confirm(actor=guest(table, "Checker"), table=table)
    play(table, [EVEN], by="Scorer")
    assert selectors.table_state(table) == ("finished", None)
    with pytest.raises(NotAllowed):  # whoever recorded the last deal
        services.table_confirm(actor=guest(table, "scorer"), table=table)
    with pytest.raises(InvalidInput):  # a guest says who they are
        services.table_confirm(actor=guest(table, ""), table=table)
    with pytest.raises(NotAllowed):  # the director is not at the table
        services.table_confirm(actor=event.director, table=table)
    other = models.Table.objects.exclude(pk=table.pk).get(round=round)
    with pytest.raises(NotAllowed):  # a link to another table
        services.table_confirm(actor=guest(other, "Checker"), table=table)
    confirmed = services.table_confirm(actor=ann_user, table=table)
    assert confirmed.confirmed_by == ann_user and confirmed.confirmed_by_name == "ann"
    assert selectors.table_state(confirmed) == ("confirmed", None)
    with pytest.raises(Conflict):
        services.table_confirm(actor=guest(table, "Checker"), table=table)
    # The player who recorded the last deal cannot confirm: a member at the table.
    play(other, [WIN[1], WIN[1]], by="Someone")
    bob_user = member(event.club, Role.MEMBER, username="bob")
    player = seats(other)[0]
    player.user = bob_user
    player.save()
    other.game.refresh_from_db()
    core.deal_record(actor=bob_user, game=other.game, number=3, record=WIN[2])
    with pytest.raises(NotAllowed):
        services.table_confirm(actor=bob_user, table=other)
    confirm(event, other, "Cy")
    round.refresh_from_db()
    assert round.status == models.RoundStatus.CLOSED and round.close_reason == "confirmed"


def test_whoever_made_the_latest_correction_does_not_confirm_either(event):
    """A correction changes the result as much as the last deal: its author (a member
    seated there, or a name at the table link) leaves the confirmation to someone else."""
    t = event.tournament(rounds=1)
    event.enter(t, 6)
    round = event.publish(event.seat(t))
    table = tables(round)[0]
    ann_user = member(event.club, Role.MEMBER, username="ann")
    ann = seats(table)[0]
    ann.user = ann_user
    ann.save()
    play(table, [WIN[0], EVEN, EVEN], by="Scorer")
    assert selectors.table_state(table) == ("finished", None)
    table.game.refresh_from_db()
    core.deal_correct(
        actor=ann_user,
        game=table.game,
        number=1,
        record=WIN[1],
        reason="misread",
        expected_version=1,
    )
    with pytest.raises(NotAllowed, match="made the latest correction"):
        services.table_confirm(actor=ann_user, table=table)
    core.deal_correct(
        actor=guest(table, "Dee"), game=table.game, number=2, record=WIN[2], reason="x"
    )
    with pytest.raises(NotAllowed):
        services.table_confirm(actor=guest(table, "dee"), table=table)
    confirmed = services.table_confirm(actor=ann_user, table=table)  # Dee's was the latest
    assert confirmed.confirmed_by == ann_user


def test_a_guest_who_recorded_the_last_deal_is_known_by_the_phone_under_any_name(event):
    t = event.tournament(rounds=1)
    event.enter(t, 6)
    round = event.publish(event.seat(t))
    table = tables(round)[0]
    play(table, [WIN[0], EVEN], by="Cy")
    phone = replace(guest(table, "Ann"), device="phone-1")
    core.deal_record(actor=phone, game=table.game, number=3, record=EVEN)
    with pytest.raises(NotAllowed):  # another name on the same phone
        services.table_confirm(actor=replace(phone, name="Bea"), table=table)
    with pytest.raises(NotAllowed):  # no name yet, one given in the confirmation form
        services.table_confirm(actor=replace(phone, name=""), table=table, name="Bea")
    confirmed = services.table_confirm(
        actor=replace(guest(table, "Bea"), device="phone-2"), table=table
    )
    assert confirmed.confirmed_by_name == "Bea (table link)"


def test_a_deal_limit_without_a_finish_option_ends_the_game_at_confirmation(event):
    t = event.tournament(game_type="italian_whist", round_deals=2, rounds=1)
    event.enter(t, 3)
    round = event.publish(event.seat(t))
    (table,) = tables(round)
    assert table.deal_limit == 2
    deal = {"first": [3, 3, 3], "second": [3, 3, 3]}
    play(table, [deal, deal])
    assert selectors.table_state(table) == ("finished", None)
    assert selectors.deal_limit(table.game).last == 2
    # A deal sent past the round's last (a phone that kept it offline) is recorded, never
    # lost; the table confirms its result once it is undone.
    play(table, [deal])
    table.refresh_from_db()
    assert table.game.deal_count == 3
    with pytest.raises(Conflict) as caught:
        services.table_confirm(actor=guest(table, "Checker"), table=table)
    assert caught.value.message == "the round has 2 deals at this table; undo the deals after it"
    core.deal_undo(actor=guest(table, "Scorer"), game=table.game)
    confirm(event, table)
    table.refresh_from_db()
    assert table.game.status == GameStatus.FINISHED and table.game.ended_by_hand
    # ended by the round, not by whoever confirmed
    assert (table.game.ended_by, table.game.ended_by_name) == (None, "the round's last deal")
    round.refresh_from_db()
    assert round.status == models.RoundStatus.CLOSED
    t.refresh_from_db()
    assert t.status == models.TournamentStatus.FINISHED


def test_once_time_is_called_a_table_finishes_the_deal_in_progress_and_no_more(event):
    """Time is called at the round's time even before the clock's job runs: a table's last
    deal is the one it was playing then (one after the deals recorded before the call)."""
    t = event.tournament(round_kind="time", round_minutes=30, grace_minutes=10, rounds=2)
    event.enter(t, 6)
    round = event.publish(event.seat(t))
    first, second = tables(round)
    play(first, [WIN[0]])
    called_at = timezone.now()
    models.Round.objects.filter(pk=round.pk).update(time_called_at=called_at)
    round.refresh_from_db()
    first, second = tables(round)
    assert first.deal_limit is None  # the clock has not run
    play(first, [EVEN])  # the deal in progress at the call
    assert selectors.deal_limit(first.game) == DealLimit(
        last=2, reason="time was called for round 1"
    )
    first, second = tables(round)
    assert selectors.table_state(first) == ("finished", None)
    assert selectors.deal_limit(second.game).last == 1  # its first deal was in play
    # Undoing and entering again the deal in progress does not move the limit.
    core.deal_undo(actor=guest(first, "Scorer"), game=first.game)
    first, second = tables(round)
    assert selectors.deal_limit(first.game).last == 2
    play(first, [EVEN])
    # The clock's job, when it runs, holds the tables to the same deals.
    services.rounds_close_due()
    first, second = tables(round)
    assert (first.deal_limit, second.deal_limit) == (2, 1)
    assert selectors.last_deal_at(first, first.game) == 2
    # A confirmed table is not limited any more by its round (a director may reopen it).
    confirm(event, first)
    first.refresh_from_db()
    assert selectors.deal_limit(first.game) is None


@pytest.mark.django_db(transaction=True)  # as the command runs: not inside a test's transaction
def test_without_a_broker_the_clock_command_calls_time_and_closes_rounds(event, settings):
    """The embedded default has no beat: ``manage.py clock`` (started by ``make run``)
    runs the beat schedule's jobs in its own process."""
    from io import StringIO

    from django.core.management import call_command

    settings.CELERY_TASK_ALWAYS_EAGER = True  # the embedded default, whatever this run's

    t = event.tournament(round_kind="time", round_minutes=30, grace_minutes=10, rounds=2)
    event.enter(t, 6)
    round = event.publish(event.seat(t))
    past = timezone.now() - datetime.timedelta(minutes=1)
    models.Round.objects.filter(pk=round.pk).update(time_called_at=past, deadline=past)
    out = StringIO()
    with event.capture(execute=True):
        call_command("clock", "--once", stdout=out)
    round.refresh_from_db()
    assert round.time_called and round.status == models.RoundStatus.CLOSED
    assert "tournaments-close-due-rounds: {'called': 1, 'closed': 1}" in out.getvalue()


def test_the_clock_command_is_for_the_embedded_default_only(settings):
    """With a broker, beat runs the schedule: a second clock beside it would run every job
    twice as often."""
    from django.core.management import CommandError, call_command

    settings.CELERY_TASK_ALWAYS_EAGER = False  # as with CELERY_BROKER_URL set
    with pytest.raises(CommandError, match="run Celery beat"):
        call_command("clock", "--once")


def test_director_close_marks_unfinished_tables(event):
    t = event.tournament()
    event.enter(t, 9)
    round = event.publish(event.seat(t))
    first, second, third = tables(round)
    play(first, [WIN[0]] * 3)
    confirm(event, first)
    play(second, [WIN[1]])  # one deal of three
    with pytest.raises(Conflict) as caught:
        services.round_close(actor=event.director, round=round)
    assert caught.value.details == {"unconfirmed": [2, 3]}
    with pytest.raises(NotAllowed):
        services.round_close(actor=member(event.club), round=round, force=True)
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round, force=True)
    round.refresh_from_db()
    assert round.status == models.RoundStatus.CLOSED and round.close_reason == "director"
    assert round.closed_by == event.director
    first, second, third = tables(round)
    assert not first.unfinished and second.unfinished and third.unfinished
    # Finished by hand at the current totals; a table with no deal: abandoned, all tied.
    assert second.game.status == GameStatus.FINISHED and second.game.ended_by_hand
    assert third.game.status == GameStatus.ABANDONED
    # each game's page says who ended it: the director, in that role
    for game in (second.game, third.game):
        assert (game.ended_by, game.ended_by_name) == (event.director, "the tournament director")
    client = Client()
    client.force_login(event.director)
    page = client.get(reverse("game", args=[second.game.pk])).content.decode()
    assert "Ended by the tournament director (" in page
    second_points = {p.position: p.points for p in models.RoundPlayer.objects.filter(table=second)}
    assert second_points == {0: Decimal("0.250"), 1: Decimal("1.000"), 2: Decimal("0.250")}
    assert {p.points for p in models.RoundPlayer.objects.filter(table=third)} == {Decimal("0.500")}
    # The table that played no deal tied at 0, and nobody topped it: no table win.
    assert not models.RoundPlayer.objects.filter(table=third, table_win=True).exists()
    # The table links stop working once the round is closed.
    assert not second.game.table_links.filter(revoked_at__isnull=True).exists()


def test_the_clock_calls_time_then_closes_the_round(event):
    t = event.tournament(round_kind="time", round_minutes=30, grace_minutes=10, rounds=2)
    event.enter(t, 6)
    round = event.publish(event.seat(t))
    assert round.deadline - round.time_called_at == datetime.timedelta(minutes=10)
    first, second = tables(round)
    play(first, [WIN[0]])
    start = round.published_at
    assert services.rounds_close_due(now=start + datetime.timedelta(minutes=29)) == {
        "called": 0,
        "closed": 0,
    }
    called = services.rounds_close_due(now=start + datetime.timedelta(minutes=31))
    assert called == {"called": 1, "closed": 0}
    first, second = tables(round)
    assert first.deal_limit == 2 and second.deal_limit == 1  # finish the deal in progress
    assert selectors.table_state(first) == ("playing", 2)
    play(first, [EVEN])
    assert selectors.table_state(first) == ("finished", None)
    confirm(event, first)
    with event.capture(execute=True):
        closed = services.rounds_close_due(now=start + datetime.timedelta(minutes=41))
    assert closed == {"called": 0, "closed": 1}
    round.refresh_from_db()
    assert round.status == models.RoundStatus.CLOSED and round.close_reason == "time"
    first, second = tables(round)
    assert first.game.ended_by_hand and not first.unfinished
    assert first.game.ended_by_name == "the tournament clock"  # not the confirming player
    assert second.unfinished and second.game.status == GameStatus.ABANDONED
    assert models.Standing.objects.filter(tournament=t).count() == 6


def test_the_scan_task_closes_due_rounds(event):
    t = event.tournament(round_kind="time", round_minutes=5, grace_minutes=0, rounds=1)
    event.enter(t, 3)
    round = event.publish(event.seat(t))
    models.Round.objects.filter(pk=round.pk).update(
        time_called_at=timezone.now() - datetime.timedelta(minutes=1),
        deadline=timezone.now() - datetime.timedelta(seconds=1),
    )
    with event.capture(execute=True):
        result = tasks.close_due_rounds.delay().get()
    assert result == {"called": 1, "closed": 1}
    round.refresh_from_db()
    assert round.status == models.RoundStatus.CLOSED


# --- Standings -------------------------------------------------------------------------------


def test_standings_after_two_rounds_checked_by_hand(event):
    t = event.tournament(rounds=2)
    round1 = first_round_published(event, t)
    one, two = tables(round1)
    play(one, [WIN[0], WIN[0], EVEN])  # Ann 10, Bob 1, Cy 1
    play(two, [WIN[1], EVEN, EVEN])  # Dee 4, Eve 6, Fay 2
    confirm(event, one)
    confirm(event, two)
    event.check_in_all(t)
    round2 = event.seat(t)
    arrange(event, round2, [["Ann", "Dee", "Bob"], ["Eve", "Cy", "Fay"]])
    event.publish(round2)
    one, two = tables(round2)
    play(one, [WIN[1]] * 3)  # Dee 12, Ann 0, Bob 0
    play(two, [WIN[0], WIN[1], WIN[2]])  # 4 each
    confirm(event, one)
    confirm(event, two)
    # Round 1: Ann 1, Bob ¼, Cy ¼; Eve 1, Dee ½, Fay 0.
    # Round 2: Dee 1, Ann ¼, Bob ¼; Eve, Cy, Fay ½ each.
    # Dee 1½ (16) before Eve 1½ (10) on game score; Fay ½ (6) before Bob ½ (1).
    rows = list(models.Standing.objects.filter(tournament=t).select_related("player"))
    table = [
        (s.rank, s.player.name, float(s.points), s.game_score, s.table_wins, s.rounds_played)
        for s in rows
    ]
    assert table == [
        (1, "Dee", 1.5, 16, 1, 2),
        (2, "Eve", 1.5, 10, 2, 2),
        (3, "Ann", 1.25, 10, 1, 2),
        (4, "Cy", 0.75, 5, 1, 2),
        (5, "Fay", 0.5, 6, 1, 2),
        (6, "Bob", 0.5, 1, 0, 2),
    ]
    ann = next(s for s in rows if s.player.name == "Ann")
    # Ann met Bob, Cy, then Dee, Bob: (½ + ¾ + 1½ + ½) / 4.
    assert float(ann.opponents_points) == pytest.approx(0.8125, abs=0.001)
    assert ann.round_points == [1.0, 0.25]
    t.refresh_from_db()
    assert t.status == models.TournamentStatus.FINISHED and t.standings_updated_at is not None
    # Recomputing changes nothing (a retried job).
    assert services.standings_recompute(tournament_id=t.pk) == 6
    again = [(s.rank, s.player_id, s.points) for s in models.Standing.objects.filter(tournament=t)]
    assert again == [(s.rank, s.player_id, s.points) for s in rows]


def test_a_withdrawn_player_keeps_their_standing(event):
    t = event.tournament(rounds=2, round_deals=1)
    event.enter(t, 3)
    round = event.publish(event.seat(t))
    (table,) = tables(round)
    play(table, [WIN[2]])
    confirm(event, table)
    loser = seats(table)[0]
    with event.capture(execute=True):
        services.withdraw(actor=event.director, tournament=t, players=[loser])
    row = models.Standing.objects.get(tournament=t, player=loser)
    assert row.withdrawn and row.rounds_played == 1
    # Back after all, and someone new: the standings follow at once (not at the next close).
    newcomer = event.players[3]
    with event.capture(execute=True):
        services.register(actor=event.director, tournament=t, players=[loser, newcomer])
    row = models.Standing.objects.get(tournament=t, player=loser)
    assert not row.withdrawn and row.rounds_played == 1
    assert models.Standing.objects.get(tournament=t, player=newcomer).rounds_played == 0


# --- The database's own guards ---------------------------------------------------------------


def test_database_invariants(event):
    t = event.tournament()
    event.enter(t, 6)
    round = event.seat(t)
    table = round.tables.get(number=1)
    ann = event.players[0]
    cases = [
        lambda: models.Registration.objects.create(tournament=t, player=ann),
        lambda: models.Round.objects.create(tournament=t, number=1, seating_method="random"),
        lambda: models.Table.objects.create(round=round, number=1, size=3),
        lambda: models.Table.objects.create(round=round, number=9, size=7),
        lambda: models.Table.objects.create(round=round, number=9, size=3, first_dealer=3),
        lambda: models.RoundPlayer.objects.create(round=round, player=ann),
        lambda: models.RoundPlayer.objects.create(
            round=round, player=event.players[8], table=table, position=0
        ),
        lambda: models.RoundPlayer.objects.create(
            round=round, player=event.players[8], table=table
        ),
        lambda: models.Round.objects.filter(pk=round.pk).update(seating_progress=101),
        lambda: models.Registration.objects.filter(tournament=t).update(status="maybe"),
    ]
    for index, case in enumerate(cases):
        with pytest.raises(IntegrityError), transaction.atomic():
            case()
            pytest.fail(f"case {index} was accepted")
    assert models.RegistrationStatus.ACTIVE == "active"


def test_the_table_of_a_game(event):
    t = event.tournament()
    event.enter(t, 3)
    round = event.publish(event.seat(t))
    (table,) = tables(round)
    assert selectors.table_of(table.game) == table
    other = core.game_start(
        actor=event.director, club=event.club, game_type="widow_whist", players=event.players[:3]
    )
    assert selectors.table_of(other) is None


class BrokenMailBackend:
    """A mail server that is down."""

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("no mail server")


def test_a_mail_server_that_is_down_does_not_break_publishing(event, settings):
    settings.EMAIL_BACKEND = f"{__name__}.BrokenMailBackend"
    t = event.tournament()
    event.enter(t, 3)
    round = event.publish(event.seat(t), notify=True)  # the job fails, after its retries
    assert round.status == models.RoundStatus.PLAYING
    assert not round.players.filter(notified_at__isnull=False).exists()
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert tasks.notify_round.apply(args=(round.pk,)).get() == 3  # sent once it is back


# --- Presence carries over; checking out ---------------------------------------------------


def test_a_check_in_carries_over_until_the_player_checks_out(event):
    t = event.tournament(rounds=3, round_deals=1)
    ann, bob, cy, dee, eve, fay, gus = event.players[:7]
    event.enter(t, 7)  # checked in for round 1
    round1 = event.seat(t)
    assert round1.players.count() == 7
    event.publish(round1)
    # While round 1 is played Gus says he leaves after it: he checks out from round 2.
    (out,) = services.check_out(actor=event.director, tournament=t, players=[gus])
    assert (out.checked_in_round, out.checked_out_round, out.status) == (None, 2, "active")
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round1, force=True)
    # Nobody checks in again: the six others are still present for round 2.
    assert {r.player_id for r in selectors.checked_in(t, 2)} == {
        p.pk for p in (ann, bob, cy, dee, eve, fay)
    }
    round2 = event.seat(t)
    assert {p.player_id for p in round2.players.all()} == {
        p.pk for p in (ann, bob, cy, dee, eve, fay)
    }
    # Seated but not published: checking out now counts from round 3 (round 2 keeps him).
    services.check_out(actor=event.director, tournament=t, players=[fay])
    assert round2.players.filter(player=fay).exists()
    assert not models.Registration.objects.get(tournament=t, player=fay).present_for(3)
    # Gus comes back: checked in from round 3 on; checking in someone present changes nothing.
    services.check_in(actor=event.director, tournament=t, players=[gus, ann])
    gus_row = models.Registration.objects.get(tournament=t, player=gus)
    assert (gus_row.checked_in_round, gus_row.checked_out_round) == (3, None)
    assert models.Registration.objects.get(tournament=t, player=ann).checked_in_round == 1
    assert not gus_row.present_for(2) and gus_row.present_for(3)
    # Withdrawal is separate: it ends the tournament, and a withdrawn player is not checked out.
    with event.capture(execute=True):
        services.withdraw(actor=event.director, tournament=t, players=[gus])
    assert not selectors.checked_in(t, 3).filter(player=gus).exists()
    with pytest.raises(InvalidInput):
        services.check_out(actor=event.director, tournament=t, players=[gus])
    with pytest.raises(NotAllowed):
        services.check_out(actor=member(event.club), tournament=t, players=[ann])
    with pytest.raises(InvalidInput):  # not registered
        services.check_out(actor=event.director, tournament=t, players=[event.players[7]])


def test_a_swap_conflict_names_the_table_where_the_pair_met(event):
    t = event.tournament(rounds=3, round_deals=1)
    round1 = first_round_published(event, t)
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round1, force=True)
    round2 = event.seat(t)
    arrange(event, round2, [["Dee", "Cy", "Fay"], ["Ann", "Eve", "Bob"]])
    messages = {c.names: c for c in selectors.round_conflicts(round2)}
    # Ann and Bob now sit at table 2, but they met at table 1 of round 1.
    ann_bob = messages[("Ann", "Bob")]
    assert ann_bob.message == "Ann and Bob already met at table 1 of round 1"
    assert (ann_bob.table, ann_bob.met_at) == (2, ((1, 1),))
    assert messages[("Dee", "Fay")].message == "Dee and Fay already met at table 2 of round 1"
    assert ann_bob.as_dict()["met_at"] == [{"round": 1, "table": 1}]


def test_close_refusals_use_the_words_of_the_close_button(event):
    t = event.tournament(round_deals=1)
    event.enter(t, 6)
    round = event.publish(event.seat(t))
    with pytest.raises(Conflict) as caught:
        services.round_close(actor=event.director, round=round)
    assert caught.value.message.startswith(
        "round 1 is not closed: tables 1 and 2 have not confirmed; close it now with force"
    )
    assert caught.value.details == {"unconfirmed": [1, 2]}
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round, force=True)
    with pytest.raises(Conflict) as again:
        services.round_close(actor=event.director, round=round, force=True)
    assert again.value.message == "round 1 is closed already"
    assert services.unconfirmed_text([3]) == "table 3 has not confirmed"


def test_settings_that_do_not_apply_are_ignored(event):
    t = event.tournament(
        name="Plain",
        placing_points=[-1],  # not the placing system: ignored, not refused
        bye_points=7,  # byes score the round's average: ignored
        grace_minutes=500,  # not a timed round: ignored
        round_minutes=30,
    )
    assert [float(v) for v in t.placing_points] == [3, 1, 0]
    assert (float(t.bye_points), t.grace_minutes, t.round_minutes) == (0, 10, None)
    with pytest.raises(InvalidInput):  # where they apply they are checked
        event.tournament(name="Placing", points_system="placing", placing_points=[-1])


@pytest.mark.parametrize("rated", [True, False])
def test_a_tournament_may_leave_its_games_out_of_the_ratings(event: Event, rated: bool) -> None:
    tournament = event.tournament(rated=rated)
    event.enter(tournament, 6)
    round = event.publish(event.seat(tournament))
    games = [table.game for table in round.tables.select_related("game")]
    assert games and all(game.rated is rated for game in games)


def test_a_season_a_tournament_counts_in_is_not_deleted(event: Event) -> None:
    admin = member(event.club, Role.ADMIN)
    season = core.season_create(
        actor=admin,
        club=event.club,
        name="Cup season",
        starts_on=datetime.date(2090, 1, 1),
        ends_on=datetime.date(2090, 12, 31),
    )
    event.tournament(season=season)
    with pytest.raises(Conflict, match="a tournament counts in Cup season"):
        core.season_delete(actor=admin, season=season)
    assert core_selectors.seasons_of(event.club).filter(pk=season.pk).exists()
    # the seasons page does not offer to delete it; a season nothing counts in, it does
    spare = core.season_create(
        actor=admin,
        club=event.club,
        name="Spare season",
        starts_on=datetime.date(2091, 1, 1),
        ends_on=datetime.date(2091, 12, 31),
    )
    held = {s.name: s.held for s in core_selectors.seasons_with_game_counts(event.club)}
    assert held["Cup season"] is True and held["Spare season"] is False
    client = Client()
    client.force_login(admin)
    page = client.get(reverse("club-seasons", args=[event.club.slug])).content.decode()
    assert reverse("season-delete", args=[event.club.slug, spare.pk]) in page
    assert reverse("season-delete", args=[event.club.slug, season.pk]) not in page
    assert "A tournament counts in it: it is kept." in page
