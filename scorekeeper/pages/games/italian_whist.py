"""Italian whist on the game page: each player's tricks in each of the two hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..game_forms import Section, TricksPerSeat
from .base import Figures, GamePage, TrickField, paired_figures, per_seat_lines
from .shapes import Context, Names, Options, PastDeal, Record


class ItalianEntry(TricksPerSeat):
    game_type = "italian_whist"
    TRICKS = 9

    def field_names(self) -> list[str]:
        return [f"{hand}-{seat}" for hand in ("first", "second") for seat in self.seats]

    def section_keys(self) -> set[str]:
        return {"first", "second"}

    def parse(self) -> None:
        first = self.tricks_list("first", self.TRICKS, "tricks in the first hand")
        second = self.tricks_list("second", self.TRICKS, "tricks in the second hand")
        if first is not None and second is not None:
            self.record = {"first": first, "second": second}

    def sections(self) -> list[Section]:
        sections = []
        for hand, title in (
            ("first", "First hand: tricks count for you"),
            ("second", "Second hand: tricks count against you"),
        ):
            groups = [
                self.count_group(f"{hand}-{seat}", name, self.TRICKS)
                for seat, name in enumerate(self.players)
            ]
            sections.append(
                self.section(
                    hand,
                    title,
                    groups,
                    hint=f"Tap two; the third is what is left of {self.TRICKS}.",
                    fill_total=self.TRICKS,
                )
            )
        return sections

    @classmethod
    def values_from_record(cls, record: Record, players: int) -> dict[str, str]:
        return {
            f"{hand}-{seat}": str(count)
            for hand in ("first", "second")
            for seat, count in enumerate(record.get(hand, []))
        }


class ItalianWhistPage(GamePage):
    entry = ItalianEntry
    figures_key = "Under each score, the tricks of the first hand/of the second hand."

    def header(self, context: Context, players: Names, options: Options) -> list[str]:
        trumps = "No trumps" if context.get("trumps") == "none" else "Spades trumps"
        passing = {"left": "pass left", "right": "pass right", "keep": "no passing"}
        return [f"{trumps} · {passing.get(context.get('pass', ''), '')}"]

    def end_text(self, options: Options, scheduled: int | None) -> str:
        return f"ends when a total reaches ±{options.get('limit', 10)}"

    def figures(self, deal: PastDeal, players: Names) -> Figures:
        return paired_figures(deal, "first", "second")

    def summary(self, record: Record, players: Names) -> list[str]:
        return per_seat_lines(record, players, {"first": "First hand", "second": "Second hand"})

    def trick_fields(self, context: Context, values: Mapping[str, str]) -> list[TrickField]:
        halves = [
            ("first", "First hand: tricks count for you"),
            ("second", "Second hand: tricks count against you"),
        ]
        half = values.get("half") or "first"
        return [TrickField("half", "Which hand", halves, half)]

    def trick_context(self, context: Context, fields: Sequence[TrickField]) -> dict[str, Any]:
        # The deal's number fixes trumps.
        return {**super().trick_context(context, fields), "deal": int(context["number"])}

    def trick_leader(self, context: Context, fields: Sequence[TrickField], players: int) -> int:
        # First hand: the dealer's left leads; second hand: the dealer's right.
        dealer = int(context.get("dealer", 0))
        second = any(field.name == "half" and field.value == "second" for field in fields)
        return (dealer + (players - 1 if second else 1)) % players


PAGE = ItalianWhistPage()
