"""What the browser tests share besides fixtures: a game page's address (and a phone
opened on it), a deal form's pills, a connection that loses a save's answer, and what a
page says in the console."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from pytest_django.live_server_helper import LiveServer

from scorekeeper.models import Game

LIVE_TIMEOUT = 5_000  # ms: the page polls about once a second; generous for a busy machine

Phone = Callable[..., Any]  # the ``phone`` fixture: ``phone(user)`` is a signed-in page


def game_url(site: LiveServer, game: Game, rest: str = "") -> str:
    return f"{site.url}/g/{game.pk}/{rest}"


def open_game(phone: Phone, site: LiveServer, user: User, game: Game, rest: str = "") -> Any:
    """A page signed in as ``user`` on the game's page (or the page ``rest`` below it)."""
    page = phone(user)
    page.goto(game_url(site, game, rest))
    return page


def pill(page: Any, number: int, group: str, label: str) -> Any:
    """The pill ``label`` of input group ``group`` (e.g. "tricks-1") in deal ``number``'s form."""
    return page.locator(f"#d{number}-{group}").get_by_text(label, exact=True)


def nobody_bids(page: Any, number: int, players: int) -> None:
    """Tap "No bid" for every player of deal ``number``, the last seat first."""
    for seat in reversed(range(players)):
        pill(page, number, f"bids-{seat}", "No bid").click()


def checked(page: Any, number: int, group: str) -> str | None:
    found = page.locator(f"#d{number}-{group} input:checked")
    return found.get_attribute("value") if found.count() else None


def lose_the_reply(route: Any) -> None:
    """A Playwright route handler: the server gets the request (and records the deal), and
    its answer never comes back to the page."""
    route.fetch()
    route.abort()


def console_problems(page: Any) -> list[str]:
    """What the page says in the console as errors or warnings, and its script errors,
    from now on."""
    problems: list[str] = []
    page.on(
        "console",
        lambda message: (
            problems.append(f"{page.url}: {message.text}")
            if message.type in ("error", "warning")
            else None
        ),
    )
    page.on("pageerror", lambda error: problems.append(f"{page.url}: {error}"))
    return problems
