"""Being built: every view answers 404 until its page exists."""

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse


def _missing(request: HttpRequest, **kwargs: Any) -> HttpResponse:
    raise Http404("this page is being built")


game_page = _missing
deal_save = _missing
deal_preview = _missing
bids_save = _missing
deal_undo = _missing
game_finish = _missing
deal_page = _missing
