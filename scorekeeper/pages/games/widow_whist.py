"""Widow whist on the game page: who took the widow, each player's tricks."""

from __future__ import annotations

from typing import Any

from ..game_forms import Section, TricksPerSeat
from .base import Figures, GamePage, deals_text, per_seat
from .shapes import Context, Names, Options, PastDeal, Record


class WidowEntry(TricksPerSeat):
    game_type = "widow_whist"
    TRICKS = 13

    def field_names(self) -> list[str]:
        return ["widow", *(f"tricks-{seat}" for seat in self.seats)]

    def section_keys(self) -> set[str]:
        return {"tricks"}

    def parse(self) -> None:
        widow = self.values.get("widow", "")
        if widow not in ("none", *(str(seat) for seat in self.seats)):
            self.missing["widow"] = self.ask(
                "widow", "Tap who took the widow, or Nobody.", "a player's seat or none"
            )
        tricks = self.tricks_list("tricks", self.TRICKS, "tricks")
        if tricks is not None and "widow" not in self.missing:
            self.record = {"widow": None if widow == "none" else int(widow), "tricks": tricks}

    def sections(self) -> list[Section]:
        widow = self.pills(
            "widow",
            "Who took the widow?",
            [("none", "Nobody"), *((str(seat), name) for seat, name in enumerate(self.players))],
            css="names",
        )
        tricks = [
            self.count_group(f"tricks-{seat}", name, self.TRICKS)
            for seat, name in enumerate(self.players)
        ]
        return [
            self.section("widow", "", [widow]),
            self.section(
                "tricks",
                "Tricks taken",
                tricks,
                hint=f"Tap two players’ tricks; the third is what is left of {self.TRICKS}.",
                fill_total=self.TRICKS,
            ),
        ]

    @classmethod
    def values_from_record(cls, record: Record, players: int) -> dict[str, str]:
        widow = record.get("widow")
        values = {"widow": "none" if widow is None else str(widow)}
        for seat, count in enumerate(record.get("tricks", [])):
            values[f"tricks-{seat}"] = str(count)
        return values


class WidowWhistPage(GamePage):
    entry = WidowEntry
    figures_key = "Under each score, the tricks taken; below each deal, who took the widow."

    def header(self, context: Context, players: Names, options: Options) -> list[str]:
        targets = context.get("targets") or [3]
        return [f"Targets {targets[0]} · {context.get('widow_target', 4)} for the widow"]

    def end_text(self, options: Options, scheduled: int | None) -> str:
        finish = options.get("finish") or {}
        if "target" in finish:
            return f"first to {finish['target']} wins"
        if "deals" in finish:
            return deals_text(finish["deals"])
        return "open-ended: finish it by hand"

    def note(self, deal: PastDeal, players: Names) -> str:
        widow = (deal.get("record") or {}).get("widow")
        return "" if widow is None else f"{players[widow]} took the widow"

    def figures(self, deal: PastDeal, players: Names) -> Figures:
        record = deal.get("record") or {}
        widow = record.get("widow")
        taker = "Nobody" if widow is None else players[widow]
        return Figures([str(t) for t in record.get("tricks", [])], f"{taker} took the widow")

    def summary(self, record: Record, players: Names) -> list[str]:
        widow = record.get("widow")
        return [
            "Widow: " + ("nobody took it" if widow is None else f"{players[widow]}"),
            "Tricks: " + per_seat(players, record.get("tricks", [])),
        ]

    def preview_notes(self, entry: Any, context: Context, record: Record) -> list[str]:
        widow = context.get("widow")
        if widow is None:
            return []
        targets = context.get("targets") or []
        target = targets[widow] if len(targets) > widow else 4
        return [f"{entry.players[widow]} took the widow: target {target}."]


PAGE = WidowWhistPage()
