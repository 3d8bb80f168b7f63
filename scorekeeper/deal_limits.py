"""The last deal a game may take where an app on top of the core ends it before the game's
own end: a small registry that other apps plug into (the core must not import them).

A tournament round of N deals, or a timed round once time is called (each table finishes
the deal in progress), limits its tables' games. An app registers a *limiter* in its
``AppConfig.ready()``; the deal write path (:func:`scorekeeper.services.deal_record`)
refuses a deal numbered above the smallest limit any limiter gives, and the game page
offers no entry for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .models import Game


@dataclass(frozen=True)
class DealLimit:
    """No deal numbered above ``last`` is recorded, for ``reason`` (a sentence for the
    table, e.g. "time was called for round 2")."""

    last: int
    reason: str


Limiter = Callable[[Game], DealLimit | None]

_limiters: list[Limiter] = []


def register(limiter: Limiter) -> Limiter:
    """Add a limiter (once: registering it again changes nothing)."""
    if limiter not in _limiters:
        _limiters.append(limiter)
    return limiter


def unregister(limiter: Limiter) -> None:
    if limiter in _limiters:
        _limiters.remove(limiter)


def limit_of(game: Game) -> DealLimit | None:
    """The smallest limit the registered limiters give the game, or None."""
    limits = [limit for limiter in _limiters if (limit := limiter(game)) is not None]
    return min(limits, key=lambda limit: limit.last, default=None)
