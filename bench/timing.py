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
