"""What every page view does on the way in: find the club or the thing asked for among
what the caller may see (404 otherwise, so nothing is revealed), and the page that says a
signed-in member may not do this (403)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from rules_engine import GAMES, Game
from scorekeeper import selectors
from scorekeeper.errors import NotFound
from scorekeeper.models import Club


def member_club(request: HttpRequest, slug: str) -> Club:
    """The club, if the caller is a member; 404 otherwise (clubs are not revealed)."""
    try:
        return selectors.club_visible_to(request.user, slug=slug)
    except NotFound:
        raise Http404("no such club") from None


def found(read: Callable[[], Any]) -> Any:
    """What ``read`` (a selector) finds; 404 when it finds nothing the caller may see."""
    try:
        return read()
    except NotFound:
        raise Http404("not found") from None


T = TypeVar("T")


def readable_or_sign_in(request: HttpRequest, read: Callable[[], T]) -> T | HttpResponse:
    """What ``read`` (a selector) finds; when it finds nothing the caller may see, the
    sign-in page if the caller is signed out (a member reading on a phone that signed out),
    else 404 (a private club or tournament is not revealed)."""
    try:
        return read()
    except NotFound:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise Http404("not found") from None


def game_rules(game_type: str) -> Game:
    """The engine's game of that key; 404 for any other."""
    rules = GAMES.get(game_type)
    if rules is None:
        raise Http404("no such game")
    return rules


def forbidden(request: HttpRequest, message: str, back: str) -> HttpResponse:
    """403: what the caller's role does not allow, and the way back."""
    return render(
        request, "pages/club/forbidden.html", {"message": message, "back": back}, status=403
    )
