"""Which game rows the current transaction holds locked (``SELECT … FOR UPDATE``), so a
service handed a game its caller locked while reading it does not read and lock it again."""

from __future__ import annotations

from django.db import transaction

from .models import Game

_MARK = "_locked_in_transaction"


def _current() -> int | None:
    connection = transaction.get_connection()
    if not connection.in_atomic_block or not connection.atomic_blocks:
        return None
    return id(connection.atomic_blocks[0])


def mark_locked(game: Game) -> None:
    """``game`` was just read with its row locked, in the current transaction."""
    setattr(game, _MARK, _current())


def held(game: Game) -> bool:
    """Whether the current transaction read and locked ``game``'s row."""
    current = _current()
    return current is not None and getattr(game, _MARK, None) == current
