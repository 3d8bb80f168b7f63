"""What every API view shares: the base view (parse, visible club or game, URLs), the
OpenAPI helpers, and the 404 for anything else under /api/v1/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from django.urls import reverse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer
from rest_framework.views import APIView

from scorekeeper import selectors
from scorekeeper.models import Club, Game

from .. import serializers as s
from ..errors import ErrorSerializer
from ..parsers import JSONParser
from ..permissions import (
    ActionRule,
    ReasonedRule,
    Rule,
    actor_of,
    game_for_next_deal,
    visible_club,
    visible_game,
)
from ..schema import doc_parts

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


#: How a change that reads input and meets the data's state can be refused: the input is
#: invalid, the caller not logged in, not allowed, the object not theirs to see, or the
#: change clashes with its state.
CHANGE_REFUSED = (400, 401, 403, 404, 409)


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(ErrorSerializer, description=_ERRORS[code]) for code in codes}


def responds(ok: int, body: Any, *codes: int) -> dict[int, Any]:
    return {ok: OpenApiResponse(body), **errors(*codes)}


F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


def operation(operation_id: str, responses: dict[int, Any], **more: Any) -> Callable[[F], F]:
    """A view method's OpenAPI operation: its id and answers (``responds``), and whatever
    else ``extend_schema`` takes (request, parameters...). Its summary and description are
    the method's docstring, its tag the view's ``tag`` (:mod:`..schema`)."""
    return extend_schema(operation_id=operation_id, responses=responses, **more)


V = TypeVar("V", bound=type[APIView])


def described(doc: str | None) -> dict[str, str | None]:
    """``operation``'s summary and description written as a docstring: its first paragraph
    and the rest."""
    summary, description = doc_parts(doc)
    return {"summary": summary, "description": description or None}


def post_operation(
    operation_id: str, responses: dict[int, Any], *, doc: str | None = None
) -> Callable[[V], V]:
    """The OpenAPI operation of the POST a view inherits: its summary and description are
    ``doc`` (the view's own docstring if not given), its request body the view's ``input``
    serializer."""

    def decorate(view: V) -> V:
        post = operation(
            operation_id,
            responses,
            request=getattr(view, "input", None),
            **described(doc or view.__doc__),
        )
        return extend_schema_view(post=post)(view)

    return decorate


def collection_operations(name: str, *, listing: str, adding: str) -> Callable[[V], V]:
    """The OpenAPI operations of a :class:`ClubCollectionView`: ``clubs_<name>_list``, its
    GET, and ``clubs_<name>_create``, its POST (read with the view's ``input``), each
    answered with the view's ``output``; ``listing`` and ``adding`` are their docstrings."""

    def decorate(view: V) -> V:
        output = view.output  # type: ignore[attr-defined]
        get = operation(
            f"clubs_{name}_list", responds(200, output(many=True), 401, 404), **described(listing)
        )
        post = operation(
            f"clubs_{name}_create",
            responds(201, output, 400, 401, 403, 404),
            request=view.input,  # type: ignore[attr-defined]
            **described(adding),
        )
        return extend_schema_view(get=get, post=post)(view)

    return decorate


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

    tag: ClassVar[str | None] = None  # the group of its operations in the OpenAPI schema
    parser_classes = [JSONParser]
    permission_classes = [IsAuthenticated, ActionRule]
    action_rules: ClassVar[dict[str, Rule | ReasonedRule]] = {}

    def parse(
        self, serializer_class: type[Serializer[Any]], data: Any, **context: Any
    ) -> dict[str, Any]:
        serializer = serializer_class(
            data=data, context={"actor": actor_of(self.request), **context}
        )
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def write(self, input: type[Serializer[Any]], service: Callable[..., T], **known: Any) -> T:
        """What ``service`` answers to the request's body parsed by ``input``: it is called
        with the caller as its actor, ``known`` (what the path named, also the parser's
        context) and the parsed fields."""
        data = self.parse(input, self.request.data, **known)
        return service(actor=actor_of(self.request), **known, **data)

    def club(self, club_id: int) -> Club:
        club = visible_club(self.request, club_id)
        self.check_object_permissions(self.request, club)
        return club

    def game(self, game_id: int) -> Game:
        """The game if the caller may see it (404 if not)."""
        game = visible_game(self.request, game_id)
        self.check_object_permissions(self.request, game)
        return game

    def game_for_next_deal(self, game_id: int, *, idempotency_key: str | None) -> Game:
        """:meth:`game`, locked to record its next deal with this ``idempotency_key``
        (``selectors.game_for_next_deal``)."""
        game = game_for_next_deal(self.request, game_id, idempotency_key=idempotency_key)
        self.check_object_permissions(self.request, game)
        return game

    def game_body(
        self, game: Game, *, deals_after: int = 0, deals_limit: int = s.DEALS_PAGE
    ) -> dict[str, Any]:
        """The game as GameOutput, with a page of its deals and the link to the next."""
        payload = selectors.game_payload(game, deals_after=deals_after, deals_limit=deals_limit)
        payload["deals_next"] = None
        if payload.pop("more_deals"):
            last = payload["deals"][-1]["number"]
            url = self.url("game-detail", game.pk)
            payload["deals_next"] = f"{url}?deals_after={last}&deals_limit={deals_limit}"
        return dict(s.GameOutput(payload).data)

    def created(self, body: Any, *, location: str | None = None) -> Response:
        """201 with ``body``, and where the new object is when it has its own URL."""
        headers = {"Location": location} if location else None
        return Response(body, status=status.HTTP_201_CREATED, headers=headers)

    def url(self, name: str, *args: int) -> str:
        return self.request.build_absolute_uri(reverse(f"api:{name}", args=args))


class ClubCollectionView(ApiView):
    # What a club has of one kind: GET lists it (for its members), POST adds one (by the
    # view's rule for POST). A view names its ``output`` and ``input`` serializers, what it
    # lists (``listed``), the ``service`` that adds (taking the actor, the club and the
    # parsed input) and, when what was added has its own URL, that URL's name (``detail``).
    # Its OpenAPI operations come from ``collection_operations``, grouped with the clubs'
    # unless the view names its own ``tag``.

    tag = "clubs"
    output: ClassVar[type[Serializer[Any]]]
    input: ClassVar[type[Serializer[Any]]]
    service: ClassVar[Callable[..., Any]]
    detail: ClassVar[str | None] = None
    added_context: ClassVar[dict[str, Any]] = {}  # the output's context for what was added

    def listed(self, club: Club) -> Any:
        raise NotImplementedError

    def listed_context(self, club: Club) -> dict[str, Any]:
        return {}

    def get(self, request: Request, club_id: int) -> Response:
        club = self.club(club_id)
        listed = self.listed(club)
        return Response(self.output(listed, many=True, context=self.listed_context(club)).data)

    def post(self, request: Request, club_id: int) -> Response:
        added = self.write(self.input, type(self).service, club=self.club(club_id))
        location = self.url(self.detail, added.pk) if self.detail else None
        return self.created(self.output(added, context=self.added_context).data, location=location)


def etag_header(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


# --- Anything else under /api/v1/ -------------------------------------------------------------


@extend_schema(exclude=True)
class NotFoundView(APIView):
    """Any other address under the API: 404 in the API's error format, whatever the method."""

    authentication_classes = []
    permission_classes = [AllowAny]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        hint = "" if request.path.endswith("/") else " (API paths end with a slash)"
        raise exceptions.NotFound(f"no API endpoint at {request.path}{hint}")
