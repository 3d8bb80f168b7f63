"""The new-game form, generated from what the rules engine declares.

Every house-rule option describes the values it takes as a JSON-Schema fragment
(:meth:`rules_engine.options.Option.describe`); :func:`option_controls` turns each
into inputs, so a new option of any game appears on the page without a line here:

- ``{"type": "boolean"}``: a checkbox;
- ``{"type": "integer", "minimum", "maximum"}``: a number input;
- ``{"type": "object", "properties": {key: integer, ...}}``: one number input per key;
- ``{"oneOf": [{"type": "null"}, {"type": "object", "properties": {key: integer}}, ...]}``:
  a choice (pills) of "none" or one of the keys, each key with its number input
  (widow whist's ``finish``: open-ended / after N deals / first to T points);
- anything else: a text input taking JSON, so an option of a new shape still works.

Values are read back into the option's JSON and handed to the engine (through
``services.game_start``), which decides what is valid; the form only refuses what
is not a number at all. Errors come back naming a field (``options.limit``,
``options.targets.widow``, ``options.finish.deals``) and :meth:`GameSetupForm.add_error`
puts each beside the input it is about.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules_engine import Game as GameRules
from scorekeeper.models import Player

PREFIX = "opt"

# How the alternatives of a choice option read, by the key that names them.
# Unknown keys still work: they read as their own name.
CHOICE_LABELS = {
    "deals": ("After a number of deals", "Number of deals"),
    "target": ("First to a target score", "Target score"),
}
NONE_LABEL = "Open-ended"


def _key_label(key: str) -> str:
    text = key.replace("_", " ")
    return text[:1].upper() + text[1:]


class _Element:
    """The ids a form element's template uses: its own, its error message's and its help's."""

    name: str

    @property
    def html_name(self) -> str:
        return self.name

    @property
    def id(self) -> str:
        return f"id_{self.html_name}"

    @property
    def error_id(self) -> str:
        return f"{self.id}_error"

    @property
    def help_id(self) -> str:
        return f"{self.id}_help"


@dataclass
class Input(_Element):
    """One input element: its HTML name, label, value as typed, and the field it answers to."""

    name: str
    label: str
    path: str  # the error field it answers to, e.g. "options.targets.widow"
    kind: str  # "checkbox" | "number" | "json"
    value: str = ""
    checked: bool = False
    minimum: int | None = None
    maximum: int | None = None
    error: str = ""

    @property
    def inputmode(self) -> str:
        """Digits-only keyboards have no minus sign: only for numbers that cannot be negative."""
        return "numeric" if self.minimum is not None and self.minimum >= 0 else "text"


@dataclass
class Choice:
    """One alternative of a choice option: ``value`` is "" for none (null), else its key."""

    value: str
    label: str
    radio_id: str
    input: Input | None = None


@dataclass
class OptionControl(_Element):
    """The inputs of one house-rule option."""

    name: str
    label: str
    description: str
    kind: str  # "boolean" | "integer" | "integers" | "choice" | "json"
    path: str
    inputs: list[Input] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    selected: str = ""  # the chosen alternative of a choice
    error: str = ""

    @property
    def html_name(self) -> str:
        return f"{PREFIX}-{self.name}"

    @property
    def show_description(self) -> bool:
        # A choice's description is written for the API (in JSON); its labels say it all.
        return self.kind != "choice"

    @property
    def has_error(self) -> bool:
        return bool(self.error) or any(i.error for i in self.all_inputs)

    @property
    def all_inputs(self) -> list[Input]:
        return self.inputs + [c.input for c in self.choices if c.input is not None]


def _is_integer(schema: Mapping[str, Any]) -> bool:
    return schema.get("type") == "integer"


def _number(name: str, label: str, path: str, schema: Mapping[str, Any], value: Any) -> Input:
    return Input(
        name=name,
        label=label,
        path=path,
        kind="number",
        value="" if value is None else str(value),
        minimum=schema.get("minimum"),
        maximum=schema.get("maximum"),
    )


def _choice_keys(allowed: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]] | None:
    """The alternatives of a ``oneOf`` of null and one-integer objects, or None if it is not."""
    alternatives = allowed.get("oneOf")
    if not isinstance(alternatives, list) or not alternatives:
        return None
    keys: list[tuple[str, Mapping[str, Any]]] = []
    for alternative in alternatives:
        if alternative.get("type") == "null":
            keys.append(("", {}))
            continue
        properties = alternative.get("properties", {})
        if alternative.get("type") != "object" or len(properties) != 1:
            return None
        key, schema = next(iter(properties.items()))
        if not _is_integer(schema) or key == "":
            return None
        keys.append((key, schema))
    return keys


