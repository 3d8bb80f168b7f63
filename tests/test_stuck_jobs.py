"""Stuck background jobs: a job not done a while after it was asked for is shown to whoever
can act (the tournament dashboard, the club's ratings page, the admin) with a "try again"
button; trying again runs it once, however many click."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from rules_engine import GAMES
from scorekeeper import outbox
from scorekeeper.errors import NotAllowed, NotFound
from scorekeeper.models import JobStatus, OutboxJob, OutgoingEmail, RatingJob, Role
from scorekeeper.services.jobs import job_retry, ratings_job_retry, stuck_rating_jobs
from scorekeeper.services.mail import email_queue_text
from scorekeeper.services.ratings import ratings_request_from
from tests.factories import ClubFactory, UserFactory, member

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def aged(job: OutboxJob, minutes: int = 5) -> OutboxJob:
    OutboxJob.objects.filter(pk=job.pk).update(
        created_at=timezone.now() - timedelta(minutes=minutes)
    )
    job.refresh_from_db()
    return job


def stuck_email(subject: str = "Seated") -> tuple[OutgoingEmail, OutboxJob]:
    """An email whose job was written but never run (no commit: no hand-over)."""
    email = email_queue_text(to=["ann@example.com"], subject=subject, body="Table 2")
    job = OutboxJob.objects.get(task="scorekeeper.send_email", args=[email.pk])
    return email, aged(job)


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- The outbox: done, stuck, tried again ---------------------------------------------------


def test_a_job_run_through_the_outbox_is_marked_done(
    django_capture_on_commit_callbacks: Capture, tasks_in_process: None
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        email = email_queue_text(to=["ann@example.com"], subject="Hello", body="Hi")
    job = OutboxJob.objects.get()
    assert job.sent_at is not None and job.done_at is not None
    assert OutgoingEmail.objects.get(pk=email.pk).sent_at is not None
    assert not outbox.stuck().exists()


def test_a_task_naming_its_job_in_the_header_marks_it_done_when_it_succeeds() -> None:
    _, job = stuck_email()
    later = OutboxJob.objects.create(task=job.task, args=job.args)  # asked for after it
    other = aged(OutboxJob.objects.create(task=job.task, args=[job.args[0] + 1]))
    task = outbox.current_app.tasks[job.task]
    task.apply(args=job.args, headers={outbox.HEADER: job.pk})  # as a worker runs it
    job.refresh_from_db()
    assert job.done_at is not None
    assert OutboxJob.objects.get(pk=later.pk).done_at is None  # may need what came after
    assert OutboxJob.objects.get(pk=other.pk).done_at is None  # another email
    assert list(outbox.stuck()) == [other]


def test_an_earlier_identical_job_is_done_with_the_one_that_ran() -> None:
    _, first = stuck_email()
    second = OutboxJob.objects.create(task=first.task, args=first.args)
    outbox.done(second.pk)
    assert OutboxJob.objects.filter(done_at__isnull=True).count() == 0
    first.refresh_from_db()
    assert first.sent_at is not None  # the relay leaves it alone


def test_a_job_is_stuck_only_after_the_configured_time(settings: Any) -> None:
    email = email_queue_text(to=["ann@example.com"], subject="Hello", body="Hi")
    job = OutboxJob.objects.get(args=[email.pk])
    assert not outbox.is_stuck(job)
    settings.JOB_STUCK_SECONDS = 0
    assert outbox.is_stuck(job) and list(outbox.stuck()) == [job]


def test_trying_a_stuck_job_again_runs_it_once_however_many_click(
    django_capture_on_commit_callbacks: Capture, tasks_in_process: None
) -> None:
    email, job = stuck_email()
    staff = UserFactory(is_staff=True, is_superuser=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert job_retry(actor=staff, job_id=job.pk) is True
    with django_capture_on_commit_callbacks(execute=True) as second:
        assert job_retry(actor=staff, job_id=job.pk) is False  # a second click: done
    assert second == []
    email.refresh_from_db()
    job.refresh_from_db()
    assert email.sent_at is not None and email.attempts == 1
    assert job.done_at is not None and job.retried_at is not None


def test_two_people_trying_again_before_it_ran_send_it_once(
    django_capture_on_commit_callbacks: Capture,
) -> None:
    _, job = stuck_email()
    with django_capture_on_commit_callbacks(execute=False) as first, transaction.atomic():
        assert outbox.retry(job.pk) is True
    with django_capture_on_commit_callbacks(execute=False) as second, transaction.atomic():
        assert outbox.retry(job.pk) is False  # tried again a moment ago
    assert len(first) == 1 and second == []


def test_a_job_not_stuck_is_not_run_again(django_capture_on_commit_callbacks: Capture) -> None:
    email = email_queue_text(to=["ann@example.com"], subject="Hello", body="Hi")
    job = OutboxJob.objects.get(args=[email.pk])
    staff = UserFactory(is_staff=True, is_superuser=True)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert job_retry(actor=staff, job_id=job.pk) is False
    assert callbacks == []
    assert OutgoingEmail.objects.get(pk=email.pk).sent_at is None


def test_only_staff_may_send_any_job_again() -> None:
    _, job = stuck_email()
    with pytest.raises(NotAllowed):
        job_retry(actor=UserFactory(), job_id=job.pk)
    with pytest.raises(NotAllowed):
        job_retry(actor=UserFactory(is_staff=True), job_id=job.pk)  # no permission
    with pytest.raises(NotFound) as refused:
        job_retry(actor=UserFactory(is_staff=True, is_superuser=True), job_id=job.pk + 99)
    assert refused.value.field == "job"
    assert OutboxJob.objects.get(pk=job.pk).retried_at is None


# --- The club's ratings page ----------------------------------------------------------------


def stuck_ratings(club: Any) -> tuple[RatingJob, OutboxJob]:
    game_type = next(iter(GAMES))
    with transaction.atomic():
        rating_job = ratings_request_from(club_id=club.pk, game_type=game_type)
    job = OutboxJob.objects.get(task="scorekeeper.ratings_recompute", args=[rating_job.pk])
    return rating_job, aged(job)


def test_the_ratings_page_shows_a_stuck_recomputation_to_the_admins_with_try_again(
    django_capture_on_commit_callbacks: Capture, tasks_in_process: None
) -> None:
    club = ClubFactory()
    admin, plain = member(club, Role.ADMIN), member(club, Role.MEMBER)
    rating_job, job = stuck_ratings(club)
    page = reverse("club-ratings", args=[club.slug])
    shown = client_for(admin).get(page).content.decode()
    name = GAMES[rating_job.game_type].name
    assert f"Rating the {name} games again has not been done since" in shown
    assert f'name="job" value="{job.pk}"' in shown
    assert "has not been done" not in client_for(plain).get(page).content.decode()

    retry = reverse("club-ratings-retry", args=[club.slug])
    refused = client_for(plain).post(retry, {"job": job.pk}, follow=True)
    assert "only the club&#x27;s admins" in refused.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        done = client_for(admin).post(retry, {"job": job.pk}, follow=True)
    assert "Tried again now." in done.content.decode()
    assert RatingJob.objects.get(pk=rating_job.pk).status == JobStatus.DONE
    assert "has not been done" not in done.content.decode()
    again = client_for(admin).post(retry, {"job": job.pk}, follow=True)
    assert "done already" in again.content.decode()
    bad = client_for(admin).post(retry, {"job": "x"}, follow=True)
    assert "Choose the job to try again." in bad.content.decode()


def test_a_club_admin_cannot_try_another_clubs_job() -> None:
    club, other = ClubFactory(), ClubFactory()
    _, job = stuck_ratings(other)
    assert stuck_rating_jobs(club) == [] and len(stuck_rating_jobs(other)) == 1
    with pytest.raises(NotFound):
        ratings_job_retry(actor=member(club, Role.ADMIN), club=club, job_id=job.pk)
    assert OutboxJob.objects.get(pk=job.pk).retried_at is None


# --- The Django admin -----------------------------------------------------------------------


def test_the_admin_lists_stuck_jobs_and_sends_them_again(
    django_capture_on_commit_callbacks: Capture, tasks_in_process: None
) -> None:
    email, job = stuck_email()
    fresh = OutboxJob.objects.create(task=job.task, args=[job.args[0] + 1])
    staff = client_for(UserFactory(is_staff=True, is_superuser=True))
    changelist = reverse("admin:scorekeeper_outboxjob_changelist")
    stuck = staff.get(changelist, {"state": "stuck"}).content.decode()
    assert f"/outboxjob/{job.pk}/change/" in stuck and f"/{fresh.pk}/change/" not in stuck
    waiting = staff.get(changelist, {"state": "waiting"}).content.decode()
    assert f"/outboxjob/{fresh.pk}/change/" in waiting
    action = {"action": "send_again", "_selected_action": [job.pk, fresh.pk]}
    with django_capture_on_commit_callbacks(execute=True):
        page = staff.post(changelist, action, follow=True).content.decode()
    assert "1 job(s) sent again now." in page and "1 job(s) left alone" in page
    assert OutgoingEmail.objects.get(pk=email.pk).sent_at is not None
    assert OutboxJob.objects.get(pk=fresh.pk).retried_at is None
    done = staff.get(changelist, {"state": "done"}).content.decode()
    assert f"/outboxjob/{job.pk}/change/" in done
