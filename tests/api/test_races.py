"""Two phones send the same deal number at the same moment with different Idempotency-Keys
and different deals, many times over: each time exactly one is recorded (201) and the other
gets 409 carrying the deal that was recorded. ``RACE_PAIRS`` sets how many pairs (200 by
default, up to 1,000)."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest
from django.db import connection

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
