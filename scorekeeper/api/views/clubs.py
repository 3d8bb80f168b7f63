"""Clubs, their players and seasons, and season standings."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from scorekeeper import access, selectors, services
from scorekeeper.models import Club

from .. import serializers as s
from ..permissions import (
    ADMINISTERS,
    MANAGES_ROSTER,
    MANAGES_SEASONS,
    actor_of,
    readable_season,
    visible_club,
    visible_clubs,
)
from .base import ApiView, ClubCollectionView, collection_operations, operation, responds

# --- Clubs ------------------------------------------------------------------------------------


class ClubListView(ApiView):
    tag = "clubs"

    @operation("clubs_list", responds(200, s.ClubOutput(many=True), 401))
    def get(self, request: Request) -> Response:
        """The caller's clubs"""
        clubs = visible_clubs(actor_of(request)).order_by("name")
        return Response(s.ClubOutput(clubs, many=True).data)

    @operation("clubs_create", responds(201, s.ClubOutput, 400, 401), request=s.ClubInput)
    def post(self, request: Request) -> Response:
        """Create a club; the caller becomes its admin"""
        club = self.write(s.ClubInput, services.club_create)
        created = visible_club(request, club.pk)
        return self.created(s.ClubOutput(created).data, location=self.url("club-detail", club.pk))


class ClubDetailView(ApiView):
    tag = "clubs"
    action_rules = {"PATCH": ADMINISTERS}

    @operation("clubs_retrieve", responds(200, s.ClubOutput, 401, 404))
    def get(self, request: Request, club_id: int) -> Response:
        """One of the caller's clubs"""
        return Response(s.ClubOutput(self.club(club_id)).data)

    @operation(
        "clubs_update", responds(200, s.ClubOutput, 400, 401, 403, 404), request=s.ClubUpdateInput
    )
    def patch(self, request: Request, club_id: int) -> Response:
        """Rename the club, or make its results public or members-only (admins)"""
        club = self.write(s.ClubUpdateInput, services.club_update, club=self.club(club_id))
        return Response(s.ClubOutput(visible_club(request, club.pk)).data)


@collection_operations(
    "players",
    listing="The club's roster (members)",
    adding="Add a player to the roster (admins, directors, scorers)",
)
class ClubPlayersView(ClubCollectionView):
    action_rules = {"POST": MANAGES_ROSTER}
    output = s.PlayerOutput
    input = s.PlayerInput
    service = services.player_create
    added_context = {"show_email": True}

    def listed(self, club: Club) -> Any:
        return selectors.roster(club).select_related("user")

    def listed_context(self, club: Club) -> dict[str, Any]:
        return {"show_email": access.can_manage_roster(actor_of(self.request), club)}


@collection_operations(
    "seasons",
    listing="The club's seasons, latest first (members)",
    adding="Add a season (admins, directors)",
)
class ClubSeasonsView(ClubCollectionView):
    tag = "seasons"
    action_rules = {"POST": MANAGES_SEASONS}
    output = s.SeasonOutput
    input = s.SeasonInput
    service = services.season_create
    listed = staticmethod(selectors.seasons_of)


class SeasonStandingsView(ApiView):
    tag = "seasons"
    permission_classes = [AllowAny]

    @operation(
        "seasons_standings",
        responds(200, s.StandingsOutput, 400, 401, 404),
        parameters=[s.StandingsQuery],
    )
    def get(self, request: Request, season_id: int) -> Response:
        """A season's standings over its finished games

        Readable without logging in when the club makes its results public; otherwise by the club's
        members only (anonymous callers: 401, others: 404)."""
        season = readable_season(request, season_id)
        query = self.parse(s.StandingsQuery, request.query_params)
        game_type = query.get("game_type")
        sort = query.get("sort", "wins")
        table = selectors.season_table(season, game_type, sort)
        body = {
            "season": season,
            "game_type": table.game_type,
            "sort": table.sort,
            "standings": table.rows,
        }
        return Response(s.StandingsOutput(body).data)
