"""Third Hand on the game page: bids, trumps, the exchange, and each player's card
points, typed or counted by tapping the captured cards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules_engine import parse_card
from rules_engine.cards import parse_suit
from rules_engine.games.third_hand import BID_RANKS, CARD_POINTS, MAX_POINTS

from ..game_forms import DealEntry, Group, Section, possessive
from .base import SUIT_CHOICES, Figures, GamePage, TrickField, per_seat
from .shapes import Context, Names, Options, PastDeal, Record

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
#: Third Hand's bid ranks, lowest first (the engine's), and the deck in the grid's order.
RANKS = BID_RANKS
RANK_NAMES = {"9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
DECK = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS)


@dataclass
class CardCell:
    """A card of Third Hand's 24-card grid and who captured it ("" nobody, "0", "1")."""

    card: str
    label: str
    owner: str
    owner_label: str
    aria_label: str
    red: bool


def _owner_cycle(value: str) -> str:
    """Tapping a card: not captured -> seat 0 -> seat 1 -> not captured."""
    return {"": "0", "0": "1"}.get(value, "")


class ThirdHandEntry(DealEntry):
    game_type = "third_hand"

    @property
    def other(self) -> int:
        return 1 - self.dealer

    def field_names(self) -> list[str]:
        return [
            "bids-0",
            "bids-1",
            "trump",
            "exchanged",
            "points-0",
            "points-1",
            *(f"cap-{card}" for card in DECK),
        ]

    def alternatives(self) -> dict[str, str]:
        return {f"points-{seat}": "cap-" for seat in self.seats}

    def section_keys(self) -> set[str]:
        return {"bids", "points", "captured"}

    def bid(self, seat: int) -> str | None:
        value = self.values.get(f"bids-{seat}", "")
        return value if value in RANKS else None

    def dealer_disabled(self) -> list[str]:
        """Ranks the dealer may not bid: those not above the non-dealer's face-up bid."""
        first = self.bid(self.other)
        if first is None:
            return []
        return list(RANKS[: RANKS.index(first) + 1])

    def captured(self) -> list[list[str]]:
        hands: list[list[str]] = [[], []]
        for card in DECK:
            owner = self.values.get(f"cap-{card}", "")
            if owner in ("0", "1"):
                hands[int(owner)].append(card)
        return hands

    preview_refreshes_groups = True  # the points counted from the tapped cards

    def cycle(self, card: str) -> bool:
        """One tap on a card of the grid (the no-JavaScript path)."""
        if card in DECK:
            name = f"cap-{card}"
            self.values[name] = _owner_cycle(self.values.get(name, ""))
            self.missing.clear()
            self.record = None
            self.parse()
        return True

    def parse(self) -> None:
        bids: list[str | None] = [None, None]
        for seat in (self.other, self.dealer):
            value = self.values.get(f"bids-{seat}", "")
            if value == "none":
                continue
            if value not in RANKS:
                self.missing[f"bids-{seat}"] = self.ask(
                    f"bids-{seat}",
                    f"Tap {possessive(self.players[seat])} bid, or No bid.",
                    "a bid of the game or none",
                )
            elif seat == self.dealer and value in self.dealer_disabled():
                self.missing[f"bids-{seat}"] = (
                    f"{self.players[seat]} deals and bids second, so their bid must be higher "
                    f"than {possessive(self.players[self.other])} {self.bid(self.other)}."
                )
            else:
                bids[seat] = value
        record: dict[str, Any] = {"bids": bids}
        captured = self.captured()
        if any(captured):
            record["captured"] = captured
        else:
            points: list[int] = []
            for seat in self.seats:
                name = f"points-{seat}"
                typed_points = self.number_of(name, 0, MAX_POINTS)
                if typed_points is None:
                    who = possessive(self.players[seat])
                    self.missing[name] = (
                        f"{who} points are a whole number from 0 to {MAX_POINTS}."
                        if self.values.get(name, "")
                        else f"Type {who} points (or tap the captured cards)."
                    )
                else:
                    points.append(typed_points)
            record["points"] = points
        trump = self.values.get("trump", "")
        if trump in SUITS:
            record["trump"] = trump
        exchanged = self.values.get("exchanged", "")
        if exchanged in ("yes", "no"):
            record["exchanged"] = exchanged == "yes"
        if not self.missing:
            self.record = record

    def owner_initials(self) -> list[str]:
        """How a captured card shows who took it: the players' initials (or two letters)."""
        initials = [name[:1].upper() for name in self.players]
        if initials[0] == initials[1]:
            initials = [name[:2] for name in self.players]
        return initials

    def card_grid(self) -> list[list[CardCell]]:
        initials = self.owner_initials()
        rows = []
        for suit in SUITS:
            row = []
            for rank in RANKS:
                card = f"{rank}{suit}"
                owner = self.values.get(f"cap-{card}", "")
                owner = owner if owner in ("0", "1") else ""
                who = self.players[int(owner)] if owner else "not captured"
                row.append(
                    CardCell(
                        card=card,
                        label=f"{rank}{SUIT_SYMBOLS[suit]}",
                        owner=owner,
                        owner_label=initials[int(owner)] if owner else "",
                        aria_label=f"{RANK_NAMES[rank]} of {SUIT_NAMES[suit]}: {who}",
                        red=suit in ("H", "D"),
                    )
                )
            rows.append(row)
        return rows

    def capture_tally(self) -> str:
        hands = self.captured()
        if not any(hands):
            return ""
        parts = [
            f"{name} {sum(CARD_POINTS[card[:-1]] for card in hand)} points "
            f"({len(hand)} card{'s' if len(hand) != 1 else ''})"
            for name, hand in zip(self.players, hands, strict=True)
        ]
        return " · ".join(parts) + f" · {sum(len(hand) for hand in hands)} of 14 cards"

    def sections(self) -> list[Section]:
        rank_options = [("none", "No bid"), *((rank, rank) for rank in RANKS)]
        first_name, dealer_name = self.players[self.other], self.players[self.dealer]
        first = self.pills(
            f"bids-{self.other}", f"{first_name} bids first", rank_options, css="ranks"
        )
        first.role = "first-bid"
        second = self.pills(
            f"bids-{self.dealer}",
            f"{dealer_name} deals, bids second",
            rank_options,
            disabled=self.dealer_disabled(),
            note="only a higher rank takes over" if self.bid(self.other) else "",
            css="ranks",
        )
        second.role = "dealer-bid"
        trump = self.pills(
            "trump",
            "Trumps",
            [(suit, SUIT_SYMBOLS[suit]) for suit in SUITS],
            aria=SUIT_NAMES,
            css="suits",
        )
        exchanged = self.pills(
            "exchanged",
            "Contract holder took the third hand?",
            [("no", "No"), ("yes", "Yes")],
        )
        points = [
            Group(
                name=f"points-{seat}",
                legend=f"{possessive(name)} points",
                kind="number",
                value=self.values.get(f"points-{seat}", ""),
                error=self.errors.get(f"points-{seat}", ""),
                dom_id=self.dom_id(f"points-{seat}"),
            )
            for seat, name in enumerate(self.players)
        ]
        grid = self.card_grid()
        return [
            self.section("bids", "Bids", [first, second]),
            self.section("trump", "Trumps and exchange", [trump, exchanged]),
            self.section(
                "points",
                "Card points captured",
                points,
                hint="Type each player’s points, or count them from the cards below.",
            ),
            self.section(
                "captured",
                "Count by cards",
                [],
                hint="Tap each captured card: once for "
                f"{self.players[0]}, twice for {self.players[1]}, again to clear.",
                cards=grid,
                open=any(cell.owner for row in grid for cell in row) or "captured" in self.errors,
            ),
        ]

    @classmethod
    def values_from_record(cls, record: Record, players: int) -> dict[str, str]:
        values: dict[str, str] = {}
        for seat, bid in enumerate(record.get("bids", [])):
            values[f"bids-{seat}"] = "none" if bid is None else str(bid)
        if record.get("captured"):
            for seat, hand in enumerate(record["captured"]):
                for card in hand:
                    values[f"cap-{card}"] = str(seat)
        else:
            for seat, points in enumerate(record.get("points", [])):
                values[f"points-{seat}"] = str(points)
        if record.get("trump"):
            values["trump"] = str(record["trump"])
        if "exchanged" in record:
            values["exchanged"] = "yes" if record["exchanged"] else "no"
        return values


