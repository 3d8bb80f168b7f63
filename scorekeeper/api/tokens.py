"""API tokens: issued for a username and password, revoked by their holder.

One token per user (DRF's ``authtoken``): every device logged in with it shares it, and
revoking it logs them all out.
"""

from __future__ import annotations

from allauth.account.adapter import get_adapter
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import Throttled

from .errors import InvalidCredentials


def token_issue(*, request: HttpRequest, username: str, password: str) -> Token:
    """A token for the account, with the sign-in page's limits on failed attempts (per
    address and per account, counted together with the page's)."""
    try:
        user = get_adapter(request).authenticate(request, username=username, password=password)
    except ValidationError:
        raise Throttled(
            detail="too many failed sign-ins for this account: try again in 15 minutes, "
            "or reset the password from the sign-in page"
        ) from None
    if not isinstance(user, User) or not user.is_active:
        raise InvalidCredentials()
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_revoke(*, user: User) -> int:
    """Delete the user's token; returns how many were deleted (0 or 1)."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted
