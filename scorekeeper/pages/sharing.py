"""Sharing links: signed links to a game's result, and QR codes of any link."""

from __future__ import annotations

import segno
from django.core import signing
from django.utils.safestring import SafeString, mark_safe

from scorekeeper.models import Game

SALT = "share-game"


def share_token(game: Game) -> str:
    """The signed token of the game's share link (``{% url 'game-shared' token %}``)."""
    return signing.dumps(game.pk, salt=SALT)


def game_id_from_token(token: str) -> int | None:
    """The game id a share token stands for, or None if the token is not ours."""
    try:
        value = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def qr_svg(url: str) -> SafeString:
    """The URL as a QR code, an inline SVG that scales to its box (segno writes it all)."""
    svg = segno.make(url, error="m").svg_inline(
        scale=4, border=4, omitsize=True, dark="#000", light="#fff", title="QR code of the link"
    )
    # segno's own markup: the URL is encoded in the pattern, never embedded as text.
    return mark_safe(svg)
