"""Fixtures for the tournament tests: a club with a director, a roster, a tournament,
and Celery tasks run in-process (except for the test that starts a real worker)."""

from __future__ import annotations

import pytest

from scorekeeper.models import Role
from tests.factories import ClubFactory, PlayerFactory, member
from tests.tournaments.helpers import Event


@pytest.fixture(autouse=True)
def _tasks_in_process(request: pytest.FixtureRequest) -> None:
    """Tasks sent on commit run in-process, even when a broker is configured: only the
    test marked celery_worker talks to a real worker."""
    if not request.node.get_closest_marker("celery_worker"):
        request.getfixturevalue("tasks_in_process")


@pytest.fixture
def event(db: None, django_capture_on_commit_callbacks) -> Event:
    club = ClubFactory(name="Whist club", slug="whist")
    director = member(club, Role.DIRECTOR, username="director")
    players = [
        PlayerFactory(club=club, name=name, email=f"{name.lower()}@example.org")
        for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida")
    ]
    return Event(
        club=club, director=director, players=players, capture=django_capture_on_commit_callbacks
    )
