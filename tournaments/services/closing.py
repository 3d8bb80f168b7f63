"""Closing a round: unfinished tables finished or abandoned, the round scored, the next
round's seating and the standings sent as jobs. Shared by the director's close, the last
table's confirmation and the clock."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.utils import timezone

from scorekeeper import services as core
from scorekeeper.access import TableGuest
from scorekeeper.models import GameStatus, TableLink

from .. import jobs, points, selectors
from ..models import (
    CloseReason,
    Round,
    RoundPlayer,
    RoundStatus,
    Table,
    Tournament,
    TournamentStatus,
)
from ._base import _decimal


def _finish_unfinished(round: Round, reason: str, by: User | None) -> None:
    """Finish by hand (or abandon, with no deal) the games of unconfirmed tables."""
    clock = "the tournament clock" if reason == CloseReason.TIME else "the tournament director"
    for table in round.tables.filter(confirmed_at__isnull=True).select_related("game"):
        game = table.game
        if game is None:
            continue
        if game.status == GameStatus.IN_PROGRESS:
            core.game_end_unfinished(game=game, by=clock, user=by)
            table.unfinished = True
            table.save(update_fields=["unfinished"])


def _score_round(tournament: Tournament, round: Round) -> None:
    """Store each player's game score, points and table win for the round."""
    result = selectors.round_result(round)
    rule = selectors.points_rule(tournament)
    given = points.round_points(result, rule)
    scores = {p: s for t in result.tables for p, s in zip(t.players, t.scores, strict=True)}
    winners = {p for t in result.tables for p in points.table_winners(t)}
    places = list(round.players.all())
    for place in places:
        value = given.get(place.player_id)
        place.points = None if value is None else _decimal(value)
        place.score = scores.get(place.player_id)
        place.table_win = place.player_id in winners
    RoundPlayer.objects.bulk_update(places, ["points", "score", "table_win"])


def _close(tournament: Tournament, round: Round, reason: str, by: User | None) -> None:
    _finish_unfinished(round, reason, by)
    for table in round.tables.filter(confirmed_at__isnull=True):
        if not table.unfinished:  # finished but nobody confirmed it
            table.unfinished = True
            table.save(update_fields=["unfinished"])
    TableLink.objects.filter(game__tournament_table__round=round, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    why = f"round {round.number} is closed"
    for table in round.tables.filter(game__locked_at__isnull=True).select_related("game"):
        assert table.game is not None
        guest = TableGuest(game_id=table.game.pk, name="tournament director")
        core.game_lock(actor=guest, game=table.game, reason=_lock_reason(table, why))
    _score_round(tournament, round)
    round.status = RoundStatus.CLOSED
    round.closed_at = timezone.now()
    round.close_reason = reason
    round.closed_by = by
    round.save()
    if round.number >= tournament.rounds_planned:
        tournament.status = TournamentStatus.FINISHED
        tournament.save(update_fields=["status"])
    jobs.recompute_standings(tournament.pk)


def unconfirmed_text(numbers: Sequence[int]) -> str:
    """As "table 2 has not confirmed" or "tables 1 and 3 have not confirmed"."""
    listed = [str(n) for n in numbers]
    if len(listed) == 1:
        return f"table {listed[0]} has not confirmed"
    return f"tables {', '.join(listed[:-1])} and {listed[-1]} have not confirmed"


def _lock_reason(table: Table, why: str) -> str:
    return f"{why}; only the tournament director can reopen table {table.number}"
