"""Italian whist: RULES.md section 3."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules_engine.cards import Suit
from rules_engine.constraints import range_check, sum_check
from rules_engine.core import DealContext, DealOutcome, Game, ScoredDeal, Table
from rules_engine.errors import RuleError
from rules_engine.options import int_option
from rules_engine.samples import near_even
from rules_engine.schema import record_object, seat_list
from rules_engine.tricks import TrickRules, pack_cards, parse_trump, trump_note
from rules_engine.validate import only_keys, required, type_name, whole, whole_list

TRICKS = 9
FIELDS = frozenset(("first", "second"))
HAND_SUM = "tricks of the {which} hand add up to {sum}; each hand of a deal has {total} tricks"
#: Trumps and passing of deals 1..6; the cycle repeats.
CYCLE: tuple[tuple[str, str], ...] = (
    ("none", "left"),
    ("none", "right"),
    ("none", "keep"),
    ("spades", "left"),
    ("spades", "right"),
    ("spades", "keep"),
)


def cycle_of(number: int) -> tuple[str, str]:
    """(trumps, pass) of deal ``number`` (1-based)."""
    return CYCLE[(number - 1) % len(CYCLE)]


class ItalianWhist(Game):
    key = "italian_whist"
    name = "Italian whist"
    summary = (
        "Three players, 18 cards each split into two hands of 9: tricks in the first "
        "count for you, tricks in the second (passed on or kept) against you."
    )
    player_counts = (3,)
    record_schema = record_object(
        {
            hand: seat_list(
                {"type": "integer", "minimum": 0, "maximum": TRICKS}, f"Tricks, {hand} hand."
            )
            for hand in ("first", "second")
        },
        ["first", "second"],
    )
    options = (
        int_option(
            "limit",
            "Score limit",
            "The game ends after a deal in which a total reaches the limit, plus or minus "
            "(with the usual 10: +10 or \u221210; 5 for experts, 20 for beginners).",
            10,
            1,
            1_000,
        ),
    )

    def deal_info(self, table: Table, number: int) -> dict[str, Any]:
        trumps, passing = cycle_of(number)
        return {"trumps": trumps, "pass": passing}

    def _hand(self, deal: Any, key: str, table: Table, which: str) -> tuple[int, ...]:
        tricks = whole_list(
            required(deal, key, key, f"the tricks each player won in the {which} hand"),
            key,
            table.players,
            0,
            TRICKS,
            f"tricks in the {which} hand",
        )
        if sum(tricks) != TRICKS:
            raise RuleError(HAND_SUM.format(which=which, sum=sum(tricks), total=TRICKS), field=key)
        return tricks

    def score(self, table: Table, context: DealContext, deal: Mapping[str, object]) -> DealOutcome:
        only_keys(deal, FIELDS, "", "an Italian whist deal")
        first = self._hand(deal, "first", table, "first")
        second = self._hand(deal, "second", table, "second")
        return DealOutcome(
            scores=tuple(a - b for a, b in zip(first, second, strict=True)),
            record={"first": list(first), "second": list(second)},
        )

    def sample_deal(self, rng: random.Random, table: Table, context: DealContext) -> dict[str, Any]:
        return {"first": near_even(rng, 9, 3), "second": near_even(rng, 9, 3)}

    def checks(self, table: Table, context: DealContext) -> list[dict[str, Any]]:
        checks = []
        for hand in ("first", "second"):
            message = HAND_SUM.replace("{which}", hand).replace("{total}", str(TRICKS))
            checks.append(range_check(hand, 0, TRICKS, f"tricks in the {hand} hand"))
            checks.append(sum_check(hand, TRICKS, message))
        return checks

    def score_table(self, table: Table, context: DealContext) -> dict[str, Any]:
        """Tricks of the first hand less tricks of the second."""
        return {
            "keys": [{"field": "first"}, {"field": "second"}],
            "table": [[a - b for b in range(TRICKS + 1)] for a in range(TRICKS + 1)],
        }

    def trick_rules(
        self, options: Mapping[str, Any], context: Mapping[str, object], players: int
    ) -> TrickRules:
        """No trumps or spades, by the deal number; aces high; the two jokers. In the first
        hand of a deal a joker's player wants to win tricks, in the second to lose them."""
        only_keys(
            context,
            frozenset(("trump", "deal", "half")),
            "",
            "the context of an Italian whist trick",
        )
        if "deal" not in context and "trump" not in context:
            raise RuleError(
                "say which deal this is (deal: its number, which fixes trumps) or the trump "
                '("S", or null for no trumps)',
                field="trump",
            )
        trump: Suit | None = None
        if "deal" in context:
            number = whole(context["deal"], "deal", 1, None, "deal (the deal's number)")
            trump = Suit.SPADES if cycle_of(number)[0] == "spades" else None
        if "trump" in context:
            given = parse_trump(context["trump"], "trump", allow_none=True)
            if given not in (None, Suit.SPADES):
                raise RuleError(
                    "in Italian whist spades are trumps or there are none", field="trump"
                )
            if "deal" in context and given != trump:
                raise RuleError(
                    f"deal {context['deal']} is played with "
                    f"{'spades trumps' if trump else 'no trumps'}",
                    field="trump",
                )
            trump = given
        half = context.get("half", "first")
        if half not in ("first", "second"):
            raise RuleError(
                f'half is "first" or "second" (the hand of the deal); got {type_name(half)}',
                field="half",
            )
        aim = (
            "First hand: tricks count for you, so a joker's player normally wants to win."
            if half == "first"
            else "Second hand: tricks count against you, so a joker's player normally wants "
            "to lose."
        )
        return TrickRules(
            self.name,
            players,
            trump,
            pack="52 cards and a red and a black joker",
            jokers=True,
            wants="win" if half == "first" else "lose",
            notes=(f"{trump_note(trump)} Aces are high.", aim),
        )

    def trick_pack(self, players: int) -> tuple[str, ...]:
        return pack_cards(jokers=True)

    def is_finished(self, table: Table, played: int, last: ScoredDeal) -> bool:
        limit = table.options["limit"]
        return any(abs(total) >= limit for total in last.totals)
