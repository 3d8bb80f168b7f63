import pytest

from scorekeeper.models import Role
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, member
from tests.pages.helpers import World


@pytest.fixture
def world() -> World:
    club = ClubFactory(name="Kings Arms", slug="kings")
    SeasonFactory(club=club, name="This year")
    other = ClubFactory(name="Other", slug="other")
    return World(
        club=club,
        scorer=member(club, Role.SCORER, username="scorer"),
        member=member(club, Role.MEMBER, username="member"),
        outsider=member(other, Role.ADMIN, username="outsider"),
        players=[
            PlayerFactory(club=club, name=name)
            for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
        ],
    )
