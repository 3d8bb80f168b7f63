"""Deals: recording one (idempotent), correcting it (versioned), its history."""

from __future__ import annotations

import re

from django.db import transaction
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from scorekeeper import selectors, services

from .. import serializers as s
from ..errors import BadHeader, PreconditionRequired
from ..permissions import (
    SCORES,
    actor_of,
    recorded_deal,
)
from .base import (
    ETAG,
    IDEMPOTENCY_KEY,
    IDEMPOTENCY_KEY_MAX,
    IF_MATCH,
    LOCATION,
    ApiView,
    etag_header,
    operation,
    responds,
)

# --- Deals ------------------------------------------------------------------------------------


def idempotency_key(request: Request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    key = key.strip()
    if not key or len(key) > IDEMPOTENCY_KEY_MAX:
        raise BadHeader(
            f"an Idempotency-Key has 1 to {IDEMPOTENCY_KEY_MAX} characters",
            header="Idempotency-Key",
        )
    return key


_IF_MATCH = re.compile(r'\s*(?:"([0-9]{1,9})"|([0-9]{1,9}))\s*')


def if_match_version(request: Request) -> int | None:
    """The version an edit is based on, from If-Match (3 or "3"); None for *."""
    value = request.headers.get("If-Match")
    if value is None:
        raise PreconditionRequired()
    if value.strip() == "*":
        return None
    match = _IF_MATCH.fullmatch(value)
    if match is None:
        raise BadHeader(
            f'If-Match must be the deal\'s version as its ETag gives it, e.g. "3"; got {value!r}',
            header="If-Match",
        )
    return int(match.group(1) or match.group(2))


class DealListView(ApiView):
    tag = "deals"
    action_rules = {"POST": SCORES}

    @operation("games_deals_list", responds(200, s.DealOutput(many=True), 401, 404))
    def get(self, request: Request, game_id: int) -> Response:
        """The game's deals, in order"""
        game = self.game(game_id)
        deals = game.deals.select_related("entered_by").order_by("number")
        return Response(s.DealOutput([selectors.deal_payload(d) for d in deals], many=True).data)

    @operation(
        "games_deals_create",
        responds(201, s.DealOutput, 400, 401, 403, 404, 409, 422),
        parameters=[IDEMPOTENCY_KEY, ETAG, LOCATION],
        request=s.DealCreateInput,
    )
    def post(self, request: Request, game_id: int) -> Response:
        """Record the next deal

        The body is the deal record (RULES.md) with its keys at the top level, plus its
        "number": e.g. {"number": 3, "widow": 1, "tricks": [3, 5, 5]}. A number already
        recorded, or not the next one, is refused with 409 (the deal already there in
        details.deal); a deal the rules refuse with 400 naming the field; a finished or
        abandoned game refuses deals with 409."""
        key = idempotency_key(request)
        # One transaction: the game is read (and locked) once, for who may see it and for
        # the write, with what its next deal needs. Who may see it first: a caller who may
        # not learns nothing from the body's errors (404 as for a game that does not
        # exist); the key's header says nothing of the game.
        with transaction.atomic():
            game = self.game_for_next_deal(game_id, idempotency_key=key)
            data = self.parse(s.DealCreateInput, request.data)
            result = services.deal_record(
                actor=actor_of(request), game=game, idempotency_key=key, **data
            )
        body = s.DealOutput(result.payload).data
        headers = {
            **etag_header(result.payload["version"]),
            # the deal's own URL, "<number>/" under this one (as reverse("api:deal-detail")
            # gives it, without the cost of reversing on the write path)
            "Location": request.build_absolute_uri(f"{result.payload['number']}/"),
        }
        return Response(body, status=status.HTTP_201_CREATED, headers=headers)


class DealDetailView(ApiView):
    tag = "deals"
    action_rules = {"PUT": SCORES}

    @operation("games_deals_retrieve", responds(200, s.DealOutput, 401, 404), parameters=[ETAG])
    def get(self, request: Request, game_id: int, number: int) -> Response:
        """One deal; its version is in the ETag header"""
        deal = recorded_deal(self.game(game_id), number)
        return Response(
            s.DealOutput(selectors.deal_payload(deal)).data, headers=etag_header(deal.version)
        )

    @operation(
        "games_deals_correct",
        responds(200, s.DealOutput, 400, 401, 403, 404, 409, 412, 428),
        parameters=[IF_MATCH, ETAG],
        request=s.DealCorrectInput,
    )
    def put(self, request: Request, game_id: int, number: int) -> Response:
        """Correct a deal; every later deal is rescored

        The body is {"record": {...the whole corrected record...}, "reason": "..."}. If-Match
        must carry the deal's current version (its ETag). A correction that would make a
        later deal impossible is refused with 400 naming that deal."""
        game = self.game(game_id)
        recorded_deal(game, number)
        version = if_match_version(request)
        data = self.parse(s.DealCorrectInput, request.data)
        deal = services.deal_correct(
            actor=actor_of(request),
            game=game,
            number=number,
            expected_version=version,
            **data,
        )
        return Response(
            s.DealOutput(selectors.deal_payload(deal)).data, headers=etag_header(deal.version)
        )


class DealHistoryView(ApiView):
    tag = "deals"

    @operation("games_deals_history", responds(200, s.RevisionOutput(many=True), 401, 404))
    def get(self, request: Request, game_id: int, number: int) -> Response:
        """Every version of a deal: recorded, corrected, undone"""
        game = self.game(game_id)
        revisions = selectors.deal_history(game, number) if number <= s.MAX_DEAL_NUMBER else []
        if not revisions:
            raise exceptions.NotFound(f"the game has no deal {number}")
        return Response(s.RevisionOutput(revisions, many=True).data)
