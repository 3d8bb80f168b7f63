"""Who is asking: a signed-in member, or a guest who came in through a table link."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from scorekeeper import access, selectors
from scorekeeper.access import Actor, TableGuest
from scorekeeper.models import Game

SESSION_KEY = "table_links"  # {game id (str): {"token": ..., "name": ...}}


def remember_table_link(request: HttpRequest, game_id: int, token: str, name: str) -> None:
    links = dict(request.session.get(SESSION_KEY, {}))
    links[str(game_id)] = {"token": token, "name": name.strip()[:60]}
    request.session[SESSION_KEY] = links


def table_token(request: HttpRequest, game_id: int) -> str:
    """The table link token this browser holds for the game ("" if none)."""
    entry = request.session.get(SESSION_KEY, {}).get(str(game_id)) or {}
    return str(entry.get("token", ""))


def table_guest_for(request: HttpRequest, game: Game) -> TableGuest | None:
    """The guest this browser is for ``game``, if its table link is still good."""
    entry = request.session.get(SESSION_KEY, {}).get(str(game.pk))
    if not entry:
        return None
    guest = selectors.table_guest(entry["token"], name=entry.get("name", ""))
    return guest if guest is not None and guest.game_id == game.pk else None


def game_and_actor(request: HttpRequest, game_id: int) -> tuple[Game, Actor]:
    """The game, and who is looking at it; 404 for anyone with no business there.

    Members of the game's club see it; so does a browser holding the game's
    (unrevoked) table link, which then acts as a table guest.
    """
    game = get_object_or_404(Game.objects.select_related("club", "season"), pk=game_id)
    if access.is_member(request.user, game.club):
        return game, request.user
    guest = table_guest_for(request, game)
    if guest is not None:
        return game, guest
    raise Http404("no such game")
