"""The API's views: parse with an input serializer, call a service or a selector, render
with an output serializer. Who may see what is decided in :mod:`.permissions` (and, for
writes, again by the services); the rules of the games by the services and the engine."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

from django.contrib.auth.models import User
from django.urls import reverse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle
from rest_framework.views import APIView

from scorekeeper import access, selectors, services
from scorekeeper.models import Club, Game

from . import serializers as s
from .errors import BadHeader, ErrorSerializer, PreconditionRequired
from .permissions import (
    MANAGES_ROSTER,
    MANAGES_SEASONS,
    SCORES,
    ActionRule,
    Rule,
    actor_of,
    readable_season,
    recorded_deal,
    visible_club,
    visible_clubs,
    visible_game,
)
from .tokens import token_issue, token_revoke

IDEMPOTENCY_KEY_MAX = 200

# --- OpenAPI helpers --------------------------------------------------------------------------

_ERRORS = {
    400: "Invalid input: the field at fault and the rule broken.",
    401: "Not logged in, or the token is invalid or revoked.",
    403: "Logged in, but the caller's role does not allow this (or CSRF failed).",
    404: "No such object, or it belongs to a club the caller is not a member of.",
    409: "Conflicts with the game's state (number taken or not next, game finished...).",
    412: "If-Match names a version that is no longer current.",
    422: "The Idempotency-Key was used before with another request.",
    428: "If-Match is missing.",
    429: "Too many requests; retry after details.wait seconds.",
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(ErrorSerializer, description=_ERRORS[code]) for code in codes}


def responds(ok: int, body: Any, *codes: int) -> dict[int, Any]:
    return {ok: OpenApiResponse(body), **errors(*codes)}


ETAG = OpenApiParameter(
    "ETag",
    str,
    OpenApiParameter.HEADER,
    response=[200, 201],
    description='The deal\'s version, quoted: "3".',
)
LOCATION = OpenApiParameter(
    "Location",
    str,
    OpenApiParameter.HEADER,
    response=[201],
    description="The address of what was created.",
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description='The version (ETag) of the deal the correction is based on: 3 or "3" '
    "(* for whatever version is current). Missing: 428; not current: 412.",
)
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    description="Clients should send a fresh random key (e.g. a UUID) with each deal and "
    "reuse it when retrying: a repeat with the same key and body returns the first "
    "response (201, same body) and records nothing; the same key with another body is "
    "refused with 422. Without a key there is no replay protection. At most 200 characters.",
)
PAGINATION = [
    OpenApiParameter("limit", int, description="Page size (default 50, at most 200)."),
    OpenApiParameter("offset", int, description="Where the page starts (default 0)."),
]


# --- Base -------------------------------------------------------------------------------------


class ApiView(APIView):
    # JSON in; a logged-in caller unless the view says otherwise; per-method rules.
    # (No docstring: drf-spectacular would show it on every operation.)

    parser_classes = [JSONParser]
    permission_classes = [IsAuthenticated, ActionRule]
    action_rules: ClassVar[dict[str, Rule]] = {}

    def parse(
        self, serializer_class: type[Serializer[Any]], data: Any, **context: Any
    ) -> dict[str, Any]:
        serializer = serializer_class(
            data=data, context={"actor": actor_of(self.request), **context}
        )
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def club(self, club_id: int) -> Club:
        club = visible_club(self.request, club_id)
        self.check_object_permissions(self.request, club)
        return club

    def game(self, game_id: int) -> Game:
        game = visible_game(self.request, game_id)
        self.check_object_permissions(self.request, game)
        return game

    def url(self, name: str, *args: int) -> str:
        return self.request.build_absolute_uri(reverse(f"api:{name}", args=args))


def _etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


# --- Auth -------------------------------------------------------------------------------------


class TokenThrottle(ScopedRateThrottle):
    scope_attr = "throttle_scope"


class TokenView(ApiView):
    # POST: a token for a username and password. DELETE: revoke the caller's.

    throttle_scope = "auth_token"

    def get_permissions(self) -> Sequence[BasePermission]:
        if self.request.method == "POST":
            return [AllowAny()]
        return [IsAuthenticated()]

    def get_throttles(self) -> list[BaseThrottle]:
        if self.request.method == "POST":
            return [TokenThrottle()]
        return []

    @extend_schema(
        operation_id="auth_token_issue",
        summary="Log in: get an API token",
        tags=["auth"],
        request=s.TokenInput,
        responses=responds(200, s.TokenOutput, 400, 429),
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = self.parse(s.TokenInput, request.data)
        token = token_issue(request=request._request, **data)
        return Response(s.TokenOutput({"token": token.key, "username": token.user.username}).data)

    @extend_schema(
        operation_id="auth_token_revoke",
        summary="Log out: revoke the caller's token (every device using it)",
        tags=["auth"],
        request=None,
        responses=responds(204, None, 401),
    )
    def delete(self, request: Request) -> Response:
        assert isinstance(request.user, User)
        token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --- Clubs ------------------------------------------------------------------------------------


class ClubListView(ApiView):
    @extend_schema(
        operation_id="clubs_list",
        summary="The caller's clubs",
        tags=["clubs"],
        responses=responds(200, s.ClubOutput(many=True), 401),
    )
    def get(self, request: Request) -> Response:
        clubs = visible_clubs(actor_of(request)).order_by("name")
        return Response(s.ClubOutput(clubs, many=True).data)

    @extend_schema(
        operation_id="clubs_create",
        summary="Create a club; the caller becomes its admin",
        tags=["clubs"],
        request=s.ClubInput,
        responses=responds(201, s.ClubOutput, 400, 401),
    )
    def post(self, request: Request) -> Response:
        data = self.parse(s.ClubInput, request.data)
        club = services.club_create(actor=actor_of(request), **data)
        created = visible_club(request, club.pk)
        return Response(
            s.ClubOutput(created).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": self.url("club-detail", club.pk)},
        )


class ClubDetailView(ApiView):
    @extend_schema(
        operation_id="clubs_retrieve",
        summary="One of the caller's clubs",
        tags=["clubs"],
        responses=responds(200, s.ClubOutput, 401, 404),
    )
    def get(self, request: Request, club_id: int) -> Response:
        return Response(s.ClubOutput(self.club(club_id)).data)


class ClubPlayersView(ApiView):
    action_rules = {"POST": MANAGES_ROSTER}

    @extend_schema(
        operation_id="clubs_players_list",
        summary="The club's roster (members)",
        tags=["clubs"],
        responses=responds(200, s.PlayerOutput(many=True), 401, 404),
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = self.club(club_id)
        players = selectors.roster(club).select_related("user")
        show_email = access.can_manage_roster(actor_of(request), club)
        return Response(s.PlayerOutput(players, many=True, context={"show_email": show_email}).data)

    @extend_schema(
        operation_id="clubs_players_create",
        summary="Add a player to the roster (admins, directors, scorers)",
        tags=["clubs"],
        request=s.PlayerInput,
        responses=responds(201, s.PlayerOutput, 400, 401, 403, 404),
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = self.club(club_id)
        data = self.parse(s.PlayerInput, request.data)
        player = services.player_create(actor=actor_of(request), club=club, **data)
        return Response(
            s.PlayerOutput(player, context={"show_email": True}).data,
            status=status.HTTP_201_CREATED,
        )


class ClubSeasonsView(ApiView):
    action_rules = {"POST": MANAGES_SEASONS}

    @extend_schema(
        operation_id="clubs_seasons_list",
        summary="The club's seasons, latest first (members)",
        tags=["seasons"],
        responses=responds(200, s.SeasonOutput(many=True), 401, 404),
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = self.club(club_id)
        return Response(s.SeasonOutput(club.seasons.order_by("-starts_on"), many=True).data)

    @extend_schema(
        operation_id="clubs_seasons_create",
        summary="Add a season (admins, directors)",
        tags=["seasons"],
        request=s.SeasonInput,
        responses=responds(201, s.SeasonOutput, 400, 401, 403, 404),
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = self.club(club_id)
        data = self.parse(s.SeasonInput, request.data)
        season = services.season_create(actor=actor_of(request), club=club, **data)
        return Response(s.SeasonOutput(season).data, status=status.HTTP_201_CREATED)


class SeasonStandingsView(ApiView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="seasons_standings",
        summary="A season's standings over its finished games",
        description="Readable without logging in when the club makes its results public; "
        "otherwise by the club's members only (anonymous callers: 401, others: 404).",
        tags=["seasons"],
        parameters=[s.StandingsQuery],
        responses=responds(200, s.StandingsOutput, 400, 401, 404),
    )
    def get(self, request: Request, season_id: int) -> Response:
        season = readable_season(request, season_id)
        query = self.parse(s.StandingsQuery, request.query_params)
        game_type = query.get("game_type")
        rows = selectors.season_standings(season, game_type)
        body = {"season": season, "game_type": game_type, "standings": rows}
        return Response(s.StandingsOutput(body).data)


# --- Games ------------------------------------------------------------------------------------


class GamePagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200


class GameListView(ApiView):
    @extend_schema(
        operation_id="games_list",
        summary="Games of the caller's clubs, latest first",
        tags=["games"],
        parameters=[s.GameListQuery, *PAGINATION],
        responses=responds(200, s.GamePageOutput, 400, 401),
    )
    def get(self, request: Request) -> Response:
        query = self.parse(s.GameListQuery, request.query_params)
        games = (
            selectors.games_visible_to(actor_of(request))
            .filter(**query)  # club, season, status, game_type: the model's own fields
            .prefetch_related("results__player")
        )
        paginator = GamePagination()
        page = paginator.paginate_queryset(games, request, view=self) or []
        return paginator.get_paginated_response(s.GameSummaryOutput(page, many=True).data)

    @extend_schema(
        operation_id="games_create",
        summary="Start a game (club members)",
        description="The set-up is checked by the rules engine: a bad option is refused "
        'naming it ("options.limit"), a wrong number of players naming "players".',
        tags=["games"],
        request=s.GameStartInput,
        responses=responds(201, s.GameOutput, 400, 401),
    )
    def post(self, request: Request) -> Response:
        data = self.parse(s.GameStartInput, request.data)
        game = services.game_start(actor=actor_of(request), **data)
        return Response(
            s.GameOutput(selectors.game_payload(game)).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": self.url("game-detail", game.pk)},
        )


class GameDetailView(ApiView):
    @extend_schema(
        operation_id="games_retrieve",
        summary="A game: seats, deals, totals, finished, winners, next deal",
        tags=["games"],
        responses=responds(200, s.GameOutput, 401, 404),
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game(game_id)
        return Response(s.GameOutput(selectors.game_payload(game)).data)


class GameActionView(ApiView):
    """A POST that ends a game one way or another (a service taking the actor and the
    game), answered with the game as it is afterwards."""

    action_rules = {"POST": SCORES}
    service: ClassVar[Any]  # services.game_finish, services.game_abandon, ...

    def post(self, request: Request, game_id: int) -> Response:
        game = type(self).service(actor=actor_of(request), game=self.game(game_id))
        return Response(s.GameOutput(selectors.game_payload(game)).data)


def _game_action_schema(operation_id: str, summary: str) -> Any:
    return extend_schema_view(
        post=extend_schema(
            operation_id=operation_id,
            summary=summary,
            tags=["games"],
            request=None,
            responses=responds(200, s.GameOutput, 401, 403, 404, 409),
        )
    )


@_game_action_schema("games_finish", "Finish the game by hand: the top totals win")
class GameFinishView(GameActionView):
    service = services.game_finish


@_game_action_schema(
    "games_abandon", "Abandon the game: it keeps its deals but counts in no standings"
)
class GameAbandonView(GameActionView):
    service = services.game_abandon


class GameUndoView(ApiView):
    action_rules = {"POST": SCORES}

    @extend_schema(
        operation_id="games_undo",
        summary="Take back the last deal (its history stays)",
        tags=["games"],
        request=s.UndoInput,
        responses=responds(200, s.UndoOutput, 400, 401, 403, 404, 409),
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = self.game(game_id)
        data = self.parse(s.UndoInput, request.data)
        undone = services.deal_undo(actor=actor_of(request), game=game, **data)
        game.refresh_from_db()
        body = {"undone": undone, "game": selectors.game_payload(game)}
        return Response(s.UndoOutput(body).data)


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
    action_rules = {"POST": SCORES}

    @extend_schema(
        operation_id="games_deals_list",
        summary="The game's deals, in order",
        tags=["deals"],
        responses=responds(200, s.DealOutput(many=True), 401, 404),
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = self.game(game_id)
        deals = game.deals.select_related("entered_by").order_by("number")
        return Response(s.DealOutput([selectors.deal_payload(d) for d in deals], many=True).data)

    @extend_schema(
        operation_id="games_deals_create",
        summary="Record the next deal",
        description="The body is the deal record (RULES.md) with its keys at the top level, "
        'plus its "number": e.g. {"number": 3, "widow": 1, "tricks": [3, 5, 5]}. '
        "A number already recorded, or not the next one, is refused with 409 (the deal "
        "already there in details.deal); a deal the rules refuse with 400 naming the field; "
        "a finished or abandoned game refuses deals with 409.",
        tags=["deals"],
        parameters=[IDEMPOTENCY_KEY, ETAG, LOCATION],
        request=s.DealCreateInput,
        responses=responds(201, s.DealOutput, 400, 401, 403, 404, 409, 422),
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = self.game(game_id)
        key = idempotency_key(request)
        data = self.parse(s.DealCreateInput, request.data)
        result = services.deal_record(
            actor=actor_of(request), game=game, idempotency_key=key, **data
        )
        body = s.DealOutput(result.payload).data
        headers = {
            **_etag(result.payload["version"]),
            "Location": self.url("deal-detail", game.pk, result.payload["number"]),
        }
        return Response(body, status=status.HTTP_201_CREATED, headers=headers)


class DealDetailView(ApiView):
    action_rules = {"PUT": SCORES}

    @extend_schema(
        operation_id="games_deals_retrieve",
        summary="One deal; its version is in the ETag header",
        tags=["deals"],
        parameters=[ETAG],
        responses=responds(200, s.DealOutput, 401, 404),
    )
    def get(self, request: Request, game_id: int, number: int) -> Response:
        deal = recorded_deal(self.game(game_id), number)
        return Response(
            s.DealOutput(selectors.deal_payload(deal)).data, headers=_etag(deal.version)
        )

    @extend_schema(
        operation_id="games_deals_correct",
        summary="Correct a deal; every later deal is rescored",
        description='The body is {"record": {...the whole corrected record...}, "reason": "..."}. '
        "If-Match must carry the deal's current version (its ETag). A correction that "
        "would make a later deal impossible is refused with 400 naming that deal.",
        tags=["deals"],
        parameters=[IF_MATCH, ETAG],
        request=s.DealCorrectInput,
        responses=responds(200, s.DealOutput, 400, 401, 403, 404, 409, 412, 428),
    )
    def put(self, request: Request, game_id: int, number: int) -> Response:
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
            s.DealOutput(selectors.deal_payload(deal)).data, headers=_etag(deal.version)
        )


class DealHistoryView(ApiView):
    @extend_schema(
        operation_id="games_deals_history",
        summary="Every version of a deal: recorded, corrected, undone",
        tags=["deals"],
        responses=responds(200, s.RevisionOutput(many=True), 401, 404),
    )
    def get(self, request: Request, game_id: int, number: int) -> Response:
        game = self.game(game_id)
        revisions = selectors.deal_history(game, number) if number <= s.MAX_DEAL_NUMBER else []
        if not revisions:
            raise exceptions.NotFound(f"the game has no deal {number}")
        return Response(s.RevisionOutput(revisions, many=True).data)


# --- Anything else under /api/v1/ -------------------------------------------------------------


@extend_schema(exclude=True)
class NotFoundView(APIView):
    """Any other address under the API: 404 in the API's error format, whatever the method."""

    authentication_classes = []
    permission_classes = [AllowAny]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        hint = "" if request.path.endswith("/") else " (API paths end with a slash)"
        raise exceptions.NotFound(f"no API endpoint at {request.path}{hint}")
