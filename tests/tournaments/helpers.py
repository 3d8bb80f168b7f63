"""Helpers for the tournament tests."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from scorekeeper import selectors as core_selectors
from scorekeeper import services as core
from scorekeeper.access import TableGuest
from scorekeeper.models import Club, Player
from tournaments import services
from tournaments.models import Round, Table, Tournament

# Widow whist deals with no widow taken (every target 3): the scores are tricks − 3.
# WIN[i] gives seat i the top score.
WIN = [
    {"widow": None, "tricks": [7, 3, 3]},  # +4  0  0
    {"widow": None, "tricks": [3, 7, 3]},
    {"widow": None, "tricks": [3, 3, 7]},
]
EVEN = {"widow": None, "tricks": [5, 4, 4]}  # +2 +1 +1


def widow_whist_cup(
    director: User,
    club: Club,
    name: str,
    players: Sequence[Player] = (),
    *,
    rounds: int = 2,
) -> Tournament:
    """A widow whist tournament of ``rounds`` rounds of 3 deals, run by ``director``, with
    ``players`` registered and checked in (none: nobody registered yet)."""
    tournament = services.tournament_create(
        actor=director,
        club=club,
        name=name,
        game_type="widow_whist",
        rounds=rounds,
        round_kind="deals",
        round_deals=3,
    )
    if players:
        services.register(actor=director, tournament=tournament, players=players, check_in=True)
    return tournament


@dataclass
class Event:
    club: Club
    director: User
    players: list[Player]
    capture: Callable[..., Any]

    def tournament(self, **kwargs: Any) -> Tournament:
        kwargs.setdefault("name", "Autumn open")
        kwargs.setdefault("game_type", "widow_whist")
        kwargs.setdefault("rounds", 3)
        kwargs.setdefault("round_kind", "deals")
        if kwargs["round_kind"] == "deals":
            kwargs.setdefault("round_deals", 3)
        return services.tournament_create(actor=self.director, club=self.club, **kwargs)

    def enter(
        self, tournament: Tournament, players: Sequence[Player] | int = 9, check_in: bool = True
    ) -> None:
        if isinstance(players, int):
            players = self.players[:players]
        with self.capture(execute=True):
            services.register(
                actor=self.director, tournament=tournament, players=players, check_in=check_in
            )

    def seat(self, tournament: Tournament, **kwargs: Any) -> Round:
        """Ask for the next round; the seating task runs in-process on commit."""
        with self.capture(execute=True):
            round, _ = services.round_request(actor=self.director, tournament=tournament, **kwargs)
        round.refresh_from_db()
        return round

    def publish(self, round: Round, notify: bool = False) -> Round:
        with self.capture(execute=True):
            services.round_publish(actor=self.director, round=round, notify=notify)
        round.refresh_from_db()
        return round

    def check_in_all(self, tournament: Tournament) -> None:
        with self.capture(execute=True):
            services.check_in(actor=self.director, tournament=tournament, everyone=True)


def seats(table: Table) -> list[Player]:
    return [place.player for place in table.seats.select_related("player").order_by("position")]


def guest(table: Table, name: str) -> TableGuest:
    """Someone at the table, through its table link."""
    assert table.game is not None
    link = core_selectors.active_table_link(table.game)
    assert link is not None
    found = core_selectors.table_guest(link.token, name=name)
    assert found is not None
    return found


def play(table: Table, records: Sequence[dict[str, Any]], by: str = "Scorer") -> None:
    """Record deals at the table through its table link, as ``by``."""
    assert table.game is not None
    actor = guest(table, by)
    for record in records:
        table.game.refresh_from_db()
        core.deal_record(
            actor=actor, game=table.game, number=table.game.deal_count + 1, record=record
        )
    table.game.refresh_from_db()


def tables(round: Round) -> list[Table]:
    return list(round.tables.select_related("game").order_by("number"))
