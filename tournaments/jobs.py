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

from typing import Literal

from scorekeeper.jobs import Jobs

Job = Literal["seat_round", "recompute_standings", "notify_round"]
_JOBS: Jobs[Job] = Jobs(("seat_round", "recompute_standings", "notify_round"))
JOBS = _JOBS.names
register = _JOBS.register
task = _JOBS.task


def seat_round(tournament_id: int, number: int) -> None:
    _JOBS.send("seat_round", tournament_id, number)


def recompute_standings(tournament_id: int) -> None:
    _JOBS.send("recompute_standings", tournament_id)


def notify_round(round_id: int) -> None:
    _JOBS.send("notify_round", round_id)
