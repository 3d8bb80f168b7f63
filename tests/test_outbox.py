"""The job outbox: every job a service asks for is stored with the change that asks for it;
one the broker does not take waits for the relay; seating runs in-process instead."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from kombu.exceptions import OperationalError as BrokerError

from scorekeeper import outbox
from scorekeeper.celery import app
from scorekeeper.models import OutboxJob, OutgoingEmail
from scorekeeper.services.mail import email_queue_text


@contextmanager
def _broker(
    monkeypatch: pytest.MonkeyPatch, send: Callable[[str], Callable[..., None]]
) -> Iterator[None]:
    """Jobs are sent to a broker (not run in-process): ``send(name)`` stands for the
    hand-over of the task ``name`` (until ``monkeypatch`` is undone)."""
    before = app.conf.task_always_eager
    app.conf.task_always_eager = False
    for name in ("scorekeeper.send_email", "tournaments.seat_round"):
        monkeypatch.setattr(app.tasks[name], "apply_async", send(name))
    try:
        yield
    finally:
        app.conf.task_always_eager = before


@pytest.fixture
def broker_down(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Jobs are sent to a broker, and the broker refuses them."""
    refused: list[str] = []

    def refuser(name: str) -> Callable[..., None]:
        def refuse(*args: Any, **kwargs: Any) -> None:
            refused.append(name)
            raise BrokerError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")

        return refuse

    with _broker(monkeypatch, refuser):
        yield refused


@pytest.mark.django_db(transaction=True)
def test_a_job_is_stored_and_marked_sent_once_handed_over(tasks_in_process: None) -> None:
    email = email_queue_text(to=["ann@example.com"], subject="Hello", body="Hi")
    job = OutboxJob.objects.get()
    assert (job.task, job.args) == ("scorekeeper.send_email", [email.pk])
    assert job.sent_at is not None and job.attempts == 0
    email.refresh_from_db()
    assert email.sent_at is not None  # ran in-process


@pytest.mark.django_db(transaction=True)
def test_a_job_the_broker_refuses_waits_for_the_relay(
    broker_down: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    email = email_queue_text(to=["ann@example.com"], subject="Hello", body="Hi")
    job = OutboxJob.objects.get()
    assert job.sent_at is None and job.attempts == 1
    assert job.error.startswith("OperationalError: Error 111")
    assert broker_down == ["scorekeeper.send_email"]
    # Too young for the relay: the request that wrote it may still be sending it.
    assert outbox.relay() == {"sent": 0, "failed": 0, "resent": 0}
    assert outbox.relay(older_than=timedelta(0)) == {"sent": 0, "failed": 1, "resent": 0}

    monkeypatch.undo()  # the broker is back (and runs jobs in-process here)
    app.conf.task_always_eager = True
    out = StringIO()
    call_command("relay_jobs", "--older-than", "0", stdout=out)
    assert out.getvalue().strip() == "1 sent, 0 sent again (not done), 0 failed, 0 waiting"
    job.refresh_from_db()
    email.refresh_from_db()
    assert job.sent_at is not None and email.sent_at is not None


@pytest.mark.django_db(transaction=True)
def test_the_relay_stops_at_the_first_refusal_and_keeps_the_order(broker_down: list[str]) -> None:
    for n in range(3):
        email_queue_text(to=["ann@example.com"], subject=f"Mail {n}", body="Hi")
    # the first refusal: the broker is taken as away, the next two wait without trying
    assert len(broker_down) == 1
    assert OutboxJob.objects.filter(attempts=1).count() == 3
    assert outbox.relay(older_than=timedelta(0)) == {"sent": 0, "failed": 1, "resent": 0}
    assert len(broker_down) == 2  # the relay tries, once, not three times: the broker is away
    assert OutboxJob.objects.filter(sent_at__isnull=True).count() == 3
    assert OutgoingEmail.objects.filter(sent_at__isnull=True).count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_job_of_an_unknown_task_is_reported_not_run() -> None:
    job = OutboxJob.objects.create(task="scorekeeper.no_such_task", args=[1])
    assert outbox.relay(older_than=timedelta(0)) == {"sent": 0, "failed": 1, "resent": 0}
    job.refresh_from_db()
    assert job.sent_at is None and "no task named" in job.error


@pytest.mark.django_db(transaction=True)
def test_sent_jobs_are_forgotten_after_a_week() -> None:
    old = OutboxJob.objects.create(task="scorekeeper.send_email", args=[1])
    OutboxJob.objects.filter(pk=old.pk).update(sent_at=old.created_at - timedelta(days=8))
    recent = OutboxJob.objects.create(task="scorekeeper.send_email", args=[2])
    OutboxJob.objects.filter(pk=recent.pk).update(sent_at=recent.created_at)
    outbox.relay()
    assert list(OutboxJob.objects.values_list("pk", flat=True)) == [recent.pk]


def test_a_job_needs_its_task_in_the_database_too(db: None) -> None:
    from django.db import IntegrityError

    with pytest.raises(IntegrityError):
        OutboxJob.objects.create(task="", args=[])


@pytest.fixture
def broker_takes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, list[int]]]]:
    """Jobs are sent to a broker that takes them (and, like one that lost them in a restart,
    never runs them)."""
    taken: list[tuple[str, list[int]]] = []

    def taker(name: str) -> Callable[..., None]:
        def take(*args: Any, **kwargs: Any) -> None:
            taken.append((name, list(kwargs["args"])))

        return take

    with _broker(monkeypatch, taker):
        yield taken


