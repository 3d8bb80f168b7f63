"""URLs of the phone pages. Game pages live in game_views, the rest in club_views; what
keeps a page current (its version, a lost save's outcome) in live_views."""

from collections.abc import Callable
from typing import Any

from django.urls import URLPattern, include, path
from django.views.decorators.cache import never_cache

from . import (
    club_views,
    game_views,
    live_views,
    member_views,
    offline_views,
    rating_views,
    trick_views,
)


def page(route: str, view: Callable[..., Any], name: str) -> URLPattern:
    """A club or game page: never shown from the browser's cache (Back, Forward) but
    asked for again, so its totals and forms are the current ones."""
    return path(route, never_cache(view), name=name)


urlpatterns = [
    # Accounts: django-allauth's pages (sign up, in and out, verification, reset, change)
    path("accounts/delete/", member_views.account_delete, name="account-delete"),
    path("accounts/", include("allauth.urls")),
    page("me/games/", member_views.my_games, name="my-games"),
    # Club life: starting a club, members and invitations, roster, seasons (member_views)
    path("clubs/new/", member_views.club_create, name="club-create"),
    page("c/<slug:slug>/members/", member_views.club_members, name="club-members"),
    path(
        "c/<slug:slug>/members/<int:user_id>/role/",
        member_views.member_role,
        name="member-role",
    ),
    path(
        "c/<slug:slug>/members/<int:user_id>/remove/",
        member_views.member_remove,
        name="member-remove",
    ),
    path(
        "c/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        member_views.invitation_revoke,
        name="invitation-revoke",
    ),
    page("join/<str:token>/", member_views.join, name="join"),
    page("c/<slug:slug>/roster/", member_views.club_roster, name="club-roster"),
    path(
        "c/<slug:slug>/roster/<int:player_id>/",
        member_views.player_change,
        name="player-change",
    ),
    page("c/<slug:slug>/seasons/", member_views.club_seasons, name="club-seasons"),
    path(
        "c/<slug:slug>/seasons/<int:season_id>/close/",
        member_views.season_close,
        name="season-close",
    ),
    path(
        "c/<slug:slug>/seasons/<int:season_id>/current/",
        member_views.season_make_current,
        name="season-current",
    ),
    # Clubs, players, new games (club_views)
    page("c/<slug:slug>/", club_views.club_home, name="club"),
    page("c/<slug:slug>/new/", club_views.game_new, name="game-new"),
    page("c/<slug:slug>/new/<str:game_type>/", club_views.game_setup, name="game-setup"),
    page("p/<int:player_id>/", club_views.player_page, name="player"),
    # Ratings and standings' downloads (rating_views)
    page("c/<slug:slug>/ratings/", rating_views.club_ratings, name="club-ratings"),
    path("c/<slug:slug>/ratings/retry/", rating_views.ratings_retry, name="club-ratings-retry"),
    path("ratings/", rating_views.ratings_explained, name="ratings-explained"),
    page(
        "s/<int:season_id>/standings.csv",
        rating_views.season_standings_csv,
        name="season-standings-csv",
    ),
    page("g/<int:game_id>/table/", club_views.table_link_page, name="table-link"),
    page("t/<str:token>/", club_views.table_link_enter, name="table-enter"),
    path("shared/<str:signed>/", club_views.shared_game, name="game-shared"),
    # The game page and everything entered on it (game_views); offline, an installed app
    # with its service worker (at the root: its scope is every page) (offline_views)
    path("sw.js", offline_views.service_worker, name="service-worker"),
    path("g/<int:game_id>/manifest.webmanifest", offline_views.manifest, name="game-manifest"),
    page("g/<int:game_id>/", game_views.game_page, name="game"),
    page("g/<int:game_id>/deal/", game_views.deal_save, name="deal-save"),
    page("g/<int:game_id>/preview/", game_views.deal_preview, name="deal-preview"),
    page("g/<int:game_id>/bids/", game_views.bids_save, name="bids-save"),
    page("g/<int:game_id>/undo/", game_views.deal_undo, name="deal-undo"),
    page("g/<int:game_id>/finish/", game_views.game_finish, name="game-finish"),
    page("g/<int:game_id>/d/<int:number>/", game_views.deal_page, name="deal"),
    page("g/<int:game_id>/collision/", game_views.deal_collision, name="deal-collision"),
    # The rules assistant: who won a trick (trick_views); nothing stored
    page("g/<int:game_id>/trick/", trick_views.trick_page, name="game-trick"),
    # Live: a conditional GET of the game's version (304 while unchanged), and whether a
    # save whose answer was lost recorded its deal.
    path("g/<int:game_id>/version/", live_views.game_version, name="game-version"),
    path("g/<int:game_id>/deals/by-key/<str:key>/", live_views.deal_by_key, name="deal-by-key"),
]
