"""Table links: anyone at the table scores this one game, until the link is revoked."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from ..access import Actor
from ..models import (
    Game,
    TableLink,
)
from ._base import (
    check_writable,
    locked_for_scoring,
    user_of,
)


@transaction.atomic
def table_link_create(*, actor: Actor, game: Game) -> TableLink:
    """A new table link for the game; an earlier one stops working."""
    game = locked_for_scoring(game, actor, "share its table link", guests=False)
    check_writable(game)
    TableLink.objects.filter(game=game, revoked_at__isnull=True).update(revoked_at=timezone.now())
    return TableLink.objects.create(
        game=game, token=secrets.token_urlsafe(24), created_by=user_of(actor)
    )


@transaction.atomic
def table_link_revoke(*, actor: Actor, game: Game) -> int:
    """Stop the game's table link from working. Returns how many links were revoked."""
    game = locked_for_scoring(game, actor, "revoke its table link", guests=False)
    return TableLink.objects.filter(game=game, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
