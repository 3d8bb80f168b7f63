"""One module per game for the game page, keyed like ``rules_engine.GAMES``.

A game is known in two places only: its engine module (``rules_engine/games/``) and its
page module here (its entry form and how it is shown). Adding a game means adding both and
listing the page below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..game_forms import DealEntry
from . import italian_whist, prediction_whist, third_hand, widow_whist
from .base import Figures, GamePage

PAGES: dict[str, GamePage] = {
    module.PAGE.key: module.PAGE
    for module in (widow_whist, third_hand, italian_whist, prediction_whist)
}


def page_for(game_type: str) -> GamePage:
    return PAGES[game_type]


def entry_for(
    game_type: str,
    *,
    players: Sequence[str],
    context: Mapping[str, Any],
    options: Mapping[str, Any],
    values: Mapping[str, str] | None = None,
) -> DealEntry:
    """The entry form of the deal ``context`` describes (an engine deal context as a dict)."""
    info = {key: value for key, value in context.items() if key not in ("number", "dealer")}
    return PAGES[game_type].entry(
        players=players,
        number=int(context["number"]),
        dealer=int(context["dealer"]),
        info=info,
        options=options,
        values=values,
    )


__all__ = ["PAGES", "Figures", "GamePage", "entry_for", "page_for"]
