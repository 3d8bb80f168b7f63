"""Names people type: of clubs, players, seasons, tournaments, guests at a table.

Runs of white space become one space. Control characters (backspace, NUL, escape, ...),
lone surrogates and the invisible bidirectional overrides that make a name read differently
from what it is are refused: a name is shown on every phone at the table and printed on
standings, and must read as it was typed.
"""

from __future__ import annotations

import unicodedata

from .errors import InvalidInput

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def forbidden_characters(text: str) -> list[str]:
    """The characters of ``text`` a name may not hold, each once, as ``U+0008``."""
    found: dict[str, None] = {}
    for char in text:
        if char in _BIDI_CONTROLS or unicodedata.category(char) in ("Cc", "Cs"):
            found[f"U+{ord(char):04X}"] = None
    return list(found)


def tidy(text: str) -> str:
    """White space collapsed, forbidden characters dropped: for free text that is optional."""
    kept = "".join(c for c in text if not forbidden_characters(c) or c.isspace())
    return " ".join(kept.split())


def clean_name(value: str, *, what: str, max_length: int, field: str = "name") -> str:
    """``value`` with its white space collapsed, or :class:`InvalidInput` naming ``field``
    when it is empty, too long, or holds a character a name may not hold."""
    name = " ".join(value.split())
    if not name:
        raise InvalidInput(f"{what} needs a name", field=field)
    bad = forbidden_characters(name)
    if bad:
        raise InvalidInput(
            f"{what}'s name may not hold control characters ({', '.join(bad)})", field=field
        )
    if len(name) > max_length:
        raise InvalidInput(f"{what}'s name has at most {max_length} characters", field=field)
    return name
