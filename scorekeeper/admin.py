"""Django admin: browse everything; edit only what no service keeps in step.

Deals, their revisions and drafts, results, idempotency keys and table links are
written by :mod:`scorekeeper.services` alone, so their admin pages are read-only
(no add, change or delete, for anyone). A game's set-up and state are the services' too:
games are started, scored, finished and abandoned through them, so the admin
neither adds nor deletes games and lets staff change only a game's date and season.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from . import outbox
from .errors import ServiceError
from .models import (
    Club,
    Deal,
    DealDraft,
    DealRevision,
    Game,
    IdempotencyKey,
    Membership,
    OutboxJob,
    Player,
    Result,
    Season,
    Seat,
    TableLink,
)
from .services.jobs import job_retry


class ReadOnlyMixin:
    """Viewable by whoever may view it; nobody may add, change or delete it here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnlyMixin, admin.ModelAdmin):  # type: ignore[type-arg]
    pass


# --- Clubs and their people ---------------------------------------------------------------


class MembershipInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]
    readonly_fields = ["created_at"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "slug", "results_public", "created_at"]
    list_filter = ["results_public"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["created_at"]
    inlines = [MembershipInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "club", "user", "email", "active"]
    list_filter = ["club", "active"]
    search_fields = ["name", "email", "user__username"]
    list_select_related = ["club", "user"]
    autocomplete_fields = ["user"]
    readonly_fields = ["created_at"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]
    list_select_related = ["club"]
    date_hierarchy = "starts_on"


# --- Games --------------------------------------------------------------------------------


class SeatInline(ReadOnlyMixin, admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    fields = ["position", "player"]
    readonly_fields = ["position", "player"]
    ordering = ["position"]


class ResultInline(ReadOnlyMixin, admin.TabularInline):  # type: ignore[type-arg]
    model = Result
    extra = 0
    fields = ["position", "player", "total", "placing", "won"]
    readonly_fields = ["position", "player", "total", "placing", "won"]
    ordering = ["position"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = [
        "id",
        "club",
        "game_type",
        "status",
        "played_on",
        "season",
        "deal_count",
        "ended_by_hand",
    ]
    list_filter = ["club", "status", "game_type", "season"]
    search_fields = ["=id", "club__name", "seats__player__name"]
    list_select_related = ["club", "season"]
    date_hierarchy = "played_on"
    fields = [
        "club",
        "game_type",
        "options",
        "first_dealer",
        "played_on",
        "season",
        "status",
        "ended_by_hand",
        "deal_count",
        "created_by",
        "created_at",
        "updated_at",
        "ended_at",
    ]
    # What the services keep in step with the deals (or that would change their meaning).
    readonly_fields = [
        "club",
        "game_type",
        "options",
        "first_dealer",
        "status",
        "ended_by_hand",
        "deal_count",
        "created_by",
        "created_at",
        "updated_at",
        "ended_at",
    ]
    inlines = [SeatInline, ResultInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games start through the services (the app or the API)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its deals and results go with it; abandon it instead

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is not None and "season" in form.base_fields:
            seasons = form.base_fields["season"]
            seasons.queryset = Season.objects.filter(club=obj.club)  # type: ignore[attr-defined]
        return form


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = [
        "game",
        "number",
        "dealer",
        "scores",
        "totals",
        "version",
        "entered_by",
        "entered_by_name",
    ]
    list_filter = ["game__club", "game__game_type"]
    search_fields = ["=game__id"]
    list_select_related = ["game", "entered_by"]


@admin.register(DealRevision)
class DealRevisionAdmin(ReadOnlyAdmin):
    list_display = [
        "game",
        "number",
        "version",
        "action",
        "scores",
        "changed_by",
        "changed_by_name",
        "changed_at",
    ]
    list_filter = ["action", "game__club"]
    search_fields = ["=game__id", "reason"]
    list_select_related = ["game", "changed_by"]


@admin.register(Result)
class ResultAdmin(ReadOnlyAdmin):
    list_display = ["game", "player", "position", "total", "placing", "won"]
    list_filter = ["won", "game__club", "game__status"]
    search_fields = ["player__name", "=game__id"]
    list_select_related = ["game", "player"]


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(ReadOnlyAdmin):
    list_display = ["key", "game", "response_status", "created_at"]
    search_fields = ["key", "=game__id"]
    list_select_related = ["game"]


@admin.register(DealDraft)
class DealDraftAdmin(ReadOnlyAdmin):
    list_display = ["game", "number", "updated_at"]
    search_fields = ["=game__id"]
    list_select_related = ["game"]


@admin.register(TableLink)
class TableLinkAdmin(ReadOnlyAdmin):
    list_display = ["game", "created_by", "created_at", "revoked_at"]
    list_filter = ["game__club"]
    search_fields = ["=game__id"]
    list_select_related = ["game", "created_by"]
    exclude = ["token"]  # a working link's token lets anyone score the game


# --- Background jobs ------------------------------------------------------------------------


class JobStateFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("stuck", "Stuck"),
            ("waiting", "Waiting for the broker"),
            ("sent", "Sent, not done"),
            ("done", "Done"),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if value == "stuck":
            return queryset.filter(pk__in=outbox.stuck().values("pk"))
        if value == "waiting":
            return queryset.filter(sent_at__isnull=True, done_at__isnull=True)
        if value == "sent":
            return queryset.filter(sent_at__isnull=False, done_at__isnull=True)
        if value == "done":
            return queryset.filter(done_at__isnull=False)
        return queryset


@admin.register(OutboxJob)
class OutboxJobAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Every background job asked for, with its state; stuck ones can be sent again (run
    now, in the web process, through :func:`scorekeeper.services.jobs.job_retry`)."""

    list_display = ["id", "task", "args", "state", "created_at", "sent_at", "done_at", "attempts"]
    list_filter = [JobStateFilter, "task"]
    search_fields = ["task", "error"]
    date_hierarchy = "created_at"
    ordering = ["-created_at"]
    readonly_fields = [
        "task",
        "args",
        "created_at",
        "sent_at",
        "done_at",
        "retried_at",
        "attempts",
        "error",
    ]
    actions = ["send_again"]

    @admin.display(description="state")
    def state(self, job: OutboxJob) -> str:
        if job.done_at is not None:
            return "done"
        if outbox.is_stuck(job):
            return "stuck"
        return "sent" if job.sent_at is not None else "waiting"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # jobs are asked for by the services

    @admin.action(description="Send the selected stuck jobs again now", permissions=["change"])
    def send_again(self, request: HttpRequest, queryset: QuerySet[OutboxJob]) -> None:
        sent = left = 0
        for job_id in queryset.order_by("created_at").values_list("pk", flat=True):
            try:
                if job_retry(actor=request.user, job_id=job_id):
                    sent += 1
                else:
                    left += 1
            except ServiceError as error:
                self.message_user(request, error.message, messages.ERROR)
                return
        self.message_user(request, f"{sent} job(s) sent again now.", messages.SUCCESS)
        if left:
            self.message_user(
                request,
                f"{left} job(s) left alone: done, or not stuck (asked for or tried again "
                f"less than {settings.JOB_STUCK_SECONDS} s ago).",
                messages.WARNING,
            )
