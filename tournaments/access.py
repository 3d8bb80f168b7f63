"""Who may run a club's tournaments: its admins and directors. Services, pages and the API
ask here."""

from __future__ import annotations

from scorekeeper import access
from scorekeeper.access import Actor
from scorekeeper.errors import NotAllowed
from scorekeeper.models import Club, Role

DIRECTORS = (Role.ADMIN, Role.DIRECTOR)
NOT_A_DIRECTOR = "only the club's admins and directors run its tournaments"


def can_direct(actor: Actor, club: Club) -> bool:
    """Run the club's tournaments: its admins and directors."""
    return access.role_in(actor, club) in DIRECTORS


def require_director(actor: Actor, club: Club) -> None:
    if not can_direct(actor, club):
        raise NotAllowed(NOT_A_DIRECTOR)
