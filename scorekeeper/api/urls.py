"""``/api/v1/``: ids in paths are numbers; every path ends with a slash."""

from django.urls import path, re_path

from . import views

app_name = "api"

urlpatterns = [
    path("auth/token/", views.TokenView.as_view(), name="auth-token"),
    path("clubs/", views.ClubListView.as_view(), name="club-list"),
    path("clubs/<int:club_id>/", views.ClubDetailView.as_view(), name="club-detail"),
    path("clubs/<int:club_id>/players/", views.ClubPlayersView.as_view(), name="club-players"),
    path(
        "clubs/<int:club_id>/players/<int:player_id>/",
        views.ClubPlayerView.as_view(),
        name="club-player",
    ),
    path(
        "clubs/<int:club_id>/players/<int:player_id>/link/",
        views.PlayerLinkView.as_view(),
        name="player-link",
    ),
    path(
        "clubs/<int:club_id>/players/<int:player_id>/claim/",
        views.PlayerClaimView.as_view(),
        name="player-claim",
    ),
    path(
        "clubs/<int:club_id>/players/<int:player_id>/claim/decision/",
        views.PlayerClaimDecisionView.as_view(),
        name="player-claim-decision",
    ),
    path(
        "clubs/<int:club_id>/players/<int:player_id>/merge/",
        views.PlayerMergeView.as_view(),
        name="player-merge",
    ),
    path("clubs/<int:club_id>/members/", views.ClubMembersView.as_view(), name="club-members"),
    path(
        "clubs/<int:club_id>/members/<int:user_id>/",
        views.ClubMemberView.as_view(),
        name="club-member",
    ),
    path(
        "clubs/<int:club_id>/invitations/",
        views.ClubInvitationsView.as_view(),
        name="club-invitations",
    ),
    path(
        "clubs/<int:club_id>/invitations/<int:invitation_id>/",
        views.ClubInvitationView.as_view(),
        name="club-invitation",
    ),
    path("invitations/accept/", views.InvitationAcceptView.as_view(), name="invitation-accept"),
    path("clubs/<int:club_id>/seasons/", views.ClubSeasonsView.as_view(), name="club-seasons"),
    path("seasons/<int:season_id>/close/", views.SeasonCloseView.as_view(), name="season-close"),
    path(
        "seasons/<int:season_id>/standings/",
        views.SeasonStandingsView.as_view(),
        name="season-standings",
    ),
    path("games/", views.GameListView.as_view(), name="game-list"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<int:game_id>/finish/", views.GameFinishView.as_view(), name="game-finish"),
    path("games/<int:game_id>/abandon/", views.GameAbandonView.as_view(), name="game-abandon"),
    path("games/<int:game_id>/undo/", views.GameUndoView.as_view(), name="game-undo"),
    path("games/<int:game_id>/deals/", views.DealListView.as_view(), name="deal-list"),
    path(
        "games/<int:game_id>/deals/<int:number>/",
        views.DealDetailView.as_view(),
        name="deal-detail",
    ),
    path(
        "games/<int:game_id>/deals/<int:number>/history/",
        views.DealHistoryView.as_view(),
        name="deal-history",
    ),
    path("rules/trick/", views.TrickView.as_view(), name="rules-trick"),
    # Last: anything else under /api/v1/ is a 404 in the API's error format.
    re_path(r"^", views.NotFoundView.as_view(), name="not-found"),
]
