"""Club life through the API: members and their roles, invitations, the roster's links,
claims and merges, and closing a season. What a caller may do is the services' to decide
(403 with the rule in words); what they may see, the club's (404 for non-members)."""

from __future__ import annotations

from typing import cast

from django.contrib.auth.models import User
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from scorekeeper import access, selectors, services
from scorekeeper.models import Club, Player, Role, Season

from .. import serializers as s
from ..permissions import IS_MEMBER, Rule, actor_of, found
from .base import CHANGE_REFUSED, ApiView, operation, responds

INVITES = Rule(
    lambda actor, club: access.role_in(actor, club) in (Role.ADMIN, Role.DIRECTOR),
    "only the club's admins and directors see and make invitations",
)


class ClubMembersView(ApiView):
    tag = "members"

    @operation("clubs_members_list", responds(200, s.MembershipOutput(many=True), 401, 404))
    def get(self, request: Request, club_id: int) -> Response:
        """The club's members and their roles (members)"""
        club = self.club(club_id)
        return Response(s.MembershipOutput(selectors.club_members(club), many=True).data)


class ClubMemberView(ApiView):
    tag = "members"
    action_rules = {"PATCH": IS_MEMBER, "DELETE": IS_MEMBER}

    def _member(self, club: Club, user_id: int) -> User:
        return cast(User, found(lambda: selectors.member_of(club, user_id)))

    @operation(
        "clubs_members_role",
        responds(200, s.MembershipOutput, *CHANGE_REFUSED),
        request=s.RoleInput,
    )
    def patch(self, request: Request, club_id: int, user_id: int) -> Response:
        """Change a member's role (admins; the last admin stays admin)"""
        club = self.club(club_id)
        user = self._member(club, user_id)
        data = self.parse(s.RoleInput, request.data)
        membership = services.membership_set(
            actor=actor_of(request),
            club=club,
            user=user,
            role=data["role"],
        )
        return Response(s.MembershipOutput(membership).data)

    @operation("clubs_members_remove", responds(204, None, 401, 403, 404, 409), request=None)
    def delete(self, request: Request, club_id: int, user_id: int) -> Response:
        """Remove a member (admins), or leave the club (oneself)"""
        club = self.club(club_id)
        user = self._member(club, user_id)
        services.membership_remove(actor=actor_of(request), club=club, user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubInvitationsView(ApiView):
    tag = "members"
    action_rules = {"GET": INVITES, "POST": INVITES}

    @operation(
        "clubs_invitations_list", responds(200, s.InvitationOutput(many=True), 401, 403, 404)
    )
    def get(self, request: Request, club_id: int) -> Response:
        """The club's invitations that can still be used (admins, directors)"""
        club = self.club(club_id)
        invitations = selectors.open_invitations(club).filter()
        body = s.InvitationOutput(invitations, many=True, context={"request": request}).data
        return Response(body)

    @operation(
        "clubs_invitations_create",
        responds(201, s.InvitationOutput, 400, 401, 403, 404),
        request=s.InvitationInput,
    )
    def post(self, request: Request, club_id: int) -> Response:
        """Make an invitation link, mailed when an e-mail address is given (admins; directors for
        any role but admin)"""
        club = self.club(club_id)
        data = self.parse(s.InvitationInput, request.data)
        invitation = services.invitation_create(
            actor=actor_of(request),
            club=club,
            base_url=request.build_absolute_uri("/"),
            **data,
        )
        return self.created(s.InvitationOutput(invitation, context={"request": request}).data)


class ClubInvitationView(ApiView):
    tag = "members"
    action_rules = {"DELETE": INVITES}

    @operation("clubs_invitations_revoke", responds(204, None, 401, 403, 404), request=None)
    def delete(self, request: Request, club_id: int, invitation_id: int) -> Response:
        """Withdraw an invitation: its link stops working (admins, directors)"""
        club = self.club(club_id)
        invitation = found(lambda: selectors.club_invitation(club, invitation_id))
        services.invitation_revoke(actor=actor_of(request), invitation=invitation)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationAcceptView(ApiView):
    tag = "members"

    @operation(
        "invitations_accept",
        responds(200, s.MembershipOutput, 400, 401, 404, 409),
        request=s.InvitationAcceptInput,
    )
    def post(self, request: Request) -> Response:
        """Join a club with an invitation's token

        409 for an invitation that expired, was withdrawn or is used up."""
        data = self.parse(s.InvitationAcceptInput, request.data)
        membership = services.invitation_accept(actor=actor_of(request), token=data["token"])
        return Response(s.MembershipOutput(membership).data)


# --- Roster -----------------------------------------------------------------------------------


class PlayerApiView(ApiView):
    tag = "clubs"

    def player(self, club_id: int, player_id: int) -> Player:
        club = self.club(club_id)
        return cast(Player, found(lambda: selectors.club_player(club, player_id)))


class ClubPlayerView(PlayerApiView):
    @operation(
        "clubs_players_update",
        responds(200, s.PlayerOutput, 400, 401, 403, 404),
        request=s.PlayerUpdateInput,
    )
    def patch(self, request: Request, club_id: int, player_id: int) -> Response:
        """Rename a player, retire one or bring them back (admins, directors, scorers)"""
        player = self.player(club_id, player_id)
        updated = self.write(s.PlayerUpdateInput, services.player_update, player=player)
        return Response(s.PlayerOutput(updated, context={"show_email": True}).data)


class PlayerLinkView(PlayerApiView):
    @operation(
        "clubs_players_link",
        responds(200, s.PlayerOutput, *CHANGE_REFUSED),
        request=s.PlayerLinkInput,
    )
    def post(self, request: Request, club_id: int, player_id: int) -> Response:
        """Link a player to a member's account, or unlink it (admins)"""
        player = self.player(club_id, player_id)
        data = self.parse(s.PlayerLinkInput, request.data)
        club = self.club(club_id)
        user = None
        if data["user"] is not None:
            user = cast(User, found(lambda: selectors.member_of(club, data["user"])))
        linked = services.player_link(actor=actor_of(request), player=player, user=user)
        return Response(s.PlayerOutput(linked, context={"show_email": True}).data)


class PlayerClaimView(PlayerApiView):
    @operation(
        "clubs_players_claim", responds(200, s.PlayerOutput, 401, 403, 404, 409), request=None
    )
    def post(self, request: Request, club_id: int, player_id: int) -> Response:
        """ "That's me": claim a player, for an admin to confirm (members)"""
        player = self.player(club_id, player_id)
        claimed = services.player_claim(actor=actor_of(request), player=player)
        return Response(s.PlayerOutput(claimed).data)


class PlayerClaimDecisionView(PlayerApiView):
    @operation(
        "clubs_players_claim_decide",
        responds(200, s.PlayerOutput, *CHANGE_REFUSED),
        request=s.ClaimDecisionInput,
    )
    def post(self, request: Request, club_id: int, player_id: int) -> Response:
        """Confirm a member's claim on a player, or turn it down (admins)"""
        player = self.player(club_id, player_id)
        data = self.parse(s.ClaimDecisionInput, request.data)
        decided = services.player_claim_decide(
            actor=actor_of(request),
            player=player,
            accept=data["accept"],
        )
        return Response(s.PlayerOutput(decided, context={"show_email": True}).data)


class PlayerMergeView(PlayerApiView):
    @operation(
        "clubs_players_merge",
        responds(200, s.PlayerMergeOutput, *CHANGE_REFUSED),
        request=s.PlayerMergeInput,
    )
    def post(self, request: Request, club_id: int, player_id: int) -> Response:
        """Merge this player into another of the club: one person, two entries (admins)

        Every seat, result and tournament entry moves to `into`; this player leaves the roster;
        standings and ratings are worked out again. 409 when the two played at one table."""
        player = self.player(club_id, player_id)
        data = self.parse(s.PlayerMergeInput, request.data)
        into = self.player(club_id, data["into"])
        merge = services.player_merge(actor=actor_of(request), player=player, into=into)
        return Response(s.PlayerMergeOutput(merge).data)


class SeasonCloseView(ApiView):
    tag = "seasons"

    @operation(
        "seasons_close",
        responds(200, s.SeasonOutput, 400, 401, 403, 404),
        request=s.SeasonCloseInput,
    )
    def post(self, request: Request, season_id: int) -> Response:
        """End a season early, today or on a given day (admins, directors)"""
        actor = actor_of(request)
        season = cast(Season, found(lambda: selectors.season_of_member(actor, season_id)))
        data = self.parse(s.SeasonCloseInput, request.data)
        closed = services.season_close(actor=actor, season=season, on=data.get("on"))
        return Response(s.SeasonOutput(closed).data)
