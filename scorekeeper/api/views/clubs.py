"""Clubs, their players and seasons, and season standings."""

from __future__ import annotations

from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from scorekeeper import access, selectors, services

from .. import serializers as s
from ..permissions import (
    MANAGES_ROSTER,
    MANAGES_SEASONS,
    actor_of,
    readable_season,
    visible_club,
    visible_clubs,
)
from .base import ApiView, operation, responds

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

    @operation("clubs_retrieve", responds(200, s.ClubOutput, 401, 404))
    def get(self, request: Request, club_id: int) -> Response:
        """One of the caller's clubs"""
        return Response(s.ClubOutput(self.club(club_id)).data)


class ClubPlayersView(ApiView):
    tag = "clubs"
    action_rules = {"POST": MANAGES_ROSTER}

    @operation("clubs_players_list", responds(200, s.PlayerOutput(many=True), 401, 404))
    def get(self, request: Request, club_id: int) -> Response:
        """The club's roster (members)"""
        club = self.club(club_id)
        players = selectors.roster(club).select_related("user")
        show_email = access.can_manage_roster(actor_of(request), club)
        return Response(s.PlayerOutput(players, many=True, context={"show_email": show_email}).data)

    @operation(
        "clubs_players_create",
        responds(201, s.PlayerOutput, 400, 401, 403, 404),
        request=s.PlayerInput,
    )
    def post(self, request: Request, club_id: int) -> Response:
        """Add a player to the roster (admins, directors, scorers)"""
        player = self.write(s.PlayerInput, services.player_create, club=self.club(club_id))
        return self.created(s.PlayerOutput(player, context={"show_email": True}).data)


class ClubSeasonsView(ApiView):
    tag = "seasons"
    action_rules = {"POST": MANAGES_SEASONS}

    @operation("clubs_seasons_list", responds(200, s.SeasonOutput(many=True), 401, 404))
    def get(self, request: Request, club_id: int) -> Response:
        """The club's seasons, latest first (members)"""
        club = self.club(club_id)
        return Response(s.SeasonOutput(selectors.seasons_of(club), many=True).data)

    @operation(
        "clubs_seasons_create",
        responds(201, s.SeasonOutput, 400, 401, 403, 404),
        request=s.SeasonInput,
    )
    def post(self, request: Request, club_id: int) -> Response:
        """Add a season (admins, directors)"""
        season = self.write(s.SeasonInput, services.season_create, club=self.club(club_id))
        return self.created(s.SeasonOutput(season).data)


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
        rows = selectors.season_standings(season, game_type, sort)
        body = {"season": season, "game_type": game_type, "sort": sort, "standings": rows}
        return Response(s.StandingsOutput(body).data)
