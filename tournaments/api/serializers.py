"""Input serializers parse requests; output serializers render what selectors and services
return. The rules stay in :mod:`tournaments.services`."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import models
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scorekeeper import selectors as core_selectors
from scorekeeper.api.fields import Name, StrictInput, Text, id_field
from scorekeeper.api.serializers import GAME_TYPES
from scorekeeper.models import Club, Player, Season

from .. import points, selectors
from ..models import (
    ByeScore,
    CloseReason,
    PointsSystem,
    Registration,
    RegistrationStatus,
    Round,
    RoundKind,
    RoundStatus,
    SeatingMethod,
    SeatingStatus,
    Table,
    TournamentStatus,
)


def _choices(choices: type[models.TextChoices]) -> str:
    return "; ".join(f"{value}: {label}" for value, label in choices.choices)


def roster_players(club: Club, ids: list[int], field: str = "players") -> list[Player]:
    """The club's players with these ids, in order; unknown ids refused naming the field."""
    found = {player.pk: player for player in core_selectors.roster(club).filter(pk__in=ids)}
    for pk in ids:
        if pk not in found:
            raise serializers.ValidationError({field: f"player {pk} is not on this club's roster"})
    if len(set(ids)) != len(ids):
        raise serializers.ValidationError({field: "a player is listed twice"})
    return [found[pk] for pk in ids]


class PlayerIdsField(serializers.ListField):
    child = id_field()


# --- Tournaments -----------------------------------------------------------------------------


class TournamentInput(StrictInput):
    """A new tournament. The engine checks the house rules; ``table_size`` defaults to the
    game's (3; Third Hand 2; prediction whist 4)."""

    name = Name(max_length=120)
    game_type = serializers.ChoiceField(choices=GAME_TYPES)
    options = serializers.DictField(
        required=False, default=dict, help_text="House rules by name (RULES.md)."
    )
    rounds = serializers.IntegerField(min_value=1, max_value=50, help_text="Rounds planned.")
    round_kind = serializers.ChoiceField(
        choices=RoundKind.choices,
        help_text="deals: round_deals deals; game: the game's natural end; time: "
        "round_minutes, then the deal in progress is finished.",
    )
    round_deals = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    round_minutes = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=24 * 60
    )
    grace_minutes = serializers.IntegerField(
        required=False,
        default=10,
        min_value=0,
        max_value=120,
        help_text="Timed rounds: minutes after time is called before the round closes.",
    )
    seating_method = serializers.ChoiceField(
        choices=SeatingMethod.choices, default=SeatingMethod.NEW_OPPONENTS
    )
    table_size = serializers.IntegerField(
        required=False, allow_null=True, min_value=2, max_value=6, help_text="Preferred size."
    )
    mixed_sizes = serializers.BooleanField(
        default=False, help_text="Prediction whist: mixed table sizes rather than byes."
    )
    rated = serializers.BooleanField(
        default=True, help_text="Whether its games count for the club's ratings."
    )
    points_system = serializers.ChoiceField(
        choices=PointsSystem.choices, default=PointsSystem.OPPONENTS
    )
    placing_points = serializers.ListField(
        child=serializers.FloatField(min_value=0),
        required=False,
        allow_null=True,
        max_length=6,
        help_text="For the placing system: points by place, e.g. [3, 1, 0].",
    )
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=list(points.TIE_BREAKS)),
        required=False,
        allow_null=True,
        help_text="In order; default: game_score, opponents, table_wins, head_to_head.",
    )
    bye_score = serializers.ChoiceField(choices=ByeScore.choices, default=ByeScore.AVERAGE)
    bye_points = serializers.DecimalField(
        max_digits=8, decimal_places=3, default=Decimal(0), help_text="With bye_score fixed."
    )
    season = id_field(required=False, allow_null=True, default=None)
    played_on = serializers.DateField(required=False, allow_null=True, default=None)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        club: Club = self.context["club"]
        if attrs["season"] is not None:
            season = Season.objects.filter(club=club, pk=attrs["season"]).first()
            if season is None:
                raise serializers.ValidationError({"season": "the club has no such season"})
            attrs["season"] = season
        return attrs


class TournamentOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    club = serializers.IntegerField(source="club_id")
    season = serializers.IntegerField(source="season_id", allow_null=True)
    name = serializers.CharField()
    game_type = serializers.ChoiceField(choices=GAME_TYPES)
    options = serializers.DictField(help_text="The house rules, resolved by the engine.")
    rounds_planned = serializers.IntegerField()
    round_kind = serializers.ChoiceField(choices=RoundKind.choices)
    round_deals = serializers.IntegerField(allow_null=True)
    round_minutes = serializers.IntegerField(allow_null=True)
    grace_minutes = serializers.IntegerField()
    seating_method = serializers.ChoiceField(choices=SeatingMethod.choices)
    table_size = serializers.IntegerField()
    mixed_sizes = serializers.BooleanField()
    rated = serializers.BooleanField()
    points_system = serializers.ChoiceField(choices=PointsSystem.choices)
    placing_points = serializers.ListField(child=serializers.FloatField())
    tie_breaks = serializers.ListField(child=serializers.CharField())
    bye_score = serializers.ChoiceField(choices=ByeScore.choices)
    bye_points = serializers.FloatField()
    status = serializers.CharField(help_text=_choices(TournamentStatus))
    played_on = serializers.DateField()
    registered = serializers.SerializerMethodField()
    check_in_round = serializers.SerializerMethodField()
    standings_updated_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(serializers.IntegerField(help_text="Active registrations."))
    def get_registered(self, tournament: Any) -> int:
        counted = getattr(tournament, "registered", None)
        if counted is not None:
            return int(counted)
        return int(tournament.registrations.filter(status=RegistrationStatus.ACTIVE).count())

    @extend_schema_field(serializers.IntegerField(help_text="The round check-ins are for."))
    def get_check_in_round(self, tournament: Any) -> int:
        return selectors.check_in_round(tournament)


# --- Registrations ---------------------------------------------------------------------------


class NewPlayerInput(StrictInput):
    name = Name(max_length=100)
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class RosterPlayersInput(StrictInput):
    # Input naming players of the club's roster by id (``players``): each must be one.
    # (No docstring: the schema would show it for every input built on this one.)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs["players"] = roster_players(self.context["club"], attrs["players"])
        return attrs


