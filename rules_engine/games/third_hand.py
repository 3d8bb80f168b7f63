"""Third Hand: RULES.md section 2."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from rules_engine.cards import CARDS, Suit, parse_card, parse_rank, parse_suit
from rules_engine.core import DealContext, DealOutcome, Game, ScoredDeal, Table
from rules_engine.errors import RuleError
from rules_engine.options import int_map_option, int_option
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
FIELDS = ("bids", "points", "captured", "trump", "exchanged")


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


@cache
def possible_single_points() -> frozenset[int]:
    return frozenset(p for pair in possible_points() for p in pair)


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


def _check_points(points: tuple[int, ...], names: Sequence[str], field: str) -> None:
    singles = possible_single_points()
    for seat, p in enumerate(points):
        if p not in singles:
            raise RuleError(
                f"{names[seat]}'s {p} points cannot be made of captured cards "
                "(ace 1, king, queen, jack and ten 10, nine 9, taken two a trick)",
                field=f"{field}[{seat}]",
            )
    total = sum(points)
    if not 100 <= total <= MAX_POINTS:
        raise RuleError(
            f"points add up to {total}; the 14 cards captured in a deal are worth "
            f"100 to {MAX_POINTS} in all",
            field=field,
        )
    if (points[0], points[1]) not in possible_points():
        raise RuleError(
            f"{points[0]} and {points[1]} points cannot both be made from the 14 cards "
            "captured in one deal",
            field=field,
        )


def _captured_points(value: object, names: Sequence[str]) -> tuple[tuple[int, ...], list[Any]]:
    hands = sequence(value, "captured", 2, "captured")
    seen: set[str] = set()
    points: list[int] = []
    cards_json: list[Any] = []
    count = 0
    for seat, hand in enumerate(hands):
        field = f"captured[{seat}]"
        if not isinstance(hand, list | tuple):
            raise RuleError(
                f'{names[seat]}\'s captured cards must be a list of cards like "QH"; '
                f"got {type_name(hand)}",
                field=field,
            )
        total = 0
        listed: list[str] = []
        for i, item in enumerate(hand):
            card = CARDS.get(item) if type(item) is str else None
            if card is None:
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
            listed.append(card.text)
            total += CARD_POINTS[card.rank]
        if len(hand) % 2:
            raise RuleError(
                f"{names[seat]} captured {len(hand)} cards; tricks are won two cards at a time",
                field=field,
            )
        count += len(hand)
        points.append(total)
        cards_json.append(listed)
    if count != CAPTURED:
        raise RuleError(
            f"{count} cards captured; a deal of Third Hand has 7 tricks, {CAPTURED} cards",
            field="captured",
        )
    return tuple(points), cards_json


class ThirdHand(Game):
    key = "third_hand"
    name = "Third Hand"
    summary = (
        "Two players, 24 cards, a third hand built from discards. Bid a rank for the "
        "contract, capture card points in 7 tricks; first past 500 wins."
    )
    player_counts = (2,)
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
        bids_raw = sequence(
            required(deal, "bids", "bids", "each seat's bid rank, or null for no bid"),
            "bids",
            2,
            "bids",
        )
        bids = tuple(_parse_bid(bids_raw[seat], f"bids[{seat}]", names[seat]) for seat in range(2))
        first, second = bids[other], bids[dealer]
        if first is not None and second is not None and BID_ORDER[second] <= BID_ORDER[first]:
            raise RuleError(
                f"{names[dealer]} deals and bids second, so their bid ({second}) must be "
                f"higher than {names[other]}'s face-up {first}",
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
        _check_points(points, names, "captured" if "captured" in deal else "points")
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

    def next_dealer(self, table: Table, deal: ScoredDeal) -> int:
        """Whoever scored more in the deal deals next; on a tie, the non-dealer."""
        a, b = deal.scores
        if a == b:
            return 1 - deal.dealer
        return 0 if a > b else 1

    def is_finished(self, table: Table, deals: Sequence[ScoredDeal]) -> bool:
        totals = deals[-1].totals
        top = max(totals)
        return top > table.options["target"] and totals.count(top) == 1
