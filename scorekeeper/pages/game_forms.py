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

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

_FIELD = re.compile(r"^([a-z_]+)(?:\[(\d+)\])?")
_CHECKED, _DISABLED = mark_safe(" checked"), mark_safe(" disabled")  # noqa: S308


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

    @property
    def pills_html(self) -> SafeString:
        """The group's radio pills as HTML. Built here rather than in the template: a game
        page carries several entry forms of dozens of pills each."""
        return format_html_join(
            "",
            '<label><input type="radio" name="{}" value="{}"{}{}{}><span>{}</span></label>',
            (
                (
                    self.name,
                    choice.value,
                    _CHECKED if choice.checked else "",
                    _DISABLED if choice.disabled else "",
                    format_html(' aria-label="{}"', choice.aria_label) if choice.aria_label else "",
                    choice.label,
                )
                for choice in self.choices
            ),
        )


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
    cards: list[list[Any]] | None = None  # a grid of cards to tap (Third Hand)
    open: bool = False
    dom_id: str = ""

    @property
    def number_grid(self) -> bool:
        """Number boxes only: shown side by side, their errors once below them."""
        return bool(self.groups) and all(group.kind == "number" for group in self.groups)


def possessive(name: str) -> str:
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

    def alternatives(self) -> dict[str, str]:
        """Inputs that need no value when others are given instead, by the others' name
        prefix (Third Hand: points typed, or the captured cards tapped): for the checks a
        phone makes before keeping a deal to send (offline.js)."""
        return {}

    #: Data attributes of the form, for the page's script (e.g. the hand size).
    def data_attributes(self) -> dict[str, str]:
        return {}

    #: Whether a preview answer also refreshes the form's groups (points counted from cards).
    preview_refreshes_groups: ClassVar[bool] = False

    def cycle(self, card: str) -> bool:
        """A tap on a card of a grid without JavaScript: True if this form has one."""
        return False

    #: Whether what is known of the next deal before it is played is kept (bids).
    keeps_draft: ClassVar[bool] = False

    def draft(self) -> dict[str, Any]:
        """What is kept of the deal before it is played (see ``keeps_draft``)."""
        return {}

    def draft_summary(self) -> str:
        """The draft in words ("Ann 2, Bob 1")."""
        return ""

    @classmethod
    def values_from_draft(cls, draft: Mapping[str, Any]) -> dict[str, str]:
        return {}

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

    def ask(self, name: str, prompt: str, allowed: str) -> str:
        """What to say of field ``name``, which has no valid value: ``prompt`` ("Tap Ann's
        tricks.") when nothing was sent, else also that what was sent is not ``allowed``
        (a form sent by other means than the page's taps)."""
        sent = self.values.get(name, "")
        if not sent:
            return prompt
        return f"{prompt.rstrip('.')}: {sent[:20]!r} is not {allowed}."

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
        # A section named as its one group (widow whist's "widow"): the group shows the error.
        shown_by_group = any(group.name == key for group in groups)
        return Section(
            key=key,
            title=title,
            groups=groups,
            error="" if shown_by_group else self.errors.get(key, ""),
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


class TricksPerSeat(DealEntry):
    """Games whose deals are per-seat trick counts adding up to a fixed number."""

    def tricks_list(self, prefix: str, total: int, what: str) -> list[int] | None:
        names = [f"{prefix}-{seat}" for seat in self.seats]
        self.fill_last(names, total, total)
        counts = [self.number_of(name, 0, total) for name in names]
        for seat, count in enumerate(counts):
            if count is None:
                self.missing[names[seat]] = self.ask(
                    names[seat],
                    f"Tap {possessive(self.players[seat])} {what}.",
                    f"a whole number from 0 to {total}",
                )
        if any(count is None for count in counts):
            return None
        return [count for count in counts if count is not None]
