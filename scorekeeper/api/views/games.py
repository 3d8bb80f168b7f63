"""Games: listing, starting, reading, finishing, abandoning, undoing the last deal."""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.utils import (
    extend_schema_view,
)
from rest_framework import exceptions
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response

from scorekeeper import selectors, services

from .. import serializers as s
from ..permissions import (
    ABANDONS,
    SCORES,
    actor_of,
)
from .base import CHANGE_REFUSED, PAGINATION, ApiView, operation, responds

# --- Games ------------------------------------------------------------------------------------


class GamePagination(LimitOffsetPagination):
    """limit (1 to 200, default 50) and offset (0 or more): anything else is refused with
    400 naming the parameter, not quietly replaced by the default."""

    default_limit = 50
    max_limit = 200

    def _whole(self, request: Request, name: str, default: int, least: int) -> int:
        values = request.query_params.getlist(name)
        if not values:
            return default
        value = values[-1]
        if len(values) > 1 or not (value.isascii() and value.isdigit()) or len(value) > 9:
            raise exceptions.ValidationError({name: [f"{name} must be one whole number"]})
        if int(value) < least:
            raise exceptions.ValidationError({name: [f"{name} must be at least {least}"]})
        return int(value)

    def get_limit(self, request: Request) -> int:
        return min(self._whole(request, self.limit_query_param, self.default_limit, 1), 200)

    def get_offset(self, request: Request) -> int:
        return self._whole(request, self.offset_query_param, 0, 0)


class GameListView(ApiView):
    tag = "games"

    @operation(
        "games_list",
        responds(200, s.GamePageOutput, 400, 401),
        parameters=[s.GameListQuery, *PAGINATION],
    )
    def get(self, request: Request) -> Response:
        """Games of the caller's clubs, latest first"""
        query = self.parse(s.GameListQuery, request.query_params)
        games = (
            selectors.games_visible_to(actor_of(request))
            .filter(**query)  # club, season, status, game_type: the model's own fields
            .prefetch_related("results__player")
        )
        paginator = GamePagination()
        page = paginator.paginate_queryset(games, request, view=self) or []
        return paginator.get_paginated_response(s.GameSummaryOutput(page, many=True).data)

    @operation("games_create", responds(201, s.GameOutput, 400, 401), request=s.GameStartInput)
    def post(self, request: Request) -> Response:
        """Start a game (club members)

        The set-up is checked by the rules engine: a bad option is refused naming it
        ("options.limit"), a wrong number of players naming "players"."""
        game = self.write(s.GameStartInput, services.game_start)
        return self.created(self.game_body(game), location=self.url("game-detail", game.pk))


class GameDetailView(ApiView):
    tag = "games"

    @operation(
        "games_retrieve", responds(200, s.GameOutput, 400, 401, 404), parameters=[s.GameDealsQuery]
    )
    def get(self, request: Request, game_id: int) -> Response:
        """A game: seats, deals, totals, finished, winners, next deal

        Deals are listed a page at a time (deals_after, deals_limit); deal_count says how many there
        are and deals_next links the next page."""
        game = self.game(game_id)
        query = self.parse(s.GameDealsQuery, request.query_params)
        return Response(self.game_body(game, **query))


class GameActionView(ApiView):
    """A POST that ends a game one way or another (a service taking the actor and the
    game), answered with the game as it is afterwards."""

    tag = "games"
    action_rules = {"POST": SCORES}
    service: ClassVar[Any]  # services.game_finish, services.game_abandon, ...

    def post(self, request: Request, game_id: int) -> Response:
        game = self.write(s.NoFields, type(self).service, game=self.game(game_id))
        return Response(self.game_body(game))


def _game_action_schema(operation_id: str, summary: str) -> Any:
    return extend_schema_view(
        post=operation(
            operation_id,
            responds(200, s.GameOutput, 400, 401, 403, 404, 409),
            summary=summary,
            request=s.NoFields,
        )
    )


@_game_action_schema("games_finish", "Finish the game by hand: the top totals win")
class GameFinishView(GameActionView):
    service = services.game_finish


@_game_action_schema(
    "games_abandon", "Abandon the game: it keeps its deals but counts in no standings"
)
class GameAbandonView(GameActionView):
    action_rules = {"POST": ABANDONS}
    service = services.game_abandon


class GameUndoView(ApiView):
    tag = "games"
    action_rules = {"POST": SCORES}

    @operation("games_undo", responds(200, s.UndoOutput, *CHANGE_REFUSED), request=s.UndoInput)
    def post(self, request: Request, game_id: int) -> Response:
        """Take back the last deal (its history stays)"""
        game = self.game(game_id)
        undone = self.write(s.UndoInput, services.deal_undo, game=game)
        game.refresh_from_db()
        return Response({"undone": undone, "game": self.game_body(game)})
