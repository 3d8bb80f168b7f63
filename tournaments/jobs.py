"""The background jobs the tournament services ask for: one typed helper per job, each
sending its Celery task once the current transaction commits.

The tasks (:mod:`tournaments.tasks`) call the services, so the services cannot import
them; instead each task registers itself here under its job's name when the app is
ready, and a helper refuses a name nobody registered.

Sending is robust: a broker that is down, or a job that fails in-process (no broker), is
logged and never turns a write that has committed into an error; every job can be sent
again (asking for the round again, the next round's close, the next publish).
"""

from __future__ import annotations

from typing import Any, Literal

from django.db import transaction

Job = Literal["seat_round", "recompute_standings", "notify_round"]
JOBS: tuple[Job, ...] = ("seat_round", "recompute_standings", "notify_round")

_tasks: dict[str, Any] = {}


def register(name: Job, task: Any) -> None:
    """Make ``task`` (a Celery task) the one sent for job ``name``."""
    if name not in JOBS:
        raise ValueError(f"unknown job {name!r}")
    _tasks[name] = task


def _send(name: Job, *args: int) -> None:
    try:
        task = _tasks[name]
    except KeyError:
        raise LookupError(f"no task is registered for the job {name!r}") from None
    transaction.on_commit(lambda: task.delay(*args), robust=True)


def seat_round(tournament_id: int, number: int) -> None:
    _send("seat_round", tournament_id, number)


def recompute_standings(tournament_id: int) -> None:
    _send("recompute_standings", tournament_id)


def notify_round(round_id: int) -> None:
    _send("notify_round", round_id)
