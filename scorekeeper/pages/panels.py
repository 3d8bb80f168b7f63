"""Panels that other apps add to the game page, so the core never imports them.

An app registers a function in its ``AppConfig.ready()``; for each game page it is asked
what to show for that game and that person, and answers ``None`` (nothing) or a
:class:`Panel`: a template and its context, rendered below the game's result. A
tournament, for instance, shows where the game is played and the table's confirmation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.access import Actor
from scorekeeper.models import Game
from scorekeeper.registry import Registry


@dataclass(frozen=True)
class Panel:
    template: str
    context: Mapping[str, Any] = field(default_factory=dict)


PanelSource = Callable[[Game, Actor], Panel | None]

_sources: Registry[PanelSource] = Registry()
#: Add a source of game-page panels (once: registering it again changes nothing).
register = _sources.register
unregister = _sources.unregister


def panels_for(game: Game, actor: Actor) -> list[Panel]:
    """What every registered source shows on this game's page for this person."""
    return [panel for source in _sources if (panel := source(game, actor)) is not None]
