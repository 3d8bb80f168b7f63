"""The game page as an installable web app that keeps working with no connection.

- ``/sw.js``: the service worker. Served from the site's root so that its scope covers every
  game page; it keeps a copy of each game page opened and of the files the page needs, and
  answers from them when the network does not (``static/js/service-worker.js``).
- ``/g/<id>/manifest.webmanifest``: the web app manifest of a game (its start URL is the
  game page; it names nothing of the game, and needs no sign-in: browsers fetch manifests
  without cookies).
- :func:`offline_context`: what the game page carries for entering deals offline (the
  rules of the next deals as data, from :mod:`rules_engine.constraints`, and the entry
  forms of the deals after the next one), read by ``static/js/offline.js``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

from rules_engine import Scoresheet
from rules_engine.constraints import deal_constraints
from scorekeeper.models import Game

from .game_forms import DealEntry
from .game_sheet import Preview, deal_header
from .games import entry_for

#: How many deals a phone can enter in a row with no connection (the next one included):
#: each brings its entry form, which the first visit's weight (under 100 KB) pays for.
DEALS_AHEAD = 5
THEME_COLOUR = "#1f5f3f"
#: What a game page needs to open with no connection (besides the page itself).
OFFLINE_ASSETS = (
    "css/site.css",
    "css/game.css",
    "django_htmx/htmx-2.min.js",
    "js/game.js",
    "js/live.js",
    "js/queue.js",
    "js/offline.js",
    "icons/icon-192.png",
)


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker: the list of files to keep (by their hashed names) and its code.
    A new list (a new release) is a new worker, which clears the old copies."""
    assets = [static(path) for path in OFFLINE_ASSETS]
    version = hashlib.sha256("\n".join(assets).encode()).hexdigest()[:12]
    body = (
        "/* Scorekeeper's service worker: see static/js/service-worker.js. */\n"
        f"self.SCOREKEEPER = {json.dumps({'version': version, 'assets': assets})};\n"
        f"importScripts({json.dumps(static('js/queue.js'))}, "
        f"{json.dumps(static('js/service-worker.js'))});\n"
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request: HttpRequest, game_id: int) -> JsonResponse:
    page = reverse("game", args=[game_id])
    response = JsonResponse(
        {
            "name": "Scorekeeper",
            "short_name": "Scorekeeper",
            "description": "Scores of whist-family card games, deal by deal, at the table.",
            "id": page,
            "start_url": page,
            "scope": "/",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": THEME_COLOUR,
            "icons": [
                {
                    "src": static(f"icons/icon-{size}.png"),
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": "any",
                }
                for size in (192, 512)
            ],
        },
        content_type="application/manifest+json",
    )
    response["Cache-Control"] = "public, max-age=3600"
    return response


def offline_context(
    game: Game,
    payload: Mapping[str, Any],
    names: Sequence[str],
    *,
    sheet: Scoresheet,
    page_context: Mapping[str, Any],
) -> dict[str, Any]:
    """The game page's data for offline entry (``offline``, put in the page with
    ``json_script``) and the entry forms of the deals after the next one (``upcoming``).

    Each deal ahead has its engine context, ``checks`` and ``score``
    (:func:`rules_engine.constraints.deal_constraints`), its ``header``, and what must be
    tapped before it is kept: ``missing``, the entry's messages for an empty form by input
    name, and ``instead``, inputs that other inputs can stand in for. ``sheet`` is the
    game's scoresheet as the payload was read from it; ``page_context`` is the forms'
    template context besides their entry (the game, the CSRF token they carry)."""
    deals = deal_constraints(sheet, DEALS_AHEAD)
    scheduled = payload["scheduled_deals"]
    upcoming: list[str] = []
    for deal in deals:
        context = {key: deal[key] for key in deal if key not in ("checks", "score")}
        entry = entry_for(
            game.game_type, players=names, context=context, options=payload["options"]
        )
        deal["header"] = deal_header(game.game_type, context, names, payload["options"], scheduled)
        deal["missing"] = dict(entry.missing)
        deal["instead"] = entry.alternatives()
        if deal["number"] != payload["next_deal"]["number"]:
            upcoming.append(_entry_form(entry, page_context))
    data = {
        "game": game.pk,
        "page": reverse("game", args=[game.pk]),
        "save": reverse("deal-save", args=[game.pk]),
        "by_key": reverse("deal-by-key", args=[game.pk, "KEY"]),
        "names": list(names),
        "totals": list(payload["totals"]),
        "deals": deals,
        # the game's own last deal when it has a set number of deals (else null)
        "scheduled": scheduled,
    }
    return {"offline": data, "upcoming": upcoming}


def _entry_form(entry: DealEntry, page: Mapping[str, Any]) -> str:
    return render_to_string(
        "pages/game/_entry.html",
        {
            **page,
            "entry": entry,
            "sections": entry.sections(),
            "preview": Preview(message="Scores show here as you tap."),
            "idempotency_key": "",
        },
    )
