"""Celery: in-process (eager) by default; a real worker when a broker is configured."""

import time
from collections.abc import Iterator

import pytest
from celery.backends.base import DisabledBackend
from celery.contrib.testing.worker import start_worker
from celery.result import EagerResult
from celery.worker import WorkController

from scorekeeper.celery import app
from scorekeeper.models import OutboxJob
from scorekeeper.services.mail import email_queue_text
from scorekeeper.tasks import health_check_task
from tests.support import using_broker

needs_broker = pytest.mark.skipif(
    not using_broker(), reason="CELERY_BROKER_URL is unset: tasks run in-process (eager)"
)


@pytest.mark.django_db
@pytest.mark.skipif(using_broker(), reason="CELERY_BROKER_URL is set: not the eager default")
def test_tasks_run_in_process_without_broker() -> None:
    assert app.conf.task_always_eager is True
    assert app.conf.task_eager_propagates is True
    result = health_check_task.delay()
    assert isinstance(result, EagerResult)
    assert result.get(timeout=5) == {"database": "ok", "broker": "in-process", "cache": "ok"}


@pytest.fixture
def celery_worker() -> Iterator[WorkController]:
    app.control.purge()  # drop leftovers from an interrupted earlier run
    # No ping check: it reads a task's result, and no results are stored. Jobs sent before
    # the worker is ready wait in the broker.
    with start_worker(app, pool="solo", concurrency=1, perform_ping_check=False) as worker:
        yield worker


@needs_broker
@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_real_worker_round_trip(celery_worker: WorkController) -> None:
    """A job goes through the broker to the worker, which does it; its result is not stored
    (nobody reads it)."""
    assert app.conf.task_always_eager is False
    assert app.conf.task_ignore_result is True
    email = email_queue_text(to=["ann@example.com"], subject="Round trip", body="Hello")
    job = OutboxJob.objects.get(task="scorekeeper.send_email", args=[email.pk])
    assert job.sent_at is not None  # the broker took it when the write committed
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        email.refresh_from_db()
        if email.sent_at is not None:
            break
        time.sleep(0.1)
    assert email.sent_at is not None and email.attempts == 1
    assert isinstance(app.backend, DisabledBackend)  # no result is kept
