"""Third Hand: RULES.md section 2."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from rules_engine.cards import CARDS, Suit, parse_card, parse_rank, parse_suit
from rules_engine.constraints import range_check
from rules_engine.core import DealContext, DealOutcome, Game, ScoredDeal, Table
from rules_engine.errors import RuleError
from rules_engine.options import int_map_option, int_option
from rules_engine.samples import SUITS
from rules_engine.schema import record_object, seat_list
from rules_engine.tricks import RANK_WORDS, TrickRules, pack_cards, parse_trump, trump_note
from rules_engine.validate import (
    boolean,
    only_keys,
    required,
    sequence,
    type_name,
    whole_list,
)

#: Bid ranks from lowest to highest; suits do not matter in bidding.
BID_RANKS: tuple[str, ...] = ("9", "10", "J", "Q", "K", "A")
BID_ORDER = {rank: i for i, rank in enumerate(BID_RANKS)}
#: Card points captured in tricks.
CARD_POINTS = {"A": 1, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 9}
#: The 24-card deck, as card texts.
DECK: frozenset[str] = frozenset(f"{rank}{suit.value}" for rank in BID_RANKS for suit in Suit)
CAPTURED = 14  # 7 tricks of 2 cards
MAX_POINTS = 140
FIELDS = frozenset(("bids", "points", "captured", "trump", "exchanged"))


@cache
def possible_points() -> frozenset[tuple[int, int]]:
    """Every (seat 0, seat 1) pair of points that 14 captured cards can make.

    Each player captures an even number of cards (two a trick), the two
    together 14, all different cards of the deck: 4 aces (1 point each),
    16 kings, queens, jacks and tens (10 each) and 4 nines (9 each).
    """
    pairs: set[tuple[int, int]] = set()
    for aces0 in range(5):
        for nines0 in range(5):
            for tens0 in range(CAPTURED + 1):
                cards0 = aces0 + nines0 + tens0
                if cards0 > CAPTURED or cards0 % 2:
                    continue
                cards1 = CAPTURED - cards0
                for aces1 in range(5 - aces0):
                    for nines1 in range(5 - nines0):
                        tens1 = cards1 - aces1 - nines1
                        if 0 <= tens1 <= 16 - tens0:
                            pairs.add(
                                (
                                    aces0 + 9 * nines0 + 10 * tens0,
                                    aces1 + 9 * nines1 + 10 * tens1,
                                )
                            )
    return frozenset(pairs)


POSSIBLE_POINTS = possible_points()
POSSIBLE_SINGLE_POINTS = frozenset(p for pair in POSSIBLE_POINTS for p in pair)
SINGLE_POINTS = (
    "{name}'s {value} points cannot be made of captured cards "
    "(ace 1, king, queen, jack and ten 10, nine 9, taken two a trick)"
)
POINTS_TOTAL = (
    "points add up to {sum}; the 14 cards captured in a deal are worth 100 to "
    f"{MAX_POINTS} in all"
)
POINTS_PAIR = "{0} and {1} points cannot both be made from the 14 cards captured in one deal"
DEALER_BID = (
    "{name} deals and bids second, so their bid ({value}) must be higher than {first}'s "
    "face-up {over}"
)


def _parse_bid(value: object, field: str, who: str) -> str | None:
    if value is None or (type(value) is str and value in BID_ORDER):
        return value
    rank = None
    if isinstance(value, str):
        rank = parse_rank(value)
    elif isinstance(value, int) and not isinstance(value, bool):
        rank = str(value)
    if rank not in BID_ORDER:
        raise RuleError(
            f"{who}'s bid must be a rank from 9 up to A (9, 10, J, Q, K, A) or null for "
            f"no bid; got {type_name(value)}",
            field=field,
        )
    return rank


def _explain_bad_points(points: tuple[int, ...], names: Sequence[str], field: str) -> None:
    """Raise the :class:`RuleError` that says why a pair of points is impossible."""
    for seat, p in enumerate(points):
        if p not in POSSIBLE_SINGLE_POINTS:
            raise RuleError(
                SINGLE_POINTS.format(name=names[seat], value=p), field=f"{field}[{seat}]"
            )
    total = sum(points)
    if not 100 <= total <= MAX_POINTS:
        raise RuleError(POINTS_TOTAL.format(sum=total), field=field)
    raise RuleError(POINTS_PAIR.format(*points), field=field)


#: Points of every spelling of a card of the 24-card deck ("QH", "qh", "Q♥", ...).
_DECK_POINTS: dict[str, int] = {
    text: CARD_POINTS[card.rank] for text, card in CARDS.items() if card.rank in CARD_POINTS
}
_DECK_TEXT: dict[str, str] = {
    text: card.text for text, card in CARDS.items() if card.rank in CARD_POINTS
}


def _bids(deal: Mapping[str, object], names: Sequence[str]) -> tuple[str | None, str | None]:
    """Each seat's bid rank, or None for no bid."""
    given = deal.get("bids")
    if type(given) is list and len(given) == 2:
        a, b = given
        if (a is None or (type(a) is str and a in BID_ORDER)) and (
            b is None or (type(b) is str and b in BID_ORDER)
        ):
            return a, b
    given = sequence(
        required(deal, "bids", "bids", "each seat's bid rank, or null for no bid"),
        "bids",
        2,
        "bids",
    )
    return (
        _parse_bid(given[0], "bids[0]", names[0]),
        _parse_bid(given[1], "bids[1]", names[1]),
    )


