"""Judging a trick: every reading of its jokers, who wins with each, and why in words."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from rules_engine.cards import RANK_ORDER, Card, Suit
from rules_engine.tricks.follow import revokes_of
from rules_engine.tricks.plays import (
    SINGULAR,
    SYMBOLS,
    Joker,
    Play,
    TrickRules,
    cap,
    card_words,
    colour_of,
    colour_of_play,
)
from rules_engine.tricks.verdict import CardVerdict, Choice, Verdict

# -- judging -------------------------------------------------------------------------------

# A card as it counts in one reading of the trick: its suit (``None``: a led joker nobody
# could follow) and rank (``None`` where it does not matter).
Counted = tuple[Suit | None, str | None]


def _winner(rules: TrickRules, counted: Sequence[Counted]) -> int:
    best = 0
    for i in range(1, len(counted)):
        suit, rank = counted[i]
        top_suit, top_rank = counted[best]
        if suit is None:
            continue
        if suit == top_suit:
            assert rank is not None and top_rank is not None
            if rules.strength(rank, i == 0) > rules.strength(top_rank, best == 0):
                best = i
        elif rules.trump is not None and suit == rules.trump:
            best = i
    return best


@dataclass
class _Joker:
    index: int
    joker: Joker
    suits: tuple[Suit | None, ...]
    reason: str


def _read_joker(
    plays: Sequence[Play],
    index: int,
    names: Sequence[str],
    seats: Sequence[int],
    trump: Suit | None,
) -> _Joker:
    joker = plays[index]
    assert isinstance(joker, Joker)
    who = names[seats[index]]
    same = [
        j
        for j, play in enumerate(plays)
        if j != index and isinstance(play, Card) and colour_of(play.suit) == joker.colour
    ]

    def made_by(j: int, how: str) -> _Joker:
        """The joker takes the suit of card ``j``, the other card of its colour."""
        card = plays[j]
        assert isinstance(card, Card)
        whose = f"{names[seats[j]]}'s {card_words(card)[4:]}"
        return _Joker(
            index,
            joker,
            (card.suit,),
            f"{how.format(whose=whose)}, makes it a {SINGULAR[card.suit]}.",
        )

    if index == 0:
        if same:
            return made_by(
                same[0], f"{who} led {card_words(joker)}; the next {joker.colour} card, {{whose}}"
            )
        if trump is not None and colour_of(trump) != joker.colour:
            beaten = f"it wins unless a {SINGULAR[trump]} (trumps) beats it"
        else:
            beaten = "nothing can follow or beat it"
        return _Joker(
            index,
            joker,
            (None,),
            f"{who} led {card_words(joker)} and no {joker.colour} card followed, so its "
            f"suit does not matter: {beaten}.",
        )
    lead = plays[0]
    if colour_of_play(lead) == joker.colour:
        assert isinstance(lead, Card)
        return _Joker(
            index,
            joker,
            (lead.suit,),
            f"{who} played {card_words(joker)} on a {SINGULAR[lead.suit]} lead: it follows as "
            f"a {SINGULAR[lead.suit]}.",
        )
    lead_colour = colour_of_play(lead)
    if same:
        return made_by(
            same[0],
            f"{who} played {card_words(joker)} on a {lead_colour} lead; {{whose}}, the other "
            f"{joker.colour} card in the trick",
        )
    first, second = joker.suits
    return _Joker(
        index,
        joker,
        (first, second),
        f"{who} played {card_words(joker)} on a {lead_colour} lead with no other "
        f"{joker.colour} card in the trick, so {who} chooses its suit: a "
        f"{SINGULAR[first]} or a {SINGULAR[second]}.",
    )


def _free_ranks(rules: TrickRules, plays: Sequence[Play], suit: Suit) -> tuple[str, ...]:
    """The values a joker of ``suit`` may take: any card of its suit not in the trick."""
    taken = {play.rank for play in plays if isinstance(play, Card) and play.suit == suit}
    return tuple(rank for rank in rules.ranks if rank not in taken)


def _values(rules: TrickRules, plays: Sequence[Play], suit: Suit | None) -> tuple[str | None, ...]:
    """A joker's values in ``suit``; one that does not matter where its suit does not."""
    return (None,) if suit is None else _free_ranks(rules, plays, suit)


def _ranks_text(suit: Suit, ranks: Sequence[str], every: Sequence[str]) -> str:
    """``the K♠ or A♠``, ``any spade from 2 to J``, ``any spade not in the trick``."""
    symbol = SYMBOLS[suit]
    if list(ranks) == list(every):
        return f"any {SINGULAR[suit]} not in the trick"
    if len(ranks) <= 2:
        return " or ".join(f"the {rank}{symbol}" for rank in ranks)
    return f"a {SINGULAR[suit]} from {ranks[0]} to {ranks[-1]}"


