"""The game page: whose deal it is, entering it, the scoresheet; correcting and undoing deals.

Every write goes through :mod:`scorekeeper.services`. Without JavaScript each form is
a plain POST answered by a redirect (or by the page again, with the errors beside the
fields); with htmx the game section is swapped in place, and the preview and the
prediction-whist bids are posted as they are tapped.

One module for one page: each view is a different request of the same page (read, preview,
record, bids, correct, undo, finish) and they share how the page's context, its game section
and its messages are made. What differs between the games is in :mod:`.games`, one module
each.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, retarget
from django_htmx.middleware import HtmxDetails

import rules_engine
from scorekeeper import abandon_rules, access, revoked_links, selectors, services
from scorekeeper.access import Actor, TableGuest, actor_name
from scorekeeper.errors import (
    Conflict,
    IdempotencyMismatch,
    InvalidInput,
    ServiceError,
    StaleVersion,
)
from scorekeeper.models import DealRevision, Game, GameStatus, RevisionAction

from .actors import game_and_actor, held_table_link, keep_browser
from .club_views import link_gone, link_gone_page
from .game_forms import DealEntry
from .game_parts import (
    CSRF_TOKEN_MARK,
    ENTRY_TEMPLATE,
    GameParts,
    entry_context,
    entry_of,
    game_parts,
    names_of,
    preview_for,
)
from .game_sheet import Preview, record_summary, signed
from .game_sheet import number as total_text
from .games import page_for
from .panels import panels_for
from .sharing import share_token


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's middleware."""

    htmx: HtmxDetails


GAME_TEMPLATE = "pages/game/game.html"
SECTION_TEMPLATE = "pages/game/_game.html"
MAX_KEY = 100


def _posted_int(data: QueryDict, name: str) -> int | None:
    value = data.get(name, "")
    return int(value) if value.isascii() and value.isdigit() else None


def _idempotency_key(data: QueryDict | None = None) -> str:
    """The key a deal is saved under: the one posted (kept after a rejection), or a new one."""
    key = (data.get("idempotency_key", "") if data is not None else "").strip()[:MAX_KEY]
    return key or str(uuid.uuid4())


def _deal_context(payload: Mapping[str, Any], number: int | None) -> dict[str, Any] | None:
    """Deal ``number``'s context (past, or the next one), as the entry form needs it."""
    if number is None:
        return None
    if 1 <= number <= len(payload["deals"]):
        return dict(payload["deals"][number - 1])
    nxt = payload["next_deal"]
    if nxt is not None and nxt["number"] == number:
        return dict(nxt)
    return None


COLLISION_SKIP = {"csrfmiddlewaretoken", "number", "idempotency_key", "version", "reason", "cycle"}


def _collision(
    game: Game, actor: Actor, payload: Mapping[str, Any], number: int, values: QueryDict
) -> dict[str, Any] | None:
    """Deal ``number`` as another phone recorded it, beside this phone's entry for it:
    the figures by player name, who recorded it, and the entry kept to correct it with."""
    if not 1 <= number <= len(payload["deals"]):
        return None
    deal = payload["deals"][number - 1]
    names = names_of(payload)
    mine = entry_of(game, payload, deal, values)
    who = actor_name(actor)
    return {
        "number": number,
        "who": selectors.deal_recorder(game, number),
        "summary": record_summary(game.game_type, deal["record"], names),
        "scores": [
            (name, signed(score), total_text(total))
            for name, score, total in zip(names, deal["scores"], deal["totals"], strict=True)
        ],
        "mine": record_summary(game.game_type, mine.record, names)
        if mine.record is not None
        else [],
        "same": mine.record is not None and mine.record == deal["record"],
        "version": deal["version"],
        "hidden": [
            (name, value)
            for name, items in values.lists()
            if name not in COLLISION_SKIP
            for value in items
            if value != ""
        ],
        "reason": f"Entered on two phones at once; {who}'s entry kept",
    }


