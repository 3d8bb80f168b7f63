"""factory_boy factories for the score-keeping core.

Games and deals are made through the services (they hold the invariants), so
there are helpers for them rather than factories.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

import factory
from django.contrib.auth.models import User

from scorekeeper import services
from scorekeeper.models import Club, Game, Membership, Player, Role, Season


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("password")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    results_public = False


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.MEMBER


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    starts_on = factory.LazyFunction(lambda: datetime.date.today().replace(month=1, day=1))
    ends_on = factory.LazyFunction(lambda: datetime.date.today().replace(month=12, day=31))


def member(club: Club, role: str = Role.MEMBER, **user: Any) -> User:
    """A user with ``role`` in ``club``."""
    membership = MembershipFactory(club=club, role=role, user=UserFactory(**user))
    return membership.user


def start_game(
    club: Club,
    game_type: str,
    players: int | Sequence[Player],
    *,
    actor: User | None = None,
    **kwargs: Any,
) -> Game:
    """A game started through the service, with new roster players if a count is given."""
    if isinstance(players, int):
        players = [PlayerFactory(club=club) for _ in range(players)]
    actor = actor or member(club, Role.SCORER)
    return services.game_start(
        actor=actor, club=club, game_type=game_type, players=list(players), **kwargs
    )


def record_deals(game: Game, records: Sequence[dict[str, Any]], actor: User) -> None:
    for record in records:
        services.deal_record(actor=actor, game=game, number=game.deal_count + 1, record=record)
        game.refresh_from_db()


def one_deal_widow_game(
    club: Club, scorer: User, players: Sequence[Player], tricks: list[int], day: int = 0
) -> Game:
    """A one-deal widow whist game, finished (nobody took the widow: the tricks decide the
    placings), played ``day`` days after 1 March 2026."""
    game = services.game_start(
        actor=scorer,
        club=club,
        game_type="widow_whist",
        players=list(players),
        options={"finish": {"deals": 1}},
        played_on=datetime.date(2026, 3, 1) + datetime.timedelta(days=day),
    )
    services.deal_record(
        actor=scorer, game=game, number=1, record={"widow": None, "tricks": tricks}
    )
    game.refresh_from_db()
    return game
