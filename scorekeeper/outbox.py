"""The job outbox: a job a request asks for is written in the request's transaction, so it
is never lost with a broker that is down or restarts.

- :func:`enqueue` stores the job and, once the transaction commits, hands it to the broker
  (a short, bounded try: ``CELERY_BROKER_CONNECTION_TIMEOUT`` and the publish retry policy
  in the settings). Handed over, the job is marked sent.
- Where a person is waiting for the job (``in_process=True``: seating a round), a broker that
  does not take it makes the job run in the web process instead.
- A broker that did not take a job is taken as away by this process for ``AWAY_SECONDS``:
  the jobs asked for meanwhile (more of the same request's, or other requests') wait in the
  outbox at once, without trying, so a request waits for an unreachable broker once at the
  most (``CELERY_BROKER_TIMEOUT``), however many jobs it asks for. The relay always tries.
- Otherwise the job stays unsent, and :func:`relay` (the beat task every 30 s, or
  ``manage.py relay_jobs``) hands it over again once the broker is back.
- A job the broker took but that is not done ``settings.JOB_RESEND_SECONDS`` later is handed
  over again by the relay, up to ``RESENDS`` times: a Redis restarted without persistence
  loses what was queued, and a whole worker that died holding a job gives it back only after
  the broker's visibility timeout.

The jobs are idempotent, so a job handed over twice (the relay and a slow first try, both
after the broker came back) does no harm.

Each job carries its row's id in a message header (``outbox_job``); when the task finishes,
the row is marked done (with the same task and arguments asked for before it: the run
covered them). A job not done ``settings.JOB_STUCK_SECONDS`` after it was asked for (or tried
again) is :func:`stuck`; the services that try it again are in
:mod:`scorekeeper.services.jobs`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from celery import current_app
from celery.signals import task_success
from django.conf import settings
from django.db import transaction
from django.db.models import F, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from .models import OutboxJob

logger = logging.getLogger(__name__)

# The failures of a broker that is away or not answering (kombu wraps most of them).
BROKER_ERRORS: tuple[type[BaseException], ...] = (BrokerError, ConnectionError, OSError)
# Jobs younger than this are still being handed over by the request that wrote them.
RELAY_AFTER = timedelta(seconds=10)
# Jobs sent this long ago are forgotten.
KEEP_SENT = timedelta(days=7)
# The message header that names the job's row.
HEADER = "outbox_job"
# Times a job sent but not done is handed over again before it is left to a person
# (shown as stuck, with "try again").
RESENDS = 3
# Jobs asked for longer ago than this are not handed over again (left to a person).
RESEND_WITHIN = timedelta(hours=1)
# After the broker did not take a job, requests do not try it again for this long.
AWAY_SECONDS = 5.0


class _Broker:
    """Whether this process saw the broker refuse a job a moment ago (threads share it)."""

    away_until = 0.0

    @classmethod
    def away(cls) -> bool:
        return time.monotonic() < cls.away_until

    @classmethod
    def refused(cls) -> None:
        cls.away_until = time.monotonic() + AWAY_SECONDS

    @classmethod
    def took(cls) -> None:
        cls.away_until = 0.0


def forget_refusals() -> None:
    """Take the broker as here again (a broker that was replaced, e.g. by another URL)."""
    _Broker.took()


def enqueue(
    task: Any, args: list[int], *, in_process: bool = False, here: bool = False
) -> OutboxJob:
    """Store ``task`` (a Celery task) with ``args`` and hand it to the broker once the
    current transaction commits (with ``here``: run it in this process then, whatever the
    broker)."""
    job = OutboxJob.objects.create(task=task.name, args=args)
    if here:
        transaction.on_commit(lambda: run_here(job.pk, task, args), robust=True)
    else:
        transaction.on_commit(
            lambda: deliver(job.pk, task, args, in_process=in_process), robust=True
        )
    return job


def run_here(job_id: int, task: Any, args: list[int]) -> bool:
    """Run the stored job in this process (its failure is logged and stored, not raised)."""
    result = task.apply(args=args, headers={HEADER: job_id})
    if result.failed():
        _failed(job_id, result.result)
        return False
    _sent(job_id)
    done(job_id)
    return True


def deliver(
    job_id: int, task: Any, args: list[int], *, in_process: bool = False, relay: bool = False
) -> bool:
    """Hand the stored job to the broker (or, with ``in_process``, run it here when the
    broker does not take it). True when the job was handed over or ran. Without a broker
    (the embedded default) the job runs here and its errors are raised. A broker that
    refused a job a moment ago is not tried again (but by the relay, ``relay=True``)."""
    if current_app.conf.task_always_eager:
        task.apply_async(args=args, headers={HEADER: job_id})
        _sent(job_id)
        done(job_id)
        return True
    error: BaseException
    if not relay and _Broker.away():
        error = BrokerError(f"the broker refused a job less than {AWAY_SECONDS:g} s ago")
    else:
        try:
            task.apply_async(args=args, headers={HEADER: job_id})
        except BROKER_ERRORS as refused:
            _Broker.refused()
            error = refused
        else:
            _Broker.took()
            _sent(job_id)
            return True
    if not in_process:
        _failed(job_id, error)
        return False
    logger.warning("broker unavailable (%s): running %s%s in-process", error, task.name, args)
    return run_here(job_id, task, args)


def _sent(job_id: int) -> None:
    OutboxJob.objects.filter(pk=job_id, sent_at__isnull=True).update(sent_at=timezone.now())


def done(job_id: int) -> None:
    """Mark the job done, and with it the same task with the same arguments asked for before
    it (or before it was tried again): the run covered them (the jobs work from what is
    stored)."""
    job = OutboxJob.objects.filter(pk=job_id).first()
    if job is None:
        return
    now = timezone.now()
    OutboxJob.objects.filter(
        task=job.task,
        args=job.args,
        done_at__isnull=True,
        created_at__lte=job.retried_at or job.created_at,
    ).update(done_at=now, sent_at=Coalesce(F("sent_at"), now))
    OutboxJob.objects.filter(pk=job_id, done_at__isnull=True).update(
        done_at=now, sent_at=Coalesce(F("sent_at"), now)
    )


def job_of(request: Any) -> int | None:
    """The outbox row a running task's request names (None: not sent through the outbox)."""
    value = (getattr(request, "headers", None) or {}).get(HEADER)
    if value is None:
        value = getattr(request, HEADER, None)
    return value if isinstance(value, int) else None


