"""Games an app on top of the core ends its own way, so that nobody abandons them, nor
finishes them by hand before their time: small registries that other apps plug into (the
core must not import them).

A tournament table's game ends with its round (finished at its totals, or abandoned when it
has no deal): abandoning it by hand would leave the table's result counting in the
tournament while its game counts nowhere. An app registers a *rule* in its
``AppConfig.ready()``: given a game, the reason it may not be abandoned, or None.
``services.game_abandon`` refuses with the first reason given, and the page that asks
before abandoning says it instead of asking. Likewise a *finish rule* (``register_finish``):
the reason a game may not be finished by hand now (a tournament table plays on until its
round's last deal), which ``services.game_finish`` refuses with, and the game's page does
not offer "End the game now" meanwhile.
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


_finish_rules: Registry[Rule] = Registry()
register_finish = _finish_rules.register
unregister_finish = _finish_rules.unregister


def _first(rules: Registry[Rule], game: Game) -> str | None:
    return next((reason for rule in rules if (reason := rule(game)) is not None), None)


def refusal(game: Game) -> str | None:
    """Why the game may not be abandoned, as the first registered rule says; None if not."""
    return _first(_rules, game)


def finish_refusal(game: Game) -> str | None:
    """Why the game may not be finished by hand now, as the first registered finish rule
    says; None if it may."""
    return _first(_finish_rules, game)
