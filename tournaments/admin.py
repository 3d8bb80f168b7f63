"""Django admin for tournaments: browse everything, change nothing.

Registrations, rounds, tables, seats and standings are written by
:mod:`tournaments.services` alone (they keep the seating, the games and the standings in
step), so every page here is read-only; directors use the API or the pages.
"""

from __future__ import annotations

from django.contrib import admin

from scorekeeper.admin import ReadOnlyAdmin, ReadOnlyMixin

from .models import Registration, Round, RoundPlayer, Standing, Table, Tournament


class RegistrationInline(ReadOnlyMixin, admin.TabularInline):  # type: ignore[type-arg]
    model = Registration
    extra = 0
    fields = ["player", "status", "checked_in_round", "late", "withdrawn_after_round"]


class RoundInline(ReadOnlyMixin, admin.TabularInline):  # type: ignore[type-arg]
    model = Round
    extra = 0
    fields = ["number", "status", "seating_status", "seating_progress", "deadline", "closed_at"]
    show_change_link = True


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ["name", "club", "game_type", "rounds_planned", "round_kind", "status"]
    list_filter = ["club", "game_type", "status"]
    search_fields = ["name", "club__name"]
    date_hierarchy = "played_on"
    inlines = [RegistrationInline, RoundInline]


class TableInline(ReadOnlyMixin, admin.TabularInline):  # type: ignore[type-arg]
    model = Table
    extra = 0
    fields = ["number", "size", "first_dealer", "game", "deal_limit", "confirmed_at", "unfinished"]
    show_change_link = True


class RoundPlayerInline(ReadOnlyMixin, admin.TabularInline):  # type: ignore[type-arg]
    model = RoundPlayer
    extra = 0
    fields = ["player", "table", "position", "score", "points", "table_win", "notified_at"]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "number", "status", "seating_status", "deadline", "closed_at"]
    list_filter = ["status", "seating_status"]
    inlines = [TableInline, RoundPlayerInline]


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["round", "number", "size", "game", "confirmed_at", "confirmed_by_name"]


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "rank", "player", "points", "game_score", "table_wins"]
    list_filter = ["tournament"]
