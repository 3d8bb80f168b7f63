"""The system of record: clubs, their people and players, seasons, games and deals.

Writes go through :mod:`scorekeeper.services`; these models only hold data and
the invariants the database itself can guard (unique and check constraints).

One module, over 500 lines: Django keeps an app's models in one place, and these are read
in the order of the data (clubs and people, games and deals, standings and ratings, jobs).
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from rules_engine import GAMES

if TYPE_CHECKING:
    from django.contrib.auth.models import User

GAME_TYPE_CHOICES = [(game.key, game.name) for game in GAMES.values()]


def done_by() -> models.ForeignKey[User | None, User | None]:
    """Who did something: their account, left null when the account goes (the record
    stays); the account has no way back to what it did."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )


def in_choices(field: str, choices: type[models.TextChoices], name: str) -> models.CheckConstraint:
    """The database's guard that ``field`` holds one of ``choices``."""
    return models.CheckConstraint(condition=Q(**{f"{field}__in": choices.values}), name=name)


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    results_public = models.BooleanField(
        default=False, help_text="Anyone may read the club's standings without logging in."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    ADMIN = "admin", "Admin"
    DIRECTOR = "director", "Director"
    SCORER = "scorer", "Scorer"
    MEMBER = "member", "Member"


class Membership(models.Model):
    """A person's role in a club."""

    # No index of its own: the unique constraint below starts with the club.
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", db_index=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique_user"),
            in_choices("role", Role, "membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.club}"


class Player(models.Model):
    """Someone on a club's roster; they need not have an account."""

    # No index of its own: the unique constraint below starts with the club.
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players", db_index=False)
    name = models.CharField(max_length=100)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    email = models.EmailField(blank=True)
    active = models.BooleanField(default=True)
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player_claims",
        help_text='A member who said "that\'s me", waiting for an admin to confirm.',
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="player_unique_name"),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(user__isnull=False),
                name="player_unique_user",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class PlayerMerge(models.Model):
    """The record of two roster entries found to be one person: what moved, who did it."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="player_merges")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="merges")
    merged_name = models.CharField(max_length=100)
    merged_player_id = models.PositiveIntegerField()
    moved = models.JSONField(default=dict, help_text="Rows moved over, by kind.")
    merged_by = done_by()
    merged_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.merged_name} merged into {self.player_id}"


class Invitation(models.Model):
    """A link that brings people into a club with a role: until it expires, is used up or
    is revoked. Sent by email when it names an address."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=43, unique=True)
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    email = models.EmailField(blank=True)
    expires_at = models.DateTimeField()
    max_uses = models.PositiveIntegerField(default=1)
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)
    created_by = done_by()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            in_choices("role", Role, "invitation_role_valid"),
            models.CheckConstraint(condition=Q(max_uses__gte=1), name="invitation_uses_positive"),
            models.CheckConstraint(
                condition=Q(uses__lte=F("max_uses")), name="invitation_uses_within_limit"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.role} invitation"


class InvitationOpened(models.Model):
    """An invitation a person signed up from, kept with their new account until they join:
    signing in later (after verifying their email, perhaps in another browser) brings them
    back to it."""

    # No index of its own: the unique constraint below starts with the user.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="invitations_opened",
        db_index=False,
    )
    invitation = models.ForeignKey(Invitation, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "invitation"], name="invitation_opened_once_per_user"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.invitation}"


class OutgoingEmail(models.Model):
    """An email written in a request's transaction and sent by a Celery task: it is sent
    once the broker and the mail server take it, never lost with a request."""

    to = models.JSONField(help_text="The recipients' addresses.")
    subject = models.CharField(max_length=255)
    body = models.TextField()
    html = models.TextField(blank=True)
    from_email = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [
            models.Index(
                fields=["created_at"], condition=Q(sent_at__isnull=True), name="email_unsent"
            )
        ]

    def __str__(self) -> str:
        return self.subject


