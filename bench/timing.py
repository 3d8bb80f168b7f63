"""What the benchmarks share: timing a few ways of doing one thing, in turn."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


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
