"""Widow whist (three-handed whist): RULES.md section 1."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules_engine.cards import Suit
from rules_engine.constraints import range_check, sum_check
from rules_engine.core import DealContext, DealOutcome, Game, ScoredDeal, Table
from rules_engine.errors import RuleError
from rules_engine.options import Option, bool_option, int_map_option
from rules_engine.samples import near_even
from rules_engine.schema import record_object, seat_list
from rules_engine.tricks import TrickRules, parse_trump
from rules_engine.validate import mapping, only_keys, required, whole, whole_list

TRICKS = 13
FIELDS = frozenset(("widow", "tricks"))
TRICKS_SUM = "tricks add up to {sum}; a deal of widow whist has {total} tricks"


def _parse_finish(raw: object, field: str) -> dict[str, int] | None:
    if raw is None:
        return None
    given = mapping(raw, field, "finish")
    if len(given) != 1 or next(iter(given)) not in ("deals", "target"):
        raise RuleError(
            'finish is {"deals": N} (end after N deals), {"target": T} '
            "(end once a total reaches T) or null (open-ended)",
            field=field,
        )
    key, value = next(iter(given.items()))
    what = "the number of deals" if key == "deals" else "the target score"
    return {key: whole(value, f"{field}.{key}", 1, 10_000, what)}


FINISH: Option[dict[str, int] | None] = Option(
    name="finish",
    label="End of the game",
    description=(
        'null: open-ended (finished by hand or by a tournament\'s time limit); {"deals": N}: '
        'ends after N deals (a multiple of 3 is usual); {"target": T}: ends after the first '
        "deal in which a total reaches T or more."
    ),
    default=None,
    allowed={
        "oneOf": [
            {"type": "null"},
            {
                "type": "object",
                "properties": {"deals": {"type": "integer", "minimum": 1, "maximum": 10_000}},
                "required": ["deals"],
                "additionalProperties": False,
            },
            {
                "type": "object",
                "properties": {"target": {"type": "integer", "minimum": 1, "maximum": 10_000}},
                "required": ["target"],
                "additionalProperties": False,
            },
        ]
    },
    parse=_parse_finish,
    to_json=lambda value: None if value is None else dict(value),
)


class WidowWhist(Game):
    key = "widow_whist"
    name = "Widow whist"
    summary = (
        "Three players, clubs always trumps, 13 tricks a deal. A spare hand, the widow, "
        "may be taken in exchange: whoever takes it must make 4 tricks, the others 3."
    )
    player_counts = (3,)
    record_schema = record_object(
        {
            "widow": {
                "type": ["integer", "null"],
                "minimum": 0,
                "maximum": 2,
                "description": "The seat that took the widow, or null.",
            },
            "tricks": seat_list({"type": "integer", "minimum": 0, "maximum": TRICKS}, "Tricks."),
        },
        ["widow", "tricks"],
    )
    options = (
        int_map_option(
            "targets",
            "Target tricks",
            "Tricks to make: for the player who took the widow, and for everyone else. "
            "Each deal scores tricks minus target.",
            {"widow": 4, "other": 3},
            0,
            TRICKS,
        ),
        bool_option(
            "must_trump_when_void",
            "Must trump when void",
            "A player with no card of the suit led must play a club if they have one "
            "(a play rule only; it does not change scoring).",
            False,
        ),
        FINISH,
    )

    def deal_info(self, table: Table, number: int) -> dict[str, Any]:
        # Before the deal nobody has taken the widow: everyone's target is "other",
        # and whoever takes the widow will need "widow" instead.
        targets = table.options["targets"]
        return {"targets": [targets["other"]] * table.size, "widow_target": targets["widow"]}

    def score(self, table: Table, context: DealContext, deal: Mapping[str, object]) -> DealOutcome:
        only_keys(deal, FIELDS, "", "a widow whist deal")
        widow = required(
            deal, "widow", "widow", "the seat of the player who took the widow, or null"
        )
        if widow is not None:
            widow = whole(widow, "widow", 0, table.size - 1, "the widow (the seat that took it)")
        tricks = whole_list(
            required(deal, "tricks", "tricks", "the tricks each player took"),
            "tricks",
            table.players,
            0,
            TRICKS,
            "tricks",
        )
        if sum(tricks) != TRICKS:
            raise RuleError(TRICKS_SUM.format(sum=sum(tricks), total=TRICKS), field="tricks")
        option = table.options["targets"]
        targets = tuple(
            option["widow"] if seat == widow else option["other"] for seat in range(table.size)
        )
        scores = tuple(t - target for t, target in zip(tricks, targets, strict=True))
        return DealOutcome(
            scores=scores,
            record={"widow": widow, "tricks": list(tricks)},
            info={"targets": list(targets), "widow": widow},
        )

    def sample_deal(self, rng: random.Random, table: Table, context: DealContext) -> dict[str, Any]:
        widow = rng.choice((None, 0, 1, 2, 0, 1, 2))
        tricks = near_even(rng, 13, table.size)
        if widow is not None and rng.random() < 0.6:  # the widow usually helps its taker
            best = max(range(table.size), key=lambda seat: tricks[seat])
            tricks[widow], tricks[best] = tricks[best], tricks[widow]
        return {"widow": widow, "tricks": tricks}

    def checks(self, table: Table, context: DealContext) -> list[dict[str, Any]]:
        return [
            range_check("tricks", 0, TRICKS, "tricks"),
            sum_check("tricks", TRICKS, TRICKS_SUM.replace("{total}", str(TRICKS))),
        ]

    def score_table(self, table: Table, context: DealContext) -> dict[str, Any]:
        """Tricks minus the target: the widow's taker's, or everyone else's."""
        targets = table.options["targets"]
        return {
            "keys": [{"is_seat": "widow"}, {"field": "tricks"}],
            "table": [
                [tricks - targets[which] for tricks in range(TRICKS + 1)]
                for which in ("other", "widow")
            ],
        }

    def trick_rules(
        self, options: Mapping[str, Any], context: Mapping[str, object], players: int
    ) -> TrickRules:
        """Clubs always trumps, aces high; the house rule that a void player must trump."""
        only_keys(context, frozenset(("trump",)), "", "the context of a widow whist trick")
        trump = context.get("trump")
        if trump is not None and parse_trump(trump, "trump", allow_none=False) != Suit.CLUBS:
            raise RuleError("in widow whist clubs are always trumps", field="trump")
        must = bool(options["must_trump_when_void"])
        notes = ["Clubs are always trumps; aces are high."]
        if must:
            notes.append(
                "House rule: a player with no card of the suit led must play a club if they can."
            )
        return TrickRules(self.name, players, Suit.CLUBS, must_trump=must, notes=tuple(notes))

    def is_finished(self, table: Table, played: int, last: ScoredDeal) -> bool:
        finish = table.options["finish"]
        if finish is None:
            return False
        if "deals" in finish:
            return played >= int(finish["deals"])
        return max(last.totals) >= int(finish["target"])

    def scheduled_deals(self, table: Table) -> int | None:
        finish = table.options["finish"]
        return finish["deals"] if finish and "deals" in finish else None
