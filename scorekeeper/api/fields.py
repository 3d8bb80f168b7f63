"""Input fields stricter than DRF's: text must be sent as a JSON string (DRF's CharField
turns ``0`` into ``"0"``), and a name must not hold control characters
(:mod:`scorekeeper.names`). The OpenAPI schema says both."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..names import forbidden_characters
from ..selectors import MAX_ID

# The characters scorekeeper.names refuses, as a JSON Schema pattern.
NAME_PATTERN = r"^[^\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]*$"


def id_field(**kwargs: Any) -> serializers.IntegerField:
    """An id: a positive integer that a row can have."""
    return serializers.IntegerField(min_value=1, max_value=MAX_ID, **kwargs)


class Text(serializers.CharField):
    default_error_messages = {"invalid": "must be a string"}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


@extend_schema_field({"type": "string", "pattern": NAME_PATTERN, "minLength": 1})
class Name(Text):
    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        bad = forbidden_characters(value)
        if bad:
            raise serializers.ValidationError(
                f"a name may not hold control characters ({', '.join(bad)})"
            )
        return value


# --- Whole inputs -----------------------------------------------------------------------------


def _json_type(field: serializers.Field[Any, Any, Any, Any]) -> tuple[tuple[type, ...], str] | None:
    """The JSON type a field takes, as the schema says it, and its name for a message."""
    if isinstance(field, serializers.BooleanField):
        return (bool,), "true or false"
    if isinstance(field, serializers.IntegerField):
        return (int,), "an integer"
    if isinstance(field, serializers.FloatField | serializers.DecimalField):
        return (int, float), "a number"
    if isinstance(field, serializers.CharField):
        return (str,), "a string"
    return None


def type_error(field: serializers.Field[Any, Any, Any, Any], value: Any) -> Any:
    """None, or the error in DRF's shape: a list of messages, or for a list's items
    ``{index: [messages]}`` (shown as ``players[0]``)."""
    if value is None:
        return None  # the field's own rules say whether null is allowed
    if isinstance(field, serializers.ListField) and isinstance(value, list):
        items = {i: type_error(field.child, item) for i, item in enumerate(value)}
        items = {i: error for i, error in items.items() if error}
        return items or None
    expected = _json_type(field)
    if expected is None:
        return None
    types, name = expected
    if isinstance(value, types) and not (isinstance(value, bool) and bool not in types):
        return None
    return [f"must be {name}"]


class StrictInput(serializers.Serializer[Any]):
    """A JSON body read as the schema types it: DRF alone would take ``0`` for false,
    ``"3"`` for 3 and ``3`` for "3"; here each is refused naming the field. So is a field
    the request does not take (DRF would ignore it: a misspelt ``ends_on`` for ``on``
    would close a season today, as if nothing were asked)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            errors: dict[str, Any] = {}
            known = [name for name, field in self.fields.items() if not field.read_only]
            for name in data:
                if name not in known:
                    takes = ", ".join(known) if known else "no fields"
                    errors[str(name)] = [f"unknown field: this request takes {takes}"]
            for name, field in self.fields.items():
                if field.read_only or name not in data:
                    continue
                error = type_error(field, data[name])
                if error:
                    errors[name] = error
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


class Query(serializers.Serializer[Any]):
    """Query parameters: one given empty (``?status=``) is refused, not taken as absent."""

    def to_internal_value(self, data: Any) -> Any:
        names = list(self.fields.keys())
        empty = [name for name in names if hasattr(data, "get") and data.get(name) == ""]
        if empty:
            raise serializers.ValidationError({name: ["must not be empty"] for name in empty})
        return super().to_internal_value(data)
