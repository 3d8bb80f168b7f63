"""Tournament paths under ``/api/v1/`` (included by :mod:`scorekeeper.urls` before the
core API, whose last pattern answers every other path with a 404 in the API's format)."""

from django.urls import path

from . import views

app_name = "tournaments_api"

T = "tournaments/<int:tournament_id>/"
R = T + "rounds/<int:number>/"

urlpatterns = [
    path(
        "clubs/<int:club_id>/tournaments/",
        views.ClubTournamentsView.as_view(),
        name="club-tournaments",
    ),
    path(T, views.TournamentDetailView.as_view(), name="tournament-detail"),
    path(T + "registrations/", views.RegistrationsView.as_view(), name="tournament-registrations"),
    path(T + "registrations/check-in/", views.CheckInView.as_view(), name="tournament-check-in"),
    path(T + "registrations/check-out/", views.CheckOutView.as_view(), name="tournament-check-out"),
    path(T + "registrations/withdraw/", views.WithdrawView.as_view(), name="tournament-withdraw"),
    path(T + "rounds/", views.RoundsView.as_view(), name="tournament-rounds"),
    path(R, views.RoundDetailView.as_view(), name="tournament-round"),
    path(R + "publish/", views.RoundPublishView.as_view(), name="tournament-round-publish"),
    path(R + "close/", views.RoundCloseView.as_view(), name="tournament-round-close"),
    path(R + "swap/", views.RoundSwapView.as_view(), name="tournament-round-swap"),
    path(R + "tables/", views.TablesView.as_view(), name="tournament-tables"),
    path(
        R + "tables/<int:table>/confirm/",
        views.TableConfirmView.as_view(),
        name="tournament-table-confirm",
    ),
    path(
        R + "tables/<int:table>/reopen/",
        views.TableReopenView.as_view(),
        name="tournament-table-reopen",
    ),
    path(T + "standings/", views.StandingsView.as_view(), name="tournament-standings"),
]
