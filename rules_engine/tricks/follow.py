"""Following suit: whether a player whose cards are known revoked."""

from __future__ import annotations

from collections.abc import Sequence

from rules_engine.cards import Card, Suit
from rules_engine.errors import RuleError
from rules_engine.tricks.plays import SINGULAR, Joker, Play, TrickRules, cap, card_words, parse_play
from rules_engine.tricks.verdict import Revoke
from rules_engine.validate import type_name


def _follows(play: Play, suit: Suit) -> bool:
    if isinstance(play, Joker):
        return suit in play.suits
    return play.suit == suit


def revokes_of(
    rules: TrickRules,
    plays: Sequence[Play],
    seats: Sequence[int],
    names: Sequence[str],
    held: Sequence[Sequence[Play] | None],
) -> tuple[list[Revoke], list[int]]:
    """Whether each player whose cards are known followed suit as the rules say."""
    revokes: list[Revoke] = []
    checked: list[int] = []
    lead = plays[0]
    for i in range(1, len(plays)):
        seat = seats[i]
        hand = held[seat]
        if hand is None:
            continue
        checked.append(seat)
        play = plays[i]
        who = cap(names[seat])
        if isinstance(lead, Card):
            suit: Suit | None = lead.suit
        else:  # a led joker's suit is set by the first card of its colour
            fixed = [p for p in plays[1:i] if isinstance(p, Card) and p.suit in lead.suits]
            suit = fixed[0].suit if fixed else None
        if suit is None or _follows(play, suit):
            continue
        same = [c for c in hand if isinstance(c, Card) and c.suit == suit]
        joker = [c for c in hand if isinstance(c, Joker) and suit in c.suits]
        what = card_words(play)
        message = ""
        if same:
            held_words = ", ".join(card_words(c) for c in same)
            message = (
                f"played {what} on a {SINGULAR[suit]} lead while holding {held_words}; "
                "a player must follow suit if they can."
            )
        elif joker:
            message = (
                f"played {what} on a {SINGULAR[suit]} lead while holding "
                f"{card_words(joker[0])}; its holder cannot discard from another suit while "
                "it remains."
            )
        elif rules.must_trump and rules.trump is not None and not _follows(play, rules.trump):
            trumps = [c for c in hand if isinstance(c, Card) and c.suit == rules.trump]
            if trumps:
                held_words = ", ".join(card_words(c) for c in trumps)
                message = (
                    f"had no {SINGULAR[suit]} and played {what} while holding {held_words}; "
                    "under this club's house rule a player with no card of the suit led "
                    "must trump."
                )
        if message:
            revokes.append(Revoke(seat, names[seat], str(play), f"Revoke: {who} {message}"))
    return revokes, checked


def held_cards(
    value: object,
    plays: Sequence[Play],
    seats: Sequence[int],
    rules: TrickRules,
    names: Sequence[str],
) -> list[list[Play] | None] | None:
    """Each seat's cards when it played (the card it played is added if not listed)."""
    if value is None:
        return None
    count = len(plays)
    if not isinstance(value, list | tuple) or len(value) != count:
        raise RuleError(
            f"held lists, for each of the {count} seats in seat order, the cards that player "
            f"held when they played (or null where not known); got {type_name(value)}",
            field="held",
        )
    owner: dict[Play, int] = {play: seats[i] for i, play in enumerate(plays)}
    hands: list[list[Play] | None] = []
    for seat, cards in enumerate(value):
        if cards is None:
            hands.append(None)
            continue
        if not isinstance(cards, list | tuple):
            raise RuleError(
                f"{names[seat]}'s cards must be a list of cards or null; got {type_name(cards)}",
                field=f"held[{seat}]",
            )
        hand: list[Play] = []
        for j, raw in enumerate(cards):
            play, _ = parse_play(raw, f"held[{seat}][{j}]", rules)
            if play in hand:
                raise RuleError(f"{card_words(play)} is listed twice", field=f"held[{seat}][{j}]")
            if owner.setdefault(play, seat) != seat:
                raise RuleError(
                    f"{card_words(play)} is held or played by {names[owner[play]]}, "
                    f"not {names[seat]}",
                    field=f"held[{seat}][{j}]",
                )
            hand.append(play)
        played = plays[seats.index(seat)]
        if played not in hand:
            hand.append(played)
        hands.append(hand)
    return hands
