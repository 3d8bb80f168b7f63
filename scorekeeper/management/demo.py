"""Demo data for ``manage.py seed_demo``: a club, its people, a season, played games.

Everything about the club is written through :mod:`scorekeeper.services`; the deals
are made up by a seeded :class:`random.Random` (so every run makes the same ones)
and each is checked by the rules engine before it is recorded. Seeding is
idempotent: what already exists is left as it is.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from rules_engine import new_scoresheet
from scorekeeper import access, services
from scorekeeper.models import Club, Game, Player, Role, Season
from scorekeeper.selectors import season_for_date

CLUB_NAME = "Riverside Card Club"
CLUB_SLUG = "riverside"
PASSWORD = "demo"
SEED = 20250301

#: username -> (role in the club, name of the player they are on the roster)
USERS: dict[str, tuple[str, str]] = {
    "demo": (Role.ADMIN, "Alice Moreau"),
    "director": (Role.DIRECTOR, "Bernard Okafor"),
    "scorer": (Role.SCORER, "Chloe Lindqvist"),
}
PLAYERS = [
    "Alice Moreau",
    "Bernard Okafor",
    "Chloe Lindqvist",
    "Dev Patel",
    "Elena Rossi",
    "Farid Haddad",
    "Grace Kim",
    "Hiro Tanaka",
]


@dataclass(frozen=True)
class DemoGame:
    game_type: str
    players: tuple[str, ...]
    days_ago: int
    options: dict[str, Any] = field(default_factory=dict)
    first_dealer: int = 0
    #: None: play until the engine ends the game; else record this many deals.
    deals: int | None = None
    finish_by_hand: bool = False


GAMES = [
    DemoGame("widow_whist", ("Alice Moreau", "Bernard Okafor", "Chloe Lindqvist"), 26,
             {"finish": {"deals": 9}}),
    DemoGame("third_hand", ("Dev Patel", "Elena Rossi"), 22),
    DemoGame("italian_whist", ("Farid Haddad", "Grace Kim", "Hiro Tanaka"), 19, first_dealer=1),
    DemoGame("prediction_whist", ("Alice Moreau", "Dev Patel", "Grace Kim", "Hiro Tanaka"), 15),
    DemoGame("widow_whist", ("Elena Rossi", "Farid Haddad", "Hiro Tanaka"), 12, deals=6,
             finish_by_hand=True),
    DemoGame("italian_whist", ("Alice Moreau", "Chloe Lindqvist", "Elena Rossi"), 8,
             {"limit": 5}),
    DemoGame("third_hand", ("Bernard Okafor", "Grace Kim"), 4, first_dealer=1),
    DemoGame("prediction_whist", ("Bernard Okafor", "Chloe Lindqvist", "Dev Patel"), 0, deals=10),
]  # fmt: skip


# --- Made-up deals: each game's engine makes them (Game.sample_deal) ----------------------

Deal = dict[str, Any]
MAX_DEALS = 200


def made_up_deals(
    rng: random.Random,
    game_type: str,
    players: Sequence[str],
    *,
    options: dict[str, Any],
    first_dealer: int,
    deals: int | None,
) -> list[Deal]:
    """Deals for a game, each checked by the engine: ``deals`` of them, or to the end."""
    sheet = new_scoresheet(game_type, list(players), options=options, first_dealer=first_dealer)
    records: list[Deal] = []
    while sheet.next_deal is not None and len(records) < (deals or MAX_DEALS):
        record = sheet.game.sample_deal(rng, sheet.table, sheet.next_deal)
        sheet.preview(record)  # a RuleError here is a bug in the game's sample_deal
        sheet.add(record)
        records.append(record)
    if deals is None and not sheet.finished:
        raise RuntimeError(f"the made-up {game_type} game did not finish")
    return records


# --- Seeding ------------------------------------------------------------------------------


@dataclass
class Seeded:
    club: Club
    created: list[str]


#: What other apps add to the demo club (e.g. a tournament): each is called with the club,
#: its director and today's date, and says what it created. Registered in ``ready()``.
DemoExtra = Callable[[Club, User, datetime.date], list[str]]
_extras: list[DemoExtra] = []


def register_extra(extra: DemoExtra) -> DemoExtra:
    if extra not in _extras:
        _extras.append(extra)
    return extra


def seed_extras(seeded: Seeded, today: datetime.date | None = None) -> None:
    """Let every registered app add its part to the demo club."""
    today = today or timezone.localdate()
    director = User.objects.get(username="director")
    for extra in _extras:
        seeded.created.extend(extra(seeded.club, director, today))


def _user(username: str, *, superuser: bool) -> tuple[User, bool]:
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user, False
    email = f"{username}@example.org"
    if superuser:
        user = User.objects.create_superuser(username, email, PASSWORD)
    else:
        user = User.objects.create_user(username, email, PASSWORD)
    # The address on record and verified: the account pages would otherwise take it for a
    # new one, and the next sign-in would wait for its verification email.
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user, True


@transaction.atomic
def seed(today: datetime.date | None = None) -> Seeded:
    """Create whatever of the demo data is missing; say what was created."""
    today = today or timezone.localdate()
    created: list[str] = []
    users: dict[str, User] = {}
    for username in USERS:
        users[username], new = _user(username, superuser=username == "demo")
        if new:
            created.append(f"user {username}")
    admin = users["demo"]

    club = Club.objects.filter(slug=CLUB_SLUG).first()
    if club is None:
        club = services.club_create(
            actor=admin, name=CLUB_NAME, slug=CLUB_SLUG, results_public=True
        )
        created.append(f"club {CLUB_NAME}")
    elif not access.can_administer(admin, club):
        raise RuntimeError(f'a club "{CLUB_SLUG}" exists and demo is not one of its admins')
    for username, (role, _) in USERS.items():
        if access.role_in(users[username], club) is None:
            services.membership_set(actor=admin, club=club, user=users[username], role=role)
            created.append(f"{role} {username}")

    linked = {name: users[username] for username, (_, name) in USERS.items()}
    roster = {player.name: player for player in Player.objects.filter(club=club)}
    for name in PLAYERS:
        if name not in roster:
            user = linked.get(name)
            if user is not None and Player.objects.filter(club=club, user=user).exists():
                user = None
            roster[name] = services.player_create(actor=admin, club=club, name=name, user=user)
            created.append(f"player {name}")

    season = season_for_date(club, today)
    if season is None:
        season = services.season_create(
            actor=admin,
            club=club,
            name=str(today.year),
            starts_on=today.replace(month=1, day=1),
            ends_on=today.replace(month=12, day=31),
        )
        created.append(f"season {season.name}")

    if not Game.objects.filter(club=club).exists():
        created.extend(_play(club, season, roster, users, today))
    return Seeded(club=club, created=created)


def _play(
    club: Club,
    season: Season,
    roster: dict[str, Player],
    users: dict[str, User],
    today: datetime.date,
) -> list[str]:
    rng = random.Random(SEED)
    created = []
    for index, spec in enumerate(GAMES):
        scorer = users["scorer"] if index % 3 else users["director"]
        played_on = max(season.starts_on, today - datetime.timedelta(days=spec.days_ago))
        game = services.game_start(
            actor=scorer,
            club=club,
            game_type=spec.game_type,
            players=[roster[name] for name in spec.players],
            options=spec.options,
            first_dealer=spec.first_dealer,
            season=season,
            played_on=played_on,
        )
        records = made_up_deals(
            rng,
            spec.game_type,
            spec.players,
            options=spec.options,
            first_dealer=spec.first_dealer,
            deals=spec.deals,
        )
        for number, record in enumerate(records, start=1):
            services.deal_record(actor=scorer, game=game, number=number, record=record)
        if spec.finish_by_hand:
            game = services.game_finish(actor=scorer, game=game)
        game.refresh_from_db()
        created.append(
            f"{game.get_game_type_display()} game of {played_on} "
            f"({len(records)} deal{'s' if len(records) != 1 else ''}, "
            f"{game.get_status_display().lower()})"
        )
    return created
