"""Input serializers parse and check the shape of requests; output serializers render
what the selectors and services return. The rules themselves stay in the services and
the rules engine: these only turn JSON into arguments and results into JSON.

One module, over 500 lines, in the order of the API's paths (clubs, people, seasons, games,
deals, the rules assistant): every operation's input and output stand together, as the
schema shows them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.functional import cached_property
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.fields import empty
from rest_framework.settings import api_settings
from rest_framework.utils.serializer_helpers import BindingDict

from rules_engine import GAMES
from scorekeeper import selectors
from scorekeeper.models import DealRevision, GameStatus, Player, Season

from .fields import Name, Query, StrictInput, Text, id_field, type_error

# Deal numbers are stored as 32-bit integers.
MAX_DEAL_NUMBER = 2**31 - 1
GAME_TYPES = list(GAMES)


# Fields that read their serializer's instance or context, which a shared field cannot.
_CONTEXT_FIELDS = (serializers.SerializerMethodField, serializers.RelatedField)


class PassThroughSerializer(serializers.Serializer[Any]):
    """Renders a mapping: the declared fields as declared (and documented), any other
    keys (a game's own deal context, say) as they are, in the mapping's order.

    Its fields take no context, so they are built and bound once for each class, on an
    instance of their own with no data, parent or context, and shared by its instances
    (DRF builds them for every instance: for a deal's answer, that cost more than rendering
    it). A field that reads its serializer or the context (a method field, a related or
    hyperlinked field) is refused."""

    @cached_property
    def fields(self) -> BindingDict:
        cls = type(self)
        shared: BindingDict | None = cls.__dict__.get("_shared_fields")
        if shared is None:
            prototype = cls.__new__(cls)
            serializers.Serializer.__init__(prototype)
            shared = serializers.Serializer.fields.func(prototype)  # type: ignore[attr-defined]
            for name, field in shared.items():
                if isinstance(field, _CONTEXT_FIELDS):
                    raise TypeError(f"{cls.__name__}.{name} reads its context: not shareable")
            cls._shared_fields = shared  # type: ignore[attr-defined]
        return shared

    def to_representation(self, instance: Any) -> dict[str, Any]:
        declared = super().to_representation(instance)
        if isinstance(instance, Mapping):
            return {**instance, **declared}
        return dict(declared)


# --- Auth -------------------------------------------------------------------------------------


class TokenInput(StrictInput):
    username = Text(max_length=150)
    password = Text(max_length=4096, trim_whitespace=False)


class TokenOutput(serializers.Serializer[Any]):
    token = serializers.CharField(help_text='Send it as "Authorization: Token <token>".')
    username = serializers.CharField()


# --- Clubs, players, seasons ------------------------------------------------------------------


class ClubInput(StrictInput):
    name = Name(max_length=120)
    slug = serializers.SlugField(max_length=60)
    results_public = serializers.BooleanField(
        default=False, help_text="Anyone may read the club's standings without logging in."
    )


class ClubUpdateInput(StrictInput):
    name = Name(max_length=120, required=False)
    results_public = serializers.BooleanField(
        required=False, help_text="Anyone may read the club's standings without logging in."
    )


class ClubOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    results_public = serializers.BooleanField()
    role = serializers.CharField(help_text="The caller's role in the club.")


class PlayerInput(StrictInput):
    name = Name(max_length=100)
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class PlayerOutput(serializers.Serializer[Any]):
    """A player on a club's roster. ``email`` is shown to the club's staff only."""

    id = serializers.IntegerField()
    club = serializers.IntegerField(source="club_id")
    name = serializers.CharField()
    active = serializers.BooleanField()
    user = serializers.CharField(
        source="user.username",
        allow_null=True,
        help_text="The username of the account linked to the player, if any.",
    )
    email = serializers.CharField(
        required=False, help_text="Staff only; an email address, or empty when not known."
    )

    def to_representation(self, instance: Player) -> dict[str, Any]:
        data = dict(super().to_representation(instance))
        if not self.context.get("show_email"):
            data.pop("email", None)
        return data


class SeasonInput(StrictInput):
    name = Name(max_length=100)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()


class SeasonOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    club = serializers.IntegerField(source="club_id")
    name = serializers.CharField()
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()


class PlayerUpdateInput(StrictInput):
    name = Name(max_length=100, required=False)
    active = serializers.BooleanField(required=False, help_text="false: retired.")


class PlayerLinkInput(StrictInput):
    user = id_field(
        allow_null=True, help_text="The id of a member's account; null unlinks the player."
    )


class ClaimDecisionInput(StrictInput):
    accept = serializers.BooleanField(help_text="true: link the player to the claimant.")


class PlayerMergeInput(StrictInput):
    into = id_field(help_text="The player that stays; this one's games and results move to it.")


class PlayerMergeOutput(serializers.Serializer[Any]):
    player = PlayerOutput(help_text="The player that stayed.")
    merged_name = serializers.CharField()
    merged_player = serializers.IntegerField(source="merged_player_id")
    moved = serializers.DictField(
        child=serializers.IntegerField(), help_text="Rows moved over, by kind."
    )


class SeasonRenameInput(StrictInput):
    name = Name(max_length=100)


class SeasonCloseInput(StrictInput):
    on = serializers.DateField(required=False, help_text="The season's new last day (today).")


# --- Members and invitations ------------------------------------------------------------------

ROLES = ["admin", "director", "scorer", "member"]


class MembershipOutput(serializers.Serializer[Any]):
    user = serializers.IntegerField(source="user_id")
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=ROLES)
    joined = serializers.DateTimeField(source="created_at")


class RoleInput(StrictInput):
    role = serializers.ChoiceField(choices=ROLES)


class InvitationInput(StrictInput):
    role = serializers.ChoiceField(choices=ROLES, default="member")
    days = serializers.IntegerField(min_value=1, max_value=90, default=7)
    max_uses = serializers.IntegerField(min_value=1, max_value=500, default=1)
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class InvitationOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    role = serializers.ChoiceField(choices=ROLES)
    email = serializers.CharField()
    expires_at = serializers.DateTimeField()
    max_uses = serializers.IntegerField()
    uses = serializers.IntegerField()
    revoked = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField(help_text="The link to share: opening it joins.")

    def get_revoked(self, invitation: Any) -> bool:
        return invitation.revoked_at is not None

    def get_url(self, invitation: Any) -> str:
        request = self.context["request"]
        return str(request.build_absolute_uri(reverse("join", args=[invitation.token])))


class InvitationAcceptInput(StrictInput):
    token = Text(max_length=100, help_text="The token at the end of the invitation's link.")


# --- Games ------------------------------------------------------------------------------------


class GameStartInput(StrictInput):
    """Start a game. Ids of clubs, players and seasons the caller cannot see are refused
    exactly like ids that do not exist."""

    club = id_field(help_text="The club's id; the caller must be a member.")
    game_type = serializers.ChoiceField(
        choices=GAME_TYPES,
        error_messages={
            "invalid_choice": 'unknown game "{input}"; the games are ' + ", ".join(GAME_TYPES)
        },
    )
    players = serializers.ListField(
        child=id_field(),
        max_length=20,
        help_text="Player ids of the club's roster, in seat order (clockwise from seat 0).",
    )
    options = serializers.DictField(
        required=False,
        allow_null=True,
        default=dict,
        help_text="House rules by name (see RULES.md); left out: the defaults.",
    )
    first_dealer = serializers.IntegerField(
        required=False, default=0, help_text="The seat that deals first."
    )
    season = id_field(
        required=False,
        allow_null=True,
        default=None,
        help_text="Default: the club's season that includes played_on, if any.",
    )
    played_on = serializers.DateField(required=False, allow_null=True, default=None)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        actor = self.context["actor"]
        club = selectors.clubs_visible_to(actor).filter(pk=attrs["club"]).first()
        if club is None:
            raise serializers.ValidationError({"club": "no such club"})
        found = {
            player.pk: player for player in selectors.roster(club).filter(pk__in=attrs["players"])
        }
        for pk in attrs["players"]:
            if pk not in found:
                raise serializers.ValidationError(
                    {"players": f"player {pk} is not on this club's roster"}
                )
        season = None
        if attrs["season"] is not None:
            season = Season.objects.filter(club=club, pk=attrs["season"]).first()
            if season is None:
                raise serializers.ValidationError({"season": "the club has no such season"})
        return {
            **attrs,
            "club": club,
            "players": [found[pk] for pk in attrs["players"]],
            "season": season,
        }


class GameListQuery(Query):
    club = id_field(required=False, help_text="Only this club's games.")
    season = id_field(required=False, help_text="Only this season's games.")
    status = serializers.ChoiceField(choices=GameStatus.choices, required=False)
    game_type = serializers.ChoiceField(choices=GAME_TYPES, required=False)


DEALS_PAGE = 200


class GameDealsQuery(Query):
    """Which of a game's deals to list (a long game's are listed a page at a time)."""

    deals_after = serializers.IntegerField(
        min_value=0,
        max_value=1_000_000,
        default=0,
        help_text="List the deals numbered above this (default 0: from the first).",
    )
    deals_limit = serializers.IntegerField(
        min_value=1,
        max_value=1000,
        default=DEALS_PAGE,
        help_text=f"At most this many deals (default {DEALS_PAGE}, at most 1000).",
    )


class ResultOutput(serializers.Serializer[Any]):
    position = serializers.IntegerField(help_text="The seat, clockwise from 0.")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    total = serializers.IntegerField()
    placing = serializers.IntegerField(help_text="1 for the top total; ties share.")
    won = serializers.BooleanField()


class GameSummaryOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    club = serializers.IntegerField(source="club_id")
    season = serializers.IntegerField(source="season_id", allow_null=True)
    game_type = serializers.ChoiceField(choices=GAME_TYPES)
    status = serializers.ChoiceField(choices=GameStatus.choices)
    played_on = serializers.DateField()
    deal_count = serializers.IntegerField()
    ended_by_hand = serializers.BooleanField()
    results = ResultOutput(many=True, help_text="Each seat's player, total and placing.")


class GamePageOutput(serializers.Serializer[Any]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameSummaryOutput(many=True)


class SeatOutput(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()


class DealOutput(PassThroughSerializer):
    """A recorded deal in the shape of the rules engine's command line: number, dealer,
    the game's context for the deal at the top level (widow whist: ``targets``,
    ``widow_target``, ``widow``; Third Hand: ``holder``, ``contract``, ``contract_rank``,
    ``made``, ``doubled``, ``points``; Italian whist: ``trumps``, ``pass``; prediction
    whist: ``hand_size``, ``trumps_turned``), each seat's ``scores`` and running
    ``totals``; and, from the database, the ``record`` as entered and its ``version``."""

    number = serializers.IntegerField()
    dealer = serializers.IntegerField()
    record = serializers.DictField(help_text="The deal record as entered (RULES.md).")
    scores = serializers.ListField(child=serializers.IntegerField())
    totals = serializers.ListField(child=serializers.IntegerField())
    version = serializers.IntegerField(help_text="Also the deal's ETag.")
    entered_by = serializers.CharField(allow_null=True)
    entered_at = serializers.DateTimeField()


class NextDealOutput(PassThroughSerializer):
    """The next deal: its number, dealer and the game's context (trumps, hand size, ...)."""

    number = serializers.IntegerField()
    dealer = serializers.IntegerField()


