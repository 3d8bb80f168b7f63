"""Table links: anyone at the table scores this one game, until the link is revoked."""

from __future__ import annotations

import re
import secrets

from django.db import transaction
from django.utils import timezone

from ..access import Actor
from ..errors import Conflict
from ..models import (
    Game,
    TableLink,
)
from ._base import (
    check_writable,
    locked_for_scoring,
    user_of,
)

#: A table link's token: what ``secrets.token_urlsafe`` writes.
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


@transaction.atomic
def table_link_create(*, actor: Actor, game: Game, token: str = "") -> TableLink:
    """A new table link for the game; an earlier one stops working. ``token``: the link's
    token, where an app gives one back that no link holds any more (a tournament table's
    printed card, its round published again after it was taken back); else a new one."""
    game = locked_for_scoring(game, actor, "share its table link", guests=False)
    check_writable(game)
    if token and (not _TOKEN.fullmatch(token) or TableLink.objects.filter(token=token).exists()):
        raise Conflict("that table link is another's", field="token")
    TableLink.objects.filter(game=game, revoked_at__isnull=True).update(revoked_at=timezone.now())
    return TableLink.objects.create(
        game=game, token=token or secrets.token_urlsafe(24), created_by=user_of(actor)
    )


@transaction.atomic
def table_link_revoke(*, actor: Actor, game: Game) -> int:
    """Stop the game's table link from working. Returns how many links were revoked."""
    game = locked_for_scoring(game, actor, "revoke its table link", guests=False)
    return TableLink.objects.filter(game=game, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
