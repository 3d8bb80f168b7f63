"""The API's views: parse with an input serializer, call a service or a selector, render
with an output serializer. Who may see what is decided in :mod:`..permissions` (and, for
writes, again by the services); the rules of the games by the services and the engine.

One module a subject (:mod:`.auth`, :mod:`.clubs`, :mod:`.members`, :mod:`.games`,
:mod:`.deals`, :mod:`.rules`); what they
share, and the OpenAPI helpers other apps' views use too, is in :mod:`.base`."""

from ..limits import TokenThrottle
from .auth import TokenView
from .base import (
    CHANGE_REFUSED,
    ApiView,
    ClubCollectionView,
    NotFoundView,
    collection_operations,
    operation,
    post_operation,
    responds,
)
from .clubs import (
    ClubDetailView,
    ClubListView,
    ClubPlayersView,
    ClubSeasonsView,
    SeasonStandingsView,
)
from .deals import DealDetailView, DealHistoryView, DealListView
from .games import (
    GameAbandonView,
    GameDetailView,
    GameFinishView,
    GameListView,
    GameUndoView,
)
from .members import (
    ClubInvitationsView,
    ClubInvitationView,
    ClubMembersView,
    ClubMemberView,
    ClubPlayerView,
    InvitationAcceptView,
    PlayerClaimDecisionView,
    PlayerClaimView,
    PlayerLinkView,
    PlayerMergeView,
    SeasonCloseView,
    SeasonView,
)
from .rules import TrickView

__all__ = [
    "CHANGE_REFUSED",
    "ApiView",
    "ClubCollectionView",
    "ClubDetailView",
    "ClubInvitationView",
    "ClubInvitationsView",
    "ClubMemberView",
    "ClubMembersView",
    "ClubPlayerView",
    "ClubListView",
    "ClubPlayersView",
    "ClubSeasonsView",
    "DealDetailView",
    "DealHistoryView",
    "DealListView",
    "GameAbandonView",
    "GameDetailView",
    "GameFinishView",
    "GameListView",
    "GameUndoView",
    "InvitationAcceptView",
    "NotFoundView",
    "PlayerClaimDecisionView",
    "PlayerClaimView",
    "PlayerLinkView",
    "PlayerMergeView",
    "SeasonCloseView",
    "SeasonView",
    "SeasonStandingsView",
    "TokenThrottle",
    "TokenView",
    "TrickView",
    "collection_operations",
    "operation",
    "post_operation",
    "responds",
]
