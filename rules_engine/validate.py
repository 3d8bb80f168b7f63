"""Small checks shared by the games: each raises :class:`RuleError` naming the field."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet

from rules_engine.errors import RuleError


def type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return f'"{value}"' if len(value) <= 20 else "a long text"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return type(value).__name__


def mapping(value: object, field: str, what: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise RuleError(f"{what} must be an object; got {type_name(value)}", field=field)
    return value


def only_keys(
    value: Mapping[str, object], allowed: AbstractSet[str], prefix: str, what: str
) -> None:
    if value.keys() <= allowed:
        return
    for key in value:
        if key not in allowed:
            names = ", ".join(f'"{a}"' for a in sorted(allowed))
            raise RuleError(
                f'{what} has no field "{key}"; it takes {names}',
                field=f"{prefix}{key}",
            )


def required(value: Mapping[str, object], key: str, field: str, explain: str) -> object:
    if key not in value:
        raise RuleError(f"{field} is missing: {explain}", field=field)
    return value[key]


def whole(value: object, field: str, low: int, high: int | None, what: str) -> int:
    """A whole number within [low, high] (booleans and floats are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int):
        span = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise RuleError(
            f"{what} must be a whole number {span}; got {type_name(value)}", field=field
        )
    if value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise RuleError(f"{what} must be a whole number {span}; got {value}", field=field)
    return value


def sequence(value: object, field: str, length: int, what: str) -> Sequence[object]:
    if not isinstance(value, list | tuple):
        raise RuleError(
            f"{what} must be a list of {length} entries, one per seat; got {type_name(value)}",
            field=field,
        )
    if len(value) != length:
        raise RuleError(
            f"{what} must have {length} entries, one per seat; got {len(value)}", field=field
        )
    return value


def whole_list(
    value: object, field: str, names: Sequence[str], low: int, high: int, what: str
) -> tuple[int, ...]:
    """One whole number per seat, each within [low, high]."""
    items = sequence(value, field, len(names), what)
    for seat, item in enumerate(items):
        # Names for the message are only built when a value is wrong.
        if type(item) is not int or not low <= item <= high:
            whole(item, f"{field}[{seat}]", low, high, f"{names[seat]}'s {what}")
    return tuple(items)  # type: ignore[arg-type]


def boolean(value: object, field: str, what: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(f"{what} must be true or false; got {type_name(value)}", field=field)
    return value
