"""Being built: every view answers 404 until its page exists."""

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse


def _missing(request: HttpRequest, **kwargs: Any) -> HttpResponse:
    raise Http404("this page is being built")


club_home = _missing
game_new = _missing
game_setup = _missing
player_page = _missing
table_link_page = _missing
table_link_enter = _missing
shared_game = _missing
