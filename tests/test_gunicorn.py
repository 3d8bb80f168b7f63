"""The production server's settings (gunicorn.conf.py): threaded workers from the cores,
and a server that stays reachable while slow clients hold connections open."""

from __future__ import annotations

import os
import runpy
import socket
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import gunicorn

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "gunicorn.conf.py"


def _config(**env: str) -> dict[str, object]:
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        return runpy.run_path(str(CONFIG))
    finally:
        os.environ.clear()
        os.environ.update(saved)


def test_threaded_workers_sized_from_the_cores() -> None:
    config = _config()
    cores = os.cpu_count() or 1
    assert config["worker_class"] == "gthread"
    assert config["workers"] == max(2, 2 * cores)
    assert config["threads"] == 4
    assert config["timeout"] == 30
    assert config["max_requests"] > 0


def test_the_app_is_loaded_and_its_urls_imported_before_the_workers_fork() -> None:
    config = _config()
    assert config["preload_app"] is True
    when_ready = config["when_ready"]
    assert callable(when_ready)
    when_ready(None)  # imports the URLconf (it raises if the hook is broken)
    assert _config(GUNICORN_PRELOAD="false")["preload_app"] is False


def test_the_environment_overrides_it() -> None:
    config = _config(GUNICORN_WORKERS="3", GUNICORN_THREADS="8", GUNICORN_BIND="0.0.0.0:9000")
    assert (config["workers"], config["threads"], config["bind"]) == (3, 8, "0.0.0.0:9000")


@pytest.fixture
def one_worker() -> Iterator[str]:
    """The config's worker class with one worker of four threads: what a slow client holds
    is then plain to see."""
    env = {"GUNICORN_ACCESS_LOG": "", "GUNICORN_WORKERS": "1", "GUNICORN_THREADS": "4"}
    with gunicorn("-c", str(CONFIG), env=env) as url:
        yield url


@pytest.mark.django_db(transaction=True)
def test_a_client_slow_to_send_its_body_holds_a_thread_not_the_worker(one_worker: str) -> None:
    """Three clients that never finish their bodies hold three of the worker's four
    threads; the fourth still answers. (A sync worker, one request at a time, would not.
    Many slow clients are for the buffering proxy in front: see README, Production.)"""
    port = int(one_worker.rsplit(":", 1)[1])
    slow = []
    for _ in range(3):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(
            b"POST /api/v1/auth/token/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
        )
        slow.append(sock)
    try:
        time.sleep(0.5)
        with urllib.request.urlopen(f"{one_worker}/healthz", timeout=10) as response:
            assert response.status == 200
    finally:
        for sock in slow:
            sock.close()
