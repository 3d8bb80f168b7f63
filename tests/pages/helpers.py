"""What the page tests share: a club with its people and players, and page text."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
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


class _Controls(HTMLParser):
    """Form controls of a page, the labels' ``for`` ids, and the labels wrapping controls."""

    def __init__(self) -> None:
        super().__init__()
        self.controls: list[dict[str, str | None]] = []
        self.label_for: set[str] = set()
        self._open_labels = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "label":
            self._open_labels += 1
            if attributes.get("for"):
                self.label_for.add(str(attributes["for"]))
        elif tag in ("input", "select", "textarea"):
            self.controls.append({**attributes, "_tag": tag, "_wrapped": str(self._open_labels)})

    def handle_endtag(self, tag: str) -> None:
        if tag == "label":
            self._open_labels -= 1


def assert_every_input_labelled(
    html: str, exempt: Collection[str] = ("hidden", "submit", "button"), where: str = ""
) -> None:
    """Every form control of the page (but inputs of the ``exempt`` types) has a label: one
    that names its id, or one around it."""
    parsed = _Controls()
    parsed.feed(html)
    for control in parsed.controls:
        if control.get("type") in exempt:
            continue
        labelled = control.get("id") in parsed.label_for or control["_wrapped"] != "0"
        assert labelled, f"{where}no label for {control}"


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


def error_beside(html: str, input_id: str) -> str:
    """The text of the error element of ``input_id`` (``<id>_error``)."""
    found = re.search(rf'id="{re.escape(input_id)}_error"[^>]*>([^<]*)<', html)
    assert found, f"no error beside {input_id}"
    return unescape(found.group(1))
