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


C = "c/<slug:slug>/"  # a club's pages
MEMBER = C + "members/<int:user_id>/"
INVITATION = C + "invitations/<int:invitation_id>/"
SEASON = C + "seasons/<int:season_id>/"
G = "g/<int:game_id>/"  # a game's pages

urlpatterns = [
    # Accounts: django-allauth's pages (sign up, in and out, verification, reset, change)
    path("accounts/delete/", member_views.account_delete, name="account-delete"),
    path(
        "accounts/confirm-email/again/",
        member_views.verification_resend,
        name="account-verification-resend",
    ),
    path("accounts/", include("allauth.urls")),
    page("me/games/", member_views.my_games, name="my-games"),
    # Club life: starting a club, members and invitations, roster, seasons (member_views)
    path("clubs/new/", member_views.club_create, name="club-create"),
    page(C + "members/", member_views.club_members, name="club-members"),
    page(C + "settings/", member_views.club_settings, name="club-settings"),
    path(MEMBER + "role/", member_views.member_role, name="member-role"),
    path(MEMBER + "remove/", member_views.member_remove, name="member-remove"),
    path(INVITATION + "revoke/", member_views.invitation_revoke, name="invitation-revoke"),
    page("join/<str:token>/", member_views.join, name="join"),
    page(C + "roster/", member_views.club_roster, name="club-roster"),
    path(C + "roster/<int:player_id>/", member_views.player_change, name="player-change"),
    page(C + "seasons/", member_views.club_seasons, name="club-seasons"),
    path(SEASON + "close/", member_views.season_change, {"change": "close"}, name="season-close"),
    path(
        SEASON + "current/",
        member_views.season_change,
        {"change": "current"},
        name="season-current",
    ),
    path(
        SEASON + "rename/", member_views.season_change, {"change": "rename"}, name="season-rename"
    ),
    path(
        SEASON + "delete/", member_views.season_change, {"change": "delete"}, name="season-delete"
    ),
    # Clubs, players, new games (club_views)
    page(C, club_views.club_home, name="club"),
    page(C + "standings/", club_views.club_standings, name="club-standings"),
    page(C + "new/", club_views.game_new, name="game-new"),
    page(C + "new/<str:game_type>/", club_views.game_setup, name="game-setup"),
    page("p/<int:player_id>/", club_views.player_page, name="player"),
    # Ratings and standings' downloads (rating_views)
    page(C + "ratings/", rating_views.club_ratings, name="club-ratings"),
    path(C + "ratings/retry/", rating_views.ratings_retry, name="club-ratings-retry"),
    path("ratings/", rating_views.ratings_explained, name="ratings-explained"),
    page(
        "s/<int:season_id>/standings.csv",
        rating_views.season_standings_csv,
        name="season-standings-csv",
    ),
    page(G + "table/", club_views.table_link_page, name="table-link"),
    page("t/<str:token>/", club_views.table_link_enter, name="table-enter"),
    path("shared/<str:signed>/", club_views.shared_game, name="game-shared"),
    # The game page and everything entered on it (game_views); offline, an installed app
    # with its service worker (at the root: its scope is every page) (offline_views)
    path("sw.js", offline_views.service_worker, name="service-worker"),
    path(G + "manifest.webmanifest", offline_views.manifest, name="game-manifest"),
    page(G, game_views.game_page, name="game"),
    page(G + "deal/", game_views.deal_save, name="deal-save"),
    page(G + "preview/", game_views.deal_preview, name="deal-preview"),
    page(G + "bids/", game_views.bids_save, name="bids-save"),
    page(G + "undo/", game_views.deal_undo, name="deal-undo"),
    page(G + "finish/", game_views.game_finish, name="game-finish"),
    page(G + "abandon/", game_views.game_abandon, name="game-abandon"),
    page(G + "d/<int:number>/", game_views.deal_page, name="deal"),
    page(G + "collision/", game_views.deal_collision, name="deal-collision"),
    # The rules assistant: who won a trick (trick_views); nothing stored
    page(G + "trick/", trick_views.trick_page, name="game-trick"),
    # Live: a conditional GET of the game's version (304 while unchanged), and whether a
    # save whose answer was lost recorded its deal.
    path(G + "version/", live_views.game_version, name="game-version"),
    path(G + "deals/by-key/<str:key>/", live_views.deal_by_key, name="deal-by-key"),
]
