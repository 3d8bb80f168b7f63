"""Browser tests: Playwright (sync API) driving Debian's Chromium at phone size (390×844)
against pytest-django's ``live_server``.

Every test here is skipped, saying why, when Chromium is not installed at
``/usr/bin/chromium`` (CI installs it); nothing else skips them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connections
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from scorekeeper import services
from scorekeeper.models import Club, Game, Player, Role
from scripts.screenshots import CHROMIUM_ARGS, VIEWPORT  # the same phone as the screenshots
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, member

from .helpers import game_url

# Playwright's sync API runs an event loop in the test's thread; Django refuses ORM calls
# from a thread with a running loop unless told that this is fine (it is: they are plain
# synchronous calls, one at a time).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
PASSWORD = "a-long-test-password"
SKIP_REASON = (
    f"browser tests skipped: Chromium is not installed at {CHROMIUM} "
    "(apt-get install chromium; CI installs it)"
)


def pytest_report_header(config: pytest.Config) -> list[str]:
    if os.path.exists(CHROMIUM):
        return [f"browser tests: Chromium at {CHROMIUM}"]
    return [SKIP_REASON]


@pytest.fixture(autouse=True)
def _needs_chromium() -> None:
    if not os.path.exists(CHROMIUM):
        print(SKIP_REASON)
        pytest.skip(SKIP_REASON)


@pytest.fixture(autouse=True)
def _close_connections(chromium: Any) -> Iterator[None]:
    """While Playwright's loop runs, Django keeps this thread's database connections apart
    (as for async code), where its own teardown does not see them: close them after each
    test, or they outlive the test database (PostgreSQL: "being accessed by other users")."""
    yield
    connections.close_all()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Chromium per test module (Playwright's loop stops with it, so tests
    elsewhere run as usual); each phone gets its own context."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(SKIP_REASON)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def site(live_server: LiveServer, settings: Settings, transactional_db: None) -> LiveServer:
    """The live server, with static files it can serve."""
    # The live server serves static files from the finders: unhashed names.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    return live_server


@pytest.fixture
def new_page(chromium: Any) -> Iterator[Callable[..., Any]]:
    """Fresh phone-sized pages, each in its own context (own cookies: nobody signed in);
    ``new_page(javascript=False)`` for a browser with JavaScript turned off."""
    contexts: list[Any] = []
    blocked: list[str] = []  # what the Content-Security-Policy stopped, on any page

    def watch(page: Any) -> None:
        def on_console(message: Any) -> None:
            if "Content Security Policy" in message.text:
                blocked.append(f"{page.url}: {message.text}")

        page.on("console", on_console)

    def make(javascript: bool = True) -> Any:
        context = chromium.new_context(
            viewport=VIEWPORT,
            device_scale_factor=1,
            is_mobile=True,
            java_script_enabled=javascript,
        )
        context.set_default_timeout(10_000)
        context.on("page", watch)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
    assert blocked == [], "the Content-Security-Policy blocked part of a page"


@pytest.fixture
def phone(site: LiveServer, new_page: Callable[..., Any]) -> Callable[..., Any]:
    """``phone(user)``: a page signed in as ``user`` through the sign-in form
    (``phone(user, javascript=False)``: with JavaScript turned off)."""

    def signed_in(user: User, javascript: bool = True) -> Any:
        user.set_password(PASSWORD)
        user.save()
        page = new_page(javascript)
        page.goto(f"{site.url}/accounts/login/")
        page.get_by_label("Username").fill(user.get_username())
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_load_state()
        assert "/accounts/login/" not in page.url, "signing in failed"
        return page

    return signed_in


@pytest.fixture
def table() -> tuple[Club, User, User, Game]:
    """A widow whist game of Ann, Bob and Cy at the Kings Arms, and two scorers' phones'
    users: ``scorer``, who started it, and ``bobs-phone``, Bob's own account."""
    club = ClubFactory(name="Kings Arms", slug="kings")
    SeasonFactory(club=club)
    scorer = member(club, Role.SCORER, username="scorer")
    other = member(club, Role.SCORER, username="bobs-phone")
    players = [PlayerFactory(club=club, name=name) for name in ("Ann", "Bob", "Cy")]
    Player.objects.filter(pk=players[1].pk).update(user=other)
    game = services.game_start(actor=scorer, club=club, game_type="widow_whist", players=players)
    return club, scorer, other, game


@pytest.fixture
def scorer_page(
    site: LiveServer, phone: Callable[..., Any], table: tuple[Club, User, User, Game]
) -> Any:
    """The scorer's phone on the ``table`` game's page."""
    _club, scorer, _other, game = table
    page = phone(scorer)
    page.goto(game_url(site, game))
    return page


@pytest.fixture
def two_phones(
    site: LiveServer, phone: Callable[..., Any], table: tuple[Club, User, User, Game]
) -> tuple[Any, Any]:
    """The scorer's phone and Bob's (``bobs-phone``) on the ``table`` game's page."""
    _club, scorer, other, game = table
    phone_a, phone_b = phone(scorer), phone(other)
    phone_a.goto(game_url(site, game))
    phone_b.goto(game_url(site, game))
    return phone_a, phone_b
