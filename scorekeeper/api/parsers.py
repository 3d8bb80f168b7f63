"""The API's JSON parser: takes the body :mod:`scorekeeper.middleware` parsed and checked
(size, nesting) instead of parsing it a second time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework import parsers

from ..middleware import NOT_PARSED, parsed_json


class JSONParser(parsers.JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        request = (parser_context or {}).get("request")
        django_request = getattr(request, "_request", None)
        if django_request is not None:
            data = parsed_json(django_request)
            if data is not NOT_PARSED:
                return data
        return super().parse(stream, media_type, parser_context)
