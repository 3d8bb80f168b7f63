"""URLs of the tournament pages, all under ``tournaments/`` (included by
:mod:`scorekeeper.urls` before the phone pages)."""

from django.urls import path

from . import views

T = "tournaments/<int:tournament_id>/"
R = T + "rounds/<int:number>/"

urlpatterns = [
    path("tournaments/c/<slug:slug>/", views.tournament_list, name="tournament-list"),
    path(
        "tournaments/c/<slug:slug>/new/<str:game_type>/",
        views.tournament_new,
        name="tournament-new",
    ),
    path(T, views.dashboard, name="tournament"),
    path(T + "status/", views.dashboard_status, name="tournament-status"),
    path(T + "edit/", views.tournament_edit, name="tournament-edit"),
    path(T + "delete/", views.tournament_delete, name="tournament-delete"),
    path(T + "announce/", views.announce, name="tournament-announce"),
    path(T + "announce/withdraw/", views.announce_withdraw, name="tournament-announce-withdraw"),
    path(T + "register/", views.register, name="tournament-register"),
    path(T + "register/new/", views.register_new, name="tournament-register-new"),
    path(T + "check-in/", views.check_in, name="tournament-check-in"),
    path(T + "check-out/", views.check_out, name="tournament-check-out"),
    path(T + "withdraw/", views.withdraw, name="tournament-withdraw"),
    path(T + "seat/", views.seat, name="tournament-seat"),
    path(T + "jobs/retry/", views.job_retry, name="tournament-job-retry"),
    path(R + "swap/", views.swap, name="tournament-swap"),
    path(R + "publish/", views.publish, name="tournament-publish"),
    path(R + "unpublish/", views.unpublish, name="tournament-unpublish"),
    path(R + "close/", views.close, name="tournament-close"),
    path(R + "cards/", views.table_cards, name="tournament-cards"),
    path(T + "seating/", views.seating, name="tournament-seating"),
    path(T + "standings/", views.standings, name="tournament-standings"),
    path(T + "find/", views.find_table, name="tournament-find"),
    path(
        "tournaments/tables/<int:table_id>/confirm/",
        views.table_confirm,
        name="tournament-table-confirm",
    ),
    path(
        "tournaments/tables/<int:table_id>/reopen/",
        views.table_reopen,
        name="tournament-table-reopen",
    ),
]
