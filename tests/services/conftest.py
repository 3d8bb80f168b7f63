import pytest

from scorekeeper.models import Role
from tests.factories import ClubFactory, member


@pytest.fixture
def club():
    return ClubFactory()


@pytest.fixture
def scorer(club):
    return member(club, Role.SCORER)