def _control(description: Mapping[str, Any], data: Mapping[str, Any] | None) -> OptionControl:
    """The control of one option, holding ``data`` (a POST) or else the option's default."""
    name: str = description["name"]
    allowed: Mapping[str, Any] = description["allowed"]
    default = description["default"]
    control = OptionControl(
        name=name,
        label=description["label"],
        description=description["description"],
        kind="json",
        path=f"options.{name}",
    )
    html = control.html_name

    def typed(input_name: str, fallback: Any) -> Any:
        if data is None:
            return fallback
        return data.get(input_name, "")

    if allowed.get("type") == "boolean":
        control.kind = "boolean"
        checked = bool(default) if data is None else html in data
        control.inputs.append(
            Input(
                name=html, label=control.label, path=control.path, kind="checkbox", checked=checked
            )
        )
        return control

    if _is_integer(allowed):
        control.kind = "integer"
        control.inputs.append(
            _number(html, control.label, control.path, allowed, typed(html, default))
        )
        return control

    properties = allowed.get("properties")
    if (
        allowed.get("type") == "object"
        and isinstance(properties, Mapping)
        and properties
        and all(_is_integer(schema) for schema in properties.values())
    ):
        control.kind = "integers"
        defaults = default if isinstance(default, Mapping) else {}
        for key, schema in properties.items():
            input_name = f"{html}-{key}"
            control.inputs.append(
                _number(
                    input_name,
                    _key_label(key),
                    f"{control.path}.{key}",
                    schema,
                    typed(input_name, defaults.get(key)),
                )
            )
        return control

    keys = _choice_keys(allowed)
    if keys is not None:
        control.kind = "choice"
        if data is None:
            chosen = next(iter(default)) if isinstance(default, Mapping) and default else ""
        else:
            chosen = str(data.get(html, ""))
        known = [key for key, _ in keys]
        control.selected = chosen if chosen in known else ("" if "" in known else known[0])
        for key, schema in keys:
            if key == "":
                control.choices.append(
                    Choice(value="", label=NONE_LABEL, radio_id=f"{control.id}-none")
                )
                continue
            label, input_label = CHOICE_LABELS.get(key, (_key_label(key), _key_label(key)))
            input_name = f"{html}-{key}"
            initial = default.get(key) if isinstance(default, Mapping) else None
            control.choices.append(
                Choice(
                    value=key,
                    label=label,
                    radio_id=f"{control.id}-is-{key}",
                    input=_number(
                        input_name,
                        input_label,
                        f"{control.path}.{key}",
                        schema,
                        typed(input_name, initial),
                    ),
                )
            )
        return control

    # A shape this builder does not know yet: edit it as JSON.
    value = json.dumps(default) if data is None else str(data.get(html, ""))
    control.inputs.append(
        Input(
            name=html, label=f"{control.label} (JSON)", path=control.path, kind="json", value=value
        )
    )
    return control


def option_controls(
    rules: GameRules,
    data: Mapping[str, Any] | None = None,
    current: Mapping[str, Any] | None = None,
) -> list[OptionControl]:
    """One control per house-rule option of the game, in the engine's order, holding
    ``data`` (a POST), or else the ``current`` value (options chosen before), or else the
    option's default."""
    controls = []
    for option in rules.options:
        description = dict(option.describe())
        if current is not None and description["name"] in current:
            description["default"] = current[description["name"]]
        controls.append(_control(description, data))
    return controls


def _whole(input_: Input) -> int | None:
    """The input's whole number, or None (and an error on the input) if it is not one."""
    text = input_.value.strip()
    try:
        return int(text)
    except ValueError:
        if input_.minimum is not None and input_.maximum is not None:
            span = f" from {input_.minimum} to {input_.maximum}"
        else:
            span = ""
        input_.error = f"{input_.label}: enter a whole number{span}"
        return None


def read_options(controls: Sequence[OptionControl]) -> dict[str, Any] | None:
    """The options as JSON for the engine, or None after marking the inputs that are wrong."""
    options: dict[str, Any] = {}
    ok = True
    for control in controls:
        if control.kind == "boolean":
            options[control.name] = control.inputs[0].checked
        elif control.kind == "integer":
            number = _whole(control.inputs[0])
            ok = ok and number is not None
            options[control.name] = number
        elif control.kind == "integers":
            values = {}
            for input_ in control.inputs:
                number = _whole(input_)
                ok = ok and number is not None
                values[input_.path.rsplit(".", 1)[-1]] = number
            options[control.name] = values
        elif control.kind == "choice":
            chosen = next((c for c in control.choices if c.value == control.selected), None)
            if chosen is None or chosen.input is None:
                options[control.name] = None
            else:
                number = _whole(chosen.input)
                ok = ok and number is not None
                options[control.name] = {chosen.value: number}
        else:
            input_ = control.inputs[0]
            try:
                options[control.name] = json.loads(input_.value)
            except ValueError:
                input_.error = f"{control.label}: enter a JSON value"
                ok = False
    return options if ok else None


