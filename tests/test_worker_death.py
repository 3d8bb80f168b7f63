"""A worker that dies holding a job does not strand it: the job runs again, once it is
handed back (a dead worker process at once, a whole dead worker after the broker's
visibility timeout). Needs a real broker; skipped, saying why, without one."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from scorekeeper.celery import app
from tests.broker import Workers, wait_for_file
from tests.support import using_broker

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.skipif(
        not using_broker(), reason="CELERY_BROKER_URL is unset: no broker, no worker to kill"
    ),
]

Start = Callable[..., subprocess.Popen[bytes]]


@pytest.fixture
def start_worker() -> Iterator[Start]:
    workers = Workers("tests.jobs.slow")
    app.control.purge()
    yield workers.start
    workers.stop()
    app.control.purge()


def test_a_killed_worker_process_gives_its_job_back_at_once(
    start_worker: Start, tmp_path: Path
) -> None:
    start_worker()
    app.send_task("tests.slow_once", args=[str(tmp_path)])
    child = int(wait_for_file(tmp_path / "started-1", 60))
    os.kill(child, signal.SIGKILL)  # the process running the job, as the OOM killer would
    assert wait_for_file(tmp_path / "done", 30) == "2"
    assert sorted(p.name for p in tmp_path.glob("started-*")) == ["started-1", "started-2"]


def test_a_whole_dead_worker_leaves_its_job_to_the_next_one(
    start_worker: Start, tmp_path: Path
) -> None:
    first = start_worker(CELERY_VISIBILITY_TIMEOUT="3")
    app.send_task("tests.slow_once", args=[str(tmp_path)])
    wait_for_file(tmp_path / "started-1", 60)
    os.killpg(first.pid, signal.SIGKILL)  # the machine went away: nothing acknowledged
    first.wait(timeout=10)
    assert not (tmp_path / "done").exists()
    time.sleep(3)  # past the visibility timeout
    start_worker(CELERY_VISIBILITY_TIMEOUT="3")
    assert wait_for_file(tmp_path / "done", 60) == "2"