class ThirdHandPage(GamePage):
    entry = ThirdHandEntry
    figures_key = "Under each score, the card points; below each deal, the contract."

    def standing(self, totals: Sequence[int], options: Options) -> str:
        target = options.get("target", 500)
        top = max(totals, default=0)
        if top > target and totals.count(top) > 1:
            return f"tied at {top}: play on"
        return ""

    def end_text(self, options: Options, scheduled: int | None) -> str:
        return f"first past {options.get('target', 500)} wins"

    def note(self, deal: PastDeal, players: Names) -> str:
        if deal.get("holder") is None:
            return ""
        outcome = "made" if deal.get("made") else "failed"
        return f"{players[deal['holder']]} bid {deal.get('contract_rank')}: {outcome}"

    def figures(self, deal: PastDeal, players: Names) -> Figures:
        points = deal.get("points") or (deal.get("record") or {}).get("points") or []
        holder = deal.get("holder")
        if holder is None:
            line = "No contract"
        else:
            outcome = "made" if deal.get("made") else "failed"
            line = (
                f"{players[holder]} bid {deal.get('contract_rank')}, needed "
                f"{deal.get('contract')}: {outcome}"
            )
            if deal.get("doubled"):
                line += " (both bid: doubled)"
        return Figures([str(p) for p in points], line)

    def summary(self, record: Record, players: Names) -> list[str]:
        bids = [bid if bid is not None else "no bid" for bid in record.get("bids", [])]
        points = record.get("points") or [
            sum(CARD_POINTS[parse_card(card, "captured").rank] for card in hand)
            for hand in record.get("captured") or []
        ]
        lines = [
            "Bids: " + per_seat(players, bids),
            "Points: " + per_seat(players, points),
        ]
        if record.get("captured"):
            lines.append(
                "Cards: "
                + "; ".join(
                    f"{name} {' '.join(hand) or 'none'}"
                    for name, hand in zip(players, record["captured"], strict=False)
                )
            )
        extras = []
        if record.get("trump"):
            suit = parse_suit(record["trump"], "trump")
            extras.append(f"trumps {SUIT_SYMBOLS[suit.value]} {SUIT_NAMES[suit.value]}")
        if "exchanged" in record:
            extras.append("third hand taken" if record["exchanged"] else "no exchange")
        if extras:
            line = ", ".join(extras)
            lines.append(line[0].upper() + line[1:])
        return lines

    @staticmethod
    def _holder_sum(holder: str, points: Sequence[int], context: Context) -> str:
        """How the holder's score is made (RULES.md: h ± |h − o|, the difference doubled
        when both bid), e.g. "Bob's score: 60 − 0 (the difference)." (the preview's lines
        give the score itself)."""
        seat = context["holder"]
        held, other = points[seat], points[1 - seat]
        difference = abs(held - other)
        counted = (
            f"2 × {difference} (the difference, doubled)"
            if context.get("doubled")
            else f"{difference} (the difference)"
        )
        sign = "+" if context.get("made") else "−"
        return f"{possessive(holder)} score: {held} {sign} {counted}."

    def preview_notes(self, entry: Any, context: Context, record: Record) -> list[str]:
        points = context.get("points") or []
        notes = []
        if context.get("holder") is None:
            notes.append("No contract: each scores their own points.")
        else:
            holder = entry.players[context["holder"]]
            held = points[context["holder"]] if points else "?"
            made = "made" if context.get("made") else "failed"
            notes.append(
                f"{holder} bid {context.get('contract_rank')} and needs {context.get('contract')}: "
                f"{held} points, contract {made}."
            )
            if points:
                notes.append(self._holder_sum(holder, points, context))
        if "captured" in record and points:
            notes.append(
                "Points from the cards: "
                + ", ".join(f"{name} {p}" for name, p in zip(entry.players, points, strict=True))
                + "."
            )
        return notes

    def trick_fields(self, context: Context, values: Mapping[str, str]) -> list[TrickField]:
        ranks = [("", "No contract: kings high")] + [
            (rank, f"{RANK_NAMES[rank].capitalize()}s (the bid)") for rank in RANKS
        ]
        return [
            TrickField(
                "trump",
                "Trumps (the cut card)",
                [("", "Choose…"), *SUIT_CHOICES],
                values.get("trump", ""),
            ),
            TrickField("high_rank", "High rank", ranks, values.get("high_rank", "")),
        ]

    def trick_context(self, context: Context, fields: Sequence[TrickField]) -> dict[str, Any]:
        chosen = super().trick_context(context, fields)
        return {**chosen, "high_rank": chosen.get("high_rank")}

    def trick_leader(self, context: Context, fields: Sequence[TrickField], players: int) -> int:
        # The contract holder leads, or with no contract the non-dealer.
        return 1 - int(context.get("dealer", 0))


PAGE = ThirdHandPage()
