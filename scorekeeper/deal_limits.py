"""The last deal a game is meant to take where an app on top of the core ends it before the
game's own end: a small registry that other apps plug into (the core must not import them).

A tournament round of N deals, or a timed round once time is called (each table finishes
the deal in progress), limits its tables' games. An app registers a *limiter* in its
``AppConfig.ready()``; the game page offers no entry past the smallest limit any limiter
gives and says why. The write path still records a deal sent past it: a phone that kept
deals while offline may send, after time was called, deals played before, and a score is
never lost. What to do with a deal past the limit is the app's (a tournament table
confirms its result only once such deals are undone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .models import Game
from .registry import Registry


@dataclass(frozen=True)
class DealLimit:
    """No deal numbered above ``last`` is recorded, for ``reason`` (a sentence for the
    table, e.g. "time was called for round 2")."""

    last: int
    reason: str


Limiter = Callable[[Game], DealLimit | None]

_limiters: Registry[Limiter] = Registry()
#: Add a limiter (once: registering it again changes nothing).
register = _limiters.register
unregister = _limiters.unregister


def limit_of(game: Game) -> DealLimit | None:
    """The smallest limit the registered limiters give the game, or None."""
    limits = [limit for limiter in _limiters if (limit := limiter(game)) is not None]
    return min(limits, key=lambda limit: limit.last, default=None)