class RegisterInput(RosterPlayersInput):
    """Players of the roster by id, and people on the spot (added to the roster)."""

    players = PlayerIdsField(required=False, default=list, max_length=400)
    new_players = NewPlayerInput(many=True, required=False, default=list)
    everyone = serializers.BooleanField(
        default=False,
        help_text="Register everyone on the club's roster (active players) who is not "
        "registered yet, besides any players named.",
    )
    check_in = serializers.BooleanField(
        default=False, help_text="Check them in from the next round too (late arrivals)."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs["players"] and not attrs["new_players"] and not attrs["everyone"]:
            raise serializers.ValidationError({"players": "name at least one player"})
        return super().validate(attrs)


class CheckInInput(RosterPlayersInput):
    players = PlayerIdsField(required=False, default=list, max_length=400)
    everyone = serializers.BooleanField(
        default=False, help_text="Check in every active registration."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs["players"] and not attrs["everyone"]:
            raise serializers.ValidationError({"players": "name players, or send everyone"})
        return super().validate(attrs)


class CheckOutInput(RosterPlayersInput):
    players = PlayerIdsField(min_length=1, max_length=400)


class WithdrawInput(RosterPlayersInput):
    players = PlayerIdsField(min_length=1, max_length=400)


class RegistrationOutput(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    status = serializers.CharField(help_text=_choices(RegistrationStatus))
    checked_in = serializers.SerializerMethodField()
    checked_in_round = serializers.IntegerField(
        allow_null=True,
        help_text="Checked in from this round on (it carries over to later rounds until "
        "they check out); null: not checked in.",
    )
    checked_out_round = serializers.IntegerField(
        allow_null=True, help_text="Checked out from this round on."
    )
    late = serializers.BooleanField()
    registered_at = serializers.DateTimeField()
    withdrawn_after_round = serializers.IntegerField(allow_null=True)

    @extend_schema_field(
        serializers.BooleanField(help_text="Checked in for the round check-ins are for.")
    )
    def get_checked_in(self, registration: Registration) -> bool:
        number = self.context.get("check_in_round")
        return number is not None and registration.present_for(number)


# --- Rounds and tables -----------------------------------------------------------------------


class RoundRequestInput(StrictInput):
    seating_method = serializers.ChoiceField(
        choices=SeatingMethod.choices,
        required=False,
        allow_null=True,
        default=None,
        help_text="This round only; default: the tournament's seating method.",
    )


class PublishInput(StrictInput):
    notify = serializers.BooleanField(
        default=True, help_text="Email players with an address where they sit."
    )


class CloseInput(StrictInput):
    force = serializers.BooleanField(
        default=False,
        help_text="Close even if tables have not confirmed: they are marked unfinished and "
        "their games finished at their current totals (no deal yet: all tied at 0).",
    )


class SwapInput(StrictInput):
    players = PlayerIdsField(min_length=2, max_length=2, help_text="The two players to swap.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs["players"] = roster_players(self.context["club"], attrs["players"])
        return attrs


class ConfirmInput(StrictInput):
    name = Text(
        required=False,
        allow_blank=True,
        default="",
        max_length=100,
        help_text="Ignored for logged-in players: their account names them.",
    )


class PlaceOutput(serializers.Serializer[Any]):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    position = serializers.IntegerField(allow_null=True, help_text="Seat, clockwise from 0.")
    score = serializers.IntegerField(allow_null=True, help_text="Game score, once closed.")
    points = serializers.FloatField(allow_null=True, help_text="Tournament points, once closed.")


class MetAtOutput(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    table = serializers.IntegerField()


class ConflictOutput(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=["met_before", "second_bye"])
    players = serializers.ListField(child=serializers.IntegerField())
    table = serializers.IntegerField(allow_null=True)
    times = serializers.IntegerField(help_text="Earlier meetings, or earlier byes.")
    met_at = MetAtOutput(many=True, help_text="Where the pair met before: round and table.")
    message = serializers.CharField()


class ReopenInput(StrictInput):
    reason = Text(max_length=500, help_text="Why the table is reopened (kept with the table).")


class TableOutput(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    size = serializers.IntegerField()
    state = serializers.SerializerMethodField()
    deal = serializers.SerializerMethodField()
    game = serializers.IntegerField(source="game_id", allow_null=True)
    first_dealer = serializers.IntegerField(help_text="The seat that deals first.")
    deal_limit = serializers.SerializerMethodField()
    seats = serializers.SerializerMethodField()
    confirmed_at = serializers.DateTimeField(allow_null=True)
    confirmed_by = serializers.CharField(source="confirmed_by_name")
    unfinished = serializers.BooleanField()
    locked = serializers.SerializerMethodField()
    reopened_at = serializers.DateTimeField(allow_null=True)
    reopened_by = serializers.CharField(source="reopened_by_name")
    reopen_reason = serializers.CharField()
    conflicts = serializers.SerializerMethodField()

    @extend_schema_field(
        serializers.BooleanField(
            help_text="Whether the table's game takes no more changes (confirmed, or its round "
            "closed) until a director reopens it."
        )
    )
    def get_locked(self, table: Table) -> bool:
        return table.game is not None and table.game.locked_at is not None

    @extend_schema_field(
        serializers.ChoiceField(choices=list(selectors.TABLE_STATES), help_text="")
    )
    def get_state(self, table: Table) -> str:
        return selectors.table_state(table)[0]

    @extend_schema_field(
        serializers.IntegerField(allow_null=True, help_text="The deal in play, when playing.")
    )
    def get_deal(self, table: Table) -> int | None:
        return selectors.table_state(table)[1]

    @extend_schema_field(
        serializers.IntegerField(
            allow_null=True,
            help_text="The table's last deal in this round (its N deals, or once a timed "
            "round's time is called the deal in progress then); null: the game's own end.",
        )
    )
    def get_deal_limit(self, table: Table) -> int | None:
        if table.game is None:
            return table.deal_limit
        return selectors.last_deal_at(table, table.game)

    @extend_schema_field(PlaceOutput(many=True))
    def get_seats(self, table: Table) -> Any:
        seats = sorted(table.seats.all(), key=lambda seat: seat.position or 0)
        return PlaceOutput(seats, many=True).data

    @extend_schema_field(ConflictOutput(many=True))
    def get_conflicts(self, table: Table) -> Any:
        conflicts = self.context.get("conflicts", [])
        mine = [c.as_dict() for c in conflicts if c.table == table.number]
        return ConflictOutput(mine, many=True).data


class RoundOutput(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    status = serializers.CharField(help_text=_choices(RoundStatus))
    seating_method = serializers.ChoiceField(choices=SeatingMethod.choices)
    seating_status = serializers.ChoiceField(
        choices=SeatingStatus.choices, help_text="Poll until done or failed."
    )
    seating_progress = serializers.IntegerField(help_text="0 to 100.")
    seating_error = serializers.CharField()
    seated_at = serializers.DateTimeField(allow_null=True)
    published_at = serializers.DateTimeField(allow_null=True)
    time_called_at = serializers.DateTimeField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    closed_at = serializers.DateTimeField(allow_null=True)
    close_reason = serializers.ChoiceField(choices=[*CloseReason.values, ""])
    tables = serializers.SerializerMethodField()
    byes = serializers.SerializerMethodField()
    conflicts = serializers.SerializerMethodField()

    @extend_schema_field(serializers.IntegerField(help_text="How many tables."))
    def get_tables(self, round: Round) -> int:
        return round.tables.count()

    @extend_schema_field(PlaceOutput(many=True))
    def get_byes(self, round: Round) -> Any:
        byes = round.players.filter(table__isnull=True).select_related("player")
        return PlaceOutput(byes.order_by("player__name"), many=True).data

    @extend_schema_field(ConflictOutput(many=True))
    def get_conflicts(self, round: Round) -> Any:
        if round.status in (RoundStatus.SEATING, RoundStatus.CLOSED):
            return []
        conflicts = [c.as_dict() for c in selectors.round_conflicts(round)]
        return ConflictOutput(conflicts, many=True).data


class SwapOutput(serializers.Serializer[Any]):
    conflicts = ConflictOutput(many=True)
    tables = TableOutput(many=True)


# --- Standings -------------------------------------------------------------------------------


class TournamentStandingOutput(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    points = serializers.FloatField()
    game_score = serializers.IntegerField()
    opponents_points = serializers.FloatField(help_text="Opponents' average points.")
    table_wins = serializers.IntegerField()
    rounds_played = serializers.IntegerField()
    byes = serializers.IntegerField()
    round_points = serializers.ListField(
        child=serializers.FloatField(allow_null=True), help_text="Per round; null: absent."
    )
    withdrawn = serializers.BooleanField()


class TournamentRefOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField(help_text=_choices(TournamentStatus))
    rounds_planned = serializers.IntegerField()


class TournamentStandingsOutput(serializers.Serializer[Any]):
    tournament = TournamentRefOutput()
    updated_at = serializers.DateTimeField(allow_null=True)
    tie_breaks = serializers.ListField(child=serializers.CharField())
    standings = TournamentStandingOutput(many=True)
