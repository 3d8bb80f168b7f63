"""The background jobs services ask for: one typed helper per job, each storing its Celery
task in the job outbox (:mod:`scorekeeper.outbox`) in the current transaction and handing it
to the broker once that commits.

The tasks call the services, so the services cannot import them; each task registers
itself with its app's :class:`Jobs` under the job's name when the app is ready, and a
helper refuses a name nobody registered. A broker that is down is tried for about a second,
logged, and the job left to the outbox's relay; a job that fails in-process is logged: neither
turns a committed write into an error (``robust``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, Literal, TypeVar

from . import outbox

Name = TypeVar("Name", bound=str)


class Jobs(Generic[Name]):
    """An app's jobs: their names, and the task registered for each."""

    def __init__(self, names: Iterable[Name]) -> None:
        self.names = tuple(names)
        self._tasks: dict[str, Any] = {}

    def register(self, name: Name, task: Any) -> None:
        """Make ``task`` (a Celery task) the one sent for job ``name``."""
        if name not in self.names:
            raise ValueError(f"unknown job {name!r}")
        self._tasks[name] = task

    def task(self, name: Name) -> Any:
        """The task registered for job ``name`` (``LookupError`` if none is)."""
        try:
            return self._tasks[name]
        except KeyError:
            raise LookupError(f"no task is registered for the job {name!r}") from None

    def send(self, name: Name, *args: int, in_process: bool = False, here: bool = False) -> None:
        """Store job ``name`` with ``args`` in the outbox and send it once the current
        transaction commits; with ``in_process`` (someone is waiting for it) it runs in this
        process when the broker does not take it, with ``here`` in this process anyway."""
        outbox.enqueue(self.task(name), list(args), in_process=in_process, here=here)


CoreJob = Literal["ratings_recompute", "send_email"]
JOBS: Jobs[CoreJob] = Jobs(("ratings_recompute", "send_email"))
register = JOBS.register


def ratings_recompute(job_id: int) -> None:
    JOBS.send("ratings_recompute", job_id)


def send_email(email_id: int) -> None:
    JOBS.send("send_email", email_id)