def _counted_of(plays: Sequence[Play]) -> list[Counted]:
    return [(play.suit, play.rank) if isinstance(play, Card) else (None, None) for play in plays]


def _why_wins(rules: TrickRules, counted: Sequence[Counted], winner: int) -> str:
    suit = counted[winner][0]
    if suit is None:
        return "the led joker, which no card could follow or trump"
    several = sum(1 for s, _ in counted if s == suit) > 1
    if rules.trump is not None and suit == rules.trump:
        return "the highest trump" if several else "the only trump"
    return f"the {'highest' if several else 'only'} {SINGULAR[suit]}, the suit led"


def _rank_notes(
    rules: TrickRules, plays: Sequence[Play], names: Sequence[str], seats: Sequence[int]
) -> list[str]:
    """Third Hand's aces, where they matter to this trick."""
    notes: list[str] = []
    if not rules.low_led_ace or rules.high_rank == "A":
        return notes
    lead = plays[0]
    for i, play in enumerate(plays):
        if not isinstance(play, Card) or play.rank != "A":
            continue
        if i == 0:
            if any(isinstance(p, Card) and p.suit == play.suit for p in plays[1:]):
                notes.append(f"{cap(card_words(play))} was led, so it counts low.")
        elif isinstance(lead, Card) and lead.suit == play.suit:
            notes.append(
                f"{cap(names[seats[i]])}'s {card_words(play)[4:]}, played after the lead, "
                "counts high."
            )
    return notes


def judge(
    rules: TrickRules,
    plays: Sequence[Play],
    *,
    leader: int,
    names: Sequence[str],
    game_key: str,
    held: Sequence[Sequence[Play] | None] | None = None,
    notes: Sequence[str] = (),
) -> Verdict:
    n = len(plays)
    seats = [(leader + i) % n for i in range(n)]
    explanation: list[str] = [*rules.notes, *notes]
    jokers = [
        _read_joker(plays, i, names, seats, rules.trump)
        for i, play in enumerate(plays)
        if isinstance(play, Joker)
    ]
    base = _counted_of(plays)
    # Every reading of the jokers (at most two, so a few hundred at most), and who wins.
    options = [
        [(suit, value) for suit in joker.suits for value in _values(rules, plays, suit)]
        for joker in jokers
    ]
    readings: list[tuple[tuple[Counted, ...], int]] = []
    for combo in itertools.product(*options):
        counted = list(base)
        for joker, reading in zip(jokers, combo, strict=True):
            counted[joker.index] = reading
        readings.append((combo, _winner(rules, counted)))
    winners = sorted({winner for _, winner in readings}, key=lambda i: seats[i])
    lead = plays[0]
    who_led = names[seats[0]]
    if isinstance(lead, Card):
        explanation.append(
            f"{cap(who_led)} led {card_words(lead)}: {SINGULAR[lead.suit]}s must be followed."
        )
    joker_at = {joker.index: k for k, joker in enumerate(jokers)}
    for i, play in enumerate(plays):
        if isinstance(play, Joker):
            explanation.append(cap(jokers[joker_at[i]].reason))
        elif i > 0:
            explanation.append(_follow_text(rules, plays, i, names[seats[i]]))
    explanation.extend(_rank_notes(rules, plays, names, seats))

    cards: list[CardVerdict] = []
    choices: list[Choice] = []
    decided = len(winners) == 1
    for i, play in enumerate(plays):
        seat = seats[i]
        if isinstance(play, Card):
            cards.append(
                CardVerdict(
                    seat, names[seat], play.text or str(play), play.suit.value, play.rank, ""
                )
            )
            continue
        k = joker_at[i]
        suits_seen: dict[Suit | None, list[str]] = {}
        for combo, _ in readings:
            suit, value = combo[k]
            seen = suits_seen.setdefault(suit, [])
            if value is not None and value not in seen:
                seen.append(value)
        only = list(suits_seen)
        suit_value = only[0].value if len(only) == 1 and only[0] is not None else None
        rank_value = None
        if len(only) == 1 and only[0] is not None and len(suits_seen[only[0]]) == 1:
            rank_value = suits_seen[only[0]][0]
        cards.append(
            CardVerdict(
                seat,
                names[seat],
                play.text,
                suit_value,
                rank_value,
                cap(jokers[k].reason),
                tuple(
                    (s.value if s else None, tuple(sorted(v, key=RANK_ORDER.__getitem__)))
                    for s, v in suits_seen.items()
                ),
            )
        )

    if decided:
        winner = winners[0]
        counted = list(base)
        winning_combo = readings[0][0]
        for joker, reading in zip(jokers, winning_combo, strict=True):
            counted[joker.index] = reading
        play = plays[winner]
        if isinstance(play, Joker):
            k = joker_at[winner]
            wins = sorted(
                {value for combo, _ in readings if (value := combo[k][1]) is not None},
                key=RANK_ORDER.__getitem__,
            )
            suit = counted[winner][0]
            if suit is not None and len(jokers[k].suits) == 1:
                explanation.append(
                    f"Whatever value {names[seats[winner]]} gives it "
                    f"({_ranks_text(suit, wins, _free_ranks(rules, plays, suit))}), it wins."
                )
        explanation.append(
            f"{cap(names[seats[winner]])} wins the trick with {card_words(play)}, "
            f"{_why_wins(rules, counted, winner)}."
        )
    else:
        choices = _choices(rules, plays, jokers, readings, names, seats)
        explanation.append(
            "Who wins depends on the choice of the joker's player: "
            + "; ".join(choice.text for choice in choices)
            + "."
        )
        if rules.wants is not None:
            explanation.append(_wants_text(rules, choices, jokers, names, seats))

    revokes, checked = revokes_of(rules, plays, seats, names, held) if held else ((), ())
    for revoke in revokes:
        explanation.append(revoke.message)
    winner_seat = seats[winners[0]] if decided else None
    return Verdict(
        game=game_key,
        trump=rules.trump,
        leader=leader,
        winner=winner_seat,
        winning_card=str(plays[winners[0]]) if decided else None,
        cards=tuple(cards),
        choices=tuple(choices),
        revokes=tuple(revokes),
        checked=tuple(checked),
        explanation=tuple(explanation),
        possible_winners=tuple(seats[i] for i in winners),
    )


