"""What the tournament services share: the acting user, the tournament's row lock, the
open check, the options and deal limit of a table's game."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import User
from django.db import models

from scorekeeper.access import Actor
from scorekeeper.errors import Conflict, NotFound

from ..models import (
    RoundKind,
    Tournament,
    TournamentStatus,
)


def _user(actor: Actor) -> User | None:
    return actor if isinstance(actor, User) and actor.is_authenticated else None


def _locked(tournament: Tournament | int) -> Tournament:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    try:
        return Tournament.objects.select_for_update(of=("self",)).select_related("club").get(pk=pk)
    except Tournament.DoesNotExist:
        raise NotFound("no such tournament") from None


def _decimal(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.001"))


def _open(tournament: Tournament) -> None:
    if tournament.status == TournamentStatus.FINISHED:
        raise Conflict("the tournament is finished")


def _game_options(tournament: Tournament) -> dict[str, Any]:
    return dict(tournament.options)


def _deal_limit(tournament: Tournament) -> int | None:
    """The deals a round allows where the game itself does not end there."""
    if tournament.round_kind != RoundKind.DEALS:
        return None
    if "finish" in tournament.options:
        return None  # the game's own finish option: {"deals": N}
    return tournament.round_deals


def choices(kind: type[models.TextChoices]) -> str:
    """A choice field's values for a message, each with its label as the pages show it:
    'a ("A"), b ("B") or c ("C")'."""
    named = [f'{value} ("{label}")' for value, label in kind.choices]
    return f"{', '.join(named[:-1])} or {named[-1]}" if len(named) > 1 else named[0]
