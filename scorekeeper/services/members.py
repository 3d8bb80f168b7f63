"""A club's people: roles, leaving and removal, and the invitations that bring them in.

A club always keeps at least one admin: the last one can neither be demoted, removed nor
leave. The club's row is locked while its admins are counted, so two admins demoting each
other at once cannot leave it with none.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from .. import access
from ..access import Actor
from ..errors import Conflict, InvalidInput, NotAllowed, NotFound
from ..models import Club, Invitation, InvitationOpened, Membership, Role
from ._base import require, user_of
from .mail import email_queue_text

INVITATION_DAYS_MAX = 90
INVITATION_USES_MAX = 500


def _valid_role(role: str, field: str = "role") -> Role:
    if role not in Role.values:
        raise InvalidInput(f"{field} must be one of {', '.join(Role.values)}", field=field)
    return Role(role)


def _lock_club(club: Club) -> None:
    Club.objects.select_for_update().filter(pk=club.pk).first()


def _keeps_an_admin(club: Club, losing: Membership, message: str) -> None:
    """Refuse when ``losing`` is the club's only admin (call with the club locked)."""
    if losing.role != Role.ADMIN:
        return
    others = Membership.objects.filter(club=club, role=Role.ADMIN).exclude(pk=losing.pk)
    if not others.exists():
        raise Conflict(message, field="role")


@transaction.atomic
def membership_set(*, actor: Actor, club: Club, user: User, role: str) -> Membership:
    """Give ``user`` a role in the club (admins only); the last admin keeps theirs."""
    require(access.can_administer(actor, club), "only the club's admins can change roles")
    new_role = _valid_role(role)
    _lock_club(club)
    membership = Membership.objects.filter(club=club, user=user).first()
    if membership is None:
        membership = Membership.objects.create(club=club, user=user, role=new_role)
    elif membership.role != new_role:
        if new_role != Role.ADMIN:
            _keeps_an_admin(
                club,
                membership,
                f"the club must keep an admin, and {user.get_username()} is the only one: make "
                "someone else admin first",
            )
        membership.role = new_role
        membership.save(update_fields=["role"])
    access.forget_roles()
    return membership


@transaction.atomic
def membership_remove(*, actor: Actor, club: Club, user: User) -> None:
    """Take ``user`` out of the club: an admin removing a member, or anyone leaving (their
    players and results stay on the club's roster)."""
    me = user_of(actor)
    leaving = me is not None and me.pk == user.pk
    require(
        leaving or access.can_administer(actor, club),
        "only the club's admins can remove members",
    )
    _lock_club(club)
    membership = Membership.objects.filter(club=club, user=user).first()
    if membership is None:
        raise NotFound(f"{club.name} has no member {user.get_username()}")
    _keeps_an_admin(
        club,
        membership,
        "you are the club's last admin: make someone else admin before you leave"
        if leaving
        else f"the club must keep an admin, and {user.get_username()} is the only one: make "
        "someone else admin first",
    )
    membership.delete()
    access.forget_roles()


# --- Invitations ------------------------------------------------------------------------------


def can_invite(actor: Actor, club: Club, role: str) -> bool:
    """Admins invite with any role; directors with any role but admin."""
    mine = access.role_in(actor, club)
    return mine == Role.ADMIN or (mine == Role.DIRECTOR and role != Role.ADMIN)


