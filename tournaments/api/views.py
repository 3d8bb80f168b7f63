"""Tournament endpoints: parse with an input serializer, call a service or a selector,
render with an output serializer. Visibility as everywhere in the API: a club's
tournaments are its members' (others: 404; anonymous: 401), except the standings of a
club that publishes its results. Writes are for the club's admins and directors (403
for other members), except confirming a table, which is for a player seated at it."""

from __future__ import annotations

from typing import Any, ClassVar

from django.urls import reverse
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from scorekeeper.api.permissions import Rule, actor_of
from scorekeeper.api.views import (
    CHANGE_REFUSED,
    ApiView,
    ClubCollectionView,
    collection_operations,
    operation,
    post_operation,
    responds,
)
from scorekeeper.errors import NotFound

from .. import access, selectors, services
from ..models import Round, Table, Tournament
from . import serializers as s

DIRECTS = Rule(access.can_direct, access.NOT_A_DIRECTOR)


class TournamentView(ApiView):
    tag = "tournaments"

    # Looks up the tournament (404 unless the caller is a member of its club), then checks
    # the method's rule against its club.

    def tournament(self, tournament_id: int) -> Tournament:
        try:
            tournament = selectors.tournament_visible_to(actor_of(self.request), tournament_id)
        except NotFound as error:
            raise exceptions.NotFound(error.message) from None
        self.check_object_permissions(self.request, tournament.club)
        return tournament

    def url(self, name: str, *args: int) -> str:
        return self.request.build_absolute_uri(reverse(f"tournaments_api:{name}", args=args))

    def round(self, tournament: Tournament, number: int) -> Round:
        return selectors.round_numbered(tournament, number)

    def table(self, round: Round, number: int) -> Table:
        return selectors.table_numbered(round, number)

    def table_at(self, tournament_id: int, number: int, table: int) -> Table:
        return self.table(self.round(self.tournament(tournament_id), number), table)

    def table_body(self, table: Table) -> Any:
        """The table as it is now, as the round's tables list it."""
        (fresh,) = [t for t in selectors.round_tables(table.round) if t.pk == table.pk]
        return s.TableOutput(fresh).data

    def tables_body(self, round: Round) -> Any:
        conflicts = selectors.round_conflicts(round) if round.status != "closed" else []
        tables = selectors.round_tables(round)
        return s.TableOutput(tables, many=True, context={"conflicts": conflicts}).data


# --- Tournaments -----------------------------------------------------------------------------


@collection_operations(
    "tournaments",
    listing="The club's tournaments, latest first (members)",
    adding="""Create a tournament (admins, directors)

    The house rules are checked by the rules engine. A round is a number of deals (widow whist:
    its finish option ends the game there; other games: the round allows that many deals), a
    whole game, or a time limit after which the deal in progress is finished.""",
)
class ClubTournamentsView(TournamentView, ClubCollectionView):
    action_rules = {"POST": DIRECTS}
    output = s.TournamentOutput
    input = s.TournamentInput
    service = services.tournament_create
    detail = "tournament-detail"
    listed = staticmethod(selectors.tournaments_of)


class TournamentDetailView(TournamentView):
    @operation("tournaments_retrieve", responds(200, s.TournamentOutput, 401, 404))
    def get(self, request: Request, tournament_id: int) -> Response:
        """A tournament and its settings (members)"""
        return Response(s.TournamentOutput(self.tournament(tournament_id)).data)


# --- Registrations ---------------------------------------------------------------------------


def _registrations_body(tournament: Tournament) -> Any:
    number = selectors.check_in_round(tournament)
    return s.RegistrationOutput(
        selectors.registrations(tournament), many=True, context={"check_in_round": number}
    ).data


