"""The demo tournament of ``seed_demo``: round 1 played and confirmed, round 2 under way."""

from __future__ import annotations

import datetime
import random

from django.contrib.auth.models import User
from django.db import transaction

from scorekeeper import selectors as core_selectors
from scorekeeper import services as core
from scorekeeper.access import TableGuest
from scorekeeper.management.demo import SEED, made_up_deals
from scorekeeper.models import Club, Player

from . import services
from .models import Round, Table, Tournament

NAME = "Riverside widow whist night"
DEALS_PER_ROUND = 3


def _seat_and_publish(director: User, tournament: Tournament) -> Round:
    round, _ = services.round_request(actor=director, tournament=tournament)
    services.round_seat(tournament_id=tournament.pk, number=round.number)  # the seating job
    round.refresh_from_db()
    return services.round_publish(actor=director, round=round, notify=False)


def _play(director: User, table: Table, rng: random.Random, deals: int) -> list[str]:
    """Record ``deals`` deals at the table; returns the seated players' names."""
    game = table.game
    assert game is not None
    names = [seat.player.name for seat in game.seats.select_related("player").order_by("position")]
    records = made_up_deals(
        rng,
        game.game_type,
        names,
        options=game.options,
        first_dealer=game.first_dealer,
        deals=deals,
    )
    for number, record in enumerate(records, start=1):
        core.deal_record(actor=director, game=game, number=number, record=record)
    return names


@transaction.atomic
def seed_tournament(club: Club, director: User, today: datetime.date) -> list[str]:
    """Create the demo tournament unless the club has it; say what was created."""
    if Tournament.objects.filter(club=club, name=NAME).exists():
        return []
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name=NAME,
        game_type="widow_whist",
        rounds=3,
        round_kind="deals",
        round_deals=DEALS_PER_ROUND,
        season=core_selectors.season_for_date(club, today),
        played_on=today,
    )
    services.register(
        actor=director,
        tournament=tournament,
        players=list(Player.objects.filter(club=club, active=True).order_by("name")),
        check_in=True,
    )
    rng = random.Random(SEED + 1)
    first = _seat_and_publish(director, tournament)
    for table in first.tables.select_related("game").order_by("number"):
        names = _play(director, table, rng, DEALS_PER_ROUND)
        assert table.game is not None
        # A second player at the table confirms, through the table link.
        services.table_confirm(actor=TableGuest(game_id=table.game.pk, name=names[1]), table=table)
    services.check_in(actor=director, tournament=tournament, everyone=True)
    second = _seat_and_publish(director, tournament)
    playing = second.tables.select_related("game").order_by("number").first()
    assert playing is not None
    _play(director, playing, rng, 1)
    # Ready before any worker runs (the job on commit would do the same again).
    services.standings_recompute(tournament_id=tournament.pk)
    return [f"tournament {NAME} (round 1 played and confirmed, round 2 under way)"]
