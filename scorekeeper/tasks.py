"""Celery tasks of the score-keeping app."""

from smtplib import SMTPException
from typing import Any

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError, close_old_connections

from . import jobs, outbox
from .health import run_checks
from .services.mail import email_send, emails_unsent
from .services.ratings import ratings_recompute as recompute

AnyTask = Task[Any, Any]


@shared_task(name="scorekeeper.health_check")
def health_check_task() -> dict[str, str]:
    """Run the same checks as ``/healthz`` inside a worker (or in-process when eager)."""
    try:
        return run_checks()
    finally:
        # Workers are not request/response cycles: drop stale or per-task connections.
        close_old_connections()


@shared_task(
    name="scorekeeper.ratings_recompute",
    bind=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def ratings_recompute(self: AnyTask, job_id: int) -> dict[str, Any]:
    """Rate a club's games of one type again from the job's start (idempotent: a job done
    is left alone, one that died half-way carries on from what is stored)."""
    try:
        job = recompute(job_id=job_id)
        return {"job": job_id, "status": job.status if job else None}
    finally:
        if not self.request.is_eager:
            close_old_connections()


jobs.register("ratings_recompute", ratings_recompute)


@shared_task(
    name="scorekeeper.send_email",
    bind=True,
    autoretry_for=(OSError, SMTPException, OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=600,
    max_retries=8,
)
def send_email(self: AnyTask, email_id: int) -> bool:
    """Send a stored email (idempotent: one already sent is left alone). A mail server that
    is down is tried again later; the sweep picks up what ran out of tries."""
    try:
        return email_send(email_id=email_id)
    finally:
        if not self.request.is_eager:
            close_old_connections()


@shared_task(name="scorekeeper.send_unsent_email")
def send_unsent_email() -> int:
    """Beat: send again the emails that are still unsent a while after they were written."""
    ids = emails_unsent()
    for email_id in ids:
        send_email.delay(email_id)
    return len(ids)


jobs.register("send_email", send_email)


@shared_task(name="scorekeeper.relay_jobs")
def relay_jobs() -> dict[str, int]:
    """Beat, every 30 s: hand the outbox's jobs that the broker did not take to it again."""
    try:
        return outbox.relay()
    finally:
        close_old_connections()
