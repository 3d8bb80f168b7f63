"""Two phones at one table: simultaneous submissions leave exactly one deal.

Runs on whichever database the suite uses: on PostgreSQL the game row is locked
FOR UPDATE; on SQLite the IMMEDIATE transaction takes the write lock at BEGIN.
"""

import pytest

from scorekeeper import services
from scorekeeper.errors import Conflict
from scorekeeper.models import Deal, DealRevision, IdempotencyKey, Role
from tests.concurrency import run_together
from tests.factories import ClubFactory, member, start_game

pytestmark = pytest.mark.django_db(transaction=True)

DEAL = {"widow": None, "tricks": [5, 4, 4]}


@pytest.mark.parametrize("same_key", [False, True])
def test_simultaneous_submissions_of_one_deal_leave_one_deal(same_key):
    club = ClubFactory()
    phones = [member(club, Role.SCORER) for _ in range(4)]
    game = start_game(club, "widow_whist", 3, actor=phones[0])

    def phone(i):
        key = "same" if same_key else f"phone-{i}"
        return lambda: services.deal_record(
            actor=phones[0] if same_key else phones[i],
            game=game,
            number=1,
            record=DEAL,
            idempotency_key=key,
        )

    outcomes = run_together([phone(i) for i in range(4)])
    assert Deal.objects.filter(game=game).count() == 1
    assert DealRevision.objects.filter(game=game).count() == 1
    recorded = [o for o in outcomes if not isinstance(o, Exception) and not o.replayed]
    assert len(recorded) == 1
    others = [o for o in outcomes if o not in recorded]
    if same_key:
        # The same submission retried: every retry gets the first answer back.
        assert all(o.replayed and o.payload == recorded[0].payload for o in others)
        assert IdempotencyKey.objects.filter(game=game).count() == 1
    else:
        assert all(isinstance(o, Conflict) and "already recorded" in o.message for o in others)
