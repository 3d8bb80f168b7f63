"""Who may do what in a club. Services and the API ask these; nothing else decides."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User

from .models import Club, Game, GameStatus, Membership, Role


@dataclass(frozen=True)
class TableGuest:
    """Someone at the table who came in through the game's table link: no account,
    and rights over that one game only. ``name`` is what they call themselves."""

    game_id: int
    name: str = ""
    #: the browser they came in with (a random value its session keeps): one phone is one
    #: person at the table whatever name it gives next
    device: str = ""
    #: the members who used the game pages in that browser (they are who hold it now,
    #: signed out or not)
    members: tuple[int, ...] = ()
    is_authenticated = False
    pk = None


Actor = User | AnonymousUser | TableGuest


def actor_name(actor: Actor) -> str:
    """How an actor is named in a deal's history and in "already recorded by ..."."""
    if isinstance(actor, TableGuest):
        return f"{actor.name} (table link)" if actor.name else "someone at the table"
    if actor.is_authenticated:
        return actor.get_username()
    return "someone"


def actor_device(actor: Actor) -> str:
    """The browser a guest at the table link came in with ("" for anyone else)."""
    return actor.device if isinstance(actor, TableGuest) else ""


STAFF_ROLES = (Role.ADMIN, Role.DIRECTOR, Role.SCORER)
#: Roles from the most rights to the fewest.
ROLE_RANK = {Role.ADMIN: 4, Role.DIRECTOR: 3, Role.SCORER: 2, Role.MEMBER: 1}


def ranks_below(role: str | None, other: str) -> bool:
    """Whether ``role`` (None: not a member) has fewer rights than ``other``: joining with
    ``other`` would change something."""
    return role is None or ROLE_RANK[Role(role)] < ROLE_RANK[Role(other)]


_remembered_roles: ContextVar[dict[tuple[int, int], str | None] | None] = ContextVar(
    "remembered_roles", default=None
)


@contextmanager
def roles_remembered() -> Iterator[None]:
    """Within this block (one API request), each person's role in each club is read from
    the database once, however many checks ask for it."""
    token = _remembered_roles.set({})
    try:
        yield
    finally:
        _remembered_roles.reset(token)


def remember_role(actor: User, club_id: int, role: str | None) -> None:
    """The actor's role in the club was read with something else (a game): within
    :func:`roles_remembered`, checks use it instead of reading it again."""
    remembered = _remembered_roles.get()
    if remembered is not None:
        remembered[(actor.pk, club_id)] = role


def forget_roles() -> None:
    """A role changed: the next check reads it again."""
    remembered = _remembered_roles.get()
    if remembered is not None:
        remembered.clear()


def role_in(actor: Actor, club: Club) -> str | None:
    """The actor's role in the club, or None for a non-member (or anonymous caller)."""
    return _role(actor, club.pk)


def _role(actor: Actor, club_id: int) -> str | None:
    # By the club's id: a game's club need not be read to know the caller's role in it.
    if isinstance(actor, TableGuest) or not actor.is_authenticated:
        return None
    remembered = _remembered_roles.get()
    key = (actor.pk, club_id)
    if remembered is not None and key in remembered:
        return remembered[key]
    role = (
        Membership.objects.filter(club_id=club_id, user_id=actor.pk)
        .values_list("role", flat=True)
        .first()
    )
    if remembered is not None:
        remembered[key] = role
    return role


def is_member(actor: Actor, club: Club) -> bool:
    return role_in(actor, club) is not None


def can_see_game(actor: Actor, game: Game) -> bool:
    """See a game: the members of its club, and whoever is at its table by its link."""
    if isinstance(actor, TableGuest):
        return actor.game_id == game.pk
    return _role(actor, game.club_id) is not None


def can_administer(actor: Actor, club: Club) -> bool:
    return role_in(actor, club) == Role.ADMIN


def can_manage_roster(actor: Actor, club: Club) -> bool:
    return role_in(actor, club) in STAFF_ROLES


def can_manage_seasons(actor: Actor, club: Club) -> bool:
    return role_in(actor, club) in (Role.ADMIN, Role.DIRECTOR)


def can_start_game(actor: Actor, club: Club) -> bool:
    return is_member(actor, club)


def _started(actor: Actor, game: Game) -> bool:
    """Whether the actor started the game and keeps its score for it (not a game they
    started in a role, as a director a tournament's table)."""
    return game.kept_by_starter and actor.pk is not None and game.created_by_id == actor.pk


ABANDON_WHILE_PLAYED = (
    "only the club's staff and whoever started the game can abandon it while it is played; "
    "its players finish it"
)
ABANDON_FINISHED = (
    "the game is finished and its result counts: only the club's admins and directors can "
    "abandon it (a mistake in a deal is put right by correcting the deal)"
)


def abandon_refusal(actor: Actor, game: Game) -> str | None:
    """Why the actor may not abandon the game, None when they may: while it is played, the
    club's staff and the member who started it (a game started by mistake); once finished,
    the club's admins and directors. Not a guest at the table link, nor a player who only
    sits in it (a tournament table's game is the director's to end). A game already
    abandoned is refused by its state, not here: whoever sees it is told so."""
    if game.status == GameStatus.ABANDONED:
        return None
    role = None
    if isinstance(actor, User) and actor.is_authenticated:
        role = _role(actor, game.club_id)
    if game.status == GameStatus.FINISHED:
        return None if role in (Role.ADMIN, Role.DIRECTOR) else ABANDON_FINISHED
    if role in STAFF_ROLES or (role is not None and _started(actor, game)):
        return None
    return ABANDON_WHILE_PLAYED


def can_abandon(actor: Actor, game: Game) -> bool:
    """Whether the game's page offers this person to abandon it (:func:`abandon_refusal`)."""
    return game.status != GameStatus.ABANDONED and abandon_refusal(actor, game) is None


def can_score(actor: Actor, game: Game) -> bool:
    """Record, correct or undo deals, finish or abandon: club staff, a player seated in
    it, the member who started it, or someone at its table through its (unrevoked) table
    link."""
    if isinstance(actor, TableGuest):
        return actor.game_id == game.pk
    role = _role(actor, game.club_id)
    if role in STAFF_ROLES:
        return True
    return (
        role is not None
        and actor.pk is not None
        and (_started(actor, game) or game.seats.filter(player__user_id=actor.pk).exists())
    )


def can_read_results(actor: Actor, club: Club) -> bool:
    return club.results_public or is_member(actor, club)
