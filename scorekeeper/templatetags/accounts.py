"""What the account pages (sign up, sign in, email confirmation) say about the invitation
that sent someone to them: ``{% invitation_being_answered as invitation %}``."""

from __future__ import annotations

from typing import Any

from django import template

from .. import selectors
from ..accounts import JOIN_TOKEN
from ..errors import NotFound
from ..models import Invitation
from ..services.members import invitation_problem

register = template.Library()


@register.simple_tag(takes_context=True)
def invitation_being_answered(context: dict[str, Any]) -> Invitation | None:
    """The invitation this browser opened before it signed up or in, while it can still be
    used: signed in, the person comes back to it to join."""
    request = context.get("request")
    token = request.session.get(JOIN_TOKEN) if request is not None else None
    if not isinstance(token, str):
        return None
    try:
        invitation = selectors.invitation_by_token(token)
    except NotFound:
        return None
    return invitation if invitation_problem(invitation) is None else None
