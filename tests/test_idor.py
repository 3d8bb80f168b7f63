"""No one reaches another's objects by changing an id in a URL (IDOR).

Every URL of the site that names an object (API and pages alike), with every method its
view takes, is tried by four callers who must not see the victim club's objects: a member
(an admin) of another club, a guest whose table link was revoked, a guest of another game
of the same club, and an anonymous caller. Each answer must be a refusal, and the very
answer the caller gets for an object that does not exist (so nothing says the object is
there); a member of another club and the guests get 404 (or 401 from the API, which knows
no guests; 405 for a method the URL does not take), an anonymous caller 401 from the API and
the sign-in page from the pages; and nothing in the database changes.

The list of URLs comes from the URLconf, so a new endpoint is tried as soon as it exists;
a URL parameter the test does not know fails it (say here which object it names).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from scorekeeper import services
from scorekeeper.models import Club, Game, Invitation, Player, Role, Season
from tests.api.helpers import WIDOW_DEALS, snapshot
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, member, start_game
from tests.tournaments.helpers import widow_whist_cup
from tournaments import services as tournament_services
from tournaments.models import Round, Table

TODAY = datetime.date.today()
MISSING = 987654

# Reached with a secret in the URL (the secret is the permission), or naming no object.
CAPABILITY_URLS = {
    "table-enter": "the table link's token is the permission",
    "game-shared": "a signed link to a finished game's sheet, for anyone who has it",
    "join": "the invitation's token is the permission",
}
SKIPPED_PREFIXES = ("admin/", "accounts/")  # Django's admin; allauth's pages (no club data)
# Answered alike for every id, shown or not, existing or not: nothing of the object is in
# them (a game's web app manifest: browsers fetch it without cookies). They must still not
# tell a victim's object from a missing one.
SAME_FOR_EVERY_ID = {"game-manifest"}

# Every URL parameter, and (Victim.values) the victim's object it names.
PARAMETERS = frozenset(
    ("slug", "club_id", "game_id", "season_id", "player_id", "user_id", "invitation_id")
    + ("tournament_id", "number", "table", "table_id", "key", "game_type")
)

ATTACKERS = ("outsider", "revoked_guest", "other_guest", "anonymous")


@dataclass
class Victim:
    club: Club
    game: Game
    other_game: Game
    season: Season
    player: Player
    user_id: int
    invitation: Invitation
    tournament_id: int
    table: Table
    revoked_token: str
    other_token: str

    def values(self) -> dict[str, Any]:
        """A value for each URL parameter, naming the victim's object."""
        return {
            "slug": self.club.slug,
            "club_id": self.club.pk,
            "game_id": self.game.pk,
            "season_id": self.season.pk,
            "player_id": self.player.pk,
            "user_id": self.user_id,
            "invitation_id": self.invitation.pk,
            "tournament_id": self.tournament_id,
            "number": 1,  # deal 1 of the game, round 1 of the tournament
            "table": self.table.number,
            "table_id": self.table.pk,
            "key": "victim-deal-1",
            "game_type": "widow_whist",
        }


def missing_values(values: dict[str, Any]) -> dict[str, Any]:
    """The same parameters naming nothing that exists."""
    out = {}
    for name, value in values.items():
        if name == "slug":
            out[name] = "no-such-club"
        elif name in ("key", "game_type"):
            out[name] = value
        else:
            out[name] = MISSING
    return out


