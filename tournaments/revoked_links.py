"""Tells a guest why their table link stopped working: the tournament round closed (the
links of a round's tables are revoked at close), or its publishing was taken back (the
tables' games and links are gone; the printed cards work again once it is published).
Registered with :mod:`scorekeeper.revoked_links` in
:meth:`tournaments.apps.TournamentsConfig.ready`."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from scorekeeper import access
from scorekeeper.models import Result, TableLink
from scorekeeper.revoked_links import Explanation

from . import selectors
from .models import RoundStatus, Table


def result_text(table: Table) -> str:
    """The result as "Ann 4, Bob 0, Cy 0": each player's game total, in seat order."""
    if table.game_id is None:
        return "no result"
    rows = Result.objects.filter(game_id=table.game_id).select_related("player")
    parts = [f"{r.player.name} {r.total}" for r in rows.order_by("position")]
    return ", ".join(parts) if parts else "no result"


def explain_closed_round(
    request: HttpRequest, token: str, link: TableLink | None
) -> Explanation | None:
    """A table link of a closed round: which round, and the result that stands."""
    if link is None:
        return None
    table = (
        Table.objects.select_related("round__tournament__club", "game")
        .filter(game_id=link.game_id)
        .first()
    )
    if table is None or table.round.status != RoundStatus.CLOSED:
        return None
    round = table.round
    tournament = round.tournament
    message = (
        f"Round {round.number} of {tournament.name} is closed; the result of table "
        f"{table.number} stands as {result_text(table)}."
    )
    if table.unfinished and selectors.played_out(table):
        message += " Nobody at the table had confirmed it when the round was closed."
    elif table.unfinished:
        message += " The table had not finished: the round was closed at its totals."
    url = text = ""
    if access.can_read_results(request.user, tournament.club):
        url = reverse("tournament-standings", kwargs={"tournament_id": tournament.pk})
        text = f"Standings of {tournament.name}"
    return Explanation(
        title=f"Round {round.number} is closed", message=message, link_url=url, link_text=text
    )


def explain_round_not_published(
    request: HttpRequest, token: str, link: TableLink | None
) -> Explanation | None:
    """A table card of a round whose publishing was taken back (its games are gone, the
    card's token stays with its table): not in play until the round is published again."""
    if link is not None:
        return None
    table = (
        Table.objects.select_related("round__tournament")
        .filter(link_token=token, game__isnull=True)
        .first()
    )
    if table is None or table.round.status != RoundStatus.SEATED:
        return None
    round = table.round
    return Explanation(
        title=f"Round {round.number} is not published",
        message=(
            f"Table {table.number} of {round.tournament.name} is not in play: the director "
            f"took round {round.number} back to change its seating. This card works again "
            "once the round is published; ask the director."
        ),
    )
