"""The header and the account pages on a small phone (360×740): one tidy header line,
nothing wider than the screen, no console errors, nothing the Content-Security-Policy
blocks (``new_page`` fails the test on any such report)."""

from __future__ import annotations

from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from pytest_django.live_server_helper import LiveServer

from tests.factories import UserFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("tasks_in_process"),
]

SMALL_PHONE = {"width": 360, "height": 740}


def small(page: Any) -> Any:
    page.set_viewport_size(SMALL_PHONE)
    return page


def header_is_one_line(page: Any) -> None:
    """The brand and every link of the header side by side, inside the screen."""
    boxes = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].map(e => {
             const r = e.getBoundingClientRect();
             return {text: e.textContent.trim(), top: r.top, right: r.right};
           })""",
        ".site-header .brand, .site-header nav a, .site-header nav button",
    )
    assert len(boxes) >= 3, boxes
    assert {box["top"] for box in boxes} == {boxes[0]["top"]}, boxes
    assert all(box["right"] <= SMALL_PHONE["width"] for box in boxes), boxes
    header = page.locator(".site-header").bounding_box()
    assert header["height"] < 2 * 44, header
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]


def test_the_header_is_one_line_on_a_360px_phone(
    site: LiveServer, new_page: Any, phone: Any
) -> None:
    visitor = small(new_page())
    visitor.goto(f"{site.url}/accounts/login/")
    header_is_one_line(visitor)

    member = small(phone(UserFactory(username="sam", email="")))
    for path in ("/me/games/", "/accounts/email/", "/accounts/password/change/"):
        member.goto(f"{site.url}{path}")
        header_is_one_line(member)
    # Signing out is on the account pages.
    member.get_by_role("button", name="Sign out").click()
    member.locator(".site-header").get_by_role("link", name="Sign in").wait_for()


def console_errors(page: Any) -> list[str]:
    """What the page says in the console as errors, from now on."""
    errors: list[str] = []
    page.on(
        "console",
        lambda message: (
            errors.append(f"{page.url}: {message.text}") if message.type == "error" else None
        ),
    )
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    return errors


def test_the_account_pages_with_no_console_error(
    site: LiveServer, new_page: Any, phone: Any
) -> None:
    """Signed out and in, with an address change waiting to be verified (allauth's page
    then has a hidden form, once drawn with an inline style the Content-Security-Policy
    blocked); the verification email sent again from there."""
    visitor = small(new_page())
    errors = console_errors(visitor)
    for path in (
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/accounts/confirm-email/",
        "/accounts/confirm-email/again/",
    ):
        visitor.goto(f"{site.url}{path}")
        visitor.wait_for_load_state("networkidle")

    user = UserFactory(username="sam", email="sam@example.org")
    EmailAddress.objects.create(user=user, email="sam@example.org", verified=True, primary=True)
    EmailAddress.objects.create(user=user, email="sam@new.example.org")
    page = small(phone(user))
    signed_in_errors = console_errors(page)
    for path in ("/accounts/password/change/", "/accounts/delete/", "/accounts/email/"):
        page.goto(f"{site.url}{path}")
        page.wait_for_load_state("networkidle")
    assert page.locator("#pending-email").is_hidden()
    page.get_by_role("button", name="Re-send verification", exact=True).click()
    page.get_by_text("Confirmation email sent to sam@new.example.org").wait_for()
    assert [m.to for m in mail.outbox] == [["sam@new.example.org"]]
    assert errors + signed_in_errors == []
