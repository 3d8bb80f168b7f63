"""The API benchmark's data, made in the benchmark's database (run by ``bench/api.py`` as a
separate process, with DJANGO_SETTINGS_MODULE=bench.api_settings):

    python bench/api_seed.py seed         prints JSON: token, games, session cookie
    python bench/api_seed.py standings N  times season standings over N deals, warm
    python bench/api_seed.py rescore N    times a full rescore (scores_check) of N stored deals,
                                          in one process and with one process a core
    python bench/api_seed.py cpu N TOKEN GAME...
                                          CPU of N deal POSTs and N bare POSTs, in the app and
                                          in PostgreSQL, interleaved (PostgreSQL only)

``seed`` makes a club with a scorer, 16 open-ended widow whist games to post deals to,
a 5-deal and a 1,000-deal game, a 50-deal game for the page, and the bare table.
"""

from __future__ import annotations

import json
import os
import sys
import time
from datetime import date
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from bench.timing import medians_ms, raw_standings_sql  # noqa: E402
from bench.widow_games import widow_game  # noqa: E402
from scorekeeper import models, selectors, services  # noqa: E402
from scorekeeper.models import Deal, Game, Result, Season, Seat  # noqa: E402
from scorekeeper.services.consistency import scores_check  # noqa: E402
from scorekeeper.services.standings import standings_rebuild  # noqa: E402

TRICKS = ([4, 5, 4], [3, 3, 7], [2, 6, 5], [5, 4, 4], [6, 3, 4], [3, 3, 7])
WIDOWS = (0, None, 2, 1, 0, 2)

R = TypeVar("R", Seat, Result, Deal)


def widow_deal(number: int) -> dict[str, object]:
    i = (number - 1) % len(TRICKS)
    return {"widow": WIDOWS[i], "tricks": list(TRICKS[i])}


def seed() -> dict[str, object]:
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "CREATE TABLE IF NOT EXISTS bench_bare "
                "(id INTEGER PRIMARY KEY AUTOINCREMENT, user_id INTEGER NOT NULL)"
            )
        else:
            cursor.execute(
                "CREATE TABLE IF NOT EXISTS bench_bare "
                "(id BIGSERIAL PRIMARY KEY, user_id INT NOT NULL)"
            )
    user = User.objects.create_user("scorer", password="bench-password")
    club = services.club_create(actor=user, name="Bench club", slug="bench")
    players = [
        services.player_create(actor=user, club=club, name=name) for name in ("Ann", "Bob", "Cy")
    ]

    def game(deals: int) -> Game:
        g = widow_game(user, club, players)
        for number in range(1, deals + 1):
            services.deal_record(actor=user, game=g, number=number, record=widow_deal(number))
        return g

    open_games = [game(0).pk for _ in range(16)]
    short, long = game(5), game(1000)
    page = game(50)
    client = Client()
    assert client.login(username="scorer", password="bench-password")
    return {
        "token": Token.objects.create(user=user).key,
        "session": client.cookies["sessionid"].value,
        "open_games": open_games,
        "short": short.pk,
        "long": long.pk,
        "page": page.pk,
    }


def standings(deals: int, per_game: int = 20, players: int = 60) -> dict[str, float]:
    """Season standings over ``deals`` deals (games of ``per_game`` deals, four players of
    ``players``), timed warm against one hand-written SQL aggregate of the same rows."""
    user = User.objects.create_user("secretary")
    club = models.Club.objects.create(name="Standings club", slug="standings")
    models.Membership.objects.create(club=club, user=user, role=models.Role.ADMIN)
    season = Season.objects.create(
        club=club, name="Long season", starts_on=date(2020, 1, 1), ends_on=date(2030, 12, 31)
    )
    roster = models.Player.objects.bulk_create(
        models.Player(club=club, name=f"P{n}") for n in range(players)
    )
    games = deals // per_game
    with transaction.atomic():
        made = Game.objects.bulk_create(
            Game(
                club=club,
                season=season,
                game_type="prediction_whist",
                options={"hook": False},
                status=models.GameStatus.FINISHED,
                played_on=date(2024, 1, 1),
                deal_count=per_game,
                ended_at=timezone.now(),
                first_dealer=0,
            )
            for _ in range(games)
        )
        rows = []
        for index, g in enumerate(made):
            for position in range(4):
                player = roster[(index * 7 + position * 13) % players]
                total = (index * 31 + position * 17) % 97 - 30
                rows.append(
                    Result(
                        game=g,
                        player=player,
                        position=position,
                        total=total,
                        placing=position + 1,
                        won=position == 0,
                    )
                )
            if len(rows) >= 20_000:
                Result.objects.bulk_create(rows)
                rows = []
        Result.objects.bulk_create(rows)
        standings_rebuild(season=season)  # the rows the services keep, made in one go
    sql = raw_standings_sql()

    def app() -> None:
        assert len(selectors.season_standings(season)) == players

    def raw() -> None:
        with connection.cursor() as cursor:
            cursor.execute(sql, [season.pk])
            assert len(cursor.fetchall()) == players

    return medians_ms({"app": app, "sql": raw})


