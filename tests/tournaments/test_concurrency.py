"""Two directors (or a retried job) asking at once: one round, nobody seated twice.

On PostgreSQL the tournament row is locked FOR UPDATE; on SQLite the IMMEDIATE
transaction takes the write lock at BEGIN."""

from __future__ import annotations

import pytest

from scorekeeper.models import Role
from tests.concurrency import run_together
from tests.factories import ClubFactory, PlayerFactory, member
from tests.tournaments.helpers import widow_whist_cup
from tournaments import jobs, services
from tournaments.models import Round, RoundPlayer, SeatingStatus

pytestmark = pytest.mark.django_db(transaction=True)


def test_asking_and_seating_at_once_makes_one_round(monkeypatch: pytest.MonkeyPatch) -> None:
    club = ClubFactory()
    director = member(club, Role.DIRECTOR)
    players = [PlayerFactory(club=club) for _ in range(7)]
    tournament = widow_whist_cup(director, club, "Rush", players)
    monkeypatch.setattr(jobs, "seat_round", lambda *args, **kwargs: None)  # the jobs run below
    asked = run_together(
        [lambda: services.round_request(actor=director, tournament=tournament)[0].pk] * 2
    )
    assert asked[0] == asked[1] and isinstance(asked[0], int)
    assert Round.objects.get(pk=asked[0]).seating_status == SeatingStatus.QUEUED
    seated = run_together(
        [lambda: services.round_seat(tournament_id=tournament.pk, number=1).pk] * 3
    )
    assert seated == [asked[0]] * 3
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Round.objects.get(pk=asked[0]).seating_status == SeatingStatus.DONE
    assert RoundPlayer.objects.filter(round__tournament=tournament).count() == 7