class RegistrationsView(TournamentView):
    action_rules = {"POST": DIRECTS}

    @operation(
        "tournaments_registrations_list", responds(200, s.RegistrationOutput(many=True), 401, 404)
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """Who is registered, withdrawn, checked in for the next round (members)

        A check-in carries over: checked_in says whether the player is present for the round
        check-ins are for (checked in then or earlier, and not checked out since)."""
        return Response(_registrations_body(self.tournament(tournament_id)))

    @operation(
        "tournaments_registrations_create",
        responds(200, s.RegistrationOutput(many=True), *CHANGE_REFUSED),
        request=s.RegisterInput,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        """Register players: from the roster, or new on the spot (admins, directors)

        Late arrivals too, between rounds: with check_in they are checked in from the next round.
        With everyone, every active roster player not yet registered is registered. Answers with
        every registration."""
        tournament = self.tournament(tournament_id)
        data = self.parse(s.RegisterInput, request.data, club=tournament.club)
        services.register_many(
            actor=actor_of(request),
            tournament=tournament,
            players=data["players"],
            new_players=data["new_players"],
            everyone=data["everyone"],
            check_in=data["check_in"],
        )
        return Response(_registrations_body(tournament))


class RegistrationActionView(TournamentView):
    """A POST that changes some registrations (a service taking the actor, the tournament
    and the parsed input), answered with every registration."""

    action_rules = {"POST": DIRECTS}
    service: ClassVar[Any]
    input: ClassVar[type[Serializer[Any]]]

    def post(self, request: Request, tournament_id: int) -> Response:
        tournament = self.tournament(tournament_id)
        data = self.parse(type(self).input, request.data, club=tournament.club)
        type(self).service(actor=actor_of(request), tournament=tournament, **data)
        return Response(_registrations_body(tournament))


REGISTRATIONS = responds(200, s.RegistrationOutput(many=True), *CHANGE_REFUSED)


@post_operation("tournaments_check_in", REGISTRATIONS)
class CheckInView(RegistrationActionView):
    """Check players in from the next round on (admins, directors)

    They stay checked in for later rounds until they check out."""

    service = services.check_in
    input = s.CheckInInput


@post_operation("tournaments_check_out", REGISTRATIONS)
class CheckOutView(RegistrationActionView):
    """Check players out from the next round on (admins, directors)

    A check-in carries over to later rounds; a player who leaves checks out and is not
    seated again until checked in. Unlike a withdrawal they stay in the tournament."""

    service = services.check_out
    input = s.CheckOutInput


@post_operation("tournaments_withdraw", REGISTRATIONS)
class WithdrawView(RegistrationActionView):
    """Withdraw players between rounds (admins, directors)

    Refused (409) for a player in a round that has not closed."""

    service = services.withdraw
    input = s.WithdrawInput


# --- Rounds ----------------------------------------------------------------------------------


class RoundsView(TournamentView):
    action_rules = {"POST": DIRECTS}

    @operation("tournaments_rounds_list", responds(200, s.RoundOutput(many=True), 401, 404))
    def get(self, request: Request, tournament_id: int) -> Response:
        """The tournament's rounds (members)"""
        tournament = self.tournament(tournament_id)
        return Response(s.RoundOutput(tournament.rounds.order_by("number"), many=True).data)

    @operation(
        "tournaments_rounds_create",
        responds(202, s.RoundOutput, *CHANGE_REFUSED),
        request=s.RoundRequestInput,
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        """Seat the next round, in the background (admins, directors)

        Answers 202 with the round: poll it until seating_status is done (then swap players if need
        be, and publish) or failed (say why in seating_error; ask again once fixed). Asking again
        while the last round has not closed answers that round: it never makes a second round nor
        seats anyone twice. Players are seated from those checked in for the round."""
        tournament = self.tournament(tournament_id)
        data = self.parse(s.RoundRequestInput, request.data)
        round, _ = services.round_request(
            actor=actor_of(request), tournament=tournament, method=data["seating_method"]
        )
        round.refresh_from_db()
        return Response(
            s.RoundOutput(round).data,
            status=status.HTTP_202_ACCEPTED,
            headers={"Location": self.url("tournament-round", tournament.pk, round.number)},
        )


class RoundDetailView(TournamentView):
    @operation("tournaments_rounds_retrieve", responds(200, s.RoundOutput, 401, 404))
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        """A round: its seating status and progress, byes and conflicts (members)"""
        round = self.round(self.tournament(tournament_id), number)
        return Response(s.RoundOutput(round).data)


class RoundActionView(TournamentView):
    """A director's POST on a round (a service taking the actor, the round and the parsed
    input), answered with the round as it is afterwards."""

    action_rules = {"POST": DIRECTS}
    service: ClassVar[Any]
    input: ClassVar[type[Serializer[Any]]]

    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        round = self.round(self.tournament(tournament_id), number)
        data = self.parse(type(self).input, request.data)
        round = type(self).service(actor=actor_of(request), round=round, **data)
        return Response(s.RoundOutput(round).data)


ROUND = responds(200, s.RoundOutput, *CHANGE_REFUSED)


@post_operation("tournaments_rounds_publish", ROUND)
class RoundPublishView(RoundActionView):
    """Publish a seated round: start each table's game (admins, directors)

    Each table gets an ordinary game and a table link; players with an email address are
    told where they sit (in the background)."""

    service = services.round_publish
    input = s.PublishInput


@post_operation("tournaments_rounds_close", ROUND)
class RoundCloseView(RoundActionView):
    """Close a round (admins, directors)

    Refused with 409 (details.unconfirmed lists the tables) while tables have not confirmed,
    unless force: then they are marked unfinished and their games finished at their current
    totals. A round also closes by itself when every table has confirmed, and at its
    deadline when it is timed."""

    service = services.round_close
    input = s.CloseInput


class RoundSwapView(TournamentView):
    action_rules = {"POST": DIRECTS}

    @operation(
        "tournaments_rounds_swap",
        responds(200, s.SwapOutput, *CHANGE_REFUSED),
        request=s.SwapInput,
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        """Swap two players' places before publishing (admins, directors)

        Allowed even when it repeats a meeting or a bye: the round's conflicts are answered, for the
        director to see."""
        tournament = self.tournament(tournament_id)
        round = self.round(tournament, number)
        data = self.parse(s.SwapInput, request.data, club=tournament.club)
        first, second = data["players"]
        conflicts = services.round_swap(
            actor=actor_of(request), round=round, first=first, second=second
        )
        tables = selectors.round_tables(round)
        body = {
            "conflicts": [c.as_dict() for c in conflicts],
            "tables": s.TableOutput(tables, many=True, context={"conflicts": conflicts}).data,
        }
        return Response(body)


class TablesView(TournamentView):
    @operation("tournaments_rounds_tables_list", responds(200, s.TableOutput(many=True), 401, 404))
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        """A round's tables: seats, state (not started, playing deal n, finished, confirmed),
        conflicts (members)"""
        round = self.round(self.tournament(tournament_id), number)
        return Response(self.tables_body(round))


class TableActionView(TournamentView):
    """A POST on one table of a round (a service taking the actor, the table and the parsed
    input), answered with the table as it is afterwards."""

    service: ClassVar[Any]
    input: ClassVar[type[Serializer[Any]]]

    def post(self, request: Request, tournament_id: int, number: int, table: int) -> Response:
        found = self.table_at(tournament_id, number, table)
        data = self.parse(type(self).input, request.data)
        type(self).service(actor=actor_of(request), table=found, **data)
        return Response(self.table_body(found))


TABLE = responds(200, s.TableOutput, *CHANGE_REFUSED)


@post_operation("tournaments_rounds_tables_confirm", TABLE)
class TableConfirmView(TableActionView):
    """Confirm a table's result (a player seated at it)

    By someone other than whoever recorded the last deal (403 otherwise). A table at its deal
    limit has its game finished there. The last table to confirm closes the round."""

    service = services.table_confirm
    input = s.ConfirmInput


@post_operation("tournaments_rounds_tables_reopen", TABLE)
class TableReopenView(TableActionView):
    """Reopen a confirmed table (directors)

    Clears the table's confirmation and unlocks its game so its deals can be corrected; who
    reopened it and why are kept. In a closed round the round's points and the standings are
    computed again, and the director confirms the table again once it is corrected. 409 when
    the table is not locked."""

    service = services.table_reopen
    input = s.ReopenInput


# --- Standings -------------------------------------------------------------------------------


class StandingsView(TournamentView):
    permission_classes = [AllowAny]

    @operation("tournaments_standings", responds(200, s.TournamentStandingsOutput, 401, 404))
    def get(self, request: Request, tournament_id: int) -> Response:
        """The tournament's standings: rank, points, tie-breaks

        Readable without logging in when the club makes its results public; otherwise by the club's
        members only (anonymous callers: 401, others: 404). Rebuilt in the background after each
        round closes (updated_at)."""
        try:
            tournament = selectors.tournament_results_readable_by(actor_of(request), tournament_id)
        except NotFound as error:
            if not request.user.is_authenticated:
                raise exceptions.NotAuthenticated() from None
            raise exceptions.NotFound(error.message) from None
        body = {
            "tournament": tournament,
            "updated_at": tournament.standings_updated_at,
            "tie_breaks": tournament.tie_breaks,
            "standings": selectors.standings(tournament),
        }
        return Response(s.TournamentStandingsOutput(body).data)
