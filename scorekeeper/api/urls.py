"""``/api/v1/``: ids in paths are numbers; every path ends with a slash."""

from django.urls import path, re_path

from . import views

app_name = "api"

C = "clubs/<int:club_id>/"
P = C + "players/<int:player_id>/"
G = "games/<int:game_id>/"
D = G + "deals/<int:number>/"

urlpatterns = [
    path("auth/token/", views.TokenView.as_view(), name="auth-token"),
    path("clubs/", views.ClubListView.as_view(), name="club-list"),
    path(C, views.ClubDetailView.as_view(), name="club-detail"),
    path(C + "players/", views.ClubPlayersView.as_view(), name="club-players"),
    path(P, views.ClubPlayerView.as_view(), name="club-player"),
    path(P + "link/", views.PlayerLinkView.as_view(), name="player-link"),
    path(P + "claim/", views.PlayerClaimView.as_view(), name="player-claim"),
    path(
        P + "claim/decision/", views.PlayerClaimDecisionView.as_view(), name="player-claim-decision"
    ),
    path(P + "merge/", views.PlayerMergeView.as_view(), name="player-merge"),
    path(C + "members/", views.ClubMembersView.as_view(), name="club-members"),
    path(C + "members/<int:user_id>/", views.ClubMemberView.as_view(), name="club-member"),
    path(C + "invitations/", views.ClubInvitationsView.as_view(), name="club-invitations"),
    path(
        C + "invitations/<int:invitation_id>/",
        views.ClubInvitationView.as_view(),
        name="club-invitation",
    ),
    path("invitations/accept/", views.InvitationAcceptView.as_view(), name="invitation-accept"),
    path(C + "seasons/", views.ClubSeasonsView.as_view(), name="club-seasons"),
    path("seasons/<int:season_id>/", views.SeasonView.as_view(), name="season"),
    path("seasons/<int:season_id>/close/", views.SeasonCloseView.as_view(), name="season-close"),
    path(
        "seasons/<int:season_id>/standings/",
        views.SeasonStandingsView.as_view(),
        name="season-standings",
    ),
    path("games/", views.GameListView.as_view(), name="game-list"),
    path(G, views.GameDetailView.as_view(), name="game-detail"),
    path(G + "finish/", views.GameFinishView.as_view(), name="game-finish"),
    path(G + "abandon/", views.GameAbandonView.as_view(), name="game-abandon"),
    path(G + "undo/", views.GameUndoView.as_view(), name="game-undo"),
    path(G + "deals/", views.DealListView.as_view(), name="deal-list"),
    path(D, views.DealDetailView.as_view(), name="deal-detail"),
    path(D + "history/", views.DealHistoryView.as_view(), name="deal-history"),
    path("rules/trick/", views.TrickView.as_view(), name="rules-trick"),
    # Last: anything else under /api/v1/ is a 404 in the API's error format.
    re_path(r"^", views.NotFoundView.as_view(), name="not-found"),
]
