"""Trying a stuck background job again (see :mod:`scorekeeper.outbox`): from the Django
admin (any job, for staff allowed to change jobs) and from the club's ratings page (its
ratings recomputations, for the club's admins). The tournament dashboard's are in
:mod:`tournaments.services`. Idempotent: a job done meanwhile, or tried again a moment ago
by someone else, is left alone (False)."""

from __future__ import annotations

from django.db import transaction

from rules_engine import GAMES

from .. import outbox
from ..access import Actor, can_administer
from ..errors import NotAllowed, NotFound
from ..models import Club, OutboxJob, RatingJob

RATINGS_TASK = "scorekeeper.ratings_recompute"


@transaction.atomic
def job_retry(*, actor: Actor, job_id: int) -> bool:
    """The admin's "send again": run the stuck job now, in this process."""
    if not getattr(actor, "is_staff", False) or not actor.has_perm(  # type: ignore[union-attr]
        "scorekeeper.change_outboxjob"
    ):
        raise NotAllowed("only staff allowed to change jobs may send them again")
    if not OutboxJob.objects.filter(pk=job_id).exists():
        raise NotFound("no such job", field="job")
    return outbox.retry(job_id)


def stuck_rating_jobs(club: Club) -> list[outbox.StuckJob]:
    """The club's ratings recomputations that are stuck, for its admins."""
    stuck = list(outbox.stuck().filter(task=RATINGS_TASK))
    ids = {job.args[0] for job in stuck if job.args and isinstance(job.args[0], int)}
    mine = dict(RatingJob.objects.filter(club=club, pk__in=ids).values_list("pk", "game_type"))
    return [
        outbox.shown(job, f"Rating the {GAMES[mine[job.args[0]]].name} games again")
        for job in stuck
        if job.args and job.args[0] in mine
    ]


@transaction.atomic
def ratings_job_retry(*, actor: Actor, club: Club, job_id: int) -> bool:
    """The club's ratings page: run one of its stuck ratings recomputations now."""
    if not can_administer(actor, club):
        raise NotAllowed("only the club's admins may try its ratings again")
    if not _ratings_job_of(club, job_id):
        raise NotFound("no such job", field="job")
    return outbox.retry(job_id)


def _ratings_job_of(club: Club, job_id: int) -> bool:
    job = OutboxJob.objects.filter(pk=job_id, task=RATINGS_TASK).first()
    return (
        job is not None
        and bool(job.args)
        and RatingJob.objects.filter(club=club, pk=job.args[0]).exists()
    )