class GameOutput(serializers.Serializer[Any]):
    """A game with its seats and deals, in the shapes of the rules engine's command line
    (``python -m rules_engine score``) plus the database's ids and status."""

    id = serializers.IntegerField()
    club = serializers.IntegerField()
    season = serializers.IntegerField(allow_null=True)
    game_type = serializers.ChoiceField(choices=GAME_TYPES)
    status = serializers.ChoiceField(choices=GameStatus.choices)
    played_on = serializers.DateField()
    seats = SeatOutput(many=True)
    players = serializers.ListField(child=serializers.CharField(), help_text="Names by seat.")
    first_dealer = serializers.IntegerField()
    options = serializers.DictField(help_text="The house rules, all resolved.")
    deals = DealOutput(
        many=True,
        help_text="The deals numbered above deals_after, a page of them at most; "
        "deals_next gives the rest.",
    )
    deal_count = serializers.IntegerField(help_text="How many deals the game has.")
    deals_next = serializers.URLField(
        allow_null=True, help_text="The URL of the next page of deals, or null."
    )
    totals = serializers.ListField(
        child=serializers.IntegerField(), help_text="After the last deal of the game."
    )
    finished = serializers.BooleanField()
    ended_by = serializers.CharField(
        allow_null=True,
        help_text="Who finished the game by hand or abandoned it, named as in a deal's "
        "history; null while it is played, when it ended by its own rules, or if not known.",
    )
    winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="Winning seats; empty until finished."
    )
    next_deal = NextDealOutput(allow_null=True, help_text="null unless in progress.")
    scheduled_deals = serializers.IntegerField(
        allow_null=True, help_text="How many deals the game has, when fixed in advance."
    )
    revision = serializers.IntegerField(
        help_text="Goes up with every change to the game (deals, bids, corrections, locks)."
    )
    locked = serializers.BooleanField(
        help_text="A locked game takes no deal, correction, undo, finish or abandon (409)."
    )
    locked_reason = serializers.CharField(help_text="Why it is locked; empty when it is not.")


