"""Deal entry on the game page: from tapped pills and typed numbers to a deal record, and back.

Every game has an entry class. It reads the posted form (plain strings, keyed by
input name), fills in what follows from the rules (the last player's tricks), and
makes the deal record the rules engine takes (RULES.md). It also describes the form
to render — sections of pill groups and number inputs, with what was chosen, what is
disabled (a dealer's bid that would break a rule) and the error beside each field —
so the templates only loop.

Input names: ``widow``, ``tricks-<seat>``, ``first-<seat>``, ``second-<seat>``,
``bids-<seat>``, ``points-<seat>``, ``trump``, ``exchanged`` and ``cap-<card>`` (the
seat that captured a Third Hand card). An engine error's field (``tricks[1]``,
``bids[2]``, ``points``, ``captured[0]``) maps to the group or section beside which
its message is shown.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
#: Third Hand's bid ranks, lowest first, and the points of its cards.
RANKS = ("9", "10", "J", "Q", "K", "A")
RANK_NAMES = {"9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
CARD_POINTS = {"9": 9, "10": 10, "J": 10, "Q": 10, "K": 10, "A": 1}
DECK = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS)
MAX_POINTS = 140
_FIELD = re.compile(r"^([a-z_]+)(?:\[(\d+)\])?")


@dataclass
class Choice:
    """One pill of a radio group."""

    value: str
    label: str
    checked: bool = False
    disabled: bool = False
    aria_label: str = ""
    css: str = ""


@dataclass
class Group:
    """A fieldset of pills (one radio group), or a number input."""

    name: str
    legend: str
    choices: list[Choice] = field(default_factory=list)
    kind: str = "pills"  # "pills" | "number"
    value: str = ""
    note: str = ""
    error: str = ""
    css: str = ""
    dom_id: str = ""
    #: For the page's script: "bid", "dealer-bid" or "first-bid".
    role: str = ""
    #: Filled in from what the others took, not tapped.
    filled: bool = False


@dataclass
class CardCell:
    """A card of Third Hand's 24-card grid and who captured it ("" nobody, "0", "1")."""

    card: str
    label: str
    owner: str
    owner_label: str
    aria_label: str
    red: bool


@dataclass
class Section:
    key: str
    title: str
    groups: list[Group] = field(default_factory=list)
    hint: str = ""
    error: str = ""
    #: The groups' values always add up to this (JS fills in the last one).
    fill_total: int | None = None
    #: "preview": changes refresh the preview; "bids": changes are kept as a draft.
    role: str = "preview"
    cards: list[list[CardCell]] | None = None
    open: bool = False
    dom_id: str = ""

    @property
    def number_grid(self) -> bool:
        """Number boxes only: shown side by side, their errors once below them."""
        return bool(self.groups) and all(group.kind == "number" for group in self.groups)


def _owner_cycle(value: str) -> str:
    """Tapping a card: not captured -> seat 0 -> seat 1 -> not captured."""
    return {"": "0", "0": "1"}.get(value, "")


def _possessive(name: str) -> str:
    return f"{name}’" if name.endswith("s") else f"{name}’s"


