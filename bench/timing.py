"""What the benchmarks share: timing a few ways of doing one thing, in turn; load tools'
users sending at a steady pace."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def medians_ms(runs: dict[str, Callable[[], None]], repeats: int = 7) -> dict[str, float]:
    """Each run once to warm up, then all of them ``repeats`` times in turn: each one's
    median time in milliseconds."""
    for run in runs.values():
        run()
    timings: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            started = time.perf_counter()
            run()
            timings[name].append(time.perf_counter() - started)
    return {name: statistics.median(values) * 1000 for name, values in timings.items()}


def raw_standings_sql(game_type: str = "") -> str:
    """A season's standings (``%s``: the season's id) in one hand-written query, of one
    game type when ``game_type`` is given: what the app's own reading is timed against."""
    of_type = f" AND g.game_type = '{game_type}'" if game_type else ""
    return f"""
        SELECT r.player_id, p.name, COUNT(*), SUM(CASE WHEN r.won THEN 1 ELSE 0 END),
               SUM(r.total), AVG(r.total), AVG(r.placing)
        FROM scorekeeper_result r
        JOIN scorekeeper_game g ON g.id = r.game_id
        JOIN scorekeeper_player p ON p.id = r.player_id
        WHERE g.season_id = %s AND g.status = 'finished'{of_type}
        GROUP BY r.player_id, p.name
        ORDER BY 4 DESC, 5 DESC, 7, 2
    """


# --- Paced load (locust users) -----------------------------------------------------------------
#
# locust's ``constant_throughput``/``constant_pacing`` start every user's clock at the moment
# the users are spawned, all together: a user that waits a random moment before its first
# task is brought back in step by its first wait. Paced users then all send at once, once a
# period: 50 clients at 10 requests a second send bursts of 50 every 5 s, and the latency
# measured is the burst queueing behind itself, not the app. These keep each user's own phase.


def stagger(user: Any, period: float, phase: float) -> None:
    """In a user's ``on_start``: wait ``phase`` (0 to 1) of a ``period``, then start the
    user's pace (:func:`paced`) from now."""
    import gevent

    gevent.sleep(phase * period)
    user.paced_due = time.perf_counter()


def paced(period: float) -> Callable[[Any], float]:
    """A locust ``wait_time``: the user's task starts once every ``period`` seconds, counted
    from its first start (see :func:`stagger`); a task that ran late starts the next at once
    and the pace goes on from there."""

    def wait_time(user: Any) -> float:
        now = time.perf_counter()
        due = max(getattr(user, "paced_due", now) + period, now)
        user.paced_due = due
        return due - now

    return wait_time