class OutboxJob(models.Model):
    """A background job asked for in a request's transaction (the outbox): written with the
    change that asks for it, handed to the broker once that commits, and handed again by the
    relay (``manage.py relay_jobs``, or the beat task every 30 s) while the broker was away.
    ``sent_at`` is set once the broker took it (or it ran in-process), ``done_at`` once the
    task finished; one sent but not done a while later is handed over again by the relay (a
    few times at most: ``resent``). One not done ``settings.JOB_STUCK_SECONDS`` after it was
    asked for (or last tried again) is stuck: shown to whoever can act, with a "try again"
    button."""

    task = models.CharField(max_length=200, help_text="The Celery task's name.")
    args = models.JSONField(default=list, help_text="The task's arguments (ids).")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    done_at = models.DateTimeField(null=True, blank=True, help_text="When the task finished.")
    retried_at = models.DateTimeField(
        null=True, blank=True, help_text="When someone last asked for it to be tried again."
    )
    attempts = models.PositiveIntegerField(default=0, help_text="Hand-overs that failed.")
    resent = models.PositiveIntegerField(
        default=0,
        help_text="Times the relay handed it over again, sent but not done (a broker that "
        "lost it in a restart, a worker that died holding it).",
    )
    error = models.CharField(max_length=500, blank=True, help_text="The last failure.")

    class Meta:
        indexes = [
            models.Index(
                fields=["created_at"], condition=Q(sent_at__isnull=True), name="outbox_unsent"
            ),
            models.Index(
                fields=["created_at"], condition=Q(done_at__isnull=True), name="outbox_not_done"
            ),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(task=""), name="outbox_job_has_task"),
        ]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"


class Season(models.Model):
    # No index of its own: the unique constraint below starts with the club.
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons", db_index=False)
    name = models.CharField(max_length=100)
    starts_on = models.DateField()
    ends_on = models.DateField()

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_unique_name"),
            models.CheckConstraint(
                condition=Q(ends_on__gte=models.F("starts_on")), name="season_dates_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class GameStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "In progress"
    FINISHED = "finished", "Finished"
    ABANDONED = "abandoned", "Abandoned"


class Game(models.Model):
    # No index of its own: the index on (club, status) below starts with the club.
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="games", db_index=False)
    season = models.ForeignKey(
        Season, on_delete=models.PROTECT, null=True, blank=True, related_name="games"
    )
    game_type = models.CharField(max_length=30, choices=GAME_TYPE_CHOICES)
    options = models.JSONField(default=dict, help_text="House rules as played (all resolved).")
    first_dealer = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(
        max_length=12, choices=GameStatus.choices, default=GameStatus.IN_PROGRESS
    )
    played_on = models.DateField()
    ended_by_hand = models.BooleanField(
        default=False, help_text="Finished by a person rather than by the game's own end."
    )
    deal_count = models.PositiveIntegerField(default=0)
    revision = models.PositiveIntegerField(
        default=0,
        help_text="Goes up with every change a phone at the table should see: a deal, a bid, "
        "a correction, an undo, the end of the game, a lock or its release.",
    )
    locked_at = models.DateTimeField(
        null=True, blank=True, help_text="Since when the game takes no more changes."
    )
    locked_reason = models.CharField(
        max_length=200, blank=True, help_text="Why it is locked, as shown to the table."
    )
    # Where it was played: a tournament table refers to its game (tournaments app).
    created_by = done_by()
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_by = done_by()
    ended_by_name = models.CharField(
        max_length=200,
        blank=True,
        default="",
        db_default="",
        help_text="Who finished it by hand or abandoned it, as the deal history names people "
        "(empty when the game ended by its own rules, or before this was kept).",
    )
    rated = models.BooleanField(
        default=True,
        help_text="Counts for the club's ratings once finished (a tournament "
        "may say its games do not).",
    )
    kept_by_starter = models.BooleanField(
        default=True,
        db_default=True,
        help_text="Whoever started it may score it, seated or not (someone keeping a "
        "table's score); not a game started for a tournament's table, which its director "
        "scores while a director.",
    )

    class Meta:
        ordering = ["-played_on", "-id"]
        indexes = [models.Index(fields=["club", "status"])]
        constraints = [
            models.CheckConstraint(condition=Q(game_type__in=list(GAMES)), name="game_type_known"),
            in_choices("status", GameStatus, "game_status_valid"),
            models.CheckConstraint(
                condition=Q(status=GameStatus.IN_PROGRESS) | Q(ended_at__isnull=False),
                name="game_ended_has_time",
            ),
            models.CheckConstraint(
                condition=Q(locked_at__isnull=True) | ~Q(locked_reason=""),
                name="game_lock_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_type_display()} #{self.pk} ({self.played_on})"


class Seat(models.Model):
    """A player's place at a game, clockwise from 0."""

    # No index of its own: the unique constraint below starts with the game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    position = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["game_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_unique_player"),
            models.CheckConstraint(condition=Q(position__lt=6), name="seat_position_range"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at seat {self.position}"


class Deal(models.Model):
    """One deal as recorded: the record as entered, what the engine made of it."""

    # No index of its own: the unique constraint below starts with the game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals", db_index=False)
    number = models.PositiveIntegerField()
    record = models.JSONField(help_text="The deal record as entered (RULES.md).")
    dealer = models.PositiveSmallIntegerField()
    scores = models.JSONField(help_text="Each seat's score for the deal.")
    totals = models.JSONField(help_text="Each seat's running total after the deal.")
    context = models.JSONField(default=dict, help_text="The deal's context from the engine.")
    version = models.PositiveIntegerField(default=1)
    entered_by = done_by()
    entered_by_name = models.CharField(
        max_length=100, blank=True, help_text="Who entered it through a table link."
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="deal_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
            models.CheckConstraint(condition=Q(version__gte=1), name="deal_version_positive"),
        ]

    def __str__(self) -> str:
        return f"deal {self.number} of game {self.game_id}"


class RevisionAction(models.TextChoices):
    RECORD = "record", "Recorded"
    CORRECT = "correct", "Corrected"
    UNDO = "undo", "Undone"


class DealRevision(models.Model):
    """Every version of every deal: who, when, what, why. Never changed or deleted.

    It refers to the game and the deal's number rather than the deal row, so the
    history of an undone deal stays.
    """

    # No index of its own: the unique constraint below starts with the game.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="revisions", db_index=False
    )
    number = models.PositiveIntegerField()
    version = models.PositiveIntegerField()
    action = models.CharField(max_length=10, choices=RevisionAction.choices)
    record = models.JSONField()
    scores = models.JSONField()
    reason = models.CharField(max_length=500, blank=True)
    changed_by = done_by()
    changed_by_name = models.CharField(max_length=100, blank=True)
    #: the browser of a guest at the table link (``TableGuest.device``); "" for members
    changed_by_device = models.CharField(max_length=32, blank=True, default="")
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "number", "version", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number", "version", "action"], name="revision_unique_version"
            ),
            in_choices("action", RevisionAction, "revision_action_valid"),
        ]

    def __str__(self) -> str:
        return f"deal {self.number} v{self.version} ({self.action}) of game {self.game_id}"


