"""Input fields stricter than DRF's: text must be sent as a JSON string (DRF's CharField
turns ``0`` into ``"0"``), and a name must not hold control characters
(:mod:`scorekeeper.names`). The OpenAPI schema says both."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..names import forbidden_characters

# The characters scorekeeper.names refuses, as a JSON Schema pattern.
NAME_PATTERN = r"^[^\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]*$"


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