def _game_context(
    request: HtmxHttpRequest,
    game: Game,
    actor: Actor,
    *,
    entry: DealEntry | None = None,
    preview: Preview | None = None,
    key: str | None = None,
    notices: list[tuple[str, str]] | None = None,
    collision_with: tuple[int, QueryDict] | None = None,
) -> dict[str, Any]:
    """The page's frame around the parts that follow from the game's state alone
    (:mod:`.game_parts`: kept in the cache); an entry given (as posted, with its errors)
    is rendered for this request."""
    parts = game_parts(game)
    can_score = _can_change(actor, game)
    shows_entry = can_score and parts.next_number is not None
    # the scorers' entry and everyone's header stop at a table's last deal
    limit = selectors.deal_limit_of(game) if parts.next_number is not None else None
    ended = limit is not None and parts.next_number is not None and parts.next_number > limit.last
    if ended:
        shows_entry = False  # the table has played its last deal (e.g. time was called)
    payload: dict[str, Any] | None = None
    if (entry is not None and shows_entry) or (collision_with is not None and can_score):
        payload = selectors.game_payload(game)
    entry_html = ""
    if shows_entry and entry is None:
        entry_html = parts.marked_entry_html  # the token and key are put in below
    elif shows_entry and entry is not None and payload is not None:
        entry_html = render_to_string(
            ENTRY_TEMPLATE,
            {
                **entry_context(game, entry, preview, payload),
                "idempotency_key": key or _idempotency_key(),
            },
            request=request,
        ) + parts.offline_html(get_token(request))
    share_url = ""
    if parts.finished:
        share_url = request.build_absolute_uri(reverse("game-shared", args=[share_token(game)]))
    # Undo is for the deal just entered; a finished game is changed by a correction.
    can_undo = can_score and parts.deal_count > 0 and game.status == GameStatus.IN_PROGRESS
    context: dict[str, Any] = {
        "game": game,
        "parts": parts,
        "game_name": parts.game_name,
        # A table whose round ends the game early: its own last deal, and why.
        "header": parts.header if limit is None else parts.header_within(limit.last),
        "end_text": parts.end_text if limit is None else limit.reason,
        "entry_html": entry_html,
        "offline": bool(entry_html and parts.offline),  # its scripts
        "can_score": can_score,
        "is_user": isinstance(actor, User) and actor.is_authenticated,
        "guest_name": actor_name(actor) if isinstance(actor, TableGuest) else "",
        "winners": parts.winners,
        "share_url": share_url,
        "last_deal": parts.deal_count if can_undo else None,
        "can_finish": can_score
        and game.status == GameStatus.IN_PROGRESS
        and parts.deal_count > 0
        and not ended  # a table's last deal played: confirming its result ends it
        and abandon_rules.finish_refusal(game) is None,
        # not a game the app it is played in ends its own way (a tournament's table)
        "can_abandon": can_score
        and access.can_abandon(actor, game)
        and abandon_rules.refusal(game) is None,
        "notices": notices or [],
        "panels": panels_for(game, actor),
        "deal_limit": limit if ended else None,
        # the deals entered offline stop there too (offline.js)
        "last_deal_allowed": limit if limit is not None and not ended else None,
        "collision": _collision(game, actor, payload, *collision_with)
        if collision_with is not None and payload is not None
        else None,
        "version_url": reverse("game-version", args=[game.pk]),
        "etag": selectors.seen_game_version(game),
    }
    key = key or _idempotency_key()
    if (
        entry is None
        and not notices
        and context["collision"] is None
        and not context["panels"]
        and limit is None
    ):
        kept = _Kept(request, game, parts, context, key)
        context["kept"], context["section_html"] = kept, kept.section()
    elif entry is None:
        context["entry_html"] = parts.filled(entry_html, get_token(request), key)
    return context


#: At most this many kinds of viewer of one state of a game have their page kept.
KEPT_VARIANTS = 16


