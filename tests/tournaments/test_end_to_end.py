"""A whole small tournament: seven players of widow whist, three rounds of three deals,
seated by new opponents, deals recorded at the tables through their table links
(``scorekeeper.services.deal_record``), confirmed by a second person."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from itertools import combinations

import pytest

from scorekeeper.models import GameStatus, Result
from tests.tournaments.helpers import EVEN, WIN, Event, guest, play, seats, tables
from tournaments import points, selectors, services
from tournaments.models import RoundPlayer, RoundStatus, Standing, TournamentStatus

pytestmark = pytest.mark.django_db


def test_a_whole_tournament(event: Event) -> None:
    t = event.tournament(name="Evening", rounds=3, round_deals=3)
    event.enter(t, 7, check_in=False)
    met: Counter[frozenset[int]] = Counter()
    for number in (1, 2, 3):
        event.check_in_all(t)
        round = event.seat(t)
        assert round.number == number and round.status == RoundStatus.SEATED
        event.publish(round)
        for table in tables(round):
            ids = [p.pk for p in seats(table)]
            met.update(frozenset(pair) for pair in combinations(ids, 2))
            # Table n: seat (n + number) % 3 takes the first two deals, then an even deal.
            winner = (table.number + number) % 3
            play(table, [WIN[winner], WIN[winner], EVEN], by="Scorer")
            assert table.game.status == GameStatus.FINISHED  # finish: {"deals": 3}
            assert selectors.table_state(table) == ("finished", None)
            with event.capture(execute=True):
                # Someone else at the table confirms, under their own name.
                checker = guest(table, seats(table)[(winner + 1) % 3].name)
                services.table_confirm(actor=checker, table=table)
        round.refresh_from_db()
        assert round.status == RoundStatus.CLOSED and round.close_reason == "confirmed"

    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    # Seven players, three rounds: one bye a round, never the same player twice.
    byes = list(RoundPlayer.objects.filter(round__tournament=t, table__isnull=True))
    assert len({b.player_id for b in byes}) == 3
    # New opponents: seven players cannot avoid every repeat, but nobody meets thrice.
    assert max(met.values()) <= 2
    rows = list(Standing.objects.filter(tournament=t).order_by("rank", "player__name"))
    assert len(rows) == 7
    assert all(row.rounds_played + row.byes == 3 for row in rows)
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
    for row in rows:
        stored = RoundPlayer.objects.filter(round__tournament=t, player=row.player)
        # Rounded per round and in all: equal to within the rounding.
        assert abs(row.points - sum(p.points for p in stored)) <= Decimal("0.003")
        games = Result.objects.filter(game__tournament_table__round__tournament=t)
        assert row.game_score == sum(r.total for r in games.filter(player=row.player))
    # Each round hands out 1½ points a table, and the bye the average of ½.
    for round in t.rounds.all():
        given = sum(p.points for p in round.players.all())
        assert given == Decimal("1.5") * round.tables.count() + Decimal("0.5")
    # The stored standings are what points.py makes of the games.
    rule = selectors.points_rule(t)
    expected = points.standings(
        [selectors.round_result(r) for r in t.rounds.order_by("number")], rule
    )
    assert {(s.player, s.rank) for s in expected} == {(r.player_id, r.rank) for r in rows}