class NoFields(StrictInput):
    """The body of a request that takes no fields: any field sent is refused, naming it
    (nothing sent is taken as meaning something)."""


class UndoInput(StrictInput):
    reason = Text(required=False, allow_blank=True, default="", max_length=500)


class UndoOutput(serializers.Serializer[Any]):
    undone = serializers.IntegerField(help_text="The number of the deal taken back.")
    game = GameOutput()


# --- Deals ------------------------------------------------------------------------------------


def _openapi_30(schema: Any) -> Any:
    """A JSON Schema in OpenAPI 3.0's dialect: ``"type": [T, "null"]`` as ``nullable``."""
    if isinstance(schema, list):
        return [_openapi_30(item) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    out = {key: _openapi_30(value) for key, value in schema.items()}
    kind = out.get("type")
    if isinstance(kind, list) and "null" in kind:
        (out["type"],) = [t for t in kind if t != "null"]
        out["nullable"] = True
    return out


def deal_body_schema() -> dict[str, Any]:
    """The deal POST body as the OpenAPI schema shows it: one of the games' deal records
    (each game's ``record_schema`` in the rules engine), plus the deal's ``number``."""
    number = {"type": "integer", "minimum": 1, "maximum": MAX_DEAL_NUMBER}
    bodies = []
    for key, game in GAMES.items():
        record = dict(game.record_schema)
        bodies.append(
            {
                **record,
                "title": f"A deal of {game.name} ({key})",
                "properties": {**record["properties"], "number": number},
                "required": [*record.get("required", []), "number"],
            }
        )
    return {"oneOf": _openapi_30(bodies)}


class DealCreateInput(StrictInput):
    """A deal record (RULES.md) with its keys at the top level, plus the ``number`` of the
    deal it records, e.g. ``{"number": 3, "widow": 1, "tricks": [3, 5, 5]}``. The record's
    keys are each game's (its ``record_schema`` in the rules engine, which the OpenAPI
    schema shows: ``deal_body_schema``); the rules engine checks them and names the field
    it refuses."""

    number = serializers.IntegerField(
        min_value=1, max_value=MAX_DEAL_NUMBER, help_text="The deal's number: the next one."
    )

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            raise serializers.ValidationError(
                {
                    api_settings.NON_FIELD_ERRORS_KEY: [
                        "a deal is a JSON object: the deal record's keys and its number"
                    ]
                }
            )
        wrong = type_error(self.fields["number"], data.get("number"))
        if wrong:  # "3" is not 3, as everywhere in the API
            raise serializers.ValidationError({"number": wrong})
        try:
            number = self.fields["number"].run_validation(data.get("number", empty))
        except serializers.ValidationError as error:
            raise serializers.ValidationError({"number": error.detail}) from None
        record = {key: value for key, value in data.items() if key != "number"}
        return {"number": number, "record": record}


class DealCreateInputSchema(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]
    """The schema shows the deal body per game (its record's keys and types); the
    serializer passes the record to the rules engine, which checks it."""

    target_class = DealCreateInput

    def map_serializer(self, auto_schema: Any, direction: Any) -> Any:
        return deal_body_schema()


class DealCorrectInput(StrictInput):
    record = serializers.DictField(
        help_text="The corrected deal record (RULES.md), as a whole; a number in it is ignored."
    )
    reason = Text(
        allow_blank=True, trim_whitespace=False, help_text="Why (required, at most 500 chars)."
    )


class RevisionOutput(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    action = serializers.ChoiceField(choices=["record", "correct", "undo"])
    record = serializers.DictField()
    scores = serializers.ListField(child=serializers.IntegerField())
    reason = serializers.CharField()
    changed_by = serializers.SerializerMethodField()
    changed_at = serializers.DateTimeField()

    @extend_schema_field({"type": "string", "nullable": True})
    def get_changed_by(self, revision: DealRevision) -> str | None:
        user: User | None = revision.changed_by
        if user is not None:
            return user.get_username()
        return revision.changed_by_name or None


# --- Standings --------------------------------------------------------------------------------


class StandingsQuery(Query):
    game_type = serializers.ChoiceField(
        choices=GAME_TYPES,
        required=False,
        help_text="Only games of this type, with each player's rating of it (without it: all "
        "games; those of a season of one kind of game are that game's, ratings included).",
    )
    sort = serializers.ChoiceField(
        choices=list(selectors.STANDING_SORTS),
        required=False,
        help_text="Order of the rows, best first (default wins). Rows sorted by what they do "
        "not have are sorted by wins (the answer's sort says so): total, per_deal, rating and "
        "change over all games of a season of several kinds of game; rating and change over "
        "games not rated.",
    )


class StandingOutput(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    games_played = serializers.IntegerField()
    games_won = serializers.IntegerField()
    total_score = serializers.IntegerField(
        allow_null=True,
        help_text="The scores added up; null without game_type when the season's games are "
        "of more than one type (a point of one game is not a point of another).",
    )
    average_score = serializers.FloatField(
        allow_null=True, help_text="Average total a game; null as total_score."
    )
    average_per_deal = serializers.FloatField(
        allow_null=True, help_text="Total score over the deals played; null as total_score."
    )
    average_placing = serializers.FloatField()
    rating = serializers.IntegerField(
        allow_null=True,
        help_text="For one game (the answer's game_type), rated: the rating "
        "(1000 + 40 × (μ − 3σ)) after the player's last game of the season; otherwise null.",
    )
    rating_change = serializers.IntegerField(
        allow_null=True, help_text="The rating's change over the season; null as rating."
    )


class StandingsOutput(serializers.Serializer[Any]):
    season = SeasonOutput()
    game_type = serializers.ChoiceField(
        choices=GAME_TYPES,
        allow_null=True,
        help_text="The game the standings are of: the one asked for, or the season's only "
        "kind of game; null over games of several kinds (no scores added up, no ratings).",
    )
    sort = serializers.CharField(
        help_text="The order applied (wins where the asked one cannot be)."
    )
    standings = StandingOutput(many=True, help_text="Over the season's finished games.")


# --- Rules assistant --------------------------------------------------------------------------


def _card() -> Text:
    return Text(max_length=8, help_text='A card: rank then suit ("AS", "10H", "QD"), or RJ/BJ.')


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "minimum": 2, "maximum": 6},
            {"type": "array", "items": {"type": "string", "maxLength": 100}, "maxItems": 6},
        ],
        "description": "How many players, or their names in seat order (for the sentences).",
    }
)
class PlayersField(serializers.JSONField):
    pass


