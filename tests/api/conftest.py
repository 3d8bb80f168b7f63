"""Shared fixtures for the API tests: a club with people in every role, a member of
another club, a roster, and clients that authenticate with real API tokens."""

from __future__ import annotations

import pytest

from scorekeeper.models import Role
from tests.api.helpers import World
from tests.factories import ClubFactory, PlayerFactory, member


@pytest.fixture
def world(db: None) -> World:
    club = ClubFactory(name="Home club", slug="home")
    other_club = ClubFactory(name="Other club", slug="other")
    users = {
        "admin": member(club, Role.ADMIN, username="admin"),
        "director": member(club, Role.DIRECTOR, username="director"),
        "scorer": member(club, Role.SCORER, username="scorer"),
        "member": member(club, Role.MEMBER, username="member"),
        "outsider": member(other_club, Role.ADMIN, username="outsider"),
    }
    players = [PlayerFactory(club=club, name=name) for name in ("Ann", "Bob", "Cy", "Dee")]
    return World(club=club, other_club=other_club, users=users, players=players)
