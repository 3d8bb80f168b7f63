"""The parts of the game page that follow from the game's state alone, rendered once per
state of the game and kept in the cache: the scoresheet, the chart, the next deal's entry
form, what the page carries for entering deals offline (the rules of the deals ahead and
their forms), the header and the result.

A game page is then the game's row (with its players), one read of the cache and a small
frame around these parts (who is looking, their permissions, the messages, the CSRF
token); each process also keeps the section and the page it rendered around them for each
kind of viewer (``game_views``), with the same marks.

The cached parts are kept under one key per game, with the version they were rendered
for: the game's revision and last change (every deal, correction, undo, bid, end, lock
and message changes them), its type, options and status, the names of its seats' players
(a renamed or merged player), the language and this release's code and templates. A
different version is rendered again and replaces them: nothing waits for a timer, and
nothing is shown from an older state. Nothing of the person looking is in them: the CSRF
token and the form's idempotency key are put in when the page is served. When the cache
cannot be reached the parts are rendered for the request alone.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache as once
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.html import json_script
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

import rules_engine
from rules_engine import RuleError, Scoresheet
from scorekeeper import selectors
from scorekeeper.models import Game, GameStatus

from .game_forms import DealEntry
from .game_sheet import (
    Head,
    Preview,
    chart,
    deal_header_tail,
    deal_header_with,
    game_end_text,
    preview_of,
    scoresheet,
)
from .games import entry_for, page_for
from .offline_views import offline_context

logger = logging.getLogger(__name__)

ENTRY_TEMPLATE = "pages/game/_entry.html"
#: Kept for an idle game this long (a new state of the game replaces its parts at once).
TIMEOUT = 60 * 60
#: How many games' parts each process keeps besides the cache (about 60 KB each).
RECENT_GAMES = 100
#: What the cached forms carry in place of the CSRF token and of the idempotency key, put
#: in when the page is served. The whole attribute is replaced: no name or text a person
#: typed can read the same (their quotes are escaped).
CSRF_MARK = 'name="csrfmiddlewaretoken" value="csrf-token-of-the-request"'
KEY_MARK = 'name="idempotency_key" value="idempotency-key-of-the-page"'
WAITING = "Scores show here as you tap."
#: The value of ``{% csrf_token %}`` in what is rendered with the marks.
CSRF_TOKEN_MARK = CSRF_MARK.rsplit('"', 2)[1]
#: The token in the page's htmx headers (``base.html``), rendered with the marks.
CSRF_HEADER_MARK = f'"X-CSRFToken": "{CSRF_TOKEN_MARK}"'


def names_of(payload: Mapping[str, Any]) -> list[str]:
    return [seat["name"] for seat in payload["seats"]]


def entry_of(
    game: Game,
    payload: Mapping[str, Any],
    context: Mapping[str, Any],
    values: Mapping[str, str] | None,
) -> DealEntry:
    return entry_for(
        game.game_type,
        players=names_of(payload),
        context=context,
        options=payload["options"],
        values=values,
    )


def next_entry(game: Game, payload: Mapping[str, Any]) -> DealEntry | None:
    """The form for the next deal; prediction whist's bids come back from their draft."""
    nxt = payload["next_deal"]
    if nxt is None:
        return None
    values: dict[str, str] = {}
    entry_class = page_for(game.game_type).entry
    if entry_class.keeps_draft:
        values = entry_class.values_from_draft(selectors.deal_draft(game))
    return entry_of(game, payload, nxt, values)


def preview_for(game: Game, entry: DealEntry, payload: Mapping[str, Any]) -> Preview:
    """What the deal being entered would score, or what is still to tap."""
    nxt = payload["next_deal"]
    if nxt is None or nxt["number"] != entry.number:
        return Preview(error=f"Deal {entry.number} is already recorded. Reload the page to see it.")
    if not entry.complete:
        if not entry.touched:
            return Preview(message=WAITING)
        return Preview(message=next(iter(entry.missing.values()), ""))
    try:
        scored = selectors.sheet_of(game).preview(entry.record)
    except RuleError as error:
        return Preview(error=error.message)
    return preview_of(entry, scored)


