"""The cards of a trick as the rules assistant reads them, and how a game plays a trick."""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.cards import RANK_ORDER, RANKS, Card, Suit, parse_card, parse_suit
from rules_engine.errors import RuleError
from rules_engine.validate import type_name

SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
SINGULAR = {
    Suit.SPADES: "spade",
    Suit.HEARTS: "heart",
    Suit.DIAMONDS: "diamond",
    Suit.CLUBS: "club",
}
RED = frozenset((Suit.HEARTS, Suit.DIAMONDS))
RANK_WORDS = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}  # fmt: skip


def pack_cards(ranks: tuple[str, ...] = RANKS, *, jokers: bool = False) -> tuple[str, ...]:
    """A pack's cards as the engine writes them: by suit (spades, hearts, diamonds, clubs),
    lowest rank first; then the jokers, if any."""
    cards = tuple(f"{rank}{suit.value}" for suit in Suit for rank in ranks)
    return (*cards, "RJ", "BJ") if jokers else cards


def colour_of(suit: Suit) -> str:
    return "red" if suit in RED else "black"


@dataclass(frozen=True, slots=True)
class Joker:
    """The red or the black joker (Italian whist)."""

    colour: str

    @property
    def text(self) -> str:
        return "RJ" if self.colour == "red" else "BJ"

    @property
    def suits(self) -> tuple[Suit, Suit]:
        if self.colour == "red":
            return (Suit.HEARTS, Suit.DIAMONDS)
        return (Suit.SPADES, Suit.CLUBS)

    def __str__(self) -> str:
        return self.text


Play = Card | Joker
JOKERS = {"RJ": Joker("red"), "BJ": Joker("black")}
_JOKER_SPELLINGS = {"RJ": "RJ", "JR": "RJ", "BJ": "BJ", "JB": "BJ"}


def card_words(play: Play) -> str:
    """``the Q♥``, ``the 10♠``, ``the red joker``."""
    if isinstance(play, Joker):
        return f"the {play.colour} joker"
    return f"the {play.rank}{SYMBOLS[play.suit]}"


def colour_of_play(play: Play) -> str:
    return play.colour if isinstance(play, Joker) else colour_of(play.suit)


@dataclass(frozen=True)
class TrickRules:
    """How a game plays a trick, as its module reads the deal's context."""

    game: str
    players: int
    trump: Suit | None
    #: The ranks in the pack, lowest first.
    ranks: tuple[str, ...] = RANKS
    #: The pack in words, for an error: "24 cards, nine to ace".
    pack: str = "52 cards"
    #: Whether a card outside the pack is an error (else a note, and judged as written).
    strict_pack: bool = True
    #: A rank stipulated above the others (Third Hand's bid); ``None``: aces high.
    high_rank: str | None = None
    #: An ace counts low when led and high when played later (unless it is the high rank).
    low_led_ace: bool = False
    jokers: bool = False
    #: House rule: a player with no card of the suit led must trump if they can.
    must_trump: bool = False
    #: What a joker's holder normally wants this hand: "win", "lose" or ``None``.
    wants: str | None = None
    #: The context in words: the first lines of the explanation.
    notes: tuple[str, ...] = ()

    def strength(self, rank: str, led: bool) -> int:
        """A card's strength within its suit: higher wins."""
        if rank == self.high_rank:
            return 100
        if rank == "A" and self.low_led_ace:
            return -1 if led else 101
        return RANK_ORDER[rank]


def parse_trump(value: object, field: str, *, allow_none: bool) -> Suit | None:
    """A trump suit: ``"S"``, ``"hearts"``, ``"♦"``; ``None``/``"none"`` for no trumps."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "")):
        if allow_none:
            return None
        raise RuleError("this game always has a trump suit: S, H, D or C", field=field)
    try:
        return parse_suit(value, field)
    except RuleError:
        none = ", or null for no trumps" if allow_none else ""
        raise RuleError(
            f'trumps are a suit: "S", "H", "D" or "C"{none}; got {type_name(value)}',
            field=field,
        ) from None


def trump_note(trump: Suit | None) -> str:
    return f"{SINGULAR[trump].capitalize()}s are trumps." if trump else "No trumps."


def parse_play(value: object, field: str, rules: TrickRules) -> tuple[Play, str | None]:
    """A card of the game's pack, and a note when it is outside the pack but judged."""
    if isinstance(value, str) and value.strip().upper() in _JOKER_SPELLINGS:
        joker = JOKERS[_JOKER_SPELLINGS[value.strip().upper()]]
        if not rules.jokers:
            raise RuleError(
                f"{rules.game} is played without jokers; {value.strip()} is not in its pack",
                field=field,
            )
        return joker, None
    try:
        card = parse_card(value, field)
    except RuleError:
        raise RuleError(
            f'a card is written rank then suit, like "AS", "10H" or "QD"'
            f"{', or RJ/BJ for the jokers' if rules.jokers else ''}; got {type_name(value)}",
            field=field,
        ) from None
    if card.rank not in rules.ranks:
        message = (
            f"the {card.rank}{SYMBOLS[card.suit]} is not in the pack of {rules.game} ({rules.pack})"
        )
        if rules.strict_pack:
            raise RuleError(message, field=field)
        return card, f"Note: {message}; it is judged as written."
    return card, None


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]
