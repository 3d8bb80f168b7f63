"""The deal write path: a fixed, small number of SQL statements, the same on a long game as
on a short one (the next deal is scored from the last stored deal, not a replay)."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.models import Game
from tests.api.helpers import WIDOW_DEALS, World

# Statements of one deal POST on the embedded default, transaction control included. What
# they are is listed in the failure message when this changes.
MAX_STATEMENTS = 17


def _post_next_deal(world: World, game: Game, key: str) -> list[str]:
    game.refresh_from_db()
    number = game.deal_count + 1
    body: dict[str, Any] = {"number": number, **WIDOW_DEALS[number % len(WIDOW_DEALS)]}
    client = world.client("scorer")
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/v1/games/{game.pk}/deals/", body, HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 201, response.json()
    return [query["sql"] for query in queries.captured_queries]


def test_a_deal_post_runs_a_fixed_number_of_statements(world: World) -> None:
    short = world.start(options={"finish": {"deals": 200}})
    world.record(short, *WIDOW_DEALS[:5])
    long = world.start(options={"finish": {"deals": 200}})
    world.record(long, *(WIDOW_DEALS * 20))  # 120 deals

    on_short = _post_next_deal(world, short, "short-6")
    on_long = _post_next_deal(world, long, "long-121")

    listing = "\n".join(sql[:120] for sql in on_short)
    assert len(on_short) <= MAX_STATEMENTS, listing
    assert len(on_long) == len(on_short), listing
    # Deals are read one by number (the last one), never the game's deals as a whole.
    reads = [sql for sql in on_long if 'FROM "scorekeeper_deal"' in sql]
    assert reads and all('"scorekeeper_deal"."number" =' in sql for sql in reads), reads


def test_deals_scored_from_the_last_stored_deal_match_a_replay(world: World) -> None:
    from scorekeeper.scoring import sheet_for

    game = world.start(options={"finish": {"deals": 40}})
    for number in range(1, 31):
        _post_next_deal(world, game, f"k{number}")
    game.refresh_from_db()
    replayed = sheet_for(game)
    stored = list(game.deals.order_by("number").values_list("scores", "totals", "dealer"))
    assert stored == [
        (list(deal.scores), list(deal.totals), deal.dealer) for deal in replayed.deals
    ]
    results = {r.position: r.total for r in game.results.all()}
    assert results == dict(enumerate(replayed.totals))
