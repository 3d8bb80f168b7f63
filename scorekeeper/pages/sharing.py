"""Signed links to a game's result, for sharing outside the club."""

from __future__ import annotations

from django.core import signing

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
