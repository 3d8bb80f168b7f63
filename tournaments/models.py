"""Tournaments: an event of a club, its registrations, rounds, tables and standings.

Writes go through :mod:`tournaments.services`. The database guards what it can: one
registration per player per tournament, rounds numbered uniquely per tournament,
unique (round, table number), one place per player per round (a seat or a bye),
unique seats at a table, and check constraints on sizes and numbers.

Each table's game is an ordinary :class:`scorekeeper.models.Game`, started through
``scorekeeper.services.game_start`` when the round is published.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from scorekeeper.models import (
    GAME_TYPE_CHOICES,
    Club,
    Game,
    JobStatus,
    Player,
    Season,
    done_by,
    in_choices,
)

from .points import DEFAULT_PLACING, TIE_BREAKS

MAX_ROUNDS = 50
#: The most points a placing may give (placing points).
MAX_PLACING_POINTS = 1000
MAX_TABLE_SIZE = 6


class RoundKind(models.TextChoices):
    DEALS = "deals", "A number of deals"
    GAME = "game", "A whole game"
    TIME = "time", "A time limit (finish the deal in progress)"


class SeatingMethod(models.TextChoices):
    NEW_OPPONENTS = "new_opponents", "New opponents"
    STANDINGS = "standings", "By standings (Swiss)"
    RANDOM = "random", "Random"


class PointsSystem(models.TextChoices):
    OPPONENTS = "opponents", "1 per opponent outscored, ½ per tie, ÷ (table size − 1)"
    PLACING = "placing", "A placing table (e.g. 3/1/0)"
    SCORE = "score", "Raw game score"


class ByeScore(models.TextChoices):
    AVERAGE = "average", "The round's average"
    FIXED = "fixed", "A fixed amount"


class TournamentStatus(models.TextChoices):
    OPEN = "open", "Open (no round yet)"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


def _default_placing() -> list[int]:
    return list(DEFAULT_PLACING)


def _default_tie_breaks() -> list[str]:
    return list(TIE_BREAKS)


class Tournament(models.Model):
    # No index of its own: the unique constraint below starts with the club.
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="tournaments", db_index=False
    )
    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, null=True, blank=True, related_name="tournaments"
    )
    name = models.CharField(max_length=120)
    game_type = models.CharField(max_length=30, choices=GAME_TYPE_CHOICES)
    options = models.JSONField(default=dict, help_text="House rules, resolved by the engine.")
    rounds_planned = models.PositiveSmallIntegerField()
    round_kind = models.CharField(max_length=8, choices=RoundKind.choices)
    round_deals = models.PositiveSmallIntegerField(null=True, blank=True)
    round_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    grace_minutes = models.PositiveSmallIntegerField(
        default=10, help_text="Time rounds: minutes after time is called to finish the deal."
    )
    seating_method = models.CharField(
        max_length=16, choices=SeatingMethod.choices, default=SeatingMethod.NEW_OPPONENTS
    )
    table_size = models.PositiveSmallIntegerField(help_text="The preferred table size.")
    mixed_sizes = models.BooleanField(
        default=False, help_text="Prediction whist: mixed table sizes rather than byes."
    )
    rated = models.BooleanField(
        default=True, help_text="Its games count for the club's ratings like any other."
    )
    points_system = models.CharField(
        max_length=10, choices=PointsSystem.choices, default=PointsSystem.OPPONENTS
    )
    placing_points = models.JSONField(default=_default_placing, blank=True)
    tie_breaks = models.JSONField(default=_default_tie_breaks, blank=True)
    bye_score = models.CharField(max_length=8, choices=ByeScore.choices, default=ByeScore.AVERAGE)
    bye_points = models.DecimalField(max_digits=8, decimal_places=3, default=0)
    status = models.CharField(
        max_length=10, choices=TournamentStatus.choices, default=TournamentStatus.OPEN
    )
    played_on = models.DateField()
    standings_updated_at = models.DateTimeField(null=True, blank=True)
    created_by = done_by()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-played_on", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="tournament_unique_name"),
            models.CheckConstraint(
                condition=Q(rounds_planned__gte=1, rounds_planned__lte=MAX_ROUNDS),
                name="tournament_rounds_range",
            ),
            models.CheckConstraint(
                condition=Q(table_size__gte=2, table_size__lte=MAX_TABLE_SIZE),
                name="tournament_table_size_range",
            ),
            models.CheckConstraint(
                condition=~Q(round_kind=RoundKind.DEALS) | Q(round_deals__gte=1),
                name="tournament_deals_round_has_deals",
            ),
            models.CheckConstraint(
                condition=~Q(round_kind=RoundKind.TIME) | Q(round_minutes__gte=1),
                name="tournament_time_round_has_minutes",
            ),
            in_choices("round_kind", RoundKind, "tournament_round_kind_valid"),
            in_choices("status", TournamentStatus, "tournament_status_valid"),
        ]

    def __str__(self) -> str:
        return self.name


class RegistrationStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    WITHDRAWN = "withdrawn", "Withdrawn"


class Registration(models.Model):
    # No index of its own: the unique constraint below starts with the tournament.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations")
    status = models.CharField(
        max_length=10, choices=RegistrationStatus.choices, default=RegistrationStatus.ACTIVE
    )
    checked_in_round = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The round from which the player is checked in: they stay present for "
        "later rounds until they check out (null: not checked in).",
    )
    checked_out_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The round from which the player checked out."
    )
    late = models.BooleanField(default=False, help_text="Registered after round 1 was seated.")
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "player__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_unique_player"
            ),
            in_choices("status", RegistrationStatus, "registration_status_valid"),
            models.CheckConstraint(
                condition=Q(checked_in_round__isnull=True) | Q(checked_in_round__gte=1),
                name="registration_check_in_round_positive",
            ),
            models.CheckConstraint(
                condition=Q(checked_out_round__isnull=True) | Q(checked_out_round__gte=1),
                name="registration_check_out_round_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.tournament_id}"

    def present_for(self, number: int) -> bool:
        """Checked in for round ``number``: active, and checked in from that round or an
        earlier one (a check-in carries over to later rounds until the player checks out)."""
        return (
            self.status == RegistrationStatus.ACTIVE
            and self.checked_in_round is not None
            and self.checked_in_round <= number
        )


class RoundStatus(models.TextChoices):
    SEATING = "seating", "Being seated"
    SEATED = "seated", "Seated (not published)"
    PLAYING = "playing", "Playing"
    CLOSED = "closed", "Closed"


# A round's seating is run as a job, like a ratings recomputation: the same states.
SeatingStatus = JobStatus


class CloseReason(models.TextChoices):
    CONFIRMED = "confirmed", "Every table confirmed"
    DIRECTOR = "director", "Closed by the director"
    TIME = "time", "Time limit"


class Round(models.Model):
    # No index of its own: the unique constraint below starts with the tournament.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", db_index=False
    )
    number = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=8, choices=RoundStatus.choices, default=RoundStatus.SEATING
    )
    seating_method = models.CharField(max_length=16, choices=SeatingMethod.choices)
    seating_status = models.CharField(
        max_length=8, choices=SeatingStatus.choices, default=SeatingStatus.QUEUED
    )
    seating_progress = models.PositiveSmallIntegerField(default=0, help_text="0 to 100.")
    seating_error = models.CharField(max_length=500, blank=True)
    seated_at = models.DateTimeField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    time_called_at = models.DateTimeField(
        null=True, blank=True, help_text="Time rounds: when time is called (finish the deal)."
    )
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="Time rounds: when the round closes by itself."
    )
    time_called = models.BooleanField(default=False)
    closed_at = models.DateTimeField(null=True, blank=True)
    close_reason = models.CharField(max_length=10, choices=CloseReason.choices, blank=True)
    closed_by = done_by()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=MAX_ROUNDS), name="round_number_range"
            ),
            models.CheckConstraint(
                condition=Q(seating_progress__lte=100), name="round_progress_range"
            ),
            in_choices("status", RoundStatus, "round_status_valid"),
            in_choices("seating_status", SeatingStatus, "round_seating_status_valid"),
            models.CheckConstraint(
                condition=~Q(status=RoundStatus.CLOSED) | Q(closed_at__isnull=False),
                name="round_closed_has_time",
            ),
        ]
        indexes = [models.Index(fields=["status", "deadline"])]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"


class Table(models.Model):
    """One table of a round; its game is started when the round is published."""

    # No index of its own: the unique constraint below starts with the round.
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", db_index=False
    )
    number = models.PositiveSmallIntegerField()
    size = models.PositiveSmallIntegerField()
    first_dealer = models.PositiveSmallIntegerField(default=0)
    game = models.OneToOneField(
        Game, on_delete=models.PROTECT, null=True, blank=True, related_name="tournament_table"
    )
    deal_limit = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Deals the round allows at this table, where the game does not end by itself "
        "(a round of N deals; a time round once time is called: the deal in progress).",
    )
    link_token = models.CharField(
        max_length=64,
        blank=True,
        help_text="The table link's token while its round's publishing is taken back: the "
        "cards already printed work again once the round is published anew.",
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = done_by()
    confirmed_by_name = models.CharField(max_length=120, blank=True)
    unfinished = models.BooleanField(
        default=False, help_text="The round was closed before the table finished."
    )
    reopened_at = models.DateTimeField(null=True, blank=True)
    reopened_by = done_by()
    reopened_by_name = models.CharField(max_length=120, blank=True)
    reopen_reason = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
            models.CheckConstraint(
                condition=Q(size__gte=2, size__lte=MAX_TABLE_SIZE), name="table_size_range"
            ),
            models.CheckConstraint(
                condition=Q(first_dealer__lt=models.F("size")), name="table_first_dealer_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.number} of round {self.round_id}"


class RoundPlayer(models.Model):
    """A player's place in a round: a seat at a table, or a bye (no table). After the
    round closes, the player's game score and tournament points for it."""

    # No index of their own: a unique constraint below starts with each.
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="players", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="round_places")
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="seats", db_index=False
    )
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True, help_text="Game score, once closed.")
    points = models.DecimalField(max_digits=10, decimal_places=3, null=True, blank=True)
    table_win = models.BooleanField(default=False)
    notified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "table__number", "position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="round_player_unique"),
            models.UniqueConstraint(fields=["table", "position"], name="round_player_unique_seat"),
            models.CheckConstraint(
                condition=Q(table__isnull=True, position__isnull=True)
                | Q(table__isnull=False, position__isnull=False, position__lt=MAX_TABLE_SIZE),
                name="round_player_seat_or_bye",
            ),
        ]

    def __str__(self) -> str:
        where = "bye" if self.table_id is None else f"table {self.table_id} seat {self.position}"
        return f"{self.player_id} in round {self.round_id}: {where}"

    @property
    def is_bye(self) -> bool:
        return self.table_id is None


class Standing(models.Model):
    """A player's standing in a tournament, rebuilt after each round (pages read these)."""

    # No index of its own: the unique constraint below starts with the tournament.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="standings", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    rank = models.PositiveSmallIntegerField()
    points = models.DecimalField(max_digits=10, decimal_places=3)
    game_score = models.IntegerField()
    opponents_points = models.DecimalField(
        max_digits=10, decimal_places=3, help_text="Opponents' average tournament points."
    )
    table_wins = models.PositiveSmallIntegerField()
    rounds_played = models.PositiveSmallIntegerField()
    byes = models.PositiveSmallIntegerField()
    round_points = models.JSONField(default=list, help_text="Points per round (null: absent).")
    withdrawn = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament", "rank", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="standing_unique_player"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="standing_rank_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: #{self.rank} in {self.tournament_id}"


class Announcement(models.Model):
    """A message from the director to every table (e.g. "last round starts at 21:30"),
    shown on the tables' game pages, the dashboard and the projector view."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="announcements"
    )
    text = models.CharField(max_length=300)
    created_by = done_by()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(text=""), name="announcement_has_text"),
        ]

    def __str__(self) -> str:
        return self.text