@task_success.connect
def _task_done(sender: Any = None, **_: Any) -> None:
    job_id = job_of(getattr(sender, "request", None))
    if job_id is not None:
        done(job_id)


def stuck() -> QuerySet[OutboxJob]:
    """The jobs not done ``settings.JOB_STUCK_SECONDS`` after they were asked for or last
    tried again (a broker that never took them, a worker that died, a task that gave up)."""
    cutoff = timezone.now() - timedelta(seconds=settings.JOB_STUCK_SECONDS)
    return (
        OutboxJob.objects.filter(done_at__isnull=True)
        .alias(asked=Coalesce("retried_at", "created_at"))
        .filter(asked__lt=cutoff)
        .order_by("created_at", "pk")
    )


def is_stuck(job: OutboxJob) -> bool:
    cutoff = timezone.now() - timedelta(seconds=settings.JOB_STUCK_SECONDS)
    return job.done_at is None and (job.retried_at or job.created_at) < cutoff


@dataclass(frozen=True)
class StuckJob:
    """A stuck job as a page shows it: its row, what it does in words, since when."""

    id: int
    what: str
    since: datetime


def shown(job: OutboxJob, what: str) -> StuckJob:
    return StuckJob(id=job.pk, what=what, since=job.retried_at or job.created_at)