def _captured_points(value: object, names: Sequence[str]) -> tuple[tuple[int, ...], list[Any]]:
    """Points of each seat's captured cards, and the cards as the engine writes them."""
    hands = sequence(value, "captured", 2, "captured")
    try:
        # The usual case, checked in bulk: two lists of well-written, different cards.
        first, second = ([_DECK_TEXT[card] for card in hand] for hand in hands)  # type: ignore[attr-defined]
        if (
            len(first) + len(second) == CAPTURED
            and not len(first) % 2
            and len(set(first).union(second)) == CAPTURED
        ):
            return (
                (sum(_DECK_POINTS[c] for c in first), sum(_DECK_POINTS[c] for c in second)),
                [first, second],
            )
    except (KeyError, TypeError):
        pass
    _explain_bad_capture(hands, names)
    raise AssertionError("unreachable: a capture that fails the bulk check has a reason")


def _explain_bad_capture(hands: Sequence[object], names: Sequence[str]) -> None:
    """Raise the :class:`RuleError` that says what is wrong with the captured cards."""
    seen: set[str] = set()
    count = 0
    for seat, hand in enumerate(hands):
        field = f"captured[{seat}]"
        if not isinstance(hand, list | tuple):
            raise RuleError(
                f'{names[seat]}\'s captured cards must be a list of cards like "QH"; '
                f"got {type_name(hand)}",
                field=field,
            )
        for i, item in enumerate(hand):
            card = parse_card(item, f"{field}[{i}]")
            if card.rank not in CARD_POINTS:
                raise RuleError(
                    f"{card} is not in Third Hand's 24-card deck (9, 10, J, Q, K and A "
                    "of each suit)",
                    field=f"{field}[{i}]",
                )
            if card.text in seen:
                raise RuleError(f"{card} is listed twice; each card is captured once", field=field)
            seen.add(card.text)
        if len(hand) % 2:
            raise RuleError(
                f"{names[seat]} captured {len(hand)} cards; tricks are won two cards at a time",
                field=field,
            )
        count += len(hand)
    raise RuleError(
        f"{count} cards captured; a deal of Third Hand has 7 tricks, {CAPTURED} cards",
        field="captured",
    )


