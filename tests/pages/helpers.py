"""What the page tests share: a club with its people and players, and page text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from rules_engine import GAMES
from scorekeeper import services
from scorekeeper.models import Club, Game, Player
from scorekeeper.pages.club_forms import option_controls
from tests.factories import record_deals


@dataclass
class World:
    club: Club
    scorer: User
    member: User  # a plain member, not seated: may look, not score
    outsider: User
    players: list[Player]  # Ann, Bob, Cy, Dee, Eve, Fay

    def client(self, user: User | None = None) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    def start(self, game_type: str, seats: int = 3, **kwargs: Any) -> Game:
        return services.game_start(
            actor=self.scorer,
            club=self.club,
            game_type=game_type,
            players=self.players[:seats],
            **kwargs,
        )

    def record(self, game: Game, *records: dict[str, Any]) -> Game:
        record_deals(game, records, self.scorer)
        game.refresh_from_db()
        return game


def text_of(response: Any) -> str:
    """The page's text, tags stripped and spaces collapsed."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))


def option_defaults(game_type: str) -> dict[str, str]:
    """What a browser posts for a game's house-rule inputs as first shown: their defaults."""
    data: dict[str, str] = {}
    for control in option_controls(GAMES[game_type]):
        if control.kind == "choice":
            data[control.html_name] = control.selected
        for input_ in control.all_inputs:
            if input_.kind == "checkbox":
                if input_.checked:
                    data[input_.name] = "on"
            else:
                data[input_.name] = input_.value
    return data
