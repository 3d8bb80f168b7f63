"""Games an app on top of the core ends its own way, so that nobody abandons them: a small
registry that other apps plug into (the core must not import them).

A tournament table's game ends with its round (finished at its totals, or abandoned when it
has no deal): abandoning it by hand would leave the table's result counting in the
tournament while its game counts nowhere. An app registers a *rule* in its
``AppConfig.ready()``: given a game, the reason it may not be abandoned, or None.
``services.game_abandon`` refuses with the first reason given, and the page that asks
before abandoning says it instead of asking.
"""

from __future__ import annotations

from collections.abc import Callable

from .models import Game
from .registry import Registry

Rule = Callable[[Game], str | None]

_rules: Registry[Rule] = Registry()
#: Add a rule (once: registering it again changes nothing).
register = _rules.register
unregister = _rules.unregister


def refusal(game: Game) -> str | None:
    """Why the game may not be abandoned, as the first registered rule says; None if not."""
    return next((reason for rule in _rules if (reason := rule(game)) is not None), None)