class DealEntry:
    """The entry form of one deal (the next one, or a past one being corrected)."""

    game_type: ClassVar[str] = ""

    def __init__(
        self,
        *,
        players: Sequence[str],
        number: int,
        dealer: int,
        info: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
        values: Mapping[str, str] | None = None,
    ) -> None:
        self.players = list(players)
        self.seats = range(len(self.players))
        self.number = number
        self.dealer = dealer
        self.info = dict(info or {})
        self.options = dict(options or {})
        self.values: dict[str, str] = {}
        for name, value in (values or {}).items():
            if isinstance(value, str) and self.accepts(name):
                self.values[name] = value.strip()[:20]
        self.missing: dict[str, str] = {}
        self.errors: dict[str, str] = {}
        self.filled: set[str] = set()
        self.record: dict[str, Any] | None = None
        self.parse()

    # --- What each game defines -------------------------------------------------------

    def field_names(self) -> list[str]:
        raise NotImplementedError

    def parse(self) -> None:
        """Fill in what the rules imply; set ``record``, or ``missing`` messages."""
        raise NotImplementedError

    def sections(self) -> list[Section]:
        raise NotImplementedError

    @classmethod
    def values_from_record(cls, record: Mapping[str, Any], players: int) -> dict[str, str]:
        raise NotImplementedError

    def section_keys(self) -> set[str]:
        return set()

    # --- Shared ------------------------------------------------------------------------

    def accepts(self, name: str) -> bool:
        return name in self.field_names()

    @property
    def complete(self) -> bool:
        return self.record is not None

    @property
    def touched(self) -> bool:
        return any(self.values.values())

    @property
    def form_error(self) -> str:
        return self.errors.get("", "")

    def require_all(self) -> None:
        """On saving: every value still missing is an error beside its field."""
        for key, message in self.missing.items():
            self.errors.setdefault(key, message)

    def error_key(self, field_name: str | None) -> str:
        """Where an engine error's field is shown: a group, a section, or the form ("")."""
        match = _FIELD.match(field_name or "")
        if match is None:
            return ""
        name, index = match.groups()
        if name == "captured":
            return "captured" if "captured" in self.section_keys() else ""
        key = name if index is None else f"{name}-{index}"
        known = set(self.field_names()) | self.section_keys()
        if key in known:
            return key
        return name if name in known else ""

    def apply_error(self, field_name: str | None, message: str) -> None:
        self.errors[self.error_key(field_name)] = message

    def number_of(self, name: str, low: int, high: int) -> int | None:
        value = self.values.get(name, "")
        if value.isascii() and value.isdigit() and low <= int(value) <= high:
            return int(value)
        return None

    def fill_last(self, names: Sequence[str], total: int, high: int) -> None:
        """If all but one of ``names`` are given, the last is what is left of ``total``."""
        given = [self.number_of(name, 0, high) for name in names]
        empty = [name for name, value in zip(names, given, strict=True) if value is None]
        if len(empty) != 1 or self.values.get(empty[0], ""):
            return
        rest = total - sum(value for value in given if value is not None)
        if 0 <= rest <= high:
            self.values[empty[0]] = str(rest)
            self.filled.add(empty[0])

    def dom_id(self, name: str) -> str:
        return f"d{self.number}-{name}"

    def pills(
        self,
        name: str,
        legend: str,
        options: Sequence[tuple[str, str]],
        *,
        disabled: Sequence[str] = (),
        note: str = "",
        css: str = "",
        aria: Mapping[str, str] | None = None,
    ) -> Group:
        chosen = self.values.get(name, "")
        return Group(
            name=name,
            legend=legend,
            choices=[
                Choice(
                    value=value,
                    label=label,
                    checked=value == chosen and value not in disabled,
                    disabled=value in disabled,
                    aria_label=(aria or {}).get(value, ""),
                )
                for value, label in options
            ],
            note=note,
            error=self.errors.get(name, ""),
            css=css,
            dom_id=self.dom_id(name),
        )

    def count_pills(self, name: str, legend: str, high: int, **kwargs: Any) -> Group:
        # Up to 7 a row; more make two even rows (0-9: 5 and 5; 0-13: 7 and 7).
        columns = 7 if high < 7 else (high + 2) // 2
        return self.pills(
            name,
            legend,
            [(str(i), str(i)) for i in range(high + 1)],
            css=f"counts cols-{columns}",
            **kwargs,
        )

    def section(self, key: str, title: str, groups: list[Group], **kwargs: Any) -> Section:
        return Section(
            key=key,
            title=title,
            groups=groups,
            error=self.errors.get(key, ""),
            dom_id=self.dom_id(f"sec-{key}"),
            **kwargs,
        )

    def filled_note(self, name: str, total: int) -> str:
        return "filled in" if name in self.filled else ""

    def count_group(self, name: str, legend: str, total: int, **kwargs: Any) -> Group:
        """A count of tricks that is part of a total (the last one can be filled in)."""
        group = self.count_pills(name, legend, total, note=self.filled_note(name, total), **kwargs)
        group.filled = name in self.filled
        return group


