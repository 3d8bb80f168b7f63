"""Two phones send the same deal number at the same moment with different Idempotency-Keys
and different deals, many times over: each time exactly one is recorded (201) and the other
gets 409 carrying the deal that was recorded. ``RACE_PAIRS`` sets how many pairs (200 by
default, up to 1,000)."""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction

from scorekeeper import selectors, services
from scorekeeper.models import Deal, DealRevision, Role
from tests.api.helpers import WIDOW_DEALS, client_for
from tests.factories import ClubFactory, member, start_game

PAIRS = min(1000, int(os.environ.get("RACE_PAIRS", "200")))
DEALS_PER_GAME = 100


@pytest.mark.django_db(transaction=True)
def test_each_pair_of_simultaneous_deals_records_exactly_one() -> None:
    club = ClubFactory()
    phones = [member(club, Role.SCORER, username=f"phone{i}") for i in range(2)]
    games = [
        start_game(club, "widow_whist", 3, actor=phones[0], options={"finish": {"deals": 100}})
        for _ in range((PAIRS + DEALS_PER_GAME - 1) // DEALS_PER_GAME)
    ]
    barrier = threading.Barrier(2, timeout=60)
    answers: list[list[Any]] = [[None] * PAIRS for _ in range(2)]

    def phone(side: int) -> None:
        client = client_for(phones[side])
        try:
            for pair in range(PAIRS):
                game = games[pair // DEALS_PER_GAME]
                number = pair % DEALS_PER_GAME + 1
                # The two sides send different deals: the 409 must carry the winner's.
                body = {"number": number, **WIDOW_DEALS[(pair + side) % len(WIDOW_DEALS)]}
                barrier.wait()
                response = client.post(
                    f"/api/v1/games/{game.pk}/deals/",
                    body,
                    HTTP_IDEMPOTENCY_KEY=f"pair-{pair}-side-{side}",
                )
                answers[side][pair] = (response.status_code, response.json(), body)
        except threading.BrokenBarrierError:
            pass
        except Exception as error:
            answers[side][PAIRS - 1] = error
            barrier.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(side,)) for side in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)

    doubled, lost, wrong = [], [], []
    for pair in range(PAIRS):
        (code_a, body_a, sent_a), (code_b, body_b, sent_b) = answers[0][pair], answers[1][pair]
        if sorted((code_a, code_b)) != [201, 409]:
            (doubled if code_a == code_b == 201 else lost).append((pair, code_a, code_b))
            continue
        won, recorded, lost_body = (
            (sent_a, body_a, body_b) if code_a == 201 else (sent_b, body_b, body_a)
        )
        error = lost_body["error"]
        if (
            error["code"] != "conflict"
            or error["field"] != "number"
            or error["deal"] != won["number"]
            or error["details"]["deal"] != recorded
            or recorded["record"] != {k: v for k, v in won.items() if k != "number"}
        ):
            wrong.append((pair, error))
    assert not doubled, f"both recorded: {doubled[:5]}"
    assert not lost, f"not exactly one 201 and one 409: {lost[:5]}"
    assert not wrong, f"a 409 without the recorded deal: {wrong[:3]}"
    assert Deal.objects.count() == PAIRS
    assert DealRevision.objects.count() == PAIRS
    for index, game in enumerate(games):
        game.refresh_from_db()
        assert game.deal_count == min(DEALS_PER_GAME, PAIRS - index * DEALS_PER_GAME)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("case", ["next deal", "same deal re-sent", "after a correction"])
def test_a_deal_that_waited_for_the_game_follows_what_the_other_phone_wrote(case: str) -> None:
    """Phone A holds the game locked, recording deal 1 (or correcting it), when phone B's
    POST arrives: B waits for the lock. B's deal 2 is scored after A's deal 1 as A left it
    (totals carried on, the correction's included), and B's re-send of A's own deal 1 with
    its Idempotency-Key gets A's answer again: nothing is taken from what the game was
    before A wrote."""
    club = ClubFactory()
    phones = [member(club, Role.SCORER, username=f"phone{i}") for i in range(2)]
    game = start_game(club, "widow_whist", 3, actor=phones[0])
    if case == "after a correction":
        services.deal_record(actor=phones[0], game=game, number=1, record=WIDOW_DEALS[0])
    locked, answers, waiting = threading.Event(), {}, {}

    def phone_a() -> None:
        try:
            with transaction.atomic():
                held = selectors.game_for_next_deal(phones[0], game.pk, idempotency_key=None)
                by_a: dict[str, Any] = {"actor": phones[0], "game": held, "number": 1}
                if case == "after a correction":
                    reason = "the widow went to seat 3"
                    services.deal_correct(**by_a, record=WIDOW_DEALS[2], reason=reason)
                else:
                    services.deal_record(**by_a, record=WIDOW_DEALS[0], idempotency_key="deal-1")
                locked.set()
                waiting["b"] = _another_waits_for_a_lock()
        finally:
            locked.set()
            connection.close()

    def phone_b() -> None:
        try:
            locked.wait(timeout=30)
            if case == "same deal re-sent":
                body, key = {"number": 1, **WIDOW_DEALS[0]}, "deal-1"
            else:
                body, key = {"number": 2, **WIDOW_DEALS[1]}, "deal-2"
            response = client_for(phones[1]).post(
                f"/api/v1/games/{game.pk}/deals/", body, HTTP_IDEMPOTENCY_KEY=key
            )
            answers["b"] = (response.status_code, response.json())
        finally:
            connection.close()

    threads = [threading.Thread(target=phone_a), threading.Thread(target=phone_b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert "b" in answers, "phone B's request did not finish"
    assert waiting.get("b", False), "phone B's request never waited for the game's lock"
    status, body = answers["b"]
    assert status == 201, body
    deal_1 = Deal.objects.get(game=game, number=1)
    if case == "same deal re-sent":
        assert body["number"] == 1 and body["totals"] == deal_1.totals
        assert Deal.objects.filter(game=game).count() == 1
    else:
        if case == "after a correction":
            assert deal_1.record == WIDOW_DEALS[2] and deal_1.version == 2
        totals = [a + b for a, b in zip(deal_1.totals, body["scores"], strict=True)]
        assert body["totals"] == totals
        assert Deal.objects.get(game=game, number=2).version == 1


def _another_waits_for_a_lock(timeout: float = 10.0) -> bool:
    """Whether another connection is seen waiting for a lock within ``timeout`` seconds
    (PostgreSQL); SQLite shows no waiters: a second's wait, then True (its writer waits at
    BEGIN IMMEDIATE until this transaction ends)."""
    if connection.vendor != "postgresql":
        time.sleep(1.0)
        return True
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            # Inside a transaction the activity view keeps its first look unless cleared.
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone():
                return True
        time.sleep(0.05)
    return False
