"""The app profiled request by request, for ``bench/soak.py --profile DIR`` (served by
gunicorn as ``bench.soak_profile:application``).

Each request runs under its own ``cProfile`` profiler (wall-clock; cProfile follows only
the thread that enabled it, so gunicorn's threads do not mix). Every worker process adds the
profiles of all requests, and apart those of the slow ones (over ``SOAK_SLOW_MS``, 100 ms),
and writes them with each request's time in the app every 100 requests:
``DIR/all-<pid>.pstats``, ``DIR/slow-<pid>.pstats``, ``DIR/times-<pid>.json``. The client's
time minus the app's is the time spent waiting for a thread, a process or the CPU."""

from __future__ import annotations

import cProfile
import json
import os
import pstats
import threading
import time
from pathlib import Path
from typing import Any

from scorekeeper.wsgi import application as app

FOLDER = Path(os.environ["SOAK_PROFILE_DIR"])
SLOW_MS = float(os.environ.get("SOAK_SLOW_MS", "100"))
_lock = threading.Lock()
_all: pstats.Stats | None = None
_slow: pstats.Stats | None = None
_times: list[tuple[str, float]] = []


def application(environ: dict[str, Any], start_response: Any) -> Any:
    global _all, _slow  # noqa: PLW0603
    profile = cProfile.Profile()
    started = time.perf_counter()
    profile.enable()
    try:
        return list(app(environ, start_response))  # the body made inside the profile
    finally:
        profile.disable()
        ms = (time.perf_counter() - started) * 1000
        with _lock:
            _all = _add(_all, profile)
            if ms > SLOW_MS:
                _slow = _add(_slow, profile)
            _times.append((environ.get("PATH_INFO", ""), ms))
            if len(_times) % 100 == 0:
                _write()


def _add(stats: pstats.Stats | None, profile: cProfile.Profile) -> pstats.Stats:
    if stats is None:
        return pstats.Stats(profile)
    stats.add(profile)
    return stats


def _write() -> None:
    pid = os.getpid()
    for name, stats in (("all", _all), ("slow", _slow)):
        if stats is not None:
            stats.dump_stats(FOLDER / f"{name}-{pid}.pstats")
    (FOLDER / f"times-{pid}.json").write_text(json.dumps(_times))
