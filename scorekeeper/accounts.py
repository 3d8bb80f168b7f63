"""Accounts with django-allauth: how its mail leaves, and who must verify an address.

- Mail that allauth writes (verification, password reset, address change) is stored and
  sent by a Celery task once the request commits (:mod:`scorekeeper.services.mail`).
- Every address given at sign-up or added later must be verified before it signs anyone
  in. Accounts that an admin made without any address on record (a table's scorer, the
  demo's people) sign in with their username as before.
- Failed sign-ins (allauth's ``login_failed`` rate limit, ``ACCOUNT_RATE_LIMITS``) count
  per client address and per account: whichever of its spellings is typed (username or
  email), an account's failures count on one counter, named by its username. Setting a
  new password (reset by email, or change) clears that counter; the address's counter
  only runs its course. A refusal says which limit refused it (:class:`SignInPaused`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Literal

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.internal.userkit import (
    filter_users_by_email,
    get_user_by_username,
    user_username,
)
from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage
from allauth.core import context as allauth_context
from allauth.core.internal import ratelimit
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from . import selectors
from .services.mail import email_queue
from .services.members import invitation_remember

#: The session key of an invitation opened before signing up or in (see ``pages.join``).
JOIN_TOKEN = "join_token"
#: How the emails name the site ("Hello from Scorekeeper!").
SITE_NAME = "Scorekeeper"


@dataclass(frozen=True)
class SiteNamed:
    """The site as allauth's email templates name it (``current_site``)."""

    name: str
    domain: str


#: Allauth's rate limit on failed sign-ins (``ACCOUNT_RATE_LIMITS["login_failed"]``).
LOGIN_FAILED = "login_failed"
RATE_LIMIT_APP = "allauth.account"
Limit = Literal["account", "address"]
#: Which of its rates counts what: ``ip`` the client's address, ``key`` the account.
LIMIT_OF_RATE: dict[str, Limit] = {"ip": "address", "key": "account"}


@dataclass(frozen=True)
class SignInPause:
    """The limit on failed sign-ins that refused an attempt, and how many seconds until
    the attempt could be let through."""

    limit: Limit
    wait: int


class SignInPaused(ValidationError):
    """Allauth's refusal of a sign-in over a limit on failed sign-ins, saying which."""

    def __init__(self, message: str, *, code: str, pause: SignInPause) -> None:
        super().__init__(message, code=code)
        self.pause = pause


def _counters(request: HttpRequest, key: str, *, per: tuple[str, ...]) -> list[Any]:
    """``(rate, cache key)`` of the ``login_failed`` counters that ``key`` uses, for the
    rates per ``ip`` and/or ``key``, as allauth's rate limiting names them."""
    return [
        (
            rate,
            ratelimit.get_cache_key(
                request, app=RATE_LIMIT_APP, action=LOGIN_FAILED, rate=rate, key=key
            ),
        )
        for rate in ratelimit.get_rates(app=RATE_LIMIT_APP, action=LOGIN_FAILED)
        if rate.per in per
    ]


def sign_in_pause(request: HttpRequest, key: str) -> SignInPause:
    """Which counter is full for a refused attempt (allauth only says that one is): the
    address's if it is (a password reset would not help), else the account's; and the
    seconds until every full counter has room again."""
    now = time.time()
    waits: dict[Limit, float] = {}
    for rate, cache_key in _counters(request, key, per=("ip", "key")):
        recent = sorted(
            (t for t in cache.get(cache_key, []) if t > now - rate.duration), reverse=True
        )
        if len(recent) >= rate.amount:
            oldest = recent[rate.amount - 1] if rate.amount > 0 else now
            full = LIMIT_OF_RATE[rate.per]
            waits[full] = max(waits.get(full, 0.0), oldest + rate.duration - now)
    # Neither full (allauth could not take its lock on a counter in time): the address's.
    limit: Limit = "account" if set(waits) == {"account"} else "address"
    return SignInPause(limit=limit, wait=max(1, math.ceil(max(waits.values(), default=1))))


def account_for_login(login: str) -> AbstractBaseUser | None:
    """The one account whose password a sign-in with ``login`` checks (as allauth's
    backend finds it: by email, verified addresses first, and by username), or None."""
    users: dict[Any, AbstractBaseUser] = {}
    if "@" in login:
        users.update(
            (u.pk, u) for u in filter_users_by_email(login, prefer_verified=True, for_login=True)
        )
    by_name = get_user_by_username(login) if login else None
    if by_name is not None:
        users[by_name.pk] = by_name
    return next(iter(users.values())) if len(users) == 1 else None


