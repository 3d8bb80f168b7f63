"""URLs of the phone pages. Game pages live in game_views, the rest in club_views."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import club_views, game_views

urlpatterns = [
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Clubs, players, new games (club_views)
    path("c/<slug:slug>/", club_views.club_home, name="club"),
    path("c/<slug:slug>/new/", club_views.game_new, name="game-new"),
    path("c/<slug:slug>/new/<str:game_type>/", club_views.game_setup, name="game-setup"),
    path("p/<int:player_id>/", club_views.player_page, name="player"),
    path("g/<int:game_id>/table/", club_views.table_link_page, name="table-link"),
    path("t/<str:token>/", club_views.table_link_enter, name="table-enter"),
    path("shared/<str:signed>/", club_views.shared_game, name="game-shared"),
    # The game page and everything entered on it (game_views)
    path("g/<int:game_id>/", game_views.game_page, name="game"),
    path("g/<int:game_id>/deal/", game_views.deal_save, name="deal-save"),
    path("g/<int:game_id>/preview/", game_views.deal_preview, name="deal-preview"),
    path("g/<int:game_id>/bids/", game_views.bids_save, name="bids-save"),
    path("g/<int:game_id>/undo/", game_views.deal_undo, name="deal-undo"),
    path("g/<int:game_id>/finish/", game_views.game_finish, name="game-finish"),
    path("g/<int:game_id>/d/<int:number>/", game_views.deal_page, name="deal"),
]
