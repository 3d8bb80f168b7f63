"""The deal write path: a fixed, small number of SQL statements, the same on a long game as
on a short one (the next deal is scored from the last stored deal, not a replay)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper import rows
from scorekeeper.models import Deal, DealRevision, Game, IdempotencyKey, Result, Role
from tests.api.helpers import WIDOW_DEALS, World, client_for
from tests.concurrency import run_together
from tests.factories import ClubFactory, member, start_game

# Statements of one deal POST that read or write, as the database sees them outside a test's
# own transaction; the transaction's own BEGIN and COMMIT are not counted. On the embedded
# default the rate limit of unknown tokens is read from the database cache, one of the ten;
# with a Redis cache (CACHE_URL) it is not a statement. What they are is listed in the
# failure message when this changes.
MAX_STATEMENTS = 10
TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT")


def _post_next_deal(world: World, game: Game, key: str) -> list[str]:
    game.refresh_from_db()
    number = game.deal_count + 1
    body: dict[str, Any] = {"number": number, **WIDOW_DEALS[number % len(WIDOW_DEALS)]}
    client = world.client("scorer")
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/v1/games/{game.pk}/deals/", body, HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 201, response.json()
    statements = [query["sql"] for query in queries.captured_queries]
    return [sql for sql in statements if not sql.upper().startswith(TRANSACTION_CONTROL)]


@pytest.mark.django_db(transaction=True)
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
    # The deal, its history, its key, the game and its results: on PostgreSQL one statement
    # (a WITH of five writes), elsewhere one each.
    writes = [sql for sql in on_short if sql.startswith(("INSERT", "UPDATE", "DELETE", "WITH"))]
    assert len(writes) == (1 if connection.vendor == "postgresql" else 5), listing
    # Deals are read one by number (the last one, with the game), never the game's deals
    # as a whole.
    reads = [sql for sql in on_long if '"scorekeeper_deal"' in sql and sql.startswith("SELECT")]
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


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same_key", [False, True])
def test_four_phones_posting_one_deal_at_once_leave_one_deal(same_key: bool) -> None:
    """Through the API, where the game is read and locked once for visibility and write."""
    club = ClubFactory()
    phones = [member(club, Role.SCORER) for _ in range(4)]
    game = start_game(club, "widow_whist", 3, actor=phones[0])
    body = {"number": 1, "widow": None, "tricks": [5, 4, 4]}

    def phone(i: int) -> Callable[[], Any]:
        user = phones[0] if same_key else phones[i]
        key = "same" if same_key else f"phone-{i}"
        return lambda: client_for(user).post(
            f"/api/v1/games/{game.pk}/deals/", body, HTTP_IDEMPOTENCY_KEY=key
        )

    responses = run_together([phone(i) for i in range(4)])
    codes = sorted(response.status_code for response in responses)
    assert codes == ([201] * 4 if same_key else [201, 409, 409, 409])
    assert Deal.objects.filter(game=game).count() == 1
    assert DealRevision.objects.filter(game=game).count() == 1
    if same_key:
        assert len({json.dumps(r.json(), sort_keys=True) for r in responses}) == 1


@pytest.mark.django_db(transaction=True)
def test_a_batch_of_writes_saves_each_row_and_gives_the_inserted_their_keys() -> None:
    from scorekeeper import rows

    club = ClubFactory()
    game = start_game(club, "widow_whist", 3)
    batch = rows.Batch()

    def revision(version: int, action: str) -> DealRevision:
        return DealRevision(
            game=game, number=1, version=version, action=action, record={}, scores=[]
        )

    first = batch.insert(revision(1, "record"))
    second = batch.insert(revision(2, "undo"))
    game.deal_count = 7
    batch.update(game, ["deal_count"])
    assert first.pk is None  # nothing is written before the batch is sent
    with CaptureQueriesContext(connection) as queries:
        batch.send()
    assert len(queries) == (1 if connection.vendor == "postgresql" else 3)
    assert first.pk and second.pk and first.pk != second.pk
    saved = DealRevision.objects.in_bulk([first.pk, second.pk])
    assert (saved[first.pk].version, saved[second.pk].action) == (1, "undo")
    assert Game.objects.get(pk=game.pk).deal_count == 7
    with pytest.raises(ValueError, match="one write per row"):
        batch.update(game, ["deal_count"])
        batch.update(game, ["revision"])  # one statement on PostgreSQL: only one would count


@pytest.mark.django_db(transaction=True)
def test_the_game_read_and_the_deal_write_are_planned_once_per_connection(world: World) -> None:
    """On PostgreSQL the locked game read and the deal's one write are prepared statements
    once a connection has run them a few times (scorekeeper.statements); on SQLite there
    is nothing to prepare."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's (SQLite has no planner to spare)")
    game = world.start(options={"finish": {"deals": 40}})
    for number in range(1, 9):
        _post_next_deal(world, game, f"p{number}")
    prepared = _prepared_statements()
    assert any("FOR UPDATE OF" in sql for sql in prepared), prepared
    assert any(sql.startswith("WITH w0 AS (INSERT INTO") for sql in prepared), prepared
    # Only those: the ORM's statements are not counted, and the connection's own threshold
    # is back to none once the hot statement has run.
    assert len(prepared) == 2, prepared
    assert connection.connection.prepare_threshold is None


@pytest.mark.django_db(transaction=True)
def test_prepared_statements_can_be_turned_off(world: World, settings: Any) -> None:
    """DB_PREPARED_STATEMENTS=false (behind a pooler that cannot keep them): nothing is
    prepared, however often the hot statements run."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's (SQLite has no planner to spare)")
    settings.HOT_STATEMENTS_PREPARE_AFTER = None
    connection.close()  # a connection of its own, with nothing prepared yet
    game = world.start(options={"finish": {"deals": 40}})
    for number in range(1, 9):
        _post_next_deal(world, game, f"p{number}")
    assert _prepared_statements() == []


def _prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.django_db
def test_values_written_as_they_are_are_those_the_orm_would_write(world: World) -> None:
    """The batch writes a plain value (an int of an integer field or key, a str of a text
    field, a bool) without the field's own preparation: for every column of the rows a
    deal writes, it is what ``get_db_prep_save`` would give, of the same type (PostgreSQL:
    an integer field's value typed as its column); any other value (None, an enum member,
    a date, JSON) goes through the field."""
    game = world.start()
    for number in range(1, 4):
        _post_next_deal(world, game, f"v{number}")
    plain = 0
    for model in (Game, Deal, DealRevision, IdempotencyKey, Result):
        _, columns = rows._insert_text(model, connection.vendor)
        for instance in model.objects.all()[:5]:
            fast = rows._values(instance, columns, True)
            for (field, attname, kind, _), value in zip(columns, fast, strict=True):
                if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
                    continue
                orm = field.get_db_prep_save(field.pre_save(instance, True), connection)
                assert (type(value), repr(value)) == (type(orm), repr(orm)), (model, field.name)
                plain += kind is not None and type(getattr(instance, attname)) is kind
    assert plain > 20  # the plain values were written as they are