class ThirdHand(Game):
    key = "third_hand"
    name = "Third Hand"
    summary = (
        "Two players, 24 cards, a third hand built from discards. Bid a rank for the "
        "contract, capture card points in 7 tricks; first past 500 wins."
    )
    player_counts = (2,)
    dealer_follows_scores = True
    record_schema = {
        **record_object(
            {
                "bids": seat_list(
                    {"type": ["string", "null"], "enum": [*BID_RANKS, None]},
                    "Each seat's bid rank, or null for no bid.",
                ),
                "points": seat_list(
                    {"type": "integer", "minimum": 0, "maximum": MAX_POINTS}, "Card points."
                ),
                "captured": seat_list(
                    {"type": "array", "items": {"type": "string"}}, "The cards each captured."
                ),
                "trump": {"type": ["string", "null"], "description": "The trump suit, if any."},
                "exchanged": {
                    "type": "boolean",
                    "description": "The holder exchanged hands with the third hand.",
                },
            },
            ["bids"],
        ),
        "anyOf": [{"required": ["points"]}, {"required": ["captured"]}],
    }
    options = (
        int_map_option(
            "contract_values",
            "Contract values",
            "Points the contract holder must capture, by the rank of the bid card.",
            {"9": 50, "10": 60, "J": 70, "Q": 80, "K": 90, "A": 100},
            0,
            MAX_POINTS,
        ),
        int_option(
            "target",
            "Target",
            "The game ends after a deal in which a total passes (is more than) this.",
            500,
            1,
            1_000_000,
        ),
    )

    def score(self, table: Table, context: DealContext, deal: Mapping[str, object]) -> DealOutcome:
        only_keys(deal, FIELDS, "", "a Third Hand deal")
        names = table.players
        dealer = context.dealer
        other = 1 - dealer
        bids = _bids(deal, names)
        first, second = bids[other], bids[dealer]
        if first is not None and second is not None and BID_ORDER[second] <= BID_ORDER[first]:
            raise RuleError(
                DEALER_BID.format(name=names[dealer], value=second, first=names[other], over=first),
                field=f"bids[{dealer}]",
            )

        record: dict[str, Any] = {"bids": list(bids)}
        if "captured" in deal:
            points, cards = _captured_points(deal["captured"], names)
            record["captured"] = cards
            if "points" in deal:
                given = whole_list(deal["points"], "points", names, 0, MAX_POINTS, "points")
                if given != points:
                    raise RuleError(
                        f"points {list(given)} do not match the captured cards, which are "
                        f"worth {list(points)}",
                        field="points",
                    )
        else:
            typed = deal.get("points")
            if type(typed) is list and len(typed) == 2 and type(typed[0]) is type(typed[1]) is int:
                points = (typed[0], typed[1])
            else:
                points = whole_list(
                    required(
                        deal, "points", "points", "each seat's card points (or the captured cards)"
                    ),
                    "points",
                    names,
                    0,
                    MAX_POINTS,
                    "points",
                )
        if points not in POSSIBLE_POINTS:
            _explain_bad_points(points, names, "captured" if "captured" in deal else "points")
        record["points"] = list(points)

        if deal.get("trump") is not None:
            record["trump"] = parse_suit(deal["trump"], "trump").value
        holder = dealer if second is not None else other if first is not None else None
        if "exchanged" in deal:
            exchanged = boolean(deal["exchanged"], "exchanged", "exchanged")
            if exchanged and holder is None:
                raise RuleError(
                    "only a contract holder may exchange hands with the third hand, and nobody bid",
                    field="exchanged",
                )
            record["exchanged"] = exchanged

        if holder is None:
            return DealOutcome(
                scores=points,
                record=record,
                info={"holder": None, "contract": None, "made": None, "points": list(points)},
            )
        rank = bids[holder]
        assert rank is not None
        value = table.options["contract_values"][rank]
        h, o = points[holder], points[1 - holder]
        difference = abs(h - o) * (2 if first is not None and second is not None else 1)
        made = h >= value
        scores = [0, 0]
        scores[holder] = h + difference if made else h - difference
        scores[1 - holder] = o
        return DealOutcome(
            scores=(scores[0], scores[1]),
            record=record,
            info={
                "holder": holder,
                "contract": value,
                "contract_rank": rank,
                "made": made,
                "doubled": first is not None and second is not None,
                "points": list(points),
            },
        )

    def check_new_table(self, table: Table) -> None:
        """Contract values may not fall as the bid card rises: a dealer takes the contract
        over with a higher card (RULES.md section 2), which would otherwise ask for fewer
        points. (RULES.md and the source leave the values to the house; equal ones are
        allowed.)"""
        values = table.options["contract_values"]
        for lower, higher in itertools.pairwise(BID_RANKS):
            if values[higher] < values[lower]:
                raise RuleError(
                    "Contract values: a higher bid card asks for at least as many points; "
                    f'"{higher}" ({values[higher]}) is below "{lower}" ({values[lower]})',
                    field=f"options.contract_values.{higher}",
                )

    def sample_deal(self, rng: random.Random, table: Table, context: DealContext) -> dict[str, Any]:
        ranks = ("9", "10", "J", "Q", "K", "A")
        value = {"A": 1, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 9}
        dealer = context.dealer
        other = 1 - dealer
        bids: list[str | None] = [None, None]
        if rng.random() < 0.5:
            bids[other] = rng.choice(("9", "10", "10", "J", "J", "Q", "K"))
        if bids[other] is None:
            if rng.random() < 0.5:
                bids[dealer] = rng.choice(("9", "10", "J", "J", "Q", "K"))
        elif rng.random() < 0.3 and bids[other] != "A":
            higher = ranks[ranks.index(str(bids[other])) + 1 :]
            bids[dealer] = rng.choice(higher[:2])
        holder = dealer if bids[dealer] is not None else other if bids[other] is not None else None
        captured = rng.sample([rank + suit for rank in ranks for suit in SUITS], 14)
        # Tricks won by seat 0; whoever holds the contract usually bid on a good hand.
        tricks = rng.choice((3, 4, 4, 5, 5, 6) if holder is not None else (2, 3, 3, 4, 4, 5))
        seat0 = tricks if holder in (0, None) else 7 - tricks
        points = [
            sum(value[card[:-1]] for card in captured[: 2 * seat0]),
            sum(value[card[:-1]] for card in captured[2 * seat0 :]),
        ]
        deal: dict[str, Any] = {"bids": bids, "points": points, "trump": rng.choice(SUITS)}
        if holder is not None:
            deal["exchanged"] = rng.random() < 0.3
        return deal

    def checks(self, table: Table, context: DealContext) -> list[dict[str, Any]]:
        """The dealer's bid tops the face-up one; typed points can be captured (one by
        one, in all, and as a pair). Captured cards are counted by the server."""
        dealer, other = context.dealer, 1 - context.dealer
        pairs: dict[int, list[int]] = {}
        for a, b in sorted(POSSIBLE_POINTS):
            pairs.setdefault(a, []).append(b)
        return [
            {
                "check": "above",
                "field": "bids",
                "seat": dealer,
                "over": other,
                "order": list(BID_RANKS),
                "message": DEALER_BID.replace("{first}", table.players[other]),
            },
            range_check("points", 0, MAX_POINTS, "points"),
            {
                "check": "one_of",
                "field": "points",
                "values": sorted(POSSIBLE_SINGLE_POINTS),
                "message": SINGLE_POINTS,
            },
            {
                "check": "sum_range",
                "field": "points",
                "min": 100,
                "max": MAX_POINTS,
                "message": POINTS_TOTAL,
            },
            {
                "check": "pairs",
                "field": "points",
                "pairs": {str(a): seconds for a, seconds in pairs.items()},
                "message": POINTS_PAIR.replace("{0}", "{value0}").replace("{1}", "{value1}"),
            },
        ]

    def next_dealer(self, table: Table, deal: ScoredDeal) -> int:
        """Whoever scored more in the deal deals next; on a tie, the non-dealer."""
        a, b = deal.scores
        if a == b:
            return 1 - deal.dealer
        return 0 if a > b else 1

    def trick_rules(
        self, options: Mapping[str, Any], context: Mapping[str, object], players: int
    ) -> TrickRules:
        """The cut card's suit trumps. The winning bid's rank is the high rank (no contract:
        kings); an ace is low when led and high when played second, unless aces were bid."""
        only_keys(
            context, frozenset(("trump", "high_rank")), "", "the context of a Third Hand trick"
        )
        trump = parse_trump(
            required(context, "trump", "trump", "the suit of the cut card (S, H, D, C)"),
            "trump",
            allow_none=False,
        )
        raw = context.get("high_rank")
        high = None
        if raw is not None:
            high = parse_rank(raw) if isinstance(raw, str) else None
            if high not in BID_ORDER:
                raise RuleError(
                    "high_rank is the rank of the winning bid (9, 10, J, Q, K or A), or null "
                    f"when nobody bid; got {type_name(raw)}",
                    field="high_rank",
                )
        if high == "A":
            order = "A, K, Q, J, 10, 9"
            rank = "Aces are the high rank (the bid)"
        else:
            rest = [r for r in ("K", "Q", "J", "10", "9") if r != (high or "K")]
            top = high or "K"
            order = f"A (played second), {top}, {', '.join(rest)}, A (led)"
            if high is None:
                rank = "No contract, so kings are the high rank"
            else:
                rank = f"{RANK_WORDS[high].capitalize()}s are the high rank (the bid)"
        return TrickRules(
            self.name,
            players,
            trump,
            ranks=BID_RANKS,
            pack="24 cards, nines to aces",
            high_rank=high,
            low_led_ace=True,
            notes=(trump_note(trump), f"{rank}: in each suit {order}."),
        )

    def trick_pack(self, players: int) -> tuple[str, ...]:
        return pack_cards(BID_RANKS)

    def is_finished(self, table: Table, played: int, last: ScoredDeal) -> bool:
        totals = last.totals
        top = max(totals)
        return top > table.options["target"] and totals.count(top) == 1