class _TricksPerSeat(DealEntry):
    """Games whose deals are per-seat trick counts adding up to a fixed number."""

    def tricks_list(self, prefix: str, total: int, what: str) -> list[int] | None:
        names = [f"{prefix}-{seat}" for seat in self.seats]
        self.fill_last(names, total, total)
        counts = [self.number_of(name, 0, total) for name in names]
        for seat, count in enumerate(counts):
            if count is None:
                self.missing[names[seat]] = f"Tap {_possessive(self.players[seat])} {what}."
        if any(count is None for count in counts):
            return None
        return [count for count in counts if count is not None]


class WidowEntry(_TricksPerSeat):
    game_type = "widow_whist"
    TRICKS = 13

    def field_names(self) -> list[str]:
        return ["widow", *(f"tricks-{seat}" for seat in self.seats)]

    def section_keys(self) -> set[str]:
        return {"tricks"}

    def parse(self) -> None:
        widow = self.values.get("widow", "")
        if widow not in ("none", *(str(seat) for seat in self.seats)):
            self.missing["widow"] = "Tap who took the widow, or Nobody."
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
    def values_from_record(cls, record: Mapping[str, Any], players: int) -> dict[str, str]:
        widow = record.get("widow")
        values = {"widow": "none" if widow is None else str(widow)}
        for seat, count in enumerate(record.get("tricks", [])):
            values[f"tricks-{seat}"] = str(count)
        return values


class ItalianEntry(_TricksPerSeat):
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
    def values_from_record(cls, record: Mapping[str, Any], players: int) -> dict[str, str]:
        return {
            f"{hand}-{seat}": str(count)
            for hand in ("first", "second")
            for seat, count in enumerate(record.get(hand, []))
        }


class PredictionEntry(_TricksPerSeat):
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
                    f"bids-{seat}", f"Tap {_possessive(self.players[seat])} bid."
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
    def values_from_record(cls, record: Mapping[str, Any], players: int) -> dict[str, str]:
        values = {}
        for what in ("bids", "tricks"):
            for seat, count in enumerate(record.get(what, [])):
                if count is not None:
                    values[f"{what}-{seat}"] = str(count)
        return values

    def draft_bids(self) -> list[int | None]:
        """The bids as kept in a draft: tapped ones, None for the rest (a forbidden bid too)."""
        bids = self.bids()
        forbidden = self.forbidden_bid()
        if forbidden is not None and bids[self.dealer] == forbidden:
            bids[self.dealer] = None
        return bids


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

    def cycle(self, card: str) -> None:
        """One tap on a card of the grid (the no-JavaScript path)."""
        if card in DECK:
            name = f"cap-{card}"
            self.values[name] = _owner_cycle(self.values.get(name, ""))
            self.missing.clear()
            self.record = None
            self.parse()

    def parse(self) -> None:
        bids: list[str | None] = [None, None]
        for seat in (self.other, self.dealer):
            value = self.values.get(f"bids-{seat}", "")
            if value == "none":
                continue
            if value not in RANKS:
                self.missing[f"bids-{seat}"] = (
                    f"Tap {_possessive(self.players[seat])} bid, or No bid."
                )
            elif seat == self.dealer and value in self.dealer_disabled():
                self.missing[f"bids-{seat}"] = (
                    f"{self.players[seat]} deals and bids second, so their bid must be higher "
                    f"than {_possessive(self.players[self.other])} {self.bid(self.other)}."
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
                    who = _possessive(self.players[seat])
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
                legend=f"{_possessive(name)} points",
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
    def values_from_record(cls, record: Mapping[str, Any], players: int) -> dict[str, str]:
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


ENTRIES: dict[str, type[DealEntry]] = {
    entry.game_type: entry for entry in (WidowEntry, ItalianEntry, PredictionEntry, ThirdHandEntry)
}


def entry_for(
    game_type: str,
    *,
    players: Sequence[str],
    context: Mapping[str, Any],
    options: Mapping[str, Any],
    values: Mapping[str, str] | None = None,
) -> DealEntry:
    """The entry form of the deal ``context`` describes (an engine deal context as a dict)."""
    info = {key: value for key, value in context.items() if key not in ("number", "dealer")}
    return ENTRIES[game_type](
        players=players,
        number=int(context["number"]),
        dealer=int(context["dealer"]),
        info=info,
        options=options,
        values=values,
    )
