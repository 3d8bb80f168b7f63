"""API tokens: issued for a username and password, revoked by their holder.

One token per user (DRF's ``authtoken``): every device logged in with it shares it, and
revoking it logs them all out.
"""

from __future__ import annotations

from allauth.account.adapter import get_adapter
from django.contrib.auth.models import User
from django.http import HttpRequest
from rest_framework.authtoken.models import Token

from scorekeeper.accounts import SignInPaused

from .errors import InvalidCredentials, SignInThrottled


def token_issue(*, request: HttpRequest, username: str, password: str) -> Token:
    """A token for the account, with the sign-in page's limits on failed attempts (per
    address and per account, counted together with the page's): over one, a 429 that says
    which and for how long."""
    try:
        user = get_adapter(request).authenticate(request, username=username, password=password)
    except SignInPaused as paused:
        raise SignInThrottled(limit=paused.pause.limit, wait=paused.pause.wait) from None
    if not isinstance(user, User) or not user.is_active:
        raise InvalidCredentials()
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_revoke(*, user: User) -> int:
    """Delete the user's token; returns how many were deleted (0 or 1)."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted
