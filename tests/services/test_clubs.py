from datetime import date
from functools import partial

import pytest
from django.contrib.auth.models import AnonymousUser

from scorekeeper import selectors, services
from scorekeeper.errors import InvalidInput, NotAllowed
from scorekeeper.models import Membership, Role
from tests.factories import (
    ClubFactory,
    SeasonFactory,
    UserFactory,
    member,
    record_deals,
    start_game,
)

pytestmark = pytest.mark.django_db


def test_club_creator_becomes_admin():
    user = UserFactory()
    club = services.club_create(actor=user, name="Riverside", slug="riverside")
    assert Membership.objects.get(club=club, user=user).role == Role.ADMIN
    with pytest.raises(InvalidInput):
        services.club_create(actor=user, name="Again", slug="riverside")
    with pytest.raises(NotAllowed):
        services.club_create(actor=AnonymousUser(), name="X", slug="x")


def test_roles_and_roster():
    club = ClubFactory()
    admin, plain = member(club, Role.ADMIN), member(club)
    with pytest.raises(NotAllowed):
        services.player_create(actor=plain, club=club, name="Ann")
    services.player_create(actor=admin, club=club, name="  Ann   Lee ")
    with pytest.raises(InvalidInput) as caught:
        services.player_create(actor=admin, club=club, name="ann lee")
    assert caught.value.field == "name"
    with pytest.raises(NotAllowed):
        services.membership_set(actor=plain, club=club, user=plain, role=Role.ADMIN)
    services.membership_set(actor=admin, club=club, user=plain, role=Role.DIRECTOR)
    assert Membership.objects.get(club=club, user=plain).role == Role.DIRECTOR


def test_seasons_do_not_overlap():
    club = ClubFactory()
    director = member(club, Role.DIRECTOR)
    season_create = partial(services.season_create, actor=director, club=club)
    season_create(name="2026", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31))
    with pytest.raises(InvalidInput) as caught:
        season_create(name="Autumn", starts_on=date(2026, 9, 1), ends_on=date(2027, 1, 31))
    assert caught.value.field == "starts_on"
    with pytest.raises(InvalidInput):
        season_create(name="Bad", starts_on=date(2028, 2, 1), ends_on=date(2028, 1, 1))


def test_standings_are_a_query_over_results():
    club = ClubFactory()
    season = SeasonFactory(club=club)
    scorer = member(club, Role.SCORER)
    first = start_game(club, "italian_whist", 3, actor=scorer)
    players = [s.player for s in first.seats.order_by("position")]
    record_deals(first, [{"first": [5, 2, 2], "second": [0, 4, 5]}] * 2, scorer)  # +5 -2 -3
    second = start_game(club, "italian_whist", players[::-1], actor=scorer)
    record_deals(second, [{"first": [5, 2, 2], "second": [0, 4, 5]}] * 2, scorer)
    unfinished = start_game(club, "italian_whist", players, actor=scorer)
    record_deals(unfinished, [{"first": [5, 2, 2], "second": [0, 4, 5]}], scorer)
    rows = {row["name"]: row for row in selectors.season_standings(season)}
    a, b, c = (p.name for p in players)
    assert rows[a]["games_played"] == 2 and rows[a]["games_won"] == 1
    assert rows[a]["total_score"] == 10 + -6
    assert rows[b]["average_placing"] == 2.0
    assert rows[c]["games_won"] == 1 and rows[c]["average_score"] == (-6 + 10) / 2
    assert selectors.season_standings(season, "widow_whist") == []
