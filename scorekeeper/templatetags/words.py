"""``{{ names|and_list }}``: names as a sentence says them: "Ann", "Ann and Bob",
"Ann, Bob and Cy"."""

from __future__ import annotations

from collections.abc import Iterable

from django import template

register = template.Library()


@register.filter
def and_list(items: Iterable[object]) -> str:
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"
