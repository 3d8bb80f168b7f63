"""Who is asking: a signed-in member, or a guest who came in through a table link."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse

from scorekeeper import selectors
from scorekeeper.access import Actor, TableGuest
from scorekeeper.errors import NotFound
from scorekeeper.models import Game, TableLink
from scorekeeper.names import tidy

SESSION_KEY = "table_links"  # {game id (str): {"token": ..., "name": ...}}
#: this browser as a guest at the table, kept across the names it gives (TableGuest.device)
DEVICE_KEY = "table_device"

#: A signed cookie that knows this browser across sign-outs (the session does not): its
#: random id (a table guest's device, as the session has it) and the members who opened
#: game pages on it. Someone who recorded a deal here as a member, signed out and came back
#: through the table link is known again, whatever name they give.
BROWSER_COOKIE = "table_browser"
BROWSER_SALT = "scorekeeper.pages.table-browser"
BROWSER_MEMBERS = 8  # the latest kept
BROWSER_AGE = 365 * 24 * 3600


@dataclass(frozen=True)
class Browser:
    device: str  # "" until the browser needs one
    members: tuple[int, ...]


def browser_of(request: HttpRequest) -> Browser:
    """What the browser's cookie says (else its session's device, as kept before it)."""
    raw = str(request.get_signed_cookie(BROWSER_COOKIE, default="", salt=BROWSER_SALT))
    device, _, members = raw.partition(":")
    ids = tuple(int(m) for m in members.split(",") if m.isdigit())
    return Browser(device or str(request.session.get(DEVICE_KEY, "")), ids)


def keep_browser(request: HttpRequest, response: HttpResponse) -> None:
    """Give the browser an id if it has none, and add the signed-in member to it: the
    cookie is set only when it changes."""
    browser = browser_of(request)
    device = browser.device or secrets.token_hex(16)
    members = browser.members
    user_id = request.user.pk if request.user.is_authenticated else None
    if user_id is not None and user_id not in members:
        members = (*members, user_id)[-BROWSER_MEMBERS:]
    if BROWSER_COOKIE in request.COOKIES and Browser(device, members) == browser:
        return
    response.set_signed_cookie(
        BROWSER_COOKIE,
        f"{device}:{','.join(map(str, members))}",
        salt=BROWSER_SALT,
        max_age=BROWSER_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


def remember_table_link(request: HttpRequest, game_id: int, token: str, name: str) -> None:
    links = dict(request.session.get(SESSION_KEY, {}))
    links[str(game_id)] = {"token": token, "name": tidy(name)[:60]}
    request.session[SESSION_KEY] = links
    # the device until the browser's cookie has one (keep_browser takes it from here)
    request.session.setdefault(DEVICE_KEY, secrets.token_hex(16))


def table_token(request: HttpRequest, game_id: int) -> str:
    """The table link token this browser holds for the game ("" if none)."""
    entry = request.session.get(SESSION_KEY, {}).get(str(game_id)) or {}
    return str(entry.get("token", ""))


def _table_guest(request: HttpRequest, game_id: int) -> TableGuest | None:
    """The guest this browser is for the game, if its table link is still good."""
    entry = request.session.get(SESSION_KEY, {}).get(str(game_id))
    if not entry:
        return None
    browser = browser_of(request)
    guest = selectors.table_guest(
        entry["token"], name=entry.get("name", ""), device=browser.device, members=browser.members
    )
    return guest if guest is not None and guest.game_id == game_id else None


def game_and_actor(request: HttpRequest, game_id: int) -> tuple[Game, Actor]:
    """The game, and who is looking at it; 404 for anyone with no business there.

    Members of the game's club see it; so does a browser holding the game's
    (unrevoked) table link, which then acts as a table guest.
    """
    actors: list[Actor] = [request.user]
    guest = _table_guest(request, game_id)
    if guest is not None:
        actors.append(guest)
    for actor in actors:
        try:
            return selectors.game_for_page(actor, game_id), actor
        except NotFound:
            continue
    raise Http404("no such game")


def held_table_link(request: HttpRequest, game_id: int) -> tuple[str, TableLink | None] | None:
    """The table link this browser came to the game with: its token, and its row while
    there is one (revoked: the round closed, the link replaced; another game's: the table
    started again); None if it came with none. The page then says why instead of "not
    found"."""
    token = table_token(request, game_id)
    if not token:
        return None
    return token, selectors.table_link_of_token(token)
