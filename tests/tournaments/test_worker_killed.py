"""A worker killed in the middle of seating a round, or of closing one at its time limit,
leaves nothing half-done: the job goes back to the broker, a new worker runs it again, and
the round ends seated (or closed) once, as a run nobody disturbed would leave it.

Each test starts a Redis of its own (never the shared one) and real Celery workers in their
own processes, pointed at the test database; the job is paused inside by
``tests.jobs.pause`` and its worker killed with SIGKILL. Needs ``redis-server`` and the
suite's PostgreSQL + Redis run (``CELERY_BROKER_URL`` and a PostgreSQL ``DATABASE_URL``, as
in CI's second pass); skipped, saying why, otherwise."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from scorekeeper.celery import app
from scorekeeper.models import Club, OutboxJob, Player, Role
from tests.broker import HAVE_REDIS, Workers, celery_broker, redis_server, wait_for_file
from tests.factories import ClubFactory, PlayerFactory, member
from tests.support import using_broker
from tests.tournaments.helpers import EVEN, WIN, play, tables, widow_whist_cup
from tournaments import models, points, seating_adapter, selectors, services
from tournaments.services._base import _decimal
from tournaments.services.rounds import _seating_request
from tournaments.tasks import close_due_rounds

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.skipif(not HAVE_REDIS, reason="redis-server is not installed on this machine"),
    pytest.mark.skipif(
        not using_broker(), reason="CELERY_BROKER_URL is unset: no broker, no worker to kill"
    ),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="the workers share the test database: needs a PostgreSQL DATABASE_URL",
    ),
    pytest.mark.django_db(transaction=True),
]

VISIBILITY = "3"  # seconds before Redis hands a dead worker's job to another


@dataclass
class Setup:
    folder: Path
    start: Callable[[], Any]
    kill: Callable[[Any], None]


def _database_url() -> str:
    db = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return (
        f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/"
        f"{db['NAME']}"
    )


def _workers(tmp_path: Path, at: str) -> Iterator[Setup]:
    folder = tmp_path / "pause"
    folder.mkdir()
    with redis_server(tmp_path) as redis, celery_broker(redis.url):
        workers = Workers("tests.jobs.pause")
        env = {
            "CELERY_BROKER_URL": redis.url,
            "DATABASE_URL": _database_url(),
            "CELERY_VISIBILITY_TIMEOUT": VISIBILITY,
            "PAUSE_AT": at,
            "PAUSE_DIR": str(folder),
        }
        try:
            yield Setup(folder, lambda: workers.start(**env), workers.kill)
        finally:
            workers.stop()


@pytest.fixture
def seating_workers(tmp_path: Path) -> Iterator[Setup]:
    yield from _workers(tmp_path, "seating")


@pytest.fixture
def closing_workers(tmp_path: Path) -> Iterator[Setup]:
    yield from _workers(tmp_path, "closing")


def _wait_until(check: Callable[[], bool], seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"not done within {seconds} s"
        time.sleep(0.2)


def _kill_mid_job(setup: Setup, worker: Any) -> None:
    """Kill the worker once its job is paused inside; start a new one past the broker's
    visibility timeout."""
    wait_for_file(setup.folder / "started-1", 60)
    setup.kill(worker)
    time.sleep(float(VISIBILITY) + 0.5)
    setup.start()


def _club() -> tuple[Club, Any, list[Player]]:
    club = ClubFactory()
    director = member(club, Role.DIRECTOR)
    return club, director, [PlayerFactory(club=club) for _ in range(6)]


def _places(round: models.Round) -> list[tuple[int, int, int]]:
    """(table number, seat, player) of everyone in the round; 0, 0 for a bye."""
    return sorted(
        (place.table.number if place.table else 0, place.position or 0, place.player_id)
        for place in models.RoundPlayer.objects.filter(round=round).select_related("table")
    )


def test_a_worker_killed_while_seating_a_round(seating_workers: Setup) -> None:
    club, director, players = _club()
    tournament = widow_whist_cup(director, club, "Killed seating cup", players)
    worker = seating_workers.start()
    round, sent = services.round_request(actor=director, tournament=tournament)
    assert sent

    wait_for_file(seating_workers.folder / "started-1", 60)
    round.refresh_from_db()
    assert (round.status, round.seating_status) == (
        models.RoundStatus.SEATING,
        models.SeatingStatus.RUNNING,
    )
    _kill_mid_job(seating_workers, worker)
    assert not models.Table.objects.filter(round=round).exists()  # nothing half-written

    _wait_until(lambda: models.Round.objects.get(pk=round.pk).status == models.RoundStatus.SEATED)
    round.refresh_from_db()
    assert round.seating_status == models.SeatingStatus.DONE and round.seating_progress == 100
    # Seated once: 6 players at two tables of 3, nobody twice, no table twice.
    numbers = list(models.Table.objects.filter(round=round).values_list("number", flat=True))
    assert sorted(numbers) == [1, 2]
    places = _places(round)
    assert len(places) == 6 and len({player for *_, player in places}) == 6
    # As an undisturbed run seats it (the seating is seeded by tournament and round).
    plan = seating_adapter.plan_round(_seating_request(tournament, round))
    expected = [
        (number, position, player)
        for number, table in enumerate(plan.tables, start=1)
        for position, player in enumerate(table.players)
    ] + [(0, 0, player) for player in plan.byes]
    assert places == sorted(expected)
    started = sorted(p.name for p in seating_workers.folder.glob("started-*"))
    assert started == ["started-1", "started-2"]  # ran again once, not more
    _wait_until(
        lambda: OutboxJob.objects.get(task="tournaments.seat_round").done_at is not None, 30
    )


def _playing(
    director: Any, club: Club, players: list[Player]
) -> tuple[models.Tournament, models.Round]:
    """Round 1 seated (in the web process: no pause), published and played to the end at
    every table, its time limit past."""
    tournament = widow_whist_cup(director, club, "Killed closing cup", players)
    app.conf.task_always_eager = True  # seated here, now (no worker, no pause)
    try:
        round, _ = services.round_request(actor=director, tournament=tournament)
    finally:
        app.conf.task_always_eager = False
    round.refresh_from_db()
    assert round.status == models.RoundStatus.SEATED
    round = services.round_publish(actor=director, round=round, notify=False)
    for index, table in enumerate(tables(round)):
        play(table, [WIN[index % 3], EVEN, WIN[(index + 1) % 3]])
    past = timezone.now() - timedelta(minutes=1)
    models.Round.objects.filter(pk=round.pk).update(time_called_at=past, deadline=past)
    return tournament, round


def test_a_worker_killed_while_closing_a_round(closing_workers: Setup) -> None:
    club, director, players = _club()
    tournament, round = _playing(director, club, players)
    worker = closing_workers.start()
    close_due_rounds.delay()  # the clock's tick

    wait_for_file(closing_workers.folder / "started-1", 60)
    _kill_mid_job(closing_workers, worker)
    round.refresh_from_db()
    assert round.status == models.RoundStatus.PLAYING  # the half-done close was rolled back
    assert not models.RoundPlayer.objects.filter(round=round, points__isnull=False).exists()
    close_due_rounds.delay()  # the clock ticks again while the job waits to be handed back

    _wait_until(lambda: models.Round.objects.get(pk=round.pk).status == models.RoundStatus.CLOSED)
    _wait_until(
        lambda: models.Standing.objects.filter(tournament=tournament).count() == len(players)
    )
    round.refresh_from_db()
    assert round.close_reason == models.CloseReason.TIME and round.closed_by is None
    # Scored as an undisturbed close scores it, and the standings hold the round once.
    rule = selectors.points_rule(tournament)
    given = points.round_points(selectors.round_result(round), rule)
    stored = {p.player_id: p.points for p in models.RoundPlayer.objects.filter(round=round)}
    assert stored == {player: _decimal(value) for player, value in given.items()}
    for standing in models.Standing.objects.filter(tournament=tournament):
        assert standing.rounds_played + standing.byes == 1
        assert standing.points == stored[standing.player_id]
    assert len(list(closing_workers.folder.glob("started-*"))) == 2  # closed once more, once
