"""Prediction whist on the game page: bids (kept as they are tapped), then tricks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game_forms import Group, Section, TricksPerSeat, possessive
from .base import SUIT_CHOICES, Figures, GamePage, TrickField, paired_figures, per_seat_lines
from .shapes import Context, Names, Options, PastDeal, Record


class PredictionEntry(TricksPerSeat):
    game_type = "prediction_whist"

    @property
    def size(self) -> int:
        return int(self.info.get("hand_size", 1))

    @property
    def bidding_order(self) -> list[int]:
        count = len(self.players)
        return [(self.dealer + 1 + i) % count for i in range(count)]

    def field_names(self) -> list[str]:
        return [f"{what}-{seat}" for what in ("bids", "tricks") for seat in self.seats]

    def section_keys(self) -> set[str]:
        return {"bids", "tricks"}

    def bids(self) -> list[int | None]:
        return [self.number_of(f"bids-{seat}", 0, self.size) for seat in self.seats]

    def forbidden_bid(self) -> int | None:
        """The dealer's bid that would make the bids add up to the hand size (the hook)."""
        if not self.options.get("hook", True):
            return None
        others = [bid for seat, bid in enumerate(self.bids()) if seat != self.dealer]
        if any(bid is None for bid in others):
            return None
        forbidden = self.size - sum(bid for bid in others if bid is not None)
        return forbidden if 0 <= forbidden <= self.size else None

    def parse(self) -> None:
        bids = self.bids()
        forbidden = self.forbidden_bid()
        if forbidden is not None and bids[self.dealer] == forbidden:
            name = self.players[self.dealer]
            self.missing[f"bids-{self.dealer}"] = (
                f"{name} deals and bids last, and may not make the bids add up to the hand "
                f"size ({self.size}): {name} may not bid {forbidden}."
            )
            bids[self.dealer] = None
        for seat in self.bidding_order:
            if bids[seat] is None:
                self.missing.setdefault(
                    f"bids-{seat}",
                    self.ask(
                        f"bids-{seat}",
                        f"Tap {possessive(self.players[seat])} bid.",
                        f"a whole number from 0 to {self.size}",
                    ),
                )
        tricks = self.tricks_list("tricks", self.size, "tricks")
        if tricks is not None and all(bid is not None for bid in bids):
            self.record = {"bids": list(bids), "tricks": tricks}

    def bid_groups(self) -> list[Group]:
        forbidden = self.forbidden_bid()
        groups = []
        last = len(self.players) - 1
        for place, seat in enumerate(self.bidding_order):
            name = self.players[seat]
            if place == last:
                legend = f"{name} deals, bids last"
                note = (
                    f"may not bid {forbidden}"
                    if forbidden is not None
                    else "may not make the bids add up"
                    if self.options.get("hook", True)
                    else ""
                )
                disabled = [str(forbidden)] if forbidden is not None else []
            else:
                legend, note, disabled = name, "", []
            group = self.count_pills(f"bids-{seat}", legend, self.size, disabled=disabled)
            group.note = note
            group.role = "dealer-bid" if place == last else "bid"
            groups.append(group)
        return groups

    def bid_note(self, seat: int) -> str:
        bid = self.number_of(f"bids-{seat}", 0, self.size)
        return "" if bid is None else f"bid {bid}"

    def trick_groups(self) -> list[Group]:
        groups = []
        for seat in self.bidding_order:
            group = self.count_group(f"tricks-{seat}", self.players[seat], self.size)
            group.note = " · ".join(note for note in (self.bid_note(seat), group.note) if note)
            groups.append(group)
        return groups

    def sections(self) -> list[Section]:
        cards = "card" if self.size == 1 else "cards"
        return [
            self.section(
                "bids",
                "Bids",
                self.bid_groups(),
                hint=f"In bidding order, from the dealer’s left. {self.size} {cards} each.",
                role="bids",
            ),
            self.section(
                "tricks",
                "Tricks taken, after play",
                self.trick_groups(),
                hint=f"Tap all but one; the last is what is left of {self.size}.",
                fill_total=self.size,
            ),
        ]

    @classmethod
    def values_from_record(cls, record: Record, players: int) -> dict[str, str]:
        values = {}
        for what in ("bids", "tricks"):
            for seat, count in enumerate(record.get(what, [])):
                if count is not None:
                    values[f"{what}-{seat}"] = str(count)
        return values

    keeps_draft = True

    def data_attributes(self) -> dict[str, str]:
        return {"size": str(self.size), "hook": "1" if self.options.get("hook", True) else "0"}

    def draft(self) -> dict[str, Any]:
        return {"bids": self.draft_bids()}

    def draft_summary(self) -> str:
        bids = self.draft_bids()
        return ", ".join(
            f"{self.players[seat]} {bids[seat]}"
            for seat in self.bidding_order
            if bids[seat] is not None
        )

    @classmethod
    def values_from_draft(cls, draft: Mapping[str, Any]) -> dict[str, str]:
        bids = draft.get("bids") or []
        return {f"bids-{seat}": str(bid) for seat, bid in enumerate(bids) if bid is not None}

    def draft_bids(self) -> list[int | None]:
        """The bids as kept in a draft: tapped ones, None for the rest (a forbidden bid too)."""
        bids = self.bids()
        forbidden = self.forbidden_bid()
        if forbidden is not None and bids[self.dealer] == forbidden:
            bids[self.dealer] = None
        return bids


class PredictionWhistPage(GamePage):
    entry = PredictionEntry
    figures_key = "Under each score, the bid/the tricks taken."

    def header(self, context: Context, players: Names, options: Options) -> list[str]:
        size = context.get("hand_size", 1)
        return [
            f"{size} card{'s' if size != 1 else ''}",
            "trumps turned" if context.get("trumps_turned") else "no trumps",
        ]

    def figures(self, deal: PastDeal, players: Names) -> Figures:
        return paired_figures(deal, "bids", "tricks")

    def summary(self, record: Record, players: Names) -> list[str]:
        return per_seat_lines(record, players, {"bids": "Bids", "tricks": "Tricks"})

    def trick_fields(self, context: Context, values: Mapping[str, str]) -> list[TrickField]:
        # Eight cards each leave none to turn: no trumps. Otherwise the turned card's suit.
        default = "" if context.get("trumps_turned", True) else "none"
        choices = [("", "Choose…"), ("none", "No trumps"), *SUIT_CHOICES]
        return [
            TrickField("trump", "Trumps (the turned card)", choices, values.get("trump", default))
        ]


PAGE = PredictionWhistPage()
