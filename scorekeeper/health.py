"""Health checks shared by the ``/healthz`` view and the Celery health task.

Each check answers ``"ok"`` or a short error description, on its own: the database (without
it nothing works: ``/healthz`` answers 503), the broker and the cache (without them the
site still works — jobs wait in the outbox, rate limits fail open — so they are reported,
and ``status`` says ``degraded``, with a 200). ``jobs_waiting`` counts the outbox's jobs the
broker has not taken for a minute or more: what to watch besides the three.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from celery import current_app
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.utils import timezone

CHECKS = ("database", "broker", "cache")
WAITING_AFTER = timedelta(minutes=1)


def _error(exc: BaseException) -> str:
    return f"error: {exc.__class__.__name__}: {exc}".strip()[:300]


def check_database() -> str:
    """Return ``"ok"`` when ``SELECT 1`` succeeds, else a short error description."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            row = cursor.fetchone()
    except DatabaseError as exc:
        return _error(exc)
    if row is None or row[0] != 1:
        return f"error: unexpected result {row!r}"
    return "ok"


def check_broker() -> str:
    """``"ok"`` when the broker takes a connection within its timeout; ``"in-process"``
    without one (the embedded default runs jobs in the web process)."""
    conf = current_app.conf
    if conf.task_always_eager:
        return "in-process"
    try:
        with current_app.connection_for_write() as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, timeout=conf.broker_connection_timeout
            )
            conn.default_channel  # noqa: B018  (opens the channel: a real round trip)
    except Exception as exc:  # noqa: BLE001  (any failure is the broker's state)
        return _error(exc)
    return "ok"


def check_cache() -> str:
    """``"ok"`` when the cache stores and returns a value."""
    key = f"healthz:{uuid.uuid4().hex}"
    try:
        cache.set(key, "1", timeout=10)
        value = cache.get(key)
        cache.delete(key)
    except Exception as exc:  # noqa: BLE001  (any failure is the cache's state)
        return _error(exc)
    return "ok" if value == "1" else "error: the value was not kept"


def jobs_waiting() -> int | None:
    """The outbox's jobs written a minute ago or more that the broker has not taken yet
    (None when the database does not answer)."""
    from .models import OutboxJob

    cutoff = timezone.now() - WAITING_AFTER
    try:
        return OutboxJob.objects.filter(sent_at__isnull=True, created_at__lt=cutoff).count()
    except DatabaseError:
        return None


def run_checks() -> dict[str, str]:
    """Run every check; each value is ``"ok"`` or an error description (the broker's may
    be ``"in-process"``)."""
    return {"database": check_database(), "broker": check_broker(), "cache": check_cache()}


def database_ok(results: dict[str, str]) -> bool:
    return results.get("database") == "ok"


def all_ok(results: dict[str, str]) -> bool:
    return all(value in ("ok", "in-process") for value in results.values())


def report() -> tuple[dict[str, Any], int]:
    """``/healthz``'s body and status: 503 when the database is away, else 200 (with
    ``status`` ``degraded`` when the broker or the cache is)."""
    results = run_checks()
    body: dict[str, Any] = dict(results)
    if not database_ok(results):
        body["status"] = "down"
    else:
        body["status"] = "ok" if all_ok(results) else "degraded"
        body["jobs_waiting"] = jobs_waiting()
    return body, 200 if database_ok(results) else 503
