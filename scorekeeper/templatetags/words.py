"""How the pages write names and numbers:

- ``{{ names|and_list }}``: "Ann", "Ann and Bob", "Ann, Bob and Cy";
- ``{{ total|minus }}``: −2 with a real minus sign, as the scoresheet writes it (also after
  ``floatformat``: ``{{ average|floatformat:2|minus }}``);
- ``{{ change|signed }}``: +3, −2, 0;
- ``{{ role|with_article }}``: "a member", "an admin"."""

from __future__ import annotations

from collections.abc import Iterable

from django import template

from ..pages.game_sheet import number, signed

register = template.Library()
register.filter("minus", number)
register.filter("signed", signed)


@register.filter
def with_article(word: object) -> str:
    text = str(word)
    return f"{'an' if text[:1].lower() in 'aeiou' else 'a'} {text}"


@register.filter
def and_list(items: Iterable[object]) -> str:
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"
