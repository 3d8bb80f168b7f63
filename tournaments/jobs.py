"""The background jobs the tournament services ask for: one typed helper per job, each
stored in the job outbox with the change that asks for it and sent once that commits.

The tasks (:mod:`tournaments.tasks`) call the services, so the services cannot import
them; instead each task registers itself here under its job's name when the app is
ready, and a helper refuses a name nobody registered.

Sending is robust: a broker that is down, or a job that fails in-process (no broker), is
logged and never turns a write that has committed into an error; the outbox's relay sends
the job once the broker is back. Seating a round, which the director waits for, runs in
the web process when the broker does not take it.
"""

from __future__ import annotations

from typing import Literal

from scorekeeper.jobs import Jobs

Job = Literal["seat_round", "recompute_standings", "notify_round"]
_JOBS: Jobs[Job] = Jobs(("seat_round", "recompute_standings", "notify_round"))
JOBS = _JOBS.names
register = _JOBS.register
task = _JOBS.task


def seat_round(tournament_id: int, number: int, *, here: bool = False) -> None:
    """The director is waiting: seated in the web process when the broker is away, or
    with ``here`` (trying again a seating no worker has started)."""
    _JOBS.send("seat_round", tournament_id, number, in_process=True, here=here)


def recompute_standings(tournament_id: int) -> None:
    _JOBS.send("recompute_standings", tournament_id)


def notify_round(round_id: int) -> None:
    _JOBS.send("notify_round", round_id)
