"""Club life through the API: members and their roles, invitations, the roster's links,
claims and merges, and closing a season. What a caller may do is the services' to decide
(403 with the rule in words); what they may see, the club's (404 for non-members)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, cast

from django.contrib.auth.models import User
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from scorekeeper import access, selectors, services
from scorekeeper.models import Club, Player, Role, Season

from .. import serializers as s
from ..permissions import IS_MEMBER, Rule, actor_of, found
from .base import CHANGE_REFUSED, ApiView, operation, post_operation, responds

INVITES = Rule(
    lambda actor, club: access.role_in(actor, club) in (Role.ADMIN, Role.DIRECTOR),
    "only the club's admins and directors see and make invitations",
)


class MembersApiView(ApiView):
    tag = "members"


class ClubMembersView(MembersApiView):
    @operation("clubs_members_list", responds(200, s.MembershipOutput(many=True), 401, 404))
    def get(self, request: Request, club_id: int) -> Response:
        """The club's members and their roles (members)"""
        club = self.club(club_id)
        return Response(s.MembershipOutput(selectors.club_members(club), many=True).data)


class ClubMemberView(MembersApiView):
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
        membership = self.write(s.RoleInput, services.membership_set, club=club, user=user)
        return Response(s.MembershipOutput(membership).data)

    @operation("clubs_members_remove", responds(204, None, 401, 403, 404, 409), request=None)
    def delete(self, request: Request, club_id: int, user_id: int) -> Response:
        """Remove a member (admins), or leave the club (oneself)"""
        club = self.club(club_id)
        user = self._member(club, user_id)
        services.membership_remove(actor=actor_of(request), club=club, user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubInvitationsView(MembersApiView):
    action_rules = {"GET": INVITES, "POST": INVITES}

    @operation(
        "clubs_invitations_list", responds(200, s.InvitationOutput(many=True), 401, 403, 404)
    )
    def get(self, request: Request, club_id: int) -> Response:
        """The club's invitations that can still be used (admins, directors)"""
        club = self.club(club_id)
        invitations = selectors.open_invitations(club)
        body = s.InvitationOutput(invitations, many=True, context={"request": request}).data
        return Response(body)

    @operation(
        "clubs_invitations_create",
        responds(201, s.InvitationOutput, 400, 401, 403, 404),
        request=s.InvitationInput,
    )
    def post(self, request: Request, club_id: int) -> Response:
        """Make an invitation link, mailed when an email address is given (admins; directors for
        any role but admin)"""
        club = self.club(club_id)
        base_url = request.build_absolute_uri("/")
        invitation = self.write(
            s.InvitationInput, services.invitation_create, club=club, base_url=base_url
        )
        return self.created(s.InvitationOutput(invitation, context={"request": request}).data)


class ClubInvitationView(MembersApiView):
    action_rules = {"DELETE": INVITES}

    @operation("clubs_invitations_revoke", responds(204, None, 401, 403, 404), request=None)
    def delete(self, request: Request, club_id: int, invitation_id: int) -> Response:
        """Withdraw an invitation: its link stops working (admins, directors)"""
        club = self.club(club_id)
        invitation = found(lambda: selectors.club_invitation(club, invitation_id))
        services.invitation_revoke(actor=actor_of(request), invitation=invitation)
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationAcceptView(MembersApiView):
    @operation(
        "invitations_accept",
        responds(200, s.MembershipOutput, 400, 401, 404, 409),
        request=s.InvitationAcceptInput,
    )
    def post(self, request: Request) -> Response:
        """Join a club with an invitation's token

        409 for an invitation that expired, was withdrawn or is used up."""
        membership = self.write(s.InvitationAcceptInput, services.invitation_accept)
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


class PlayerActionView(PlayerApiView):
    # A POST on one of the club's players: ``service`` takes the actor, the player and the
    # body as ``input`` parses it (none: the body is not read) and ``arguments`` turns it;
    # ``output`` renders what it answers, with ``output_context``.

    input: ClassVar[type[Serializer[Any]] | None] = None
    service: ClassVar[Callable[..., Any]]
    output: ClassVar[type[Serializer[Any]]] = s.PlayerOutput
    output_context: ClassVar[dict[str, Any]] = {"show_email": True}

    def arguments(self, club_id: int, data: dict[str, Any]) -> dict[str, Any]:
        return data

    def post(self, request: Request, club_id: int, player_id: int) -> Response:
        player = self.player(club_id, player_id)
        data = self.parse(self.input, request.data) if self.input else {}
        arguments = self.arguments(club_id, data)
        done = type(self).service(actor=actor_of(request), player=player, **arguments)
        return Response(self.output(done, context=self.output_context).data)


PLAYER = responds(200, s.PlayerOutput, *CHANGE_REFUSED)


@post_operation(
    "clubs_players_link", PLAYER, doc="Link a player to a member's account, or unlink it (admins)"
)
class PlayerLinkView(PlayerActionView):
    input = s.PlayerLinkInput
    service = services.player_link

    def arguments(self, club_id: int, data: dict[str, Any]) -> dict[str, Any]:
        club = self.club(club_id)
        user = None
        if data["user"] is not None:
            user = found(lambda: selectors.member_of(club, data["user"]))
        return {"user": user}


@post_operation(
    "clubs_players_claim",
    responds(200, s.PlayerOutput, 401, 403, 404, 409),
    doc=""" "That's me": claim a player, for an admin to confirm (members)""",
)
class PlayerClaimView(PlayerActionView):
    service = services.player_claim
    output_context = {}


@post_operation(
    "clubs_players_claim_decide",
    PLAYER,
    doc="Confirm a member's claim on a player, or turn it down (admins)",
)
class PlayerClaimDecisionView(PlayerActionView):
    input = s.ClaimDecisionInput
    service = services.player_claim_decide


@post_operation(
    "clubs_players_merge",
    responds(200, s.PlayerMergeOutput, *CHANGE_REFUSED),
    doc="""Merge this player into another of the club: one person, two entries (admins)

    Every seat, result and tournament entry moves to `into`; this player leaves the roster;
    standings and ratings are worked out again. 409 when the two played at one table.""",
)
class PlayerMergeView(PlayerActionView):
    input = s.PlayerMergeInput
    service = services.player_merge
    output = s.PlayerMergeOutput
    output_context = {}

    def arguments(self, club_id: int, data: dict[str, Any]) -> dict[str, Any]:
        return {"into": self.player(club_id, data["into"])}


class SeasonView(ApiView):
    tag = "seasons"

    def season(self, season_id: int) -> Season:
        actor = actor_of(self.request)
        return cast(Season, found(lambda: selectors.season_of_member(actor, season_id)))

    @operation(
        "seasons_rename",
        responds(200, s.SeasonOutput, 400, 401, 403, 404),
        request=s.SeasonRenameInput,
    )
    def patch(self, request: Request, season_id: int) -> Response:
        """Rename a season (admins, directors)"""
        renamed = self.write(
            s.SeasonRenameInput, services.season_rename, season=self.season(season_id)
        )
        return Response(s.SeasonOutput(renamed).data)

    @operation("seasons_delete", responds(204, None, 401, 403, 404, 409), request=None)
    def delete(self, request: Request, season_id: int) -> Response:
        """Delete a season no game counts in, made by mistake (admins, directors)

        A season with games played in it, or one a tournament counts in, is refused with
        409 saying why (a season with games is ended early instead: seasons/{id}/close/)."""
        services.season_delete(actor=actor_of(request), season=self.season(season_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


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
        closed = self.write(s.SeasonCloseInput, services.season_close, season=season)
        return Response(s.SeasonOutput(closed).data)