class TrickInput(StrictInput):
    """A trick: the game, the cards in the order played, the seat that led, and the deal's
    context as the game reads it. The rules engine checks it and names the field it
    refuses (RULES.md; ``python -m rules_engine trick`` takes the same object)."""

    game = serializers.ChoiceField(choices=GAME_TYPES)
    cards = serializers.ListField(
        child=_card(),
        min_length=1,
        max_length=6,
        help_text="In the order played; one a seat.",
        error_messages={
            "min_length": "a trick has at least one card",
            "max_length": "a trick has one card a seat: {max_length} at most",
        },
    )
    leader = serializers.IntegerField(
        min_value=0,
        max_value=5,
        required=False,
        help_text="The seat that led (default 0).",
        error_messages={
            "min_value": "must be a seat: 0 for the first",
            "max_value": "must be a seat: 0 for the first, below the number of players",
        },
    )
    players = PlayersField(required=False)
    trump = Text(
        max_length=10,
        allow_null=True,
        required=False,
        help_text="S, H, D or C, or null for none. Widow whist: clubs always; Third Hand: "
        "required; Italian whist: S or null (or give deal); prediction whist: required.",
    )
    high_rank = Text(
        max_length=2,
        allow_null=True,
        required=False,
        help_text="Third Hand: the winning bid's rank (9, 10, J, Q, K, A); null: no contract.",
    )
    half = serializers.ChoiceField(
        choices=["first", "second"],
        required=False,
        help_text="Italian whist: the hand of the deal (what a joker's player wants).",
    )
    deal = serializers.IntegerField(
        min_value=1,
        max_value=MAX_DEAL_NUMBER,
        required=False,
        help_text="Italian whist: the deal's number, which fixes trumps.",
    )
    held = serializers.ListField(
        child=serializers.ListField(child=_card(), max_length=54, allow_null=True),
        max_length=6,
        required=False,
        help_text="Optional, per seat: the cards that player held when they played (or "
        "null): checks that they followed suit.",
    )
    options = serializers.DictField(
        required=False, help_text="The game's house rules (e.g. must_trump_when_void)."
    )


