"""A job for the killed-worker tests, loaded into a real worker with ``-I tests.jobs.slow``:
the first time it runs it writes its process id and waits to be killed; the next time it
writes "done". Its files say how often it started and whether it finished."""

from __future__ import annotations

import os
import time
from pathlib import Path

from scorekeeper.celery import app


@app.task(name="tests.slow_once")
def slow_once(folder: str) -> str:
    where = Path(folder)
    runs = len(list(where.glob("started-*")))
    (where / f"started-{runs + 1}").write_text(str(os.getpid()))
    if runs == 0:
        time.sleep(120)  # killed before this ends
    (where / "done").write_text(str(runs + 1))
    return "done"


@app.task(name="tests.nap")
def nap(folder: str, seconds: float) -> str:
    """Write "started", sleep, write "done" (a job running while the broker goes away)."""
    where = Path(folder)
    (where / "started").write_text(str(os.getpid()))
    time.sleep(seconds)
    (where / "done").write_text("done")
    return "done"
