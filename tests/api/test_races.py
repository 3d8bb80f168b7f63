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
@pytest.mark.parametrize("same_key", [False, True], ids=["next deal", "same deal re-sent"])
def test_a_deal_that_waited_for_the_game_follows_what_the_other_phone_recorded(
    same_key: bool,
) -> None:
    """Phone A is recording deal 1 (the game locked) when phone B's POST arrives: B waits
    for the lock. B's deal 2 is scored after A's deal 1 (totals carried on), and B's re-send
    of A's own deal 1, with its Idempotency-Key, gets A's answer again; neither is scored
    from what the game was before A wrote."""
    club = ClubFactory()
    phones = [member(club, Role.SCORER, username=f"phone{i}") for i in range(2)]
    game = start_game(club, "widow_whist", 3, actor=phones[0])
    first = {"number": 1, **WIDOW_DEALS[0]}
    locked, answers = threading.Event(), {}

    def phone_a() -> None:
        try:
            with transaction.atomic():
                held = selectors.game_visible_to(phones[0], game.pk, for_update=True)
                services.deal_record(
                    actor=phones[0],
                    game=held,
                    number=1,
                    record=WIDOW_DEALS[0],
                    idempotency_key="deal-1",
                )
                locked.set()
                time.sleep(1.0)  # phone B's request arrives and waits for the lock
        finally:
            locked.set()
            connection.close()

    def phone_b() -> None:
        try:
            locked.wait(timeout=30)
            body = first if same_key else {"number": 2, **WIDOW_DEALS[1]}
            key = "deal-1" if same_key else "deal-2"
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

    status, body = answers["b"]
    deal_1 = Deal.objects.get(game=game, number=1)
    if same_key:
        assert status == 201, body
        assert body["number"] == 1 and body["totals"] == deal_1.totals
        assert Deal.objects.filter(game=game).count() == 1
    else:
        assert status == 201, body
        totals = [a + b for a, b in zip(deal_1.totals, body["scores"], strict=True)]
        assert body["totals"] == totals
        assert Deal.objects.get(game=game, number=2).version == 1
