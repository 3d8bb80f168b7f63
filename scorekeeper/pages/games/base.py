"""What the game page asks of a game: one :class:`GamePage` per game, in its own module.

The engine (``rules_engine``) knows how a game scores; a game's page module knows how it
is entered and shown: its entry form (a :class:`~scorekeeper.pages.game_forms.DealEntry`),
the game-specific words of the next deal's header, how the game ends, a past deal in
words and in figures, the notes of a deal's preview, and what the rules assistant's trick
form asks of the deal (its trumps, a high rank, which hand) and who leads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..game_forms import DealEntry
from .shapes import Context, Names, Options, PastDeal, Record


@dataclass
class Figures:
    """A deal's figures on the scoresheet: per seat (under each score), and a line about
    the whole deal."""

    cells: list[str]
    line: str = ""


#: The four suits as a trick form offers them.
SUIT_CHOICES = [("S", "♠ Spades"), ("H", "♥ Hearts"), ("D", "♦ Diamonds"), ("C", "♣ Clubs")]


@dataclass
class TrickField:
    """A part of the deal's context the trick form asks for: ``choices`` are (value, label);
    the value "" means not chosen yet."""

    name: str
    label: str
    choices: list[tuple[str, str]]
    value: str = ""


def deals_text(count: int) -> str:
    """How many deals, in words: "1 deal", "12 deals"."""
    return f"{count} deal" if count == 1 else f"{count} deals"


def per_seat(players: Names, values: Sequence[Any]) -> str:
    return ", ".join(f"{name} {value}" for name, value in zip(players, values, strict=False))


def per_seat_lines(record: Record, players: Names, lists: Mapping[str, str]) -> list[str]:
    """A line for each of the record's per-seat ``lists`` (key: label): "Bids: Ann 2, Bob 3"."""
    return [f"{label}: " + per_seat(players, record.get(key, [])) for key, label in lists.items()]


def paired_figures(deal: PastDeal, first: str, second: str) -> Figures:
    """Under each score, two of the deal record's per-seat lists as "first/second"."""
    record = deal.get("record") or {}
    pairs = zip(record.get(first, []), record.get(second, []), strict=False)
    return Figures([f"{a}/{b}" for a, b in pairs])


class GamePage:
    entry: ClassVar[type[DealEntry]]
    key: ClassVar[str]  # the game's key in ``rules_engine.GAMES``: its entry form's game_type
    #: What the figures under each score are ("" for a game without any).
    figures_key: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.key = cls.entry.game_type

    def header(self, context: Context, players: Names, options: Options) -> list[str]:
        """The game's own parts of the next deal's header ("5 cards", "trumps turned")."""
        return []

    def standing(self, totals: Sequence[int], options: Options) -> str:
        """A few words on the totals before the next deal, for its header, when they say
        something the game's end does not ("tied past 500: play on"); "" for none."""
        return ""

    def end_text(self, options: Options, scheduled: int | None) -> str:
        """How the game ends, in a few words."""
        return deals_text(scheduled) if scheduled else ""

    def note(self, deal: PastDeal, players: Names) -> str:
        """A few words on a past deal, for the row's accessible description."""
        return ""

    def figures(self, deal: PastDeal, players: Names) -> Figures | None:
        return None

    def summary(self, record: Record, players: Names) -> list[str]:
        """A deal record as a few lines a player reads at the table."""
        return []

    def trick_fields(self, context: Context, values: Mapping[str, str]) -> list[TrickField]:
        """The deal's context the trick form asks for, ``values`` as the player set them
        (defaults from the deal ``context``)."""
        return []

    def trick_context(self, context: Context, fields: Sequence[TrickField]) -> dict[str, Any]:
        """The rules engine's context of a trick (``rules_engine.tricks``), from the deal
        and the form: by default each field's value, "" left out and "none" as null."""
        chosen = {field.name: field.value for field in fields if field.value}
        return {name: None if value == "none" else value for name, value in chosen.items()}

    def trick_leader(self, context: Context, fields: Sequence[TrickField], players: int) -> int:
        """Who leads the deal's first trick: the dealer's left, unless the game says."""
        return (int(context.get("dealer", 0)) + 1) % players

    def preview_notes(self, entry: DealEntry, context: Context, record: Record) -> list[str]:
        """What the preview of a deal says first (a contract, who took the widow)."""
        return []