def place_option_error(controls: Sequence[OptionControl], path: str, message: str) -> bool:
    """Put an ``options...`` error beside its input (or its option); False if none fits."""
    for control in controls:
        for input_ in control.all_inputs:
            if input_.path == path:
                input_.error = message
                return True
    for control in controls:
        if path == control.path or path.startswith(control.path + "."):
            if len(control.inputs) == 1 and not control.choices:
                control.inputs[0].error = message
            else:
                control.error = message
            return True
    return False


# --- Seats ------------------------------------------------------------------------------------


@dataclass
class SeatChoice(_Element):
    index: int  # 0-based
    value: str  # the chosen player's id, or ""
    required: bool
    player_name: str = ""

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def name(self) -> str:  # type: ignore[override]  # follows from the index
        return f"seat-{self.index}"


@dataclass
class GameSetupForm:
    """Everything on the set-up page of one game: seats, first dealer, house rules."""

    rules: GameRules
    roster: list[Player]
    data: Mapping[str, Any] | None = None
    controls: list[OptionControl] = field(init=False)
    seats: list[SeatChoice] = field(init=False)
    first_dealer: int = field(init=False, default=0)
    new_player: str = field(init=False, default="")
    notice: str = field(init=False, default="")
    errors: dict[str, str] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.controls = option_controls(self.rules, self.data)
        data = self.data or {}
        lowest = min(self.rules.player_counts)
        self.seats = [
            SeatChoice(index=i, value=str(data.get(f"seat-{i}", "")), required=i < lowest)
            for i in range(max(self.rules.player_counts))
        ]
        try:
            self.first_dealer = int(str(data.get("first_dealer", "0")))
        except ValueError:
            self.first_dealer = 0
        self.new_player = str(data.get("new_player", "")).strip()
        self._name_seats()

    def _name_seats(self) -> None:
        by_id = self.roster_by_id
        for seat in self.seats:
            player = by_id.get(seat.value)
            seat.player_name = player.name if player is not None else ""

    # Players and seats

    @property
    def roster_by_id(self) -> dict[str, Player]:
        return {str(player.pk): player for player in self.roster}

    def seat_first_empty(self, player: Player) -> int | None:
        """Seat ``player`` at the first empty seat; its index, or None if all are taken."""
        for seat in self.seats:
            if not seat.value:
                seat.value = str(player.pk)
                self._name_seats()
                return seat.index
        return None

    def read_players(self) -> list[Player] | None:
        """The seated players in seat order, or None after noting what is wrong."""
        by_id = self.roster_by_id
        players: list[Player] = []
        gap: SeatChoice | None = None
        for seat in self.seats:
            if not seat.value:
                gap = gap or seat
                continue
            if gap is not None:
                self.errors["players"] = (
                    f"Seat {gap.number} is empty: fill the seats in order, with no gaps"
                )
                return None
            player = by_id.get(seat.value)
            if player is None:
                self.errors["players"] = f"Seat {seat.number}: choose a player from the roster"
                return None
            players.append(player)
        return players

    def read_first_dealer(self, seated: int) -> int | None:
        if not 0 <= self.first_dealer < len(self.seats):
            self.errors["first_dealer"] = "Choose who deals first"
            return None
        if self.first_dealer >= seated and seated > 0:
            self.errors["first_dealer"] = (
                f"Seat {self.first_dealer + 1} is empty: choose a seated player to deal first"
            )
            return None
        return self.first_dealer

    def read_options(self) -> dict[str, Any] | None:
        return read_options(self.controls)

    # Errors

    def add_error(self, path: str | None, message: str) -> None:
        """Show a service's error beside the input it names (at the top when none fits)."""
        path = path or ""
        if path.startswith("options") and place_option_error(self.controls, path, message):
            return
        if path.startswith("players"):
            self.errors["players"] = message
        elif path in ("first_dealer", "game_type"):
            self.errors[path] = message
        else:
            self.errors["general"] = message

    @property
    def has_errors(self) -> bool:
        return self.error_count > 0

    @property
    def error_count(self) -> int:
        inputs = sum(1 for c in self.controls for i in c.all_inputs if i.error)
        return len(self.errors) + inputs + sum(1 for c in self.controls if c.error)