class _Kept:
    """The game section, and the page around it, as most requests ask for them (no
    message, no entry sent back, no panel): rendered once per state of the game and kind of
    viewer in this process (kept with the game's parts), with the request's CSRF token and
    a fresh idempotency key put in."""

    def __init__(
        self,
        request: HtmxHttpRequest,
        game: Game,
        parts: GameParts,
        context: dict[str, Any],
        key: str,
    ) -> None:
        self.request, self.parts, self.context, self.key = request, parts, context, key
        self.variant = (
            context["can_score"],
            context["can_abandon"],
            context["can_finish"],
            context["is_user"],
            context["guest_name"],
            context["share_url"],
            context["etag"],
            game.club.slug,
            game.club.name,
            game.locked_reason,
        )

    def _kept(self, variant: tuple[Any, ...], render: Callable[[], str]) -> str:
        html = self.parts.sections.get(variant)
        if html is None:
            html = render()
            if len(self.parts.sections) < KEPT_VARIANTS:
                self.parts.sections[variant] = html
        return html

    def _marked_section(self) -> str:
        return self._kept(
            ("section", *self.variant),
            lambda: render_to_string(
                SECTION_TEMPLATE, {**self.context, "csrf_token": CSRF_TOKEN_MARK}
            ),
        )

    def section(self) -> SafeString:
        return self.parts.filled(self._marked_section(), get_token(self.request), self.key)

    def page(self) -> SafeString:
        """The whole page (for a request with no message waiting)."""
        user = self.request.user
        html = self._kept(
            ("page", user.is_authenticated, *self.variant),
            lambda: render_to_string(
                GAME_TEMPLATE,
                {
                    **self.context,
                    "section_html": mark_safe(self._marked_section()),  # noqa: S308
                    "csrf_token": CSRF_TOKEN_MARK,
                    "user": user,
                    "messages": (),
                },
            ),
        )
        return self.parts.filled(html, get_token(self.request), self.key)


def _can_change(actor: Actor, game: Game) -> bool:
    """Whether the page offers this person entries, corrections and undo: never for an
    abandoned or locked game (the services refuse them too)."""
    return (
        access.can_score(actor, game)
        and game.status != GameStatus.ABANDONED
        and game.locked_at is None
    )


