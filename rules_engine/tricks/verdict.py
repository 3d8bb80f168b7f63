"""What the rules assistant answers: the winner, each card as it counts, the choices a
joker's player has, the revokes, and the explanation in sentences."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from rules_engine.cards import Suit


@dataclass(frozen=True)
class CardVerdict:
    seat: int
    player: str
    card: str
    #: The suit and rank it counts as; for a joker ``None`` where that is a choice or
    #: does not matter (``options`` lists what it may be).
    suit: str | None
    rank: str | None
    note: str
    options: tuple[tuple[str | None, tuple[str, ...]], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self.seat,
            "player": self.player,
            "card": self.card,
            "suit": self.suit,
            "rank": self.rank,
            "note": self.note,
        }
        if self.options:
            data["options"] = [{"suit": s, "ranks": list(r)} for s, r in self.options]
        return data


@dataclass(frozen=True)
class Choice:
    """One way the jokers' players may choose, and who then wins."""

    jokers: tuple[tuple[int, str, str | None, tuple[str, ...]], ...]  # seat, card, suit, ranks
    winner: int
    text: str
    wanted: bool | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "jokers": [
                {"seat": seat, "card": card, "suit": suit, "ranks": list(ranks)}
                for seat, card, suit, ranks in self.jokers
            ],
            "winner": self.winner,
            "text": self.text,
        }


@dataclass(frozen=True)
class Revoke:
    seat: int
    player: str
    card: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Verdict:
    game: str
    trump: Suit | None
    leader: int
    #: The winning seat; ``None`` when a joker's player's choice decides (see ``choices``).
    winner: int | None
    winning_card: str | None
    cards: tuple[CardVerdict, ...]
    choices: tuple[Choice, ...]
    revokes: tuple[Revoke, ...]
    checked: tuple[int, ...]
    explanation: tuple[str, ...]
    possible_winners: tuple[int, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "trump": self.trump.value if self.trump else None,
            "leader": self.leader,
            "winner": self.winner,
            "winning_card": self.winning_card,
            "decided": self.winner is not None,
            "possible_winners": list(self.possible_winners),
            "cards": [card.as_dict() for card in self.cards],
            "choices": [choice.as_dict() for choice in self.choices],
            "revokes": [revoke.as_dict() for revoke in self.revokes],
            "follow_suit_checked": list(self.checked),
            "explanation": list(self.explanation),
        }
