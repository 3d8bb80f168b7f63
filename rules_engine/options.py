"""House-rule options: their defaults, what values they allow, and their validation."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rules_engine.errors import RuleError
from rules_engine.validate import boolean, mapping, whole

T = TypeVar("T")


@dataclass(frozen=True)
class Option(Generic[T]):
    """One house-rule option.

    ``allowed`` is a JSON Schema fragment describing the values the option
    takes, so forms and documentation can be generated from it; ``parse``
    turns a raw value into the engine's own, raising :class:`RuleError`
    naming ``options.<name>``.
    """

    name: str
    label: str
    description: str
    default: T
    allowed: Mapping[str, Any]
    parse: Callable[[object, str], T]
    to_json: Callable[[T], Any]

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "description": self.description,
            "default": self.to_json(self.default),
            "allowed": dict(self.allowed),
        }


def _same(value: Any) -> Any:
    return value


def bool_option(name: str, label: str, description: str, default: bool) -> Option[bool]:
    def parse(raw: object, field: str) -> bool:
        return boolean(raw, field, label)

    return Option(name, label, description, default, {"type": "boolean"}, parse, _same)


def int_option(
    name: str, label: str, description: str, default: int, low: int, high: int
) -> Option[int]:
    def parse(raw: object, field: str) -> int:
        return whole(raw, field, low, high, label)

    schema = {"type": "integer", "minimum": low, "maximum": high}
    return Option(name, label, description, default, schema, parse, _same)


def int_map_option(
    name: str,
    label: str,
    description: str,
    default: Mapping[str, int],
    low: int,
    high: int,
) -> Option[dict[str, int]]:
    """An object of whole numbers with fixed keys; keys left out keep their default."""

    def parse(raw: object, field: str) -> dict[str, int]:
        given = mapping(raw, field, label)
        result = dict(default)
        for key, value in given.items():
            if key not in default:
                keys = ", ".join(f'"{k}"' for k in default)
                raise RuleError(f'{label} has no entry "{key}"; it takes {keys}', field=field)
            result[key] = whole(value, f"{field}.{key}", low, high, f'{label} "{key}"')
        return result

    schema = {
        "type": "object",
        "properties": {k: {"type": "integer", "minimum": low, "maximum": high} for k in default},
        "additionalProperties": False,
    }
    return Option(name, label, description, dict(default), schema, parse, dict)


def parse_options(options: Sequence[Option[Any]], raw: object, game_name: str) -> dict[str, Any]:
    """Resolve a record's options against a game's: defaults filled in, unknown names refused."""
    if raw is None:
        raw = {}
    given = mapping(raw, "options", "options")
    by_name = {option.name: option for option in options}
    for key in given:
        if key not in by_name:
            known = ", ".join(f'"{o.name}"' for o in options) or "none"
            raise RuleError(
                f'{game_name} has no house-rule option "{key}"; its options are {known}',
                field=f"options.{key}",
            )
    return {
        option.name: option.parse(given[option.name], f"options.{option.name}")
        if option.name in given
        else option.default
        for option in options
    }