def _render_game(
    request: HtmxHttpRequest, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    kept: _Kept | None = context.get("kept")
    if request.htmx and not request.htmx.boosted:
        # htmx swaps only 2xx answers: a rejection is shown with 200.
        if kept is not None:
            return HttpResponse(context["section_html"])
        return render(request, SECTION_TEMPLATE, context)
    if kept is not None and not get_messages(request):
        response = HttpResponse(kept.page(), status=status)
    else:
        response = render(request, GAME_TEMPLATE, context, status=status)
    keep_browser(request, response)  # who uses this phone, known after signing out
    return response


def game_page_refused(
    request: HttpRequest, game: Game, actor: Actor, message: str, status: int
) -> HttpResponse:
    """The game page again with ``message`` at the top, answered ``status``: an app on top
    refusing what it offers on the page (e.g. confirming a tournament table's result)."""
    htmx_request = cast(HtmxHttpRequest, request)  # django-htmx's middleware is installed
    game.refresh_from_db()
    context = _game_context(htmx_request, game, actor, notices=[("error", message)])
    return _render_game(htmx_request, context, status)


def _after_write(
    request: HtmxHttpRequest, game: Game, actor: Actor, *, notice: str = "", error: str = ""
) -> HttpResponse:
    """The page after a write: redirected to (plain POST), or its section swapped in (htmx)."""
    game.refresh_from_db()
    if request.htmx:
        notices = [("error", error)] if error else [("success", notice)] if notice else []
        response = render(
            request, SECTION_TEMPLATE, _game_context(request, game, actor, notices=notices)
        )
        response = retarget(response, "#game")
        response["HX-Reswap"] = "outerHTML show:#game:top"
        return response
    if error:
        messages.error(request, capfirst(error))
    elif notice:
        messages.success(request, notice)
    return redirect("game", game_id=game.pk)


@require_GET
def game_page(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    try:
        game, actor = game_and_actor(request, game_id)
    except Http404:
        held = held_table_link(request, game_id)
        if held is None:
            # a member on the page of a table's game discarded before it was played
            discarded = selectors.discarded_game_link(request.user, game_id)
            if discarded is None:
                raise
            token, link = discarded
            if link is not None and link.game_id != game_id:
                return redirect("game", game_id=link.game_id)  # the table started again
            explanation = revoked_links.explain(request, token, link)
            if explanation is None:
                raise  # nothing to say but "not found" (e.g. its tournament deleted since)
            return link_gone_page(request, explanation)
        token, link = held
        if link is not None and link.revoked_at is None:
            if link.game_id == game_id:
                raise
            # the table's game was started again (a round published again): the new one
            return redirect("table-enter", token=token)
        # a phone at a table whose link was revoked (its round closed) or whose game is
        # gone (its round taken back): why, not "not found"
        return link_gone(request, token, link)
    return _render_game(request, _game_context(request, game, actor))


#: How a save ended, in the ``Deal-Outcome`` header of its answer, for a phone sending the
#: deals it kept while offline: recorded (now or before, by this key); refused by the rules
#: (the form comes back with the message beside the field); another phone recorded the deal
#: first (what it recorded is shown beside this entry); or not recorded for another reason
#: (said in the answer's message).
SAVED, REFUSED, COLLISION, NOT_SAVED = "saved", "refused", "collision", "not-saved"


@require_POST
def deal_save(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Record the next deal, once: the form's idempotency key makes a repeat harmless.
    The answer says how it ended in its ``Deal-Outcome`` header."""
    response, outcome = _deal_save(request, game_id)
    response["Deal-Outcome"] = outcome
    if outcome in (SAVED, COLLISION):
        _forget_preview(request, game_id)  # its address opens the game from now on
    return response


def _deal_save(request: HtmxHttpRequest, game_id: int) -> tuple[HttpResponse, str]:
    game, actor = game_and_actor(request, game_id)
    payload = selectors.game_payload(game)
    number = _posted_int(request.POST, "number")
    key = _idempotency_key(request.POST)
    context = _deal_context(payload, number)
    entry = entry_of(game, payload, context, request.POST) if context is not None else None
    is_next = payload["next_deal"] is not None and number == payload["next_deal"]["number"]
    if entry is not None and is_next and not entry.complete:
        entry.require_all()
        return _render_game(
            request, _game_context(request, game, actor, entry=entry, key=key), status=422
        ), REFUSED
    record = entry.record if entry is not None and entry.record is not None else {}
    try:
        recorded = services.deal_record(
            actor=actor, game=game, number=number or 0, record=record, idempotency_key=key
        )
    except InvalidInput as error:
        if entry is None or not is_next:
            return _after_write(request, game, actor, error=error.message), NOT_SAVED
        entry.apply_error(error.field, error.message)
        return _render_game(
            request, _game_context(request, game, actor, entry=entry, key=key), status=422
        ), REFUSED
    except IdempotencyMismatch:
        # This form was saved already (its answer got lost), then changed and sent again.
        return _after_write(
            request,
            game,
            actor,
            error=f"Deal {number} was already saved from this form; the page now shows it. "
            "To change it, tap its number in the scoresheet.",
        ), NOT_SAVED
    except Conflict as error:
        there = error.details.get("deal")
        if there is None or number is None or there.get("number") != number:
            return _after_write(request, game, actor, error=error.message), NOT_SAVED
        # Another phone recorded this deal first: show what it recorded beside this entry.
        return _collision_page(request, game, actor, number), COLLISION
    except ServiceError as error:
        # Not allowed, locked, ...
        return _after_write(request, game, actor, error=error.message), NOT_SAVED
    number = recorded.payload.get("number", number)
    return _after_write(request, game, actor, notice=f"Deal {number} saved."), SAVED


def _collision_page(
    request: HtmxHttpRequest, game: Game, actor: Actor, number: int
) -> HttpResponse:
    game.refresh_from_db()
    context = _game_context(request, game, actor, collision_with=(number, request.POST))
    if request.htmx:
        response = render(request, SECTION_TEMPLATE, context)
        response = retarget(response, "#game")
        response["HX-Reswap"] = "outerHTML show:#game:top"
        return response
    return render(request, GAME_TEMPLATE, context, status=409)


@require_POST
def deal_collision(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Nothing is written: the game section again, and if the deal this phone was entering
    has been recorded meanwhile, what was recorded beside the entry (posted as tapped)."""
    game, actor = game_and_actor(request, game_id)
    number = _posted_int(request.POST, "number")
    key = request.POST.get("idempotency_key", "").strip()[:MAX_KEY]
    if key and selectors.deal_by_idempotency_key(game, key) is not None:
        # This very form's save was recorded (its answer was lost, or is still on its way).
        notices = [("success", f"Deal {number} saved.")]
        return _render_game(request, _game_context(request, game, actor, notices=notices))
    if number is None or number > game.deal_count:
        return _render_game(request, _game_context(request, game, actor))
    return _collision_page(request, game, actor, number)


#: The session's entries a plain "Check the scores" (or a card's tap) posted, by game: the
#: form's fields (at most this many, each cut to this length: a deal's form has about 40),
#: shown by the preview's address until the deal is saved; the latest few games' only.
PREVIEW_SESSION_KEY = "deal_preview"
PREVIEW_FIELDS, PREVIEW_VALUE, PREVIEW_GAMES = 100, 100, 4


def _kept_entries(request: HttpRequest) -> dict[str, list[list[str]]]:
    """The kept entries by game id; anything else a session holds there (a session kept
    from before entries were kept by game) is left out."""
    kept = request.session.get(PREVIEW_SESSION_KEY)
    if not isinstance(kept, dict):
        return {}
    return {
        game: fields
        for game, fields in kept.items()
        if game.isdigit()
        and isinstance(fields, list)
        and all(isinstance(pair, list) and len(pair) == 2 for pair in fields)
    }


def _keep_preview(request: HttpRequest, game_id: int, data: QueryDict) -> None:
    fields = [
        [name, value[:PREVIEW_VALUE]]
        for name, values in data.lists()
        if name != "csrfmiddlewaretoken"
        for value in values
    ]
    kept = _kept_entries(request)
    kept.pop(str(game_id), None)
    kept[str(game_id)] = fields[:PREVIEW_FIELDS]
    request.session[PREVIEW_SESSION_KEY] = dict(list(kept.items())[-PREVIEW_GAMES:])


def _forget_preview(request: HttpRequest, game_id: int) -> None:
    kept = _kept_entries(request)
    if kept.pop(str(game_id), None) is not None:
        request.session[PREVIEW_SESSION_KEY] = kept


@require_http_methods(["GET", "POST"])
def deal_preview(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The scores of the deal as entered so far; a tap on a Third Hand card counts it.
    With htmx, the preview part; without, the entry is kept in the session and the page
    answered to a GET of this address (so that a reload or the Back button after saving
    does not post the form again: after a save it opens the game). The form's buttons put
    where to open the page in their address (#preview-2, the cards' section)."""
    if request.method == "GET":
        return _kept_preview(request, game_id)
    game, actor = game_and_actor(request, game_id)
    if not request.htmx:
        _keep_preview(request, game.pk, request.POST)
        return redirect("deal-preview", game_id=game.pk)
    payload = selectors.game_payload(game)
    number = _posted_int(request.POST, "number")
    context = _deal_context(payload, number) or payload["next_deal"]
    if context is None or not access.can_score(actor, game):
        return HttpResponse("")
    entry = _previewed(game, payload, context, request.POST)
    return render(
        request,
        "pages/game/_preview_response.html",
        {
            "entry": entry,
            "sections": entry.sections(),
            "preview": preview_for(game, entry, payload),
            "game": game,
        },
    )


def _previewed(
    game: Game, payload: Mapping[str, Any], context: Mapping[str, Any], values: QueryDict
) -> DealEntry:
    """The entry as posted, with the card tapped (``cycle``) counted."""
    entry = entry_of(game, payload, context, values)
    card = values.get("cycle", "")
    if card:
        entry.cycle(card)
    return entry


def _kept_preview(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The preview's address without JavaScript: the game's page with the entry kept in the
    session for the next deal. Otherwise (nothing kept, the deal saved or recorded since, the
    game no longer open to this phone) the game's page, which says what became of it."""
    fields = _kept_entries(request).get(str(game_id))
    try:
        game, actor = game_and_actor(request, game_id)
    except Http404:
        if fields is None:
            raise  # nothing to tell apart a game this phone never saw from none
        _forget_preview(request, game_id)
        return redirect("game", game_id=game_id)  # e.g. a revoked table link: it says so
    if fields is None:
        return redirect("game", game_id=game.pk)
    values = QueryDict(mutable=True)
    for name, value in fields:
        values.appendlist(name, value)
    payload = selectors.game_payload(game)
    number = _posted_int(values, "number")
    nxt = payload["next_deal"]
    if nxt is None or number != nxt["number"] or not access.can_score(actor, game):
        _forget_preview(request, game_id)
        if number is not None and number <= len(payload["deals"]):
            messages.info(
                request,
                f"Deal {number} was recorded meanwhile, on another phone: the scoresheet shows it.",
            )
        return redirect("game", game_id=game.pk)
    entry = _previewed(game, payload, nxt, values)
    preview = preview_for(game, entry, payload)
    return _render_game(
        request,
        _game_context(
            request, game, actor, entry=entry, preview=preview, key=_idempotency_key(values)
        ),
    )


def _corrector(revisions: Sequence[DealRevision], history: Sequence[Mapping[str, Any]]) -> str:
    """Who made the deal's version shown, when it is a correction by another person than
    the one who recorded it ("" otherwise); "on another phone" when both go by the same
    name (two guests who gave none)."""
    if not revisions or revisions[-1].action != RevisionAction.CORRECT:
        return ""
    recorded = max(
        (i for i, revision in enumerate(revisions) if revision.action == RevisionAction.RECORD),
        default=None,
    )
    who = str(history[-1]["who"])
    if recorded is None:
        return who
    if selectors.same_author(revisions[recorded], revisions[-1]):
        return ""
    return f"{who} on another phone" if who == history[recorded]["who"] else who


@require_POST
def bids_save(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Keep what is known of the next deal as it is tapped, before play (prediction
    whist's bids)."""
    game, actor = game_and_actor(request, game_id)
    if not page_for(game.game_type).entry.keeps_draft:
        raise Http404("this game keeps nothing before a deal is played")
    payload = selectors.game_payload(game)
    number = _posted_int(request.POST, "number")
    nxt = payload["next_deal"]
    error = ""
    entry: DealEntry | None = None
    if nxt is None or number is None or number != nxt["number"]:
        error = f"Deal {number} is not the next deal any more. Reload the page."
    else:
        entry = entry_of(game, payload, nxt, request.POST)
        try:
            services.deal_draft_save(actor=actor, game=game, number=number, data=entry.draft())
        except ServiceError as failure:
            error = failure.message
    if not request.htmx:
        if error:
            messages.error(request, capfirst(error))
        else:
            messages.success(request, "Bids kept.")
        return redirect("game", game_id=game.pk)
    if entry is None:
        return _after_write(request, game, actor, error=error)
    kept = entry.draft_summary()
    return render(
        request,
        "pages/game/_bids_response.html",
        {
            "entry": entry,
            "sections": entry.sections(),
            "preview": preview_for(game, entry, payload),
            "error": error,
            "kept": kept,
            "game": game,
        },
    )


@require_POST
def deal_undo(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Take back the last deal; the form names it, so a stale page cannot undo another."""
    game, actor = game_and_actor(request, game_id)
    try:
        undone = services.deal_undo(
            actor=actor,
            game=game,
            reason=request.POST.get("reason", ""),
            expected_number=_posted_int(request.POST, "number"),
        )
    except ServiceError as error:
        return _after_write(request, game, actor, error=error.message)
    return _after_write(request, game, actor, notice=f"Deal {undone} undone.")


@require_http_methods(["GET", "POST"])
def game_abandon(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Asks first (a page of its own), then abandons the game (the service says who may)."""
    game, actor = game_and_actor(request, game_id)
    if request.method == "GET":
        refused = _abandon_refused(actor, game)
        if refused:  # e.g. a bookmarked or shared link: the game, saying why not
            messages.info(request, refused)
            return redirect("game", game_id=game.pk)
        context = {
            "game": game,
            "game_name": rules_engine.GAMES[game.game_type].name,
            "players": [s.player.name for s in game.seats.select_related("player")],
            # a game an app ends its own way (a tournament's table): why, not the question
            "ruled_out": abandon_rules.refusal(game),
        }
        return render(request, "pages/game/abandon.html", context)
    try:
        services.game_abandon(actor=actor, game=game)
    except ServiceError as error:
        return _after_write(request, game, actor, error=error.message)
    return _after_write(
        request, game, actor, notice="Game abandoned: it keeps its deals and counts nowhere."
    )


def _abandon_refused(actor: Actor, game: Game) -> str:
    """Why the abandon page does not ask this person ("" when it does), as the service
    would refuse."""
    refused = services.abandon_refused(actor=actor, game=game)
    return "" if refused is None else f"{capfirst(refused.message)}."


@require_POST
def game_finish(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    game, actor = game_and_actor(request, game_id)
    try:
        services.game_finish(actor=actor, game=game)
    except ServiceError as error:
        return _after_write(request, game, actor, error=error.message)
    return _after_write(request, game, actor, notice="Game finished.")


def _correct(
    request: HtmxHttpRequest, game: Game, actor: Actor, number: int, entry: DealEntry, reason: str
) -> str | None:
    """Save a correction: None once saved; else the reason's error ("" if the error is
    elsewhere: beside a field of the entry, or above it)."""
    reason_error = "" if reason else "Say why the deal is corrected."
    if not entry.complete:
        entry.require_all()
    if not entry.complete or reason_error:
        return reason_error
    # The form carries the version it shows; one without it is taken as out of date (no
    # deal is at version 0), so another phone's correction is never overwritten unseen.
    version = _posted_int(request.POST, "version") or 0
    try:
        services.deal_correct(
            actor=actor,
            game=game,
            number=number,
            record=entry.record or {},
            reason=reason,
            expected_version=version,
        )
    except InvalidInput as error:
        if error.field == "reason":
            return error.message
        if error.deal in (None, number):
            entry.apply_error(error.field, error.message)
        else:  # the correction would make a later deal impossible
            entry.errors[""] = error.message
        return ""
    except StaleVersion as error:
        entry.errors[""] = (
            f"{error.message}. What is recorded now is shown above; save again to replace it."
        )
        return ""
    except ServiceError as error:
        entry.errors[""] = error.message
        return ""
    return None


@require_http_methods(["GET", "POST"])
def deal_page(request: HtmxHttpRequest, game_id: int, number: int) -> HttpResponse:
    """A past deal: what was entered, its history, and a form to correct it (with a reason)."""
    game, actor = game_and_actor(request, game_id)
    payload = selectors.game_payload(game)
    if not 1 <= number <= len(payload["deals"]):
        raise Http404("no such deal")
    deal = payload["deals"][number - 1]
    names = names_of(payload)
    can_score = _can_change(actor, game)
    version = deal["version"]
    reason = ""
    reason_error = ""
    status = 200
    if request.method == "POST":
        entry = entry_of(game, payload, deal, request.POST)
        reason = request.POST.get("reason", "").strip()
        card = request.POST.get("cycle", "")
        if card and entry.cycle(card):
            pass  # a tap on a captured card without JavaScript: nothing saved yet
        else:
            outcome = _correct(request, game, actor, number, entry, reason)
            if outcome is None:
                messages.success(request, f"Deal {number} corrected.")
                if request.htmx:  # the page, as a link would open it (not in the form's place)
                    return HttpResponseClientRedirect(reverse("game", args=[game.pk]))
                return redirect("game", game_id=game.pk)
            reason_error = outcome
            status = 422
    else:
        values = page_for(game.game_type).entry.values_from_record(deal["record"], len(names))
        entry = entry_of(game, payload, deal, values)
    revisions = selectors.deal_history(game, number)
    history = [
        {
            "version": revision.version,
            "action": revision.get_action_display(),
            "who": who,
            "when": revision.changed_at,
            "reason": revision.reason,
            "summary": record_summary(game.game_type, revision.record, names),
            "scores": ", ".join(
                f"{name} {signed(score)}"
                for name, score in zip(names, revision.scores, strict=False)
            ),
        }
        for revision, who in zip(
            revisions, selectors.revision_authors(game, revisions), strict=True
        )
    ]
    context = {
        "game": game,
        "game_name": rules_engine.GAMES[game.game_type].name,
        "deal": deal,
        "recorder": selectors.deal_recorder(game, number),
        # who made the version shown, when it is a correction by someone else than the
        # recorder (the history says every one)
        "corrector": _corrector(revisions, history),
        "number": number,
        "names": names,
        "dealer": names[deal["dealer"]],
        "summary": record_summary(game.game_type, deal["record"], names),
        "scores": [
            (name, signed(score), total_text(total))
            for name, score, total in zip(names, deal["scores"], deal["totals"], strict=True)
        ],
        "history": history,
        "entry": entry,
        "sections": entry.sections(),
        "can_score": can_score,
        "version": version,
        "reason": reason,
        "reason_error": reason_error,
        "is_last": number == len(payload["deals"]) and not game.ended_by_hand,
        # A correction refused because the game was locked (or closed) meanwhile.
        "refusal": "" if can_score or request.method != "POST" else entry.form_error,
    }
    return render(request, "pages/game/deal.html", context, status=status)
