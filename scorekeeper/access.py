"""Who may do what in a club. Services and the API ask these; nothing else decides."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from .models import Club, Game, Membership, Role

Actor = User | AnonymousUser

STAFF_ROLES = (Role.ADMIN, Role.DIRECTOR, Role.SCORER)


def role_in(actor: Actor, club: Club) -> str | None:
    """The actor's role in the club, or None for a non-member (or anonymous caller)."""
    if not actor.is_authenticated:
        return None
    return (
        Membership.objects.filter(club=club, user_id=actor.pk)
        .values_list("role", flat=True)
        .first()
    )


def is_member(actor: Actor, club: Club) -> bool:
    return role_in(actor, club) is not None


def can_administer(actor: Actor, club: Club) -> bool:
    return role_in(actor, club) == Role.ADMIN


def can_manage_roster(actor: Actor, club: Club) -> bool:
    return role_in(actor, club) in STAFF_ROLES


def can_manage_seasons(actor: Actor, club: Club) -> bool:
    return role_in(actor, club) in (Role.ADMIN, Role.DIRECTOR)


def can_start_game(actor: Actor, club: Club) -> bool:
    return is_member(actor, club)


def can_score(actor: Actor, game: Game) -> bool:
    """Record, correct or undo deals, finish or abandon: club staff, or a player seated in it."""
    role = role_in(actor, game.club)
    if role in STAFF_ROLES:
        return True
    return (
        role is not None
        and actor.pk is not None
        and game.seats.filter(player__user_id=actor.pk).exists()
    )


def can_read_results(actor: Actor, club: Club) -> bool:
    return club.results_public or is_member(actor, club)
