"""Celery tasks of the score-keeping app."""

from typing import Any

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError, close_old_connections

from . import jobs
from .health import run_checks
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
