"""A worker that dies holding a job does not strand it: the job runs again, once it is
handed back (a dead worker process at once, a whole dead worker after the broker's
visibility timeout); and a worker does not die when Redis restarts under a running job.
Needs a real broker (the restart test: ``redis-server``, its own Redis); skipped, saying
why, without one."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.celery import app
from tests.broker import HAVE_REDIS, Workers, celery_broker, redis_server, wait_for_file
from tests.support import using_broker

needs_broker = pytest.mark.skipif(
    not using_broker(), reason="CELERY_BROKER_URL is unset: no broker, no worker to kill"
)
pytestmark = [pytest.mark.celery_worker]


@pytest.fixture
def workers() -> Iterator[Workers]:
    workers = Workers("tests.jobs.slow")
    app.control.purge()
    yield workers
    workers.stop()
    app.control.purge()


@needs_broker
def test_a_killed_worker_process_gives_its_job_back_at_once(
    workers: Workers, tmp_path: Path
) -> None:
    workers.start()
    app.send_task("tests.slow_once", args=[str(tmp_path)])
    child = int(wait_for_file(tmp_path / "started-1", 60, workers))
    os.kill(child, signal.SIGKILL)  # the process running the job, as the OOM killer would
    assert wait_for_file(tmp_path / "done", 30, workers) == "2"
    assert sorted(p.name for p in tmp_path.glob("started-*")) == ["started-1", "started-2"]


@needs_broker
def test_a_whole_dead_worker_leaves_its_job_to_the_next_one(
    workers: Workers, tmp_path: Path
) -> None:
    first = workers.start(CELERY_VISIBILITY_TIMEOUT="3")
    app.send_task("tests.slow_once", args=[str(tmp_path)])
    wait_for_file(tmp_path / "started-1", 60, workers)
    os.killpg(first.pid, signal.SIGKILL)  # the machine went away: nothing acknowledged
    first.wait(timeout=10)
    assert not (tmp_path / "done").exists()
    time.sleep(3)  # past the visibility timeout
    workers.start(CELERY_VISIBILITY_TIMEOUT="3")
    assert wait_for_file(tmp_path / "done", 60, workers) == "2"


@pytest.mark.skipif(not HAVE_REDIS, reason="redis-server is not installed on this machine")
def test_a_worker_lives_through_redis_restarts_under_running_jobs(tmp_path: Path) -> None:
    """Redis stopped (without persistence) while a late-acknowledged job runs, then started
    again, three times: the worker reconnects each time instead of exiting (Celery 5.7's own
    consumer exited about every other time), each job finishes, and a job sent after runs."""
    with redis_server(tmp_path) as redis, celery_broker(redis.url):
        workers = Workers("tests.jobs.slow")
        try:
            worker = workers.start(concurrency=2, CELERY_BROKER_URL=redis.url)
            for n in range(4):
                folder = tmp_path / f"job-{n}"
                folder.mkdir()
                app.send_task("tests.nap", args=[str(folder), 3 if n < 3 else 0])
                deadline = time.monotonic() + 60  # the worker (re)connects: every 2 s or more
                while not (folder / "started").exists() and time.monotonic() < deadline:
                    assert worker.poll() is None, f"the worker exited ({worker.returncode})"
                    time.sleep(0.1)
                assert (folder / "started").exists(), f"job {n} did not start"
                if n < 3:
                    redis.stop()
                    time.sleep(2)
                    redis.start()
                assert wait_for_file(folder / "done", 30, workers) == "done"
            time.sleep(1)
            assert worker.poll() is None, f"the worker exited ({worker.returncode})"
        finally:
            workers.stop()