def without_repeated_error(entry: DealEntry, preview: Preview) -> Preview:
    """A rejection, or what is still to tap once saving asked for it, is shown beside its
    field: the preview does not say it a second time."""
    shown = {message.casefold() for message in entry.errors.values()}
    if preview.error and preview.error.casefold() in shown:
        return Preview(message="The scores show here once the entry above is put right.")
    if preview.message and preview.message.casefold() in shown:
        return Preview(message="The scores show here once the entry above is complete.")
    return preview


def entry_context(
    game: Game, entry: DealEntry, preview: Preview | None, payload: Mapping[str, Any]
) -> dict[str, Any]:
    """The entry form's template context (its preview worked out if not given)."""
    if preview is None:
        preview = preview_for(game, entry, payload) if entry.touched else Preview(message=WAITING)
    return {
        "game": game,
        "entry": entry,
        "sections": entry.sections(),
        "preview": without_repeated_error(entry, preview),
    }


@dataclass
class GameParts:
    """The game page's parts for one state of the game (HTML as plain strings)."""

    game_name: str
    header: str
    end_text: str
    finished: bool
    winners: list[str]
    #: The players with their totals, the leaders (or winners) marked.
    heads: list[Head]
    deal_count: int
    #: The next deal's number (None: the game takes no more deals).
    next_number: int | None
    sheet: str
    chart: str
    #: The next deal's entry form (with the marks), when the game takes deals.
    entry: str = ""
    #: The data for entering deals offline and the forms of the deals after the next one.
    offline: str = ""
    #: The next deal's header past its number ("Bob deals · 5 cards"): a table whose round
    #: ends the game early heads it with its own last deal.
    header_tail: str = ""

    def header_within(self, last: int) -> str:
        """The next deal's header when deal ``last`` is the table's last ("" past it)."""
        if self.next_number is None or self.next_number > last:
            return ""
        return deal_header_with(self.next_number, last, self.header_tail)

    #: The game section as rendered for the kinds of viewer this process served (with the
    #: marks), by what they see differently (see ``game_views``); never in the cache.
    sections: dict[tuple[Any, ...], str] = field(default_factory=dict, compare=False)

    @property
    def sheet_html(self) -> SafeString:
        return mark_safe(self.sheet)  # noqa: S308  (rendered by the templates, escaped)

    @property
    def chart_html(self) -> SafeString:
        return mark_safe(self.chart)  # noqa: S308

    @property
    def marked_entry_html(self) -> SafeString:
        """The next deal's entry form, then the offline data and the forms of the deals
        after it, with the marks (see :meth:`filled`)."""
        return mark_safe(self.entry + self.offline)  # noqa: S308

    @staticmethod
    def filled(html: str, csrf_token: str, key: str) -> SafeString:
        """``html`` rendered with the marks, with this request's CSRF token and idempotency
        key in their place."""
        html = html.replace(CSRF_MARK, f'name="csrfmiddlewaretoken" value="{csrf_token}"')
        html = html.replace(CSRF_HEADER_MARK, f'"X-CSRFToken": "{csrf_token}"')
        html = html.replace(KEY_MARK, f'name="idempotency_key" value="{key}"')
        return mark_safe(html)  # noqa: S308  (the token and key are letters, digits, dashes)

    def offline_html(self, csrf_token: str) -> SafeString:
        """The offline data and the forms of the deals after the next one, with this
        request's CSRF token (beside an entry rendered for the request)."""
        token = f'name="csrfmiddlewaretoken" value="{csrf_token}"'
        return mark_safe(self.offline.replace(CSRF_MARK, token))  # noqa: S308