class Result(models.Model):
    """A player's standing in one game, kept in step with its deals."""

    # No index of its own: the unique constraint below starts with the game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results", db_index=False)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    position = models.PositiveSmallIntegerField()
    total = models.IntegerField(default=0)
    placing = models.PositiveSmallIntegerField(help_text="1 for the top total; ties share.")
    won = models.BooleanField(default=False)

    class Meta:
        ordering = ["game_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="result_unique_player"),
            models.UniqueConstraint(fields=["game", "position"], name="result_unique_position"),
            models.CheckConstraint(condition=Q(placing__gte=1), name="result_placing_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in game {self.game_id}: {self.total}"


class IdempotencyKey(models.Model):
    """A deal submission's key: a repeat returns the first response, never a second deal."""

    # No index of its own: the unique constraint below starts with the game.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="idempotency_keys", db_index=False
    )
    key = models.CharField(max_length=200)
    request_hash = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField()
    response_body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "key"], name="idempotency_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.key} (game {self.game_id})"


class TableLink(models.Model):
    """A link (and QR code) that lets anyone at the table enter deals for one game only."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="table_links")
    token = models.CharField(max_length=64, unique=True)
    created_by = done_by()
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game"], condition=Q(revoked_at__isnull=True), name="table_link_one_active"
            ),
        ]

    def __str__(self) -> str:
        return f"table link of game {self.game_id}"


class DiscardedGame(models.Model):
    """A game discarded before anyone played it (e.g. a tournament table started again
    with a late arrival, or its round taken back), and the table link it had: a phone
    still on its page is sent on to the game that link now opens, or told why there is
    none, instead of "not found"."""

    #: How long its page still sends a member on to the table's game (or says why there is
    #: none) rather than "not found"; older rows are deleted when another game is discarded.
    KEPT = timedelta(days=30)

    game_id = models.PositiveBigIntegerField(primary_key=True)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    link_token = models.CharField(max_length=64, blank=True)
    discarded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"discarded game {self.game_id}"


class DealDraft(models.Model):
    """Part of a deal entered before play ends (prediction whist bids), kept on the server
    so that a reload or a dead battery loses nothing."""

    # No index of its own: the unique constraint below starts with the game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="drafts", db_index=False)
    number = models.PositiveIntegerField()
    data = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="draft_unique_number"),
        ]

    def __str__(self) -> str:
        return f"draft of deal {self.number} of game {self.game_id}"


# --- Ratings ------------------------------------------------------------------------------


class Rating(models.Model):
    """A player's current rating in one game type (openskill's μ and σ), kept equal to
    their latest :class:`RatingChange` by the ratings service."""

    # No index of their own: an index below starts with each.
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings", db_index=False)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="ratings", db_index=False
    )
    game_type = models.CharField(max_length=30, choices=GAME_TYPE_CHOICES)
    mu = models.FloatField()
    sigma = models.FloatField()
    shown = models.IntegerField(help_text="The conservative figure: 1000 + 40 × (μ − 3σ).")
    games = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-shown"]
        indexes = [models.Index(fields=["club", "game_type", "-shown"])]
        constraints = [
            models.UniqueConstraint(fields=["player", "game_type"], name="rating_unique"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game_type}: {self.shown}"


class RatingChange(models.Model):
    """What one finished game did to one player's rating. ``key`` orders the club's games
    as played (day, then the time it ended, then id)."""

    # No index of their own (but the season's): an index below starts with each.
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    season = models.ForeignKey(
        Season, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    game_type = models.CharField(max_length=30, choices=GAME_TYPE_CHOICES)
    key = models.CharField(max_length=60)
    played_on = models.DateField()
    placing = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    shown_before = models.IntegerField()
    shown_after = models.IntegerField()
    games = models.PositiveIntegerField(help_text="The player's rated games of the type so far.")

    class Meta:
        ordering = ["key", "player_id"]
        indexes = [
            models.Index(fields=["club", "game_type", "key"]),
            models.Index(fields=["player", "game_type", "key"]),
        ]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rating_change_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in game {self.game_id}: {self.shown_before} → {self.shown_after}"

    @property
    def shown_change(self) -> int:
        return self.shown_after - self.shown_before


class JobStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class RatingJob(models.Model):
    """A recomputation of a club's ratings of one game type from a day on, asked for in the
    transaction that changed a finished game and run by a Celery task; its progress is
    what the club's admins see while they wait."""

    # No index of its own: the index below starts with the club.
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="rating_jobs", db_index=False
    )
    game_type = models.CharField(max_length=30, choices=GAME_TYPE_CHOICES)
    from_key = models.CharField(max_length=60, help_text="Games from this key on are rated again.")
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["club", "status"])]

    def __str__(self) -> str:
        return f"ratings of {self.game_type} from {self.from_key or 'the start'}: {self.status}"


class SeasonStanding(models.Model):
    """A player's season in figures, per game type (``game_type`` "" for all games): kept by
    the services whenever a finished game of the season changes, and its rating columns by
    the ratings job, so a season's standings are read, not added up."""

    # No index of its own: the unique constraint below starts with the season.
    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="standings", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game_type = models.CharField(max_length=30, blank=True)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    total = models.IntegerField(default=0)
    deals = models.PositiveIntegerField(default=0)
    placing_sum = models.PositiveIntegerField(default=0)
    rating = models.IntegerField(null=True, blank=True)
    rating_change = models.IntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["season", "game_type", "player"], name="season_standing_unique"
            ),
            models.CheckConstraint(
                condition=Q(wins__lte=F("games")), name="standing_wins_le_games"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in season {self.season_id} ({self.game_type or 'all'})"
