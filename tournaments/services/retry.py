"""Trying again a tournament's stuck background job (the standings, a round's emails, a
seating a worker died in), from the dashboard."""

from __future__ import annotations

from django.db import transaction

from scorekeeper import outbox
from scorekeeper.access import Actor
from scorekeeper.errors import NotFound

from .. import selectors
from ..access import require_director
from ..models import Tournament


@transaction.atomic
def tournament_job_retry(*, actor: Actor, tournament: Tournament, job_id: int) -> bool:
    """Run the tournament's stuck job now, in this process. Idempotent: a job done
    meanwhile, or tried again a moment ago (a second click, a second director), is left
    alone (False)."""
    require_director(actor, tournament.club)
    if not selectors.tournament_has_job(tournament, job_id):
        raise NotFound("no such job", field="job")
    return outbox.retry(job_id)