def _render(game: Game) -> GameParts:
    payload, sheet = selectors.game_view(game)
    names = names_of(payload)
    nxt = payload["next_deal"]
    scheduled = payload["scheduled_deals"]
    shown = scoresheet(payload)
    context = {"game": game, "sheet": shown, "chart": chart(payload)}
    tail = header = ""
    if nxt is not None:
        tail = deal_header_tail(game.game_type, nxt, names, payload["options"], payload["totals"])
        header = deal_header_with(nxt["number"], scheduled, tail)
    parts = GameParts(
        game_name=rules_engine.GAMES[game.game_type].name,
        header=header,
        # how the game ends, while it is played (once ended, the page says how it did)
        end_text=game_end_text(game.game_type, payload["options"], scheduled)
        if game.status == GameStatus.IN_PROGRESS
        else "",
        finished=bool(payload["finished"]),
        winners=[names[seat] for seat in payload["winners"]],
        heads=shown.heads,
        deal_count=len(payload["deals"]),
        next_number=nxt["number"] if nxt is not None else None,
        sheet=render_to_string("pages/game/_sheet.html", context),
        chart=render_to_string("pages/game/_chart.html", context),
        header_tail=tail,
    )
    if nxt is not None and game.status != GameStatus.ABANDONED and game.locked_at is None:
        parts.entry, parts.offline = _entry_parts(game, payload, sheet)
    return parts


def _entry_parts(game: Game, payload: Mapping[str, Any], sheet: Scoresheet) -> tuple[str, str]:
    """The next deal's form, and the offline data with the forms of the deals after it."""
    marks = {"csrf_token": CSRF_TOKEN_MARK}
    entry = next_entry(game, payload)
    assert entry is not None  # the game has a next deal
    form = render_to_string(
        ENTRY_TEMPLATE,
        {
            **entry_context(game, entry, None, payload),
            **marks,
            "idempotency_key": KEY_MARK.rsplit('"', 2)[1],
        },
    )
    offline = offline_context(
        game, payload, names_of(payload), sheet=sheet, page_context={"game": game, **marks}
    )
    upcoming = "".join(
        f'<template class="upcoming">{html}</template>' for html in offline["upcoming"]
    )
    return form, json_script(offline["offline"], "offline-data") + upcoming


@once
def _release() -> str:
    """This release's code and templates of the game page, as a digest: parts rendered by
    another release are not shown."""
    root = Path(settings.BASE_DIR)
    digest = hashlib.blake2b(digest_size=8)
    for folder, pattern in (
        ("templates/pages/game", "*.html"),
        ("scorekeeper", "*.py"),  # the pages, the selectors, the URLs
        ("rules_engine", "*.py"),
    ):
        for path in sorted((root / folder).rglob(pattern)):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _version(game: Game, players: list[tuple[int, str]]) -> str:
    """Everything the parts are rendered from that is not read with them."""
    state = (
        game.pk,
        game.revision,
        game.updated_at.isoformat() if game.updated_at else "",
        game.status,
        game.deal_count,
        game.game_type,
        game.options,
        game.first_dealer,
        game.ended_by_hand,
        game.locked_at.isoformat() if game.locked_at else "",
        players,
        _release(),
    )
    return hashlib.blake2b(repr(state).encode(), digest_size=16).hexdigest()


class _Recent:
    """The parts of the games this process served last, by key, with their version:
    checked against the version read from the database like the shared cache's, so a
    page served again by the same process needs no round trip to the cache."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[str, tuple[str, GameParts]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str, version: str) -> GameParts | None:
        with self.lock:
            kept = self.items.get(key)
            if kept is None or kept[0] != version:
                return None
            self.items.move_to_end(key)
            return kept[1]

    def put(self, key: str, version: str, parts: GameParts) -> None:
        with self.lock:
            self.items[key] = (version, parts)
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


_recent = _Recent(RECENT_GAMES)


def game_parts(game: Game) -> GameParts:
    """The game's parts as its state now is: from this process's recent ones, from the
    cache, or rendered (and kept in both)."""
    key = f"game-page:{get_language()}:{game.pk}"
    version = _version(game, selectors.seat_players(game))
    parts = _recent.get(key, version)
    if parts is not None:
        return parts
    try:
        kept = cache.get(key)
    except Exception:  # the cache is away: render for this request
        logger.warning("game page parts not read: the cache cannot be reached", exc_info=True)
        kept = None
    if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == version:
        parts = kept[1]
    else:
        parts = _render(game)
        try:
            cache.set(key, (version, parts), TIMEOUT)
        except Exception:
            logger.warning("game page parts not kept: the cache cannot be reached", exc_info=True)
    assert parts is not None
    _recent.put(key, version, parts)
    return parts
