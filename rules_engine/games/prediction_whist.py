"""Prediction whist: RULES.md section 4."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from rules_engine.cards import RANKS, parse_suit
from rules_engine.constraints import range_check, sum_check
from rules_engine.core import DealContext, DealOutcome, Game, ScoredDeal, Table
from rules_engine.errors import RuleError
from rules_engine.options import bool_option
from rules_engine.samples import SUITS
from rules_engine.schema import record_object, seat_list
from rules_engine.tricks import RANK_WORDS, TrickRules, pack_cards, parse_trump, trump_note
from rules_engine.validate import only_keys, required, whole_list

MAX_HAND = 8
FIELDS = frozenset(("bids", "tricks", "trump"))
HOOK = (
    "{name} deals and bids last, and may not make the bids add up to the hand size "
    "({size}): {name} may not bid {forbidden}"
)


def tricks_sum_message(size: int) -> str:
    """What is said when the tricks of a hand of ``size`` cards do not add up ({sum})."""
    cards, are, tricks = ("s", "are", "s") if size > 1 else ("", "is", "")
    return (
        f"tricks add up to {{sum}}; with {size} card{cards} each there {are} {size} trick{tricks}"
    )


@cache
def hand_sizes(players: int) -> tuple[int, ...]:
    """Hand size of every deal: 1 (once per player), 2..7, 8 (once per player), 7..2, 1s."""
    ones = (1,) * players
    eights = (MAX_HAND,) * players
    return ones + tuple(range(2, MAX_HAND)) + eights + tuple(range(MAX_HAND - 1, 1, -1)) + ones


def pack(players: int) -> tuple[str, ...]:
    """Ranks in play: whole ranks are removed from the twos upward to leave 8 cards a player."""
    return RANKS[len(RANKS) - 2 * players :]


def deal_score(bid: int, tricks: int) -> int:
    """Exact bid b scores 5 + b(b+1)/2; missing by k scores -k(k+1)/2."""
    if bid == tricks:
        return 5 + bid * (bid + 1) // 2
    k = abs(bid - tricks)
    return -(k * (k + 1) // 2)


class PredictionWhist(Game):
    key = "prediction_whist"
    name = "Prediction whist"
    summary = (
        "Three to six players bid the exact number of tricks they will take; hands grow "
        "from 1 card to 8 and back. An exact bid scores, a miss costs."
    )
    player_counts = (3, 4, 5, 6)
    record_schema = record_object(
        {
            "bids": seat_list({"type": "integer", "minimum": 0, "maximum": MAX_HAND}, "Bids."),
            "tricks": seat_list({"type": "integer", "minimum": 0, "maximum": MAX_HAND}, "Tricks."),
            "trump": {
                "type": ["string", "null"],
                "description": "The suit turned up for trumps (S, H, D, C), or none.",
            },
        },
        ["bids", "tricks"],
    )
    preferred_players = 4
    options = (
        bool_option(
            "hook",
            "Hook rule",
            "The dealer, bidding last, may not make the bids add up to the hand size.",
            True,
        ),
    )

    def deal_info(self, table: Table, number: int) -> dict[str, Any]:
        size = hand_sizes(table.size)[number - 1]
        return {"hand_size": size, "trumps_turned": size < MAX_HAND}

    def scheduled_deals(self, table: Table) -> int:
        return 3 * table.size + 12

    def score(self, table: Table, context: DealContext, deal: Mapping[str, object]) -> DealOutcome:
        only_keys(deal, FIELDS, "", "a prediction whist deal")
        names = table.players
        size: int = context.info["hand_size"]
        bids = whole_list(
            required(deal, "bids", "bids", "each seat's bid"), "bids", names, 0, size, "bid"
        )
        if table.options["hook"] and sum(bids) == size:
            dealer = context.dealer
            forbidden = size - (sum(bids) - bids[dealer])
            raise RuleError(
                HOOK.format(name=names[dealer], size=size, forbidden=forbidden),
                field=f"bids[{dealer}]",
            )
        tricks = whole_list(
            required(deal, "tricks", "tricks", "the tricks each player took"),
            "tricks",
            names,
            0,
            size,
            "tricks",
        )
        if sum(tricks) != size:
            raise RuleError(tricks_sum_message(size).format(sum=sum(tricks)), field="tricks")
        record: dict[str, Any] = {"bids": list(bids), "tricks": list(tricks)}
        trump = deal.get("trump")
        if trump is not None and trump != "none":
            if size == MAX_HAND:
                raise RuleError(
                    f"with {MAX_HAND} cards each no card is left to turn, so this deal has "
                    "no trumps",
                    field="trump",
                )
            record["trump"] = parse_suit(trump, "trump").value
        return DealOutcome(
            scores=tuple(deal_score(b, t) for b, t in zip(bids, tricks, strict=True)),
            record=record,
        )

    def check_draft(
        self, table: Table, context: DealContext, draft: Mapping[str, object]
    ) -> dict[str, Any]:
        """The bids, entered before play as they are made: one entry a seat, None for a bid
        not made yet."""
        size: int = context.info["hand_size"]
        bids = draft.get("bids")
        if not isinstance(bids, list) or len(bids) != table.size:
            raise RuleError("bids are one entry per seat", field="bids")
        for seat, bid in enumerate(bids):
            if bid is not None and (isinstance(bid, bool) or not isinstance(bid, int)):
                bid = -1
            if bid is not None and not 0 <= bid <= size:
                raise RuleError(
                    f"{table.players[seat]}'s bid must be a whole number from 0 to {size}",
                    field=f"bids[{seat}]",
                )
        return {"bids": list(bids)}

    def sample_deal(self, rng: random.Random, table: Table, context: DealContext) -> dict[str, Any]:
        size: int = context.info["hand_size"]
        seats, dealer = table.size, context.dealer
        bids = [min(size, int(rng.random() * (2 * size / seats + 1))) for _ in range(seats)]
        if sum(bids) == size:  # the hook: the dealer, bidding last, may not make them add up
            up = bids[dealer] == 0 or (bids[dealer] < size and rng.random() < 0.5)
            bids[dealer] += 1 if up else -1
        won = [0] * seats
        for _ in range(size):
            weights = [max(0.15, bids[seat] - won[seat] + 0.3) for seat in range(seats)]
            won[rng.choices(range(seats), weights=weights)[0]] += 1
        deal: dict[str, Any] = {"bids": bids, "tricks": won}
        if context.info["trumps_turned"]:
            deal["trump"] = rng.choice(SUITS)
        return deal

    def checks(self, table: Table, context: DealContext) -> list[dict[str, Any]]:
        size: int = context.info["hand_size"]
        checks = [range_check("bids", 0, size, "bid"), range_check("tricks", 0, size, "tricks")]
        if table.options["hook"]:
            checks.append(
                {
                    "check": "not_sum",
                    "field": "bids",
                    "seat": context.dealer,
                    "total": size,
                    "message": HOOK.replace("{size}", str(size)),
                }
            )
        checks.append(sum_check("tricks", size, tricks_sum_message(size)))
        return checks

    def score_table(self, table: Table, context: DealContext) -> dict[str, Any]:
        """Each seat's score by its bid and its tricks."""
        size: int = context.info["hand_size"]
        return {
            "keys": [{"field": "bids"}, {"field": "tricks"}],
            "table": [[deal_score(b, t) for t in range(size + 1)] for b in range(size + 1)],
        }

    def trick_rules(
        self, options: Mapping[str, Any], context: Mapping[str, object], players: int
    ) -> TrickRules:
        """The turned-up suit trumps (none with 8 cards each); aces high. A card outside the
        pack for this many players is judged with a note rather than refused: the source's
        own worked example plays the 8 of diamonds at a table of three."""
        only_keys(context, frozenset(("trump",)), "", "the context of a prediction whist trick")
        trump = parse_trump(
            required(context, "trump", "trump", "the suit turned up for trumps, or null"),
            "trump",
            allow_none=True,
        )
        ranks = pack(players)
        return TrickRules(
            self.name,
            players,
            trump,
            ranks=ranks,
            pack=f"{len(ranks) * 4} cards for {players} players, {RANK_WORDS[ranks[0]]}s to aces",
            strict_pack=False,
            notes=(f"{trump_note(trump)} Aces are high.",),
        )

    def trick_pack(self, players: int) -> tuple[str, ...]:
        return pack_cards(pack(players))

    def is_finished(self, table: Table, played: int, last: ScoredDeal) -> bool:
        return played >= self.scheduled_deals(table)