def _sent_ago(job: OutboxJob, seconds: float) -> None:
    OutboxJob.objects.filter(pk=job.pk).update(sent_at=job.created_at - timedelta(seconds=seconds))


def _two_jobs(first: str, second: str) -> tuple[OutboxJob, OutboxJob]:
    """Two emails queued, to Ann (subject ``first``) and then Bob (``second``): their jobs."""
    email_queue_text(to=["ann@example.com"], subject=first, body="Hi")
    email_queue_text(to=["bob@example.com"], subject=second, body="Hi")
    ann, bob = OutboxJob.objects.order_by("pk")
    return ann, bob


@pytest.mark.django_db(transaction=True)
def test_a_job_sent_but_never_done_is_handed_over_again_a_few_times(
    broker_takes: list[tuple[str, list[int]]], settings: Any
) -> None:
    settings.JOB_RESEND_SECONDS = 30
    email = email_queue_text(to=["ann@example.com"], subject="Hello", body="Hi")
    job = OutboxJob.objects.get()
    assert broker_takes == [("scorekeeper.send_email", [email.pk])]
    assert job.sent_at is not None and job.done_at is None
    # Just sent: the worker may be on it.
    assert outbox.relay(older_than=timedelta(0)) == {"sent": 0, "failed": 0, "resent": 0}

    for n in range(1, outbox.RESENDS + 1):
        _sent_ago(job, 31)
        assert outbox.relay() == {"sent": 0, "failed": 0, "resent": 1}
        job.refresh_from_db()
        assert job.resent == n and job.sent_at > job.created_at  # counts as sent now
    assert len(broker_takes) == 1 + outbox.RESENDS
    _sent_ago(job, 31)
    assert outbox.relay() == {"sent": 0, "failed": 0, "resent": 0}  # left to a person
    job.refresh_from_db()
    assert job.done_at is None and len(broker_takes) == 1 + outbox.RESENDS


@pytest.mark.django_db(transaction=True)
def test_a_job_done_or_asked_for_long_ago_is_not_handed_over_again(
    broker_takes: list[tuple[str, list[int]]],
) -> None:
    done, old = _two_jobs("Done", "Old")
    outbox.done(done.pk)
    _sent_ago(done, 600)
    OutboxJob.objects.filter(pk=old.pk).update(
        created_at=old.created_at - timedelta(hours=2),
        sent_at=old.created_at - timedelta(hours=2),
    )
    assert outbox.relay() == {"sent": 0, "failed": 0, "resent": 0}
    assert len(broker_takes) == 2  # the first hand-overs only


@pytest.mark.django_db(transaction=True)
def test_a_resend_the_broker_refuses_waits_for_the_next_relay(
    broker_takes: list[tuple[str, list[int]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    email_queue_text(to=["ann@example.com"], subject="Hello", body="Hi")
    job = OutboxJob.objects.get()
    _sent_ago(job, 600)

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise BrokerError("Error 111 connecting to 127.0.0.1:6399. Connection refused.")

    monkeypatch.setattr(app.tasks["scorekeeper.send_email"], "apply_async", refuse)
    assert outbox.relay() == {"sent": 0, "failed": 1, "resent": 0}
    job.refresh_from_db()
    assert job.resent == 0 and job.error.startswith("OperationalError")


@pytest.mark.django_db(transaction=True)
def test_a_resend_of_a_job_no_task_runs_counts_as_failed_and_the_relay_goes_on(
    broker_takes: list[tuple[str, list[int]]],
) -> None:
    gone, kept = _two_jobs("Gone", "Kept")
    OutboxJob.objects.filter(pk=gone.pk).update(task="scorekeeper.no_such_task")
    _sent_ago(gone, 600)
    _sent_ago(kept, 300)
    assert outbox.relay() == {"sent": 0, "failed": 1, "resent": 1}
    gone.refresh_from_db()
    assert gone.resent == outbox.RESENDS and "no task named" in gone.error
    assert len(broker_takes) == 3 and broker_takes[-1] == broker_takes[1]  # the kept one again
    kept.refresh_from_db()
    assert kept.resent == 1
