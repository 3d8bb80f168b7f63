"""A table's result: confirmed by a second player, reopened by the director; the
tournament's standings rebuilt."""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction
from django.utils import timezone

from scorekeeper import access
from scorekeeper import services as core
from scorekeeper.access import Actor, TableGuest, actor_name
from scorekeeper.errors import Conflict, InvalidInput, NotAllowed
from scorekeeper.models import GameStatus
from scorekeeper.names import tidy

from .. import jobs, points, selectors
from ..access import can_direct, require_director
from ..models import (
    CloseReason,
    RegistrationStatus,
    RoundStatus,
    Standing,
    Table,
    Tournament,
)
from ._base import _decimal, _locked, _user
from .closing import _close, _lock_reason, _score_round
from .rounds import _closed_rounds


@transaction.atomic
def table_confirm(*, actor: Actor, table: Table, name: str = "") -> Table:
    """A second player at the table confirms its result: a member seated at the table, or
    someone at its table link giving a name, but not whoever recorded the last deal.
    The last table to confirm closes the round."""
    if isinstance(actor, TableGuest) and not actor.name.strip() and name.strip():
        actor = replace(actor, name=tidy(name))
    tournament = _locked(table.round.tournament_id)
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round", "game")
        .get(pk=table.pk)
    )
    round = table.round
    game = table.game
    if isinstance(actor, TableGuest):
        if game is None or actor.game_id != game.pk:
            raise NotAllowed("this table link is for another table")
        if not actor.name.strip():
            raise InvalidInput("say who you are to confirm the result", field="name")
    else:
        seated = (
            actor.is_authenticated
            and access.is_member(actor, tournament.club)
            and table.seats.filter(player__user_id=actor.pk).exists()
        )
        after_close = round.status == RoundStatus.CLOSED and can_direct(actor, tournament.club)
        if not seated and not after_close:
            raise NotAllowed("only a player at the table can confirm its result")
    if game is None or round.status not in (RoundStatus.PLAYING, RoundStatus.CLOSED):
        raise Conflict(f"round {round.number} is not being played")
    if table.confirmed_at is not None:
        raise Conflict(f"table {table.number} was already confirmed by {table.confirmed_by_name}")
    if round.status == RoundStatus.CLOSED:
        if not can_direct(actor, tournament.club):
            raise Conflict(f"round {round.number} is closed: the director confirms its tables")
        return _confirm_after_close(tournament, table, actor)
    if game.status == GameStatus.ABANDONED:
        raise Conflict("the game was abandoned: the director closes the round")
    if table.deal_limit is not None and game.deal_count > table.deal_limit:
        raise Conflict(
            f"the round has {table.deal_limit} deals at this table; undo the deals after it",
            field="number",
        )
    state, _ = selectors.table_state(table)
    if state != "finished":
        raise Conflict(f"the game is not finished: deal {game.deal_count + 1} is being played")
    if selectors.recorded_last_deal(actor, game):
        raise NotAllowed(
            "you recorded the last deal or made the latest correction: someone else at the "
            "table confirms the result"
        )
    if game.status == GameStatus.IN_PROGRESS:
        # at the round's last deal at this table: the round ends the game there (its page
        # says so; who confirmed is the table's)
        ended_by = "the tournament clock" if round.time_called_at else "the round's last deal"
        core.game_end_unfinished(game=game, by=ended_by)
    _mark_confirmed(table, actor)
    if not round.tables.filter(confirmed_at__isnull=True).exists():
        _close(tournament, round, CloseReason.CONFIRMED, None)
    return table


