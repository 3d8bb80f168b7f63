"""Cards, suits and tricks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rules_engine.errors import RuleError
from rules_engine.validate import type_name


class Suit(StrEnum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def label(self) -> str:
        return self.name.lower()


SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}

#: Ranks from lowest to highest, aces high.
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_ORDER = {rank: i for i, rank in enumerate(RANKS)}
_RANK_ALIASES = {"T": "10", "1": "A"}


@dataclass(frozen=True, slots=True)
class Card:
    rank: str
    suit: Suit
    text: str = field(default="", compare=False, repr=False)

    def __str__(self) -> str:
        return self.text or f"{self.rank}{self.suit.value}"

    @property
    def order(self) -> int:
        return RANK_ORDER[self.rank]


def parse_suit(value: object, field: str) -> Suit:
    if isinstance(value, str):
        text = SUIT_SYMBOLS.get(value.strip(), value.strip().upper())
        for suit in Suit:
            if text in (suit.value, suit.name, suit.name[:-1]):
                return suit
    raise RuleError(
        f'a suit is one of "S", "H", "D", "C"; got {type_name(value)}',
        field=field,
    )


def parse_rank(text: str) -> str | None:
    rank = text.strip().upper()
    rank = _RANK_ALIASES.get(rank, rank)
    return rank if rank in RANK_ORDER else None


def _spellings() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    suit_spellings = {suit: [suit.value, suit.value.lower()] for suit in Suit}
    for symbol, letter in SUIT_SYMBOLS.items():
        suit_spellings[Suit(letter)].append(symbol)
    for rank in RANKS:
        ranks = {rank, rank.lower(), *(alias for alias, r in _RANK_ALIASES.items() if r == rank)}
        for suit in Suit:
            card = Card(rank, suit, f"{rank}{suit.value}")
            for r in ranks:
                for s in suit_spellings[suit]:
                    cards[f"{r}{s}"] = card
                    cards[f"{r.lower()}{s}"] = card
    return cards


#: Every way the engine accepts a card to be written, to the card.
CARDS: dict[str, Card] = _spellings()


def parse_card(value: object, field: str) -> Card:
    """A card written as rank then suit: ``"QH"``, ``"10S"``, ``"9♦"``, ``"th"``."""
    if isinstance(value, str):
        card = CARDS.get(value) or CARDS.get(value.strip().upper())
        if card is not None:
            return card
    raise RuleError(
        f'a card is written rank then suit, like "QH" or "10S"; got {type_name(value)}',
        field=field,
    )


def trick_winner(cards: Sequence[Card], trump: Suit | None) -> int:
    """Index of the card that wins a trick (the first card was led).

    The highest trump wins; without a trump in the trick, the highest card of
    the suit led. Aces are high.
    """
    if not cards:
        raise ValueError("a trick needs at least one card")
    best = 0
    for i in range(1, len(cards)):
        card, top = cards[i], cards[best]
        if card.suit == top.suit:
            if card.order > top.order:
                best = i
        elif trump is not None and card.suit == trump:
            best = i
    return best