def _follow_text(rules: TrickRules, plays: Sequence[Play], i: int, who: str) -> str:
    play = plays[i]
    assert isinstance(play, Card)
    lead = plays[0]
    words = card_words(play)
    if isinstance(lead, Card) and play.suit == lead.suit:
        return f"{cap(who)} followed with {words}."
    if isinstance(lead, Joker) and colour_of(play.suit) == lead.colour:
        return f"{cap(who)} played {words}."
    if rules.trump is not None and play.suit == rules.trump:
        return f"{cap(who)} trumped with {words}."
    if isinstance(lead, Joker):
        return f"{cap(who)} played {words}, which cannot win."
    led = SINGULAR[lead.suit]
    return f"{cap(who)} discarded {words} (neither {led}s nor trumps), which cannot win."


def _choices(
    rules: TrickRules,
    plays: Sequence[Play],
    jokers: Sequence[_Joker],
    readings: Sequence[tuple[tuple[Counted, ...], int]],
    names: Sequence[str],
    seats: Sequence[int],
) -> list[Choice]:
    """The readings grouped: for each suit the jokers may take, the values giving each winner."""
    groups: dict[tuple[tuple[Suit | None, ...], int], list[list[str | None]]] = {}
    for combo, winner in readings:
        key = (tuple(suit for suit, _ in combo), winner)
        values = groups.setdefault(key, [[] for _ in jokers])
        for k, (_, value) in enumerate(combo):
            if value not in values[k]:
                values[k].append(value)
    choices: list[Choice] = []
    for (suits, winner), values in groups.items():
        parts: list[str] = []
        described: list[tuple[int, str, str | None, tuple[str, ...]]] = []
        for k, joker in enumerate(jokers):
            suit = suits[k]
            ranks = tuple(
                sorted((v for v in values[k] if v is not None), key=RANK_ORDER.__getitem__)
            )
            described.append(
                (seats[joker.index], joker.joker.text, suit.value if suit else None, ranks)
            )
            if suit is None:
                continue
            every = _free_ranks(rules, plays, suit)
            if list(ranks) == list(every) and len(joker.suits) > 1:
                parts.append(f"{card_words(joker.joker)} as a {SINGULAR[suit]}")
            else:
                parts.append(f"{card_words(joker.joker)} as {_ranks_text(suit, ranks, every)}")
        text = f"with {' and '.join(parts)}, {names[seats[winner]]} wins"
        holder = {seats[joker.index] for joker in jokers}
        wanted = None
        if rules.wants is not None and len(holder) == 1:
            wins = seats[winner] in holder
            wanted = wins if rules.wants == "win" else not wins
        choices.append(Choice(tuple(described), seats[winner], text, wanted))
    return choices


def _wants_text(
    rules: TrickRules,
    choices: Sequence[Choice],
    jokers: Sequence[_Joker],
    names: Sequence[str],
    seats: Sequence[int],
) -> str:
    aim = "win" if rules.wants == "win" else "lose"
    wanted = [choice for choice in choices if choice.wanted]
    if len({seats[joker.index] for joker in jokers}) != 1 or not wanted:
        return f"In this hand a joker's player normally wants to {aim} the trick."
    who = names[seats[jokers[0].index]]
    return (
        f"In this hand a joker's player normally wants to {aim} the trick, so {who} would "
        f"normally choose: {wanted[0].text}."
    )
