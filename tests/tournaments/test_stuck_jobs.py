"""Stuck tournament jobs on the dashboard: the director sees the standings or a round's
emails not done, with a "try again" button that runs the job once."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scorekeeper.models import OutboxJob, Role
from tests.factories import ClubFactory, member
from tests.test_stuck_jobs import aged, client_for
from tests.tournaments.helpers import Event
from tournaments import selectors, services
from tournaments.models import Round, Standing, Tournament

pytestmark = pytest.mark.django_db


def closed_round(event: Event) -> Tournament:
    t = event.tournament(rounds=2)
    event.enter(t, 6)
    round = event.publish(event.seat(t))
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round, force=True)
    return t


def test_the_dashboard_shows_stuck_standings_and_tries_them_again_once(event: Event) -> None:
    t = closed_round(event)
    Standing.objects.filter(tournament=t).delete()  # as if the job never ran
    job = aged(OutboxJob.objects.create(task="tournaments.recompute_standings", args=[t.pk]))
    dashboard = reverse("tournament", args=[t.pk])
    director = client_for(event.director)
    shown = director.get(dashboard).content.decode()
    assert "Updating the standings has not been done since" in shown
    assert "Try again now: updating the standings" in shown
    member_page = client_for(member(event.club, Role.MEMBER)).get(dashboard).content.decode()
    assert "has not been done" not in member_page

    retry = reverse("tournament-job-retry", args=[t.pk])
    with event.capture(execute=True):
        done = director.post(retry, {"job": job.pk}, follow=True).content.decode()
    assert "Tried again now." in done and "has not been done" not in done
    assert Standing.objects.filter(tournament=t).count() == 6
    assert OutboxJob.objects.get(pk=job.pk).done_at is not None
    with event.capture(execute=True) as second:
        again = director.post(retry, {"job": job.pk}, follow=True).content.decode()
    assert "done already" in again and second == []


def test_the_dashboard_refuses_another_tournaments_job_and_strangers(event: Event) -> None:
    t = closed_round(event)
    other = event.tournament(rounds=1, name="Other cup")
    job = aged(OutboxJob.objects.create(task="tournaments.recompute_standings", args=[other.pk]))
    assert selectors.stuck_jobs(t) == [] and len(selectors.stuck_jobs(other)) == 1
    retry = reverse("tournament-job-retry", args=[t.pk])
    refused = client_for(event.director).post(retry, {"job": job.pk}, follow=True)
    assert "No such job" in refused.content.decode()
    stranger = client_for(member(ClubFactory(), Role.DIRECTOR))
    assert stranger.post(retry, {"job": job.pk}).status_code == 404
    plain = client_for(member(event.club, Role.MEMBER))
    other_retry = reverse("tournament-job-retry", args=[other.pk])
    assert plain.post(other_retry, {"job": job.pk}).status_code == 403
    assert OutboxJob.objects.get(pk=job.pk).retried_at is None


def test_the_dashboard_names_each_kind_of_stuck_job_once(event: Event) -> None:
    t = closed_round(event)
    round = Round.objects.get(tournament=t, number=1)
    for _ in range(2):
        aged(OutboxJob.objects.create(task="tournaments.recompute_standings", args=[t.pk]))
    aged(OutboxJob.objects.create(task="tournaments.notify_round", args=[round.pk]))
    aged(OutboxJob.objects.create(task="tournaments.seat_round", args=[t.pk, 1]))  # seated
    shown = [job.what for job in selectors.stuck_jobs(t)]
    assert shown == ["Emailing round 1's players where they sit", "Updating the standings"]
