"""How the OpenAPI schema reads the API's views: a view method's docstring is its
operation's summary (the first paragraph) and description (the rest; without one, the
view's docstring as before), and a view's ``tag`` groups its operations. What a method's
``extend_schema`` says outright (``summary=``, ``tags=``...) still wins."""

from __future__ import annotations

import inspect
from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import get_doc


def doc_parts(doc: str | None) -> tuple[str, str]:
    """A docstring's first paragraph and the rest, each on one line: an operation's summary
    and description."""
    summary, _, rest = inspect.cleandoc(doc or "").partition("\n\n")
    return " ".join(summary.split()), " ".join(rest.split())


class Schema(AutoSchema):
    def _method_doc(self) -> tuple[str, str]:
        method: Any = getattr(self.view, getattr(self.view, "action", self.method.lower()), None)
        return doc_parts(get_doc(method) if method else None)

    def get_summary(self) -> str | None:
        return self._method_doc()[0] or None

    def get_description(self) -> str:  # type: ignore[override]  # as drf-spectacular's
        return self._method_doc()[1] or get_doc(self.view.__class__)

    def get_tags(self) -> list[str]:
        tag = getattr(self.view, "tag", None)
        return [tag] if tag else super().get_tags()
