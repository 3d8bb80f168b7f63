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

from rules_engine import DealContext, new_scoresheet
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


# --- Made-up deals, one generator per game ------------------------------------------------

Deal = dict[str, Any]
SUITS = ("S", "H", "D", "C")


def _near_even(rng: random.Random, tricks: int, seats: int) -> list[int]:
    """An even share of ``tricks``, then a few tricks moved from one seat to another."""
    won = [tricks // seats + (1 if seat < tricks % seats else 0) for seat in range(seats)]
    rng.shuffle(won)
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3))):
        giver = rng.choice([seat for seat in range(seats) if won[seat] > 0])
        won[giver] -= 1
        won[rng.choice([seat for seat in range(seats) if seat != giver])] += 1
    return won


def widow_whist(rng: random.Random, context: DealContext, seats: int) -> Deal:
    widow = rng.choice((None, 0, 1, 2, 0, 1, 2))
    tricks = _near_even(rng, 13, seats)
    if widow is not None and rng.random() < 0.6:  # the widow usually helps its taker
        best = max(range(seats), key=lambda seat: tricks[seat])
        tricks[widow], tricks[best] = tricks[best], tricks[widow]
    return {"widow": widow, "tricks": tricks}


THIRD_HAND_RANKS = ("9", "10", "J", "Q", "K", "A")
THIRD_HAND_POINTS = {"A": 1, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 9}
THIRD_HAND_DECK = [rank + suit for rank in THIRD_HAND_RANKS for suit in SUITS]


def third_hand(rng: random.Random, context: DealContext, seats: int) -> Deal:
    dealer = context.dealer
    other = 1 - dealer
    bids: list[str | None] = [None, None]
    if rng.random() < 0.5:
        bids[other] = rng.choice(("9", "10", "10", "J", "J", "Q", "K"))
    if bids[other] is None:
        if rng.random() < 0.5:
            bids[dealer] = rng.choice(("9", "10", "J", "J", "Q", "K"))
    elif rng.random() < 0.3 and bids[other] != "A":
        higher = THIRD_HAND_RANKS[THIRD_HAND_RANKS.index(str(bids[other])) + 1 :]
        bids[dealer] = rng.choice(higher[:2])
    holder = dealer if bids[dealer] is not None else other if bids[other] is not None else None
    captured = rng.sample(THIRD_HAND_DECK, 14)
    # Tricks won by seat 0; whoever holds the contract usually bid on a good hand.
    tricks = rng.choice((3, 4, 4, 5, 5, 6) if holder is not None else (2, 3, 3, 4, 4, 5))
    seat0 = tricks if holder in (0, None) else 7 - tricks
    points = [
        sum(THIRD_HAND_POINTS[card[:-1]] for card in captured[: 2 * seat0]),
        sum(THIRD_HAND_POINTS[card[:-1]] for card in captured[2 * seat0 :]),
    ]
    deal: Deal = {"bids": bids, "points": points, "trump": rng.choice(SUITS)}
    if holder is not None:
        deal["exchanged"] = rng.random() < 0.3
    return deal


def italian_whist(rng: random.Random, context: DealContext, seats: int) -> Deal:
    return {"first": _near_even(rng, 9, 3), "second": _near_even(rng, 9, 3)}


def prediction_whist(rng: random.Random, context: DealContext, seats: int) -> Deal:
    size: int = context.info["hand_size"]
    dealer = context.dealer
    bids = [min(size, int(rng.random() * (2 * size / seats + 1))) for _ in range(seats)]
    if sum(bids) == size:  # the hook: the dealer, bidding last, may not make them add up
        up = bids[dealer] == 0 or (bids[dealer] < size and rng.random() < 0.5)
        bids[dealer] += 1 if up else -1
    won = [0] * seats
    for _ in range(size):
        weights = [max(0.15, bids[seat] - won[seat] + 0.3) for seat in range(seats)]
        won[rng.choices(range(seats), weights=weights)[0]] += 1
    deal: Deal = {"bids": bids, "tricks": won}
    if context.info["trumps_turned"]:
        deal["trump"] = rng.choice(SUITS)
    return deal


GENERATORS: dict[str, Callable[[random.Random, DealContext, int], Deal]] = {
    "widow_whist": widow_whist,
    "third_hand": third_hand,
    "italian_whist": italian_whist,
    "prediction_whist": prediction_whist,
}
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
    generate = GENERATORS[game_type]
    records: list[Deal] = []
    while sheet.next_deal is not None and len(records) < (deals or MAX_DEALS):
        record = generate(rng, sheet.next_deal, len(players))
        sheet.preview(record)  # a RuleError here is a bug in the generator
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
    # new one, and the next sign-in would wait for its verification e-mail.
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