def _moved(rows: list[R], game: Game) -> list[R]:
    """The rows as new rows of ``game`` (their ids cleared: saving them adds rows)."""
    for row in rows:
        row.pk = None
        row.game = game
    return rows


def rescore(deals: int, per_game: int = 50) -> dict[str, float]:
    """A full rescore from the database (``scores_check``: every game replayed and compared
    with what is stored) over ``deals`` more stored deals: one game of ``per_game`` deals
    recorded through the services, copied row for row into as many games as it takes. Timed
    in one process and with one process a core (``scores_check --jobs``), the best of three."""
    user = User.objects.create_user("rescorer")
    club = services.club_create(actor=user, name="Rescore club", slug="rescore")
    players = [
        services.player_create(actor=user, club=club, name=name) for name in ("Di", "Ed", "Flo")
    ]
    model = widow_game(user, club, players, per_game)
    for number in range(1, per_game + 1):
        services.deal_record(actor=user, game=model, number=number, record=widow_deal(number))
    model.refresh_from_db()
    seats = list(model.seats.all())
    results = list(model.results.all())
    played = list(model.deals.all())
    with transaction.atomic():
        for _ in range(deals // per_game - 1):
            copy = Game.objects.get(pk=model.pk)
            copy.pk = None
            copy.save()
            Seat.objects.bulk_create(_moved(seats, copy))
            Result.objects.bulk_create(_moved(results, copy))
            Deal.objects.bulk_create(_moved(played, copy))
    total = Deal.objects.count()
    times: dict[str, list[float]] = {"one": [], "all": []}
    cores = os.cpu_count() or 1
    for _ in range(3):  # one process and one a core, interleaved
        for name, workers in (("one", 1), ("all", cores)):
            started = time.perf_counter()
            differences = list(scores_check(workers=workers))
            times[name].append(time.perf_counter() - started)
            assert not differences, differences[:3]
    return {
        "deals": total,
        "cores": cores,
        "seconds": min(times["all"]),
        "one_process": min(times["one"]),
    }


def cpu(count: int, token: str, games: list[int]) -> dict[str, dict[str, float]]:
    """Milliseconds of CPU a request costs, deal POST against the bare insert, split between
    this process (the app: Django, DRF, the services, the driver) and the PostgreSQL
    backend serving it (``/proc/<pid>/stat`` of ``pg_backend_pid()``): requests made
    in-process (Django's test client), so the server and the load tool count for neither;
    ``count`` of each, in two interleaved halves. The rest of a request at saturation is
    gunicorn's, the load tool's and the kernel's."""
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    numbers = {g: client.get(f"/api/v1/games/{g}/").json()["deal_count"] + 1 for g in games}
    tick = os.sysconf("SC_CLK_TCK")

    def backend_ms() -> float:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            stat = Path(f"/proc/{cursor.fetchone()[0]}/stat").read_text().split()
        return (int(stat[13]) + int(stat[14])) * 1000 / tick

    def deal(i: int) -> None:
        game = games[i % len(games)]
        number = numbers[game]
        numbers[game] += 1
        response = client.post(
            f"/api/v1/games/{game}/deals/",
            {"number": number, **widow_deal(number)},
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=f"cpu-{game}-{number}",
        )
        assert response.status_code == 201, response.content[:200]

    def bare(i: int) -> None:
        response = client.post("/bench/bare/", {}, content_type="application/json")
        assert response.status_code == 201

    spent = {name: {"app": 0.0, "database": 0.0} for name in ("deal", "bare")}
    for name, request in (("deal", deal), ("bare", bare)) * 2:
        for i in range(20):  # warm
            request(i)
        app, database = time.process_time(), backend_ms()
        for i in range(count // 2):
            request(i)
        spent[name]["app"] += (time.process_time() - app) * 1000 / count
        spent[name]["database"] += (backend_ms() - database) / count
    return spent


if __name__ == "__main__":
    if sys.argv[1] == "seed":
        print(json.dumps(seed()))
    elif sys.argv[1] == "cpu":
        print(json.dumps(cpu(int(sys.argv[2]), sys.argv[3], [int(g) for g in sys.argv[4:]])))
    elif sys.argv[1] == "rescore":
        print(json.dumps(rescore(int(sys.argv[2]))))
    else:
        print(json.dumps(standings(int(sys.argv[2]))))
