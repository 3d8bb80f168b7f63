"""Clubs, their people and players, seasons."""

from __future__ import annotations

from datetime import date

from django.contrib.auth.models import User
from django.db import transaction

from .. import access
from ..access import Actor
from ..errors import InvalidInput, NotAllowed
from ..models import (
    Club,
    Membership,
    Player,
    Role,
    Season,
)
from ..names import clean_name
from ._base import (
    require,
    user_of,
)


@transaction.atomic
def club_create(*, actor: Actor, name: str, slug: str, results_public: bool = False) -> Club:
    """A new club; its creator becomes its admin."""
    user = user_of(actor)
    if user is None:
        raise NotAllowed("log in to create a club")
    name = clean_name(name, what="a club", max_length=120)
    if Club.objects.filter(slug=slug).exists():
        raise InvalidInput(f'a club called "{slug}" already exists', field="slug")
    club = Club.objects.create(name=name, slug=slug, results_public=results_public)
    Membership.objects.create(club=club, user=user, role=Role.ADMIN)
    access.forget_roles()
    return club


@transaction.atomic
def membership_set(*, actor: Actor, club: Club, user: User, role: str) -> Membership:
    """Give ``user`` a role in the club (admins only)."""
    require(access.can_administer(actor, club), "only the club's admins can change roles")
    if role not in Role.values:
        raise InvalidInput(f"role must be one of {', '.join(Role.values)}", field="role")
    membership, _ = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    access.forget_roles()
    return membership


@transaction.atomic
def player_create(
    *,
    actor: Actor,
    club: Club,
    name: str,
    email: str = "",
    user: User | None = None,
) -> Player:
    """Add a player to the club's roster (club staff)."""
    require(access.can_manage_roster(actor, club), "only the club's staff can add players")
    name = clean_name(name, what="a player", max_length=100)
    if Player.objects.filter(club=club, name__iexact=name).exists():
        raise InvalidInput(f'the roster already has a player called "{name}"', field="name")
    if user is not None and Player.objects.filter(club=club, user=user).exists():
        raise InvalidInput("that account is already linked to a player of this club", field="user")
    return Player.objects.create(club=club, name=name, email=email, user=user)


@transaction.atomic
def season_create(*, actor: Actor, club: Club, name: str, starts_on: date, ends_on: date) -> Season:
    """A season of the club: a date range that does not overlap another."""
    require(access.can_manage_seasons(actor, club), "only admins and directors manage seasons")
    name = clean_name(name, what="a season", max_length=100)
    if ends_on < starts_on:
        raise InvalidInput("a season cannot end before it starts", field="ends_on")
    if Season.objects.filter(club=club, name=name).exists():
        raise InvalidInput(f'the club already has a season called "{name}"', field="name")
    overlap = Season.objects.filter(
        club=club, starts_on__lte=ends_on, ends_on__gte=starts_on
    ).first()
    if overlap is not None:
        raise InvalidInput(
            f"these dates overlap the season {overlap.name} "
            f"({overlap.starts_on} to {overlap.ends_on})",
            field="starts_on",
        )
    return Season.objects.create(club=club, name=name, starts_on=starts_on, ends_on=ends_on)
