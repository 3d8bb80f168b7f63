"""Celery tasks of the score-keeping app."""

from celery import shared_task
from django.db import close_old_connections

from .health import run_checks


@shared_task(name="scorekeeper.health_check")
def health_check_task() -> dict[str, str]:
    """Run the same checks as ``/healthz`` inside a worker (or in-process when eager)."""
    try:
        return run_checks()
    finally:
        # Workers are not request/response cycles: drop stale or per-task connections.
        close_old_connections()
