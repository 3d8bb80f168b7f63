"""A Redis of the test's own (on a free port, never the shared one) that the test can stop
and start again, and the Celery app pointed at it for the test's time."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kombu import pools

from scorekeeper import outbox
from scorekeeper.celery import app
from tests.support import free_port

HAVE_REDIS = shutil.which("redis-server") is not None
ROOT = Path(__file__).resolve().parents[1]


class RedisServer:
    """``redis-server`` on a free port, no persistence; :meth:`stop` and :meth:`start`."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.folder)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


@contextmanager
def redis_server(folder: Path) -> Iterator[RedisServer]:
    server = RedisServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _drop_connections() -> None:
    """Close the app's broker connections and forget kombu's pools of them (made again, for
    the broker then configured, on first use)."""
    if app._pool is not None:  # noqa: SLF001
        app._pool.force_close_all()  # noqa: SLF001
    app._pool = None  # noqa: SLF001
    app.amqp._producer_pool = None  # noqa: SLF001
    pools.reset()


@contextmanager
def celery_broker(url: str) -> Iterator[None]:
    """Jobs go to the broker at ``url`` (not run in-process) for the time of the block."""
    before = (app.conf.broker_url, app.conf.task_always_eager)
    options = dict(app.conf.broker_transport_options)  # a worker started here changes them
    environ = os.environ.get("CELERY_BROKER_URL")  # Celery reads it before its settings
    _drop_connections()
    outbox.forget_refusals()
    os.environ["CELERY_BROKER_URL"] = app.conf.broker_url = url
    app.conf.task_always_eager = False
    try:
        yield
    finally:
        _drop_connections()
        outbox.forget_refusals()
        app.conf.broker_url, app.conf.task_always_eager = before
        app.conf.broker_transport_options = options
        if environ is None:
            os.environ.pop("CELERY_BROKER_URL", None)
        else:
            os.environ["CELERY_BROKER_URL"] = environ


class Workers:
    """Real Celery workers (prefork, one child process unless asked), each in a process
    group of its own, loading the test module ``include``; :meth:`kill` kills one as a
    machine going away would (nothing acknowledged), :meth:`stop` all that are left.
    What they print goes to a file each; :meth:`report` says how they stand, for a test
    that waited on them in vain."""

    def __init__(self, include: str) -> None:
        self.include = include
        self.started: list[subprocess.Popen[bytes]] = []
        self.logs: list[Path] = []

    def start(self, concurrency: int = 1, **env: str) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "celery", "-A", "scorekeeper", "worker", "-I"]
        command += [self.include, "--pool=prefork", "-c", str(concurrency), "--without-mingle"]
        command += ["--without-gossip", "--loglevel=INFO"]
        handle, name = tempfile.mkstemp(prefix="celery-worker-", suffix=".log")
        with os.fdopen(handle, "wb") as log:
            worker = subprocess.Popen(
                command,
                cwd=ROOT,
                env={**os.environ, **env},
                start_new_session=True,  # its own process group: killed with its children
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.started.append(worker)
        self.logs.append(Path(name))
        return worker

    def report(self) -> str:
        """Each worker started: running or its exit code, and the end of what it printed."""
        parts = []
        for number, (worker, log) in enumerate(zip(self.started, self.logs, strict=True), 1):
            state = "running" if worker.poll() is None else f"exited ({worker.returncode})"
            tail = log.read_text(errors="replace").splitlines()[-15:]
            parts.append(f"worker {number}, {state}:\n" + "\n".join(tail))
        return "\n".join(parts)

    def kill(self, worker: subprocess.Popen[bytes]) -> None:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)

    def stop(self) -> None:
        for worker in self.started:
            self.kill(worker)
        for log in self.logs:
            log.unlink(missing_ok=True)


def wait_for_file(path: Path, seconds: float, workers: Workers | None = None) -> str:
    """The text of ``path`` once it appears (an AssertionError after ``seconds``, with how
    ``workers`` stand)."""
    deadline = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > deadline:
            report = f"\n{workers.report()}" if workers else ""
            raise AssertionError(f"{path.name} did not appear within {seconds} s{report}")
        time.sleep(0.1)
    time.sleep(0.05)
    return path.read_text()