def _mark_confirmed(table: Table, actor: Actor) -> None:
    """Record the confirmation and lock the table's game: from now on its result stands."""
    table.confirmed_at = timezone.now()
    table.confirmed_by = _user(actor)
    table.confirmed_by_name = actor_name(actor)
    table.save(update_fields=["confirmed_at", "confirmed_by", "confirmed_by_name"])
    game = table.game
    assert game is not None
    why = f"the result of table {table.number} was confirmed by {table.confirmed_by_name}"
    if game.locked_at is not None:  # locked when its round closed: the confirmation says why
        core.game_unlock(actor=actor, game=game)
    core.game_lock(actor=actor, game=game, reason=_lock_reason(table, why))


def _confirm_after_close(tournament: Tournament, table: Table, actor: Actor) -> Table:
    """The director confirms a table of a closed round (e.g. once a reopened table's game
    is corrected): the game is locked again and the round's points and standings follow."""
    game = table.game
    assert game is not None
    if game.status == GameStatus.IN_PROGRESS:
        if game.deal_count == 0:
            raise Conflict("the game has no deal; it cannot be confirmed")
        core.game_finish(actor=actor, game=game)
    _mark_confirmed(table, actor)
    jobs.recompute_standings(tournament.pk)
    return table


@transaction.atomic
def table_reopen(*, actor: Actor, table: Table, reason: str) -> Table:
    """The director reopens a confirmed table (or a table of a closed round): its
    confirmation is cleared, its game can be corrected again, who and why are kept, and
    the round's points and the standings are computed again. In a round still being
    played the table confirms again as before; in a closed round the director confirms it."""
    tournament = _locked(table.round.tournament_id)
    require_director(actor, tournament.club)
    reason = " ".join(reason.split())
    if not reason:
        raise InvalidInput("say why the table is reopened", field="reason")
    if len(reason) > 500:
        raise InvalidInput("a reason has at most 500 characters", field="reason")
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round", "game")
        .get(pk=table.pk)
    )
    game = table.game
    if game is None or game.locked_at is None:
        state = "has not started" if game is None else "is not confirmed: it can still be played"
        raise Conflict(f"table {table.number} {state}", field="table")
    table.confirmed_at = None
    table.confirmed_by = None
    table.confirmed_by_name = ""
    table.reopened_at = timezone.now()
    table.reopened_by = _user(actor)
    table.reopened_by_name = actor_name(actor)
    table.reopen_reason = reason
    table.save(
        update_fields=[
            "confirmed_at",
            "confirmed_by",
            "confirmed_by_name",
            "reopened_at",
            "reopened_by",
            "reopened_by_name",
            "reopen_reason",
        ]
    )
    core.game_unlock(actor=actor, game=game)
    if table.round.status == RoundStatus.CLOSED:
        jobs.recompute_standings(tournament.pk)
    return table


def standings_recompute(*, tournament_id: int) -> int:
    """Rebuild the tournament's standings rows from its closed rounds (idempotent).
    Each round's stored points are refreshed too (a deal corrected after the round)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        rounds = _closed_rounds(tournament)
        for round in rounds:
            _score_round(tournament, round)
        registrations = {r.player_id: r for r in tournament.registrations.select_related("player")}
        names = {pk: r.player.name for pk, r in registrations.items()}
        rule = selectors.points_rule(tournament)
        table = points.standings(
            [selectors.round_result(r) for r in rounds],
            rule,
            players=list(registrations),
            order=lambda p: names.get(p, ""),
        )
        Standing.objects.filter(tournament=tournament).delete()
        Standing.objects.bulk_create(
            Standing(
                tournament=tournament,
                player_id=row.player,
                rank=row.rank,
                points=_decimal(row.points),
                game_score=row.game_score,
                opponents_points=_decimal(row.opponents),
                table_wins=row.table_wins,
                rounds_played=row.played,
                byes=row.byes,
                round_points=[None if v is None else float(_decimal(v)) for v in row.round_points],
                withdrawn=row.player in registrations
                and registrations[row.player].status == RegistrationStatus.WITHDRAWN,
            )
            for row in table
        )
        tournament.standings_updated_at = timezone.now()
        tournament.save(update_fields=["standings_updated_at"])
    return len(table)
