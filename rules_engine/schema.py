"""JSON Schema pieces the games use to describe their deal records (``Game.record_schema``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def seat_list(items: Mapping[str, Any], description: str) -> dict[str, Any]:
    """JSON Schema of a list with one entry per seat."""
    return {
        "type": "array",
        "items": dict(items),
        "minItems": 2,
        "maxItems": 6,
        "description": description,
    }


def record_object(properties: Mapping[str, Any], required: Sequence[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": dict(properties),
        "required": list(required),
        "additionalProperties": False,
    }
