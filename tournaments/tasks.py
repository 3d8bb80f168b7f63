"""Celery tasks of tournaments: thin. Each takes ids, calls one service, and may run
twice without harm (the services are idempotent). They are sent with
``transaction.on_commit`` by the services. Only what can clear up is retried: a
database that is locked or away, a mail server that does not answer."""

from __future__ import annotations

import smtplib
from typing import Any

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError, close_old_connections

from . import jobs, services

AnyTask = Task[Any, Any]

RETRY: dict[str, Any] = {
    "bind": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 5,
}


def _tidy(task: AnyTask) -> None:
    """Workers are not request/response cycles: drop stale connections (not when the task
    ran in-process, inside the caller's transaction)."""
    if not task.request.is_eager:
        close_old_connections()


@shared_task(name="tournaments.seat_round", **RETRY)
def seat_round(self: AnyTask, tournament_id: int, number: int) -> dict[str, Any]:
    """Seat round ``number`` of the tournament (a round already seated is left alone)."""
    try:
        round = services.round_seat(tournament_id=tournament_id, number=number)
        return {"round": round.pk, "seating_status": round.seating_status}
    finally:
        _tidy(self)


@shared_task(name="tournaments.close_due_rounds", **RETRY)
def close_due_rounds(self: AnyTask) -> dict[str, int]:
    """Beat, every 15 s: call time on timed rounds and close those past their deadline."""
    try:
        return services.rounds_close_due()
    finally:
        _tidy(self)


@shared_task(name="tournaments.recompute_standings", **RETRY)
def recompute_standings(self: AnyTask, tournament_id: int) -> int:
    """Rebuild the tournament's standings rows."""
    try:
        return services.standings_recompute(tournament_id=tournament_id)
    finally:
        _tidy(self)


@shared_task(
    name="tournaments.notify_round",
    bind=True,
    autoretry_for=(
        OperationalError,
        InterfaceError,
        smtplib.SMTPException,
        ConnectionError,
        TimeoutError,
    ),
    retry_backoff=True,
    retry_backoff_max=120,  # below the broker's visibility timeout (settings)
    max_retries=5,
)
def notify_round(self: AnyTask, round_id: int) -> int:
    """Email the round's players where they sit (each once)."""
    try:
        return services.round_notify(round_id=round_id)
    finally:
        _tidy(self)


jobs.register("seat_round", seat_round)
jobs.register("recompute_standings", recompute_standings)
jobs.register("notify_round", notify_round)
