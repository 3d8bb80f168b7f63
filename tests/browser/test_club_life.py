"""Club life in a phone-sized Chromium, as new people meet it: a secretary signs up (the
verification email read from the test outbox), starts a club and makes an invitation link;
a second phone opens the link, signs up and joins, is made director and starts a game.
Then a forgotten password, and the limit on failed sign-ins."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import Club, Game, Membership, Role

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("tasks_in_process"),
]


def last_link(to: str, pattern: str) -> str:
    """The link of ``pattern`` in the latest email sent to ``to``."""
    sent = [message for message in mail.outbox if to in message.to]
    assert sent, f"no email to {to}"
    found = re.search(pattern, sent[-1].body)
    assert found is not None, sent[-1].body
    return found.group(0)


def sign_up(page: Any, email: str, username: str, password: str) -> None:
    page.get_by_label("Email").fill(email)
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password:", exact=True).fill(password)
    page.get_by_label("Password (again)").fill(password)
    page.get_by_role("button", name="Sign up", exact=True).click()
    page.get_by_role("heading", name="Verify your email address", exact=True).wait_for()


def verify(page: Any, email: str) -> None:
    page.goto(last_link(email, r"https?://\S+/accounts/confirm-email/\S+"))
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_load_state()


def fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_secretary_starts_a_club_and_a_member_joins_by_link(
    site: LiveServer, new_page: Any
) -> None:
    secretary = new_page()
    secretary.goto(site.url)
    secretary.get_by_role("link", name="Sign up").first.click()
    fits(secretary)
    sign_up(secretary, "sam@example.org", "sam", "a long pass phrase")
    verify(secretary, "sam@example.org")
    secretary.goto(site.url)
    secretary.get_by_role("link", name="Start a club").click()
    secretary.get_by_label("Club name").fill("The Kings Arms")
    secretary.get_by_label("Address").fill("kings")
    secretary.get_by_role("button", name="Start the club").click()
    secretary.get_by_role("heading", name="Members of The Kings Arms").wait_for()
    fits(secretary)
    secretary.get_by_role("button", name="Make an invitation link").click()
    secretary.get_by_text("Invitation made.").wait_for()
    link = secretary.get_by_label("Invitation link").input_value()
    assert re.fullmatch(rf"{re.escape(site.url)}/join/[\w-]+/", link)
    assert secretary.locator("figure.qr svg").count() == 1
    fits(secretary)

    # A second phone: the link, sign up, verify, and back to the invitation to join.
    newcomer = new_page()
    newcomer.goto(link)
    newcomer.get_by_text("You are invited to join The Kings Arms").wait_for()
    newcomer.get_by_role("link", name="Sign up and join").click()
    sign_up(newcomer, "nina@example.org", "nina", "another pass phrase")
    verify(newcomer, "nina@example.org")
    newcomer.wait_for_url(link)
    newcomer.get_by_role("button", name="Join The Kings Arms").click()
    newcomer.get_by_text("Welcome to The Kings Arms.").wait_for()
    club = Club.objects.get(slug="kings")
    assert Membership.objects.get(club=club, user__username="nina").role == Role.MEMBER

    # The secretary makes her director.
    secretary.reload()
    secretary.get_by_label("Role of nina").select_option("director")
    secretary.locator("li", has_text="nina").get_by_role("button", name="Change role").click()
    secretary.get_by_text("nina is now director.").wait_for()
    assert Membership.objects.get(club=club, user__username="nina").role == Role.DIRECTOR

    # She adds the players and starts a game.
    newcomer.goto(f"{site.url}/c/kings/roster/")
    for name in ("Ann", "Bob", "Cy"):
        newcomer.get_by_label("Name", exact=True).fill(name)
        newcomer.get_by_role("button", name="Add", exact=True).click()
        newcomer.get_by_text(f"{name} is on the roster.").wait_for()
    newcomer.goto(f"{site.url}/c/kings/")
    newcomer.get_by_role("link", name="New game").click()
    newcomer.get_by_role("link", name=re.compile("^Widow whist")).click()
    for seat, name in enumerate(("Ann", "Bob", "Cy"), start=1):
        newcomer.get_by_label(re.compile(rf"^Seat {seat}")).first.select_option(label=name)
    newcomer.get_by_role("button", name="Start the game").click()
    newcomer.wait_for_url(re.compile(rf"^{re.escape(site.url)}/g/\d+/$"))
    game = Game.objects.get()
    assert game.club == club and game.created_by.username == "nina"  # type: ignore[union-attr]


def reset_password(page: Any, email: str, password: str) -> None:
    """From the sign-in page: "Forgot your password?", the link emailed, a new password."""
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill(email)
    page.get_by_role("button", name="Reset my password", exact=True).click()
    page.get_by_role("heading", name="Password reset", exact=True).wait_for()
    page.goto(last_link(email, r"https?://\S+/accounts/password/reset/key/\S+"))
    page.get_by_label("New password:", exact=True).fill(password)
    page.get_by_label("New password (again):", exact=True).fill(password)
    page.get_by_role("button", name="Change password", exact=True).click()
    page.get_by_text("Your password is now changed.").wait_for()


def test_a_forgotten_password_and_the_sign_in_limit(site: LiveServer, new_page: Any) -> None:
    page = new_page()
    page.goto(f"{site.url}/accounts/signup/")
    sign_up(page, "cy@example.org", "cy", "the first pass phrase")
    verify(page, "cy@example.org")

    reset = new_page()
    reset.goto(f"{site.url}/accounts/login/")
    reset_password(reset, "cy@example.org", "a second pass phrase")

    # Ten wrong passwords: then even the right one is refused for a while.
    guesser = new_page()
    guesser.goto(f"{site.url}/accounts/login/")
    for attempt in range(10):
        guesser.get_by_label("Username or email").fill("cy")
        guesser.get_by_label("Password").fill(f"guess {attempt}")
        guesser.get_by_role("button", name="Sign in", exact=True).click()
        guesser.get_by_text("not correct").wait_for()
    guesser.get_by_label("Username or email").fill("cy")
    guesser.get_by_label("Password").fill("a second pass phrase")
    guesser.get_by_role("button", name="Sign in", exact=True).click()
    guesser.get_by_text("Too many failed sign-ins for this account").wait_for()
    assert "/accounts/login/" in guesser.url

    # A password reset lifts the lock at once, for the username as for the email.
    reset_password(guesser, "cy@example.org", "a third pass phrase")
    for login, phone in (("cy", guesser), ("cy@example.org", new_page())):
        phone.goto(f"{site.url}/accounts/login/")
        phone.get_by_label("Username or email").fill(login)
        phone.get_by_label("Password").fill("a third pass phrase")
        phone.get_by_role("button", name="Sign in", exact=True).click()
        phone.wait_for_url(lambda url: "/accounts/" not in url)
