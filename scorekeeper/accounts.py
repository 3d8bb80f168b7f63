"""Accounts with django-allauth: how its mail leaves, and who must verify an address.

- Mail that allauth writes (verification, password reset, address change) is stored and
  sent by a Celery task once the request commits (:mod:`scorekeeper.services.mail`).
- Every address given at sign-up or added later must be verified before it signs anyone
  in. Accounts that an admin made without any address on record (a table's scorer, the
  demo's people) sign in with their username as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage
from allauth.core import context as allauth_context
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from .services.mail import email_queue

#: The session key of an invitation opened before signing up or in (see ``pages.join``).
JOIN_TOKEN = "join_token"
#: How the e-mails name the site ("Hello from Scorekeeper!").
SITE_NAME = "Scorekeeper"


@dataclass(frozen=True)
class SiteNamed:
    """The site as allauth's e-mail templates name it (``current_site``)."""

    name: str
    domain: str


class AccountAdapter(DefaultAccountAdapter):
    def get_login_redirect_url(self, request: HttpRequest) -> str:
        """Back to the invitation that sent the person to sign up or in, if one did."""
        token = request.session.pop(JOIN_TOKEN, None)
        if isinstance(token, str):
            return reverse("join", args=[token])
        return str(super().get_login_redirect_url(request))

    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "too_many_login_attempts": "Too many failed sign-ins for this account: try again in "
        "a quarter of an hour, or reset the password by e-mail (Forgot your password?).",
    }

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
        self.fields["login"].label = "Username or e-mail"
        self.fields["login"].widget.attrs.update(
            {"autocomplete": "username", "autocapitalize": "none", "placeholder": ""}
        )
        self.fields["password"].widget.attrs["placeholder"] = ""