class TrickCardOutput(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    card = serializers.CharField()
    suit = serializers.CharField(
        allow_null=True,
        help_text="The suit it counts as; null for a joker whose suit is a "
        "choice or does not matter.",
    )
    rank = serializers.CharField(allow_null=True)
    note = serializers.CharField()
    options = serializers.ListField(
        child=serializers.DictField(),
        required=False,
        help_text="A joker: what it may be, [{suit, ranks}].",
    )


class TrickChoiceOutput(serializers.Serializer[Any]):
    jokers = serializers.ListField(
        child=serializers.DictField(), help_text="Each joker: seat, card, suit, ranks."
    )
    winner = serializers.IntegerField()
    text = serializers.CharField()


class TrickRevokeOutput(serializers.Serializer[Any]):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    card = serializers.CharField()
    message = serializers.CharField()


class TrickOutput(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=GAME_TYPES)
    trump = serializers.CharField(allow_null=True)
    leader = serializers.IntegerField()
    winner = serializers.IntegerField(
        allow_null=True,
        help_text="The winning seat; null when a joker's player's choice decides (see choices).",
    )
    winning_card = serializers.CharField(allow_null=True)
    decided = serializers.BooleanField()
    possible_winners = serializers.ListField(child=serializers.IntegerField())
    cards = TrickCardOutput(many=True)
    choices = TrickChoiceOutput(many=True)
    revokes = TrickRevokeOutput(many=True)
    follow_suit_checked = serializers.ListField(
        child=serializers.IntegerField(), help_text="The seats whose held cards were checked."
    )
    explanation = serializers.ListField(child=serializers.CharField())