@transaction.atomic
def invitation_create(
    *,
    actor: Actor,
    club: Club,
    role: str = Role.MEMBER,
    days: int = 7,
    max_uses: int = 1,
    email: str = "",
    base_url: str = "",
) -> Invitation:
    """A link that brings people into the club with ``role``; mailed to ``email`` when one
    is given (``base_url``: the site's address the email's link starts with)."""
    new_role = _valid_role(role)
    require(
        can_invite(actor, club, new_role),
        "only the club's admins and directors can invite, and only admins invite admins",
    )
    if not 1 <= days <= INVITATION_DAYS_MAX:
        raise InvalidInput(f"days must be from 1 to {INVITATION_DAYS_MAX}", field="days")
    if not 1 <= max_uses <= INVITATION_USES_MAX:
        raise InvalidInput(f"max_uses must be from 1 to {INVITATION_USES_MAX}", field="max_uses")
    invitation = Invitation.objects.create(
        club=club,
        token=secrets.token_urlsafe(32),
        role=new_role,
        email=email.strip(),
        expires_at=timezone.now() + timedelta(days=days),
        max_uses=max_uses,
        created_by=user_of(actor),
    )
    if invitation.email:
        link = base_url.rstrip("/") + reverse("join", args=[invitation.token])
        email_queue_text(
            to=[invitation.email],
            subject=f"Scorekeeper: an invitation to {club.name}",
            body=(
                f"You are invited to join {club.name} on Scorekeeper as a "
                f"{invitation.get_role_display().lower()}.\n\n"
                f"Open this link to sign up or sign in and join: {link}\n\n"
                f"The link works until {invitation.expires_at:%d %B %Y}."
            ),
        )
    return invitation


@transaction.atomic
def invitation_revoke(*, actor: Actor, invitation: Invitation) -> Invitation:
    require(
        can_invite(actor, invitation.club, invitation.role),
        "only the club's admins and directors can revoke invitations",
    )
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


def invitation_problem(invitation: Invitation) -> str | None:
    """Why the invitation can no longer be used, or None while it can."""
    if invitation.revoked_at is not None:
        return "this invitation was withdrawn by the club"
    if invitation.expires_at <= timezone.now():
        return f"this invitation expired on {invitation.expires_at:%d %B %Y}"
    if invitation.uses >= invitation.max_uses:
        return "this invitation has been used as many times as the club allowed"
    return None


@transaction.atomic
def invitation_accept(*, actor: Actor, token: str) -> Membership:
    """Join the invitation's club. A member already there keeps a higher role, or rises
    to the invited one; only a join that changes something uses up the invitation."""
    user = user_of(actor)
    if user is None:
        raise NotAllowed("sign in or sign up to accept the invitation")
    invitation = Invitation.objects.select_for_update().filter(token=token).first()
    if invitation is None:
        raise NotFound("no such invitation: check the link")
    problem = invitation_problem(invitation)
    if problem is not None:
        raise Conflict(problem)
    club = invitation.club
    # Answered: no longer waiting for the person to sign in (see invitation_remember).
    InvitationOpened.objects.filter(user=user, invitation__club=club).delete()
    membership = Membership.objects.filter(club=club, user=user).first()
    invited = Role(invitation.role)
    if membership is not None and not access.ranks_below(membership.role, invited):
        return membership
    if membership is None:
        membership = Membership.objects.create(club=club, user=user, role=invited)
    else:
        membership.role = invited
        membership.save(update_fields=["role"])
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    access.forget_roles()
    return membership


@transaction.atomic
def invitation_remember(*, user: User, token: str) -> None:
    """Keep the invitation that ``user`` signed up from, while it can be used: signing in
    later, in any browser, brings them back to it until they join (the email's
    verification link may open where the invitation was never opened)."""
    invitation = Invitation.objects.filter(token=token).first()
    if invitation is not None and invitation_problem(invitation) is None:
        InvitationOpened.objects.get_or_create(user=user, invitation=invitation)


@transaction.atomic
def account_delete(*, user: User) -> None:
    """Delete the account: memberships and tokens go, the players it was linked to stay on
    their clubs' rosters (with every result) under their names. A club's last admin hands
    the club over first."""
    for membership in Membership.objects.filter(user=user, role=Role.ADMIN).select_related("club"):
        _lock_club(membership.club)
        _keeps_an_admin(
            membership.club,
            membership,
            f"you are the last admin of {membership.club.name}: "
            "make someone else admin there first",
        )
    user.delete()
    access.forget_roles()
