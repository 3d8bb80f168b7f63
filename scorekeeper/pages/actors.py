"""Who is asking: a signed-in member, or a guest who came in through a table link."""

from __future__ import annotations

import secrets

from django.http import Http404, HttpRequest

from scorekeeper import selectors
from scorekeeper.access import Actor, TableGuest
from scorekeeper.errors import NotFound
from scorekeeper.models import Game, TableLink
from scorekeeper.names import tidy

SESSION_KEY = "table_links"  # {game id (str): {"token": ..., "name": ...}}
#: this browser as a guest at the table, kept across the names it gives (TableGuest.device)
DEVICE_KEY = "table_device"


def remember_table_link(request: HttpRequest, game_id: int, token: str, name: str) -> None:
    links = dict(request.session.get(SESSION_KEY, {}))
    links[str(game_id)] = {"token": token, "name": tidy(name)[:60]}
    request.session[SESSION_KEY] = links
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
    guest = selectors.table_guest(
        entry["token"], name=entry.get("name", ""), device=request.session.get(DEVICE_KEY, "")
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