class AccountAdapter(DefaultAccountAdapter):
    def get_login_redirect_url(self, request: HttpRequest) -> str:
        """Back to the invitation that sent the person to sign up or in: the one opened in
        this browser, else the one their account was signed up from and has not answered."""
        token = request.session.pop(JOIN_TOKEN, None)
        if isinstance(token, str):
            return reverse("join", args=[token])
        invitation = selectors.invitation_to_join(request.user)
        if invitation is not None:
            return reverse("join", args=[invitation.token])
        return str(super().get_login_redirect_url(request))

    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        """A new account; signed up from an invitation, the account keeps it until it
        joins (the verification link may be opened in another browser)."""
        user = super().save_user(request, user, form, commit)
        token = request.session.get(JOIN_TOKEN)
        if commit and isinstance(token, str):
            invitation_remember(user=user, token=token)
        return user

    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "too_many_login_attempts": "Too many failed sign-ins for this account: try again in "
        "a quarter of an hour, or reset the password by email (Forgot your password?).",
        "too_many_login_attempts_from_address": "Too many failed sign-ins from this network "
        "address: sign-ins from here are paused, try again in a quarter of an hour.",
    }

    # --- Failed sign-ins --------------------------------------------------------------------

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        """Allauth's per-account key: the account's username, whichever spelling is typed
        (so the username and the email share one counter, and clearing it lifts both). A
        login that is not one account's counts on its own, as typed."""
        login = str(credentials.get("email", credentials.get("username", "")))
        user = account_for_login(login)
        if user is not None:
            credentials = {"username": self._account_login(user)}
        return str(super()._get_login_attempts_cache_key(request, **credentials))

    @staticmethod
    def _account_login(user: AbstractBaseUser) -> str:
        return str(user_username(user) or f"#{user.pk}")

    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        """Allauth's check, its refusal saying which limit refused (and for how long)."""
        try:
            super().pre_authenticate(request, **credentials)
        except ValidationError as error:
            if getattr(error, "code", None) != "too_many_login_attempts":
                raise
            key = self._get_login_attempts_cache_key(request, **credentials)
            pause = sign_in_pause(request, key)
            code = "too_many_login_attempts"
            if pause.limit == "address":
                code = "too_many_login_attempts_from_address"
            raise SignInPaused(self.error_messages[code], code=code, pause=pause) from None

    def clear_failed_sign_ins(self, request: HttpRequest, key: str) -> None:
        """Lift the account's lock (its counter); the address's counter is left alone."""
        for _, cache_key in _counters(request, key, per=("key",)):
            cache.delete(cache_key)

    def _delete_login_attempts_cached_email(self, request: HttpRequest, **credentials: Any) -> None:
        """Allauth's clean-up after a password reset (for each of the account's addresses):
        only the account's counter, not also the address's, as allauth's would (resetting
        one's own password must not buy more guesses at others' from that address)."""
        self.clear_failed_sign_ins(
            request, self._get_login_attempts_cache_key(request, **credentials)
        )

    def set_password(self, user: AbstractBaseUser, password: str) -> None:
        """A new password (reset by email, or changed) lifts the account's lock."""
        super().set_password(user, password)
        request = allauth_context.request
        if request is not None:
            key = super()._get_login_attempts_cache_key(request, username=self._account_login(user))
            self.clear_failed_sign_ins(request, key)

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        request = allauth_context.request
        site = SiteNamed(name=SITE_NAME, domain=request.get_host() if request else "")
        ctx = {"email": email, "current_site": site, **context}
        email_queue(message=self.render_mail(template_prefix, email, ctx))

    def get_login_stages(self) -> list[str]:
        default = f"{EmailVerificationStage.__module__}.{EmailVerificationStage.__name__}"
        ours = f"{VerifiedEmailStage.__module__}.{VerifiedEmailStage.__name__}"
        return [ours if stage == default else stage for stage in super().get_login_stages()]


class VerifiedEmailStage(EmailVerificationStage):
    """Allauth's verification stage, for accounts that have an address on record."""

    def handle(self) -> tuple[HttpResponse | None, bool]:
        user = self.login.user
        if user is not None and not EmailAddress.objects.filter(user_id=user.pk).exists():
            return None, True
        response, carry_on = super().handle()
        return response, carry_on


class LoginForm(AllauthLoginForm):
    """Allauth's sign-in form, its first field named for what it takes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["login"].label = "Username or email"
        self.fields["login"].widget.attrs.update(
            {"autocomplete": "username", "autocapitalize": "none", "placeholder": ""}
        )
        self.fields["password"].widget.attrs["placeholder"] = ""