def retry(job_id: int) -> bool:
    """Try the stuck job again, in this process once the current transaction commits (a job
    stuck is one the workers did not do: the person who asks is waiting). False, and nothing
    done, when it is not stuck (done meanwhile, or tried again a moment ago: a second click
    or a second person). Call it from a service, in its transaction."""
    job = OutboxJob.objects.select_for_update().filter(pk=job_id).first()
    if job is None or not is_stuck(job):
        return False
    task = current_app.tasks.get(job.task)
    if task is None:
        _failed(job.pk, LookupError(f"no task named {job.task!r}"))
        return False
    job.retried_at = timezone.now()
    job.error = ""
    job.save(update_fields=["retried_at", "error"])
    args = list(job.args)
    transaction.on_commit(lambda: run_here(job.pk, task, args), robust=True)
    return True


def _failed(job_id: int, error: object) -> None:
    logger.warning("job %s not handed to the broker (%s); the relay will try again", job_id, error)
    OutboxJob.objects.filter(pk=job_id).update(
        attempts=F("attempts") + 1, error=f"{error.__class__.__name__}: {error}"[:500]
    )


def unsent(*, older_than: timedelta = RELAY_AFTER) -> list[OutboxJob]:
    """The jobs still waiting for the broker (oldest first)."""
    cutoff = timezone.now() - older_than
    return list(
        OutboxJob.objects.filter(sent_at__isnull=True, created_at__lt=cutoff).order_by(
            "created_at", "pk"
        )[:500]
    )


def unfinished(*, sent_before: timedelta | None = None) -> list[OutboxJob]:
    """The jobs the broker took ``settings.JOB_RESEND_SECONDS`` ago (or ``sent_before``) that
    are still not done and were handed over again fewer than ``RESENDS`` times."""
    if sent_before is None:
        sent_before = timedelta(seconds=settings.JOB_RESEND_SECONDS)
    now = timezone.now()
    return list(
        OutboxJob.objects.filter(
            done_at__isnull=True, sent_at__lt=now - sent_before, resent__lt=RESENDS
        )
        .alias(asked=Coalesce("retried_at", "created_at"))
        .filter(asked__gte=now - RESEND_WITHIN)
        .order_by("sent_at", "pk")[:500]
    )


def relay(
    *, older_than: timedelta = RELAY_AFTER, sent_before: timedelta | None = None
) -> dict[str, int]:
    """Hand the waiting jobs to the broker, then again those it took that are still not done
    a while later; stops at the first one it does not take (it is away: the next relay goes
    on). Forgets jobs sent a week ago first."""
    OutboxJob.objects.filter(sent_at__lt=timezone.now() - KEEP_SENT).delete()
    sent = failed = resent = 0
    for job in unsent(older_than=older_than):
        task = current_app.tasks.get(job.task)
        if task is None:
            _failed(job.pk, LookupError(f"no task named {job.task!r}"))
            failed += 1
            continue
        if deliver(job.pk, task, list(job.args), relay=True):
            sent += 1
        else:
            failed += 1
            break
    else:  # every waiting job was taken: the broker is here, so also resend what it lost
        for job in unfinished(sent_before=sent_before):
            outcome = _resend(job)
            if outcome == "resent":
                resent += 1
                continue
            failed += 1
            if outcome == "refused":
                break
    return {"sent": sent, "failed": failed, "resent": resent}


def _resend(job: OutboxJob) -> Literal["resent", "unknown", "refused"]:
    """Hand a job that was sent but not done to the broker again (it may have lost it); the
    job counts as sent now. "unknown" when no task has the job's name (the job is marked
    failed and not resent again), "refused" when the broker does not take it."""
    task: Any = current_app.tasks.get(job.task)
    if task is None:
        _failed(job.pk, LookupError(f"no task named {job.task!r}"))
        OutboxJob.objects.filter(pk=job.pk).update(resent=RESENDS)
        return "unknown"
    try:
        task.apply_async(args=list(job.args), headers={HEADER: job.pk})
    except BROKER_ERRORS as error:
        _Broker.refused()
        _failed(job.pk, error)
        return "refused"
    _Broker.took()
    logger.info("job %s sent %s ago and not done: handed over again", job.pk, job.sent_at)
    OutboxJob.objects.filter(pk=job.pk).update(resent=F("resent") + 1, sent_at=timezone.now())
    return "resent"