@pytest.fixture
def victim(
    db: None, tasks_in_process: None, django_capture_on_commit_callbacks: Callable[..., Any]
) -> Victim:
    club = ClubFactory(name="Victim club", slug="victim")
    admin = member(club, Role.ADMIN, username="victim-admin")
    scorer = member(club, Role.SCORER, username="victim-scorer")
    players = [PlayerFactory(club=club, name=f"Victim {i}") for i in range(7)]
    start, end = TODAY - datetime.timedelta(days=5), TODAY + datetime.timedelta(days=5)
    season = SeasonFactory(club=club, name="Victim season", starts_on=start, ends_on=end)
    game = start_game(club, "widow_whist", players[:3], actor=scorer)
    with django_capture_on_commit_callbacks(execute=True):
        services.deal_record(
            actor=scorer,
            game=game,
            number=1,
            record=WIDOW_DEALS[0],
            idempotency_key="victim-deal-1",
        )
    other_game = start_game(club, "widow_whist", players[3:6], actor=scorer)
    revoked = services.table_link_create(actor=scorer, game=game)
    other = services.table_link_create(actor=scorer, game=other_game)
    invitation = services.invitation_create(actor=admin, club=club, role=Role.MEMBER)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = widow_whist_cup(admin, club, "Victim cup", players[:6])
        tournament_services.round_request(actor=admin, tournament=tournament)
    round = Round.objects.get(tournament=tournament, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.round_publish(actor=admin, round=round, notify=False)
    return Victim(
        club=club,
        game=game,
        other_game=other_game,
        season=season,
        player=players[0],
        user_id=scorer.pk,
        invitation=invitation,
        tournament_id=tournament.pk,
        table=round.tables.order_by("number").first(),  # type: ignore[arg-type]
        revoked_token=revoked.token,
        other_token=other.token,
    )


def client_of(attacker: str, victim: Victim) -> Client:
    client = Client()
    if attacker == "outsider":
        own = ClubFactory(name="Mallory's club", slug="mallory")
        client.force_login(member(own, Role.ADMIN, username="mallory"))
    elif attacker == "revoked_guest":
        client.post(f"/t/{victim.revoked_token}/", {"name": "Eve"})
        assert client.get(f"/g/{victim.game.pk}/").status_code == 200  # in, for now
        services.table_link_revoke(actor=victim.game.created_by, game=victim.game)
    elif attacker == "other_guest":
        client.post(f"/t/{victim.other_token}/", {"name": "Eve"})
        assert client.get(f"/g/{victim.other_game.pk}/").status_code == 200
    return client


@dataclass(frozen=True)
class Route:
    path: str  # with <converter:name> parameters
    name: str
    methods: tuple[str, ...]

    @property
    def parameters(self) -> list[str]:
        import re

        return re.findall(r"<(?:\w+:)?(\w+)>", self.path)

    def fill(self, values: dict[str, Any]) -> str:
        import re

        return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), self.path)


def _walk(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix + str(pattern.pattern), pattern


def object_routes() -> list[Route]:
    """Every URL that names an object, from the URLconf, with the methods its view takes."""
    routes = []
    for path, pattern in _walk(get_resolver().url_patterns):
        if path.startswith(SKIPPED_PREFIXES) or pattern.name in CAPABILITY_URLS:
            continue
        if "<" not in path:
            continue  # names no object
        view = getattr(pattern.callback, "view_class", None)
        if view is not None:
            methods = tuple(
                m.upper() for m in ("get", "post", "put", "patch", "delete") if hasattr(view, m)
            )
        else:
            methods = ("GET", "POST")  # a page's function view: both are tried
        routes.append(Route(path=path, name=str(pattern.name), methods=methods))
    return routes


def test_the_routes_come_from_the_urlconf_and_every_parameter_is_known() -> None:
    routes = object_routes()
    names = {route.name for route in routes}
    # The objects the issue names, in the API and the pages.
    assert {
        "club-detail",
        "club-players",
        "club-seasons",
        "game-detail",
        "deal-detail",
        "deal-history",
        "tournament-detail",
        "tournament-round",
        "tournament-tables",
        "tournament-standings",
        "table-link",
        "game",
        "deal-save",
        "tournament",
    } <= names
    unknown = {(route.name, p) for route in routes for p in route.parameters if p not in PARAMETERS}
    assert not unknown, f"say in Victim.values which object these name: {unknown}"
    assert len(routes) > 60


def _answer(response: Any) -> tuple[int, str]:
    """What a caller learns: the status, and where a redirect goes (without its query,
    which repeats the path asked for)."""
    return response.status_code, response.get("Location", "").split("?")[0]


@pytest.mark.parametrize("attacker", ATTACKERS)
def test_no_object_of_another_club_or_game_is_reached(victim: Victim, attacker: str) -> None:
    client = client_of(attacker, victim)
    values = victim.values()
    assert set(values) == PARAMETERS
    missing = missing_values(values)
    before = snapshot()
    failures = []
    tried = 0
    for route in object_routes():
        for method in route.methods:
            path = route.fill(values)
            kwargs: dict[str, Any] = {"data": b"{}", "content_type": "application/json"}
            if not path.startswith("/api/"):
                kwargs = {"data": "", "content_type": "application/x-www-form-urlencoded"}
            answer = _answer(client.generic(method, path, **kwargs))
            nothing = _answer(client.generic(method, route.fill(missing), **kwargs))
            tried += 1
            status = answer[0]
            api = path.startswith("/api/")
            refused = (
                status in (401, 404, 405)
                if api
                else (status in (404, 405) or (status == 302 and "/accounts/login/" in answer[1]))
            )
            if attacker in ("outsider",) and status not in (404, 405):
                refused = False
            if attacker.endswith("guest") and not api and status not in (404, 405, 302):
                refused = False
            if route.name in SAME_FOR_EVERY_ID:
                refused = True  # what it says is the same for any id: compared below
            if not refused or answer != nothing:
                failures.append(f"{method} {path}: {answer} (a missing object: {nothing})")
    assert tried > 100
    assert not failures, f"{len(failures)} of {tried} reached or told apart:\n" + "\n".join(
        failures
    )
    assert snapshot() == before, "a refused request changed the database"
