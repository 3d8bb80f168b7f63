"""Health checks shared by the ``/healthz`` view and the Celery health task."""

from django.db import DatabaseError, connection


def check_database() -> str:
    """Return ``"ok"`` when ``SELECT 1`` succeeds, else a short error description."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            row = cursor.fetchone()
    except DatabaseError as exc:
        return f"error: {exc.__class__.__name__}: {exc}".strip()
    if row is None or row[0] != 1:
        return f"error: unexpected result {row!r}"
    return "ok"


def run_checks() -> dict[str, str]:
    """Run every check; each value is ``"ok"`` or an error description."""
    return {"database": check_database()}


def all_ok(results: dict[str, str]) -> bool:
    return all(value == "ok" for value in results.values())
