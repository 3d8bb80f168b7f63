"""What keeps every phone at a table current, cheaply: the game's version, polled.

A page polls ``/g/<id>/version/`` about once a second with the ETag it has; the answer
is a 304 with no body while nothing changed (one indexed query, no rendering), else
the new ETag, and the page fetches its game section again. After a save whose answer
was lost, the page asks by the save's idempotency key whether the deal was recorded.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET

from scorekeeper import selectors

from .actors import game_and_actor, table_token

LIVE_CACHE_CONTROL = "no-cache, private"


def etag_matches(request: HttpRequest, etag: str) -> bool:
    """Whether the request's If-None-Match names ``etag`` (weak comparison)."""
    header = request.headers.get("If-None-Match", "")
    if not header:
        return False
    if header.strip() == "*":
        return True
    bare = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == bare for tag in header.split(","))


def not_modified_or(request: HttpRequest, etag: str, body: dict[str, object]) -> HttpResponse:
    """A 304 when the caller has ``etag`` already, else ``body`` as JSON; never cached
    without asking again."""
    response: HttpResponse
    response = HttpResponse(status=304) if etag_matches(request, etag) else JsonResponse(body)
    response["ETag"] = etag
    response["Cache-Control"] = LIVE_CACHE_CONTROL
    response["Vary"] = "Cookie"
    return response


@require_GET
def game_version(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's version: 304 while unchanged; 404 for anyone who may not see the game
    (a table link's guest after the link is revoked, too)."""
    user = request.user
    user_id = user.pk if isinstance(user, User) and user.is_authenticated else None
    etag = selectors.game_version(game_id, user_id=user_id, token=table_token(request, game_id))
    if etag is None:
        raise Http404("no such game")
    return not_modified_or(request, etag, {"version": etag})


@require_GET
def deal_by_key(request: HttpRequest, game_id: int, key: str) -> HttpResponse:
    """The deal a save with this idempotency key recorded (200), or 404 if it recorded none:
    asked after a save whose answer never came back."""
    game, _actor = game_and_actor(request, game_id)
    deal = selectors.deal_by_idempotency_key(game, key)
    if deal is None:
        raise Http404("no deal was recorded with this key")
    response = JsonResponse({"deal": deal})
    response["Cache-Control"] = "no-store, private"
    return response
