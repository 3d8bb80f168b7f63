"""Widow whist games for the benchmarks' data, started through the app's services.

Imported in a Django process, once ``django.setup()`` has run.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User

from scorekeeper import services
from scorekeeper.models import Club, Game, Player


def widow_game(user: User, club: Club, players: Sequence[Player], deals: int | None = None) -> Game:
    """A widow whist game of ``players`` (in seat order) started by ``user``: over after
    ``deals`` deals, or open-ended (``None``)."""
    return services.game_start(
        actor=user,
        club=club,
        game_type="widow_whist",
        players=players,
        options={"finish": None if deals is None else {"deals": deals}},
    )
