"""The tournament jobs through a real Celery worker and broker (Redis), when one is
configured (CELERY_BROKER_URL); otherwise skipped, saying why. Elsewhere the jobs run
in-process."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from celery.contrib.testing.worker import start_worker
from celery.worker import WorkController
from django.conf import settings

from scorekeeper.celery import app
from scorekeeper.models import Role
from tests.factories import ClubFactory, PlayerFactory, member
from tests.support import using_broker
from tests.tournaments.helpers import widow_whist_cup
from tournaments import services, tasks
from tournaments.models import Round, RoundPlayer, SeatingStatus, Table

needs_broker = pytest.mark.skipif(
    not using_broker(),
    reason="CELERY_BROKER_URL is unset: no broker to start a real worker against "
    "(the tournament jobs run in-process in the other tests)",
)


def test_the_clock_is_on_the_beat_schedule() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["tournaments-close-due-rounds"]
    assert entry["task"] == "tournaments.close_due_rounds" == tasks.close_due_rounds.name
    assert entry["schedule"] == 15.0  # a round closes at most 15 s after its deadline
    assert {
        "tournaments.seat_round",
        "tournaments.close_due_rounds",
        "tournaments.recompute_standings",
        "tournaments.notify_round",
    } <= set(app.tasks)


@pytest.fixture
def celery_worker() -> Iterator[WorkController]:
    app.control.purge()  # drop leftovers from an interrupted earlier run
    # No ping check: it reads a task's result, and no results are stored. Jobs sent before
    # the worker is ready wait in the broker.
    with start_worker(app, pool="solo", concurrency=1, perform_ping_check=False) as worker:
        yield worker


def _wait_for_seating(round: Round, seconds: float = 30) -> Round:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        round.refresh_from_db()
        if round.seating_status in (SeatingStatus.DONE, SeatingStatus.FAILED):
            return round
        time.sleep(0.1)
    pytest.fail(f"the worker did not seat the round in {seconds}s ({round.seating_status})")


@needs_broker
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_seats_a_round(celery_worker: WorkController) -> None:
    assert app.conf.task_always_eager is False
    club = ClubFactory()
    director = member(club, Role.DIRECTOR)
    players = [PlayerFactory(club=club) for _ in range(7)]
    tournament = widow_whist_cup(director, club, "Worker cup", players)
    # Committed: the seating job goes to the broker, and the worker picks it up.
    round, queued = services.round_request(actor=director, tournament=tournament)
    assert queued and round.seating_status == SeatingStatus.QUEUED
    round = _wait_for_seating(round)
    assert round.seating_status == SeatingStatus.DONE, round.seating_error
    assert round.seating_progress == 100
    assert RoundPlayer.objects.filter(round=round).count() == 7
    assert Table.objects.filter(round=round).count() == 2
    # Run again (a retry, a message handed over twice): no second round, nobody seated twice.
    assert tasks.seat_round.apply(args=(tournament.pk, 1)).get() == {
        "round": round.pk,
        "seating_status": "done",
    }
    again, queued = services.round_request(actor=director, tournament=tournament)
    assert again.pk == round.pk and not queued
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert RoundPlayer.objects.filter(round__tournament=tournament).count() == 7


def test_every_job_the_services_send_has_its_task() -> None:
    from tournaments import jobs

    for name in jobs.JOBS:
        task = jobs.task(name)
        assert task is getattr(tasks, name) and task.name == f"tournaments.{name}"
    with pytest.raises(ValueError):
        jobs.register("no_such_job", tasks.seat_round)  # type: ignore[arg-type]


def test_every_job_of_the_core_has_its_task() -> None:
    from scorekeeper import jobs as core_jobs
    from scorekeeper import tasks as core_tasks

    for name in core_jobs.JOBS.names:
        task = core_jobs.JOBS.task(name)
        assert task is getattr(core_tasks, name) and task.name == f"scorekeeper.{name}"
