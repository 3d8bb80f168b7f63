"""A broker that is down loses no job and holds no request: the job is stored with the
change that asks for it (the outbox) and sent when the broker is back; seating a round,
which the director waits for, is done in the web process. Against a Redis of the test's own
that it stops and starts again (never the shared one), with a real worker."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from celery.contrib.testing.worker import start_worker
from django.core.management import call_command
from django.db import transaction

from scorekeeper import outbox
from scorekeeper.celery import app
from scorekeeper.models import OutboxJob, OutgoingEmail, Role
from scorekeeper.services.mail import email_queue_text
from tests.api.helpers import client_for
from tests.broker import HAVE_REDIS, RedisServer, celery_broker, redis_server
from tests.factories import ClubFactory, PlayerFactory, member
from tests.tournaments.helpers import widow_whist_cup
from tournaments.models import Round, RoundPlayer, SeatingStatus

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.skipif(not HAVE_REDIS, reason="redis-server is not installed on this machine"),
]


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[RedisServer]:
    with redis_server(tmp_path) as server, celery_broker(server.url):
        yield server


def _wait_until(check: object, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.1)
    pytest.fail(f"not done within {seconds} s")


@pytest.mark.django_db(transaction=True)
def test_seating_a_round_with_the_broker_down_is_quick_and_done_in_process(
    redis: RedisServer,
) -> None:
    club = ClubFactory()
    director = member(club, Role.DIRECTOR)
    players = [PlayerFactory(club=club) for _ in range(7)]
    tournament = widow_whist_cup(director, club, "Outage cup", players)
    redis.stop()

    started = time.monotonic()
    response = client_for(director).post(
        f"/api/v1/tournaments/{tournament.pk}/rounds/", {}, format="json"
    )
    took = time.monotonic() - started

    assert response.status_code == 202
    assert response.json()["seating_status"] == "done"  # seated in the web process
    assert took < 5, f"the request took {took:.1f} s"  # ~1 s for the broker, then seating
    round = Round.objects.get(tournament=tournament, number=1)
    assert round.seating_status == SeatingStatus.DONE
    assert RoundPlayer.objects.filter(round=round).count() == 7
    job = OutboxJob.objects.get(task="tournaments.seat_round")
    assert job.args == [tournament.pk, 1] and job.sent_at is not None


@pytest.mark.django_db(transaction=True)
def test_a_job_asked_for_while_the_broker_is_down_is_sent_when_it_is_back(
    redis: RedisServer,
) -> None:
    redis.stop()
    started = time.monotonic()
    email = email_queue_text(to=["ann@example.com"], subject="Seated", body="Table 2")
    took = time.monotonic() - started
    assert took < 1.5, f"writing the email took {took:.1f} s with the broker down"
    job = OutboxJob.objects.get(task="scorekeeper.send_email", args=[email.pk])
    assert job.sent_at is None and job.attempts == 1 and "Error" in job.error

    # Still down: the relay leaves it waiting, quickly.
    assert outbox.relay(older_than=timedelta(0)) == {"sent": 0, "failed": 1, "resent": 0}

    redis.start()  # the broker is back; nothing was restarted in this process
    with start_worker(app, pool="solo", concurrency=1, perform_ping_check=False):
        call_command("relay_jobs", "--older-than", "0")
        job.refresh_from_db()
        assert job.sent_at is not None
        _wait_until(lambda: OutgoingEmail.objects.get(pk=email.pk).sent_at is not None)
        # A new job goes straight through: the web process recovered by itself.
        second = email_queue_text(to=["bob@example.com"], subject="Seated", body="Table 1")
        assert OutboxJob.objects.get(args=[second.pk]).sent_at is not None
        _wait_until(lambda: OutgoingEmail.objects.get(pk=second.pk).sent_at is not None)
    assert OutgoingEmail.objects.get(pk=email.pk).attempts == 1  # sent once


@contextmanager
def _silent_broker() -> Iterator[str]:
    """A "Redis" that takes connections and never answers (a half-dead server, a firewall
    dropping packets): the URL of it."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            with contextlib.suppress(OSError):
                held.append(listener.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"redis://127.0.0.1:{listener.getsockname()[1]}/0"
    finally:
        stop.set()
        thread.join()
        for connection in held:
            connection.close()
        listener.close()


@pytest.mark.django_db(transaction=True)
def test_a_broker_that_never_answers_holds_a_request_once_however_many_jobs_it_asks_for() -> None:
    with _silent_broker() as url, celery_broker(url):
        started = time.monotonic()
        with transaction.atomic():  # one request asking for three jobs
            emails = [
                email_queue_text(to=[f"p{n}@example.com"], subject="Seated", body=f"Table {n}")
                for n in range(3)
            ]
        took = time.monotonic() - started
        # one hand-over tried (BROKER_TIMEOUT, 1 s), the others left waiting at once
        assert took < 2.5, f"the request took {took:.1f} s"
        jobs = OutboxJob.objects.filter(task="scorekeeper.send_email")
        assert sorted(job.args[0] for job in jobs) == sorted(email.pk for email in emails)
        assert all(job.sent_at is None and job.attempts == 1 for job in jobs)
        # a moment later, the next request does not wait for it at all
        started = time.monotonic()
        email_queue_text(to=["late@example.com"], subject="Seated", body="Table 9")
        assert time.monotonic() - started < 0.5
