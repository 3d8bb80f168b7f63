"""Ratings benchmark (``make bench-ratings``): in a Django process on the database the
environment names (the SQLite default: a throwaway file; ``DATABASE_URL``: PostgreSQL),

* rates a club's 20,000 finished games (the four game types mixed, 60 players) from
  scratch, as a recomputation job does, and prints the time (target: under 5 s);
* times a season's standings with ratings (one game type, its ratings and their change
  over the season) over 1,000,000 deals, warm, against one hand-written SQL aggregate of
  the same results (target: under 20 ms).

    python bench/ratings.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.timing import medians_ms, raw_standings_sql  # noqa: E402
from rules_engine import GAMES  # noqa: E402
from scorekeeper import selectors  # noqa: E402
from scorekeeper.models import (  # noqa: E402
    Club,
    Game,
    GameStatus,
    Player,
    RatingChange,
    Result,
    Season,
)
from scorekeeper.services.ratings import ratings_rebuild  # noqa: E402
from scorekeeper.services.standings import standings_rebuild  # noqa: E402

PLAYERS = 60
GAMES_RATED = 20_000
SIZES = {"widow_whist": 3, "third_hand": 2, "italian_whist": 3, "prediction_whist": 4}


def made_games(
    club: Club, season: Season, roster: list[Player], count: int, types: list[str], deals: int
) -> None:
    """``count`` finished games cycling through ``types``, seated and placed by formula."""
    start = date(2024, 1, 1)
    now = timezone.now()
    with transaction.atomic():
        for first in range(0, count, 5_000):
            batch = Game.objects.bulk_create(
                Game(
                    club=club,
                    season=season,
                    game_type=types[i % len(types)],
                    options={},
                    status=GameStatus.FINISHED,
                    played_on=start + timedelta(days=i // 40),
                    deal_count=deals,
                    ended_at=now,
                    first_dealer=0,
                )
                for i in range(first, min(first + 5_000, count))
            )
            rows = []
            for index, game in enumerate(batch, start=first):
                size = SIZES[game.game_type]
                for position in range(size):
                    player = roster[(index * 7 + position * 13) % len(roster)]
                    placing = 1 + (index + position * 5) % size
                    rows.append(
                        Result(
                            game=game,
                            player=player,
                            position=position,
                            total=(index * 31 + position * 17) % 97 - 30,
                            placing=placing,
                            won=placing == 1,
                        )
                    )
            Result.objects.bulk_create(rows, batch_size=5_000)


def club_with(name: str) -> tuple[Club, Season, list[Player]]:
    club = Club.objects.create(name=name, slug=name.lower().replace(" ", "-"))
    season = Season.objects.create(
        club=club, name="Long season", starts_on=date(2020, 1, 1), ends_on=date(2035, 12, 31)
    )
    roster = Player.objects.bulk_create(Player(club=club, name=f"P{n}") for n in range(PLAYERS))
    return club, season, roster


def recompute() -> float:
    club, season, roster = club_with("Rated club")
    made_games(club, season, roster, GAMES_RATED, list(SIZES), deals=12)
    started = time.perf_counter()
    for game_type in GAMES:
        ratings_rebuild(club=club, game_type=game_type)
    elapsed = time.perf_counter() - started
    rated = RatingChange.objects.filter(club=club).values("game_id").distinct().count()
    assert rated == GAMES_RATED, rated
    return elapsed


def standings(deals: int) -> dict[str, float]:
    club, season, roster = club_with("Standings club")
    per_game = 20
    made_games(club, season, roster, deals // per_game, ["prediction_whist"], deals=per_game)
    standings_rebuild(season=season)  # the rows the services keep, made in one go
    ratings_rebuild(club=club, game_type="prediction_whist")
    sql = raw_standings_sql("prediction_whist")

    def app() -> None:
        rows = selectors.season_standings(season, "prediction_whist", "rating")
        assert len(rows) == PLAYERS and rows[0]["rating"] is not None

    def raw() -> None:
        with connection.cursor() as cursor:
            cursor.execute(sql, [season.pk])
            assert len(cursor.fetchall()) == PLAYERS

    return medians_ms({"app": app, "sql": raw})


def main() -> None:
    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor}")
    seconds = recompute()
    print(
        f"ratings of {GAMES_RATED:,} games (4 game types, {PLAYERS} players) rated from "
        f"scratch: {seconds:.2f} s (target < 5 s)"
    )
    timings = standings(1_000_000)
    print(
        f"season standings with ratings over 1,000,000 deals: {timings['app']:.1f} ms warm "
        f"(target < 20 ms); one SQL aggregate of the results alone: {timings['sql']:.1f} ms; "
        f"ratio {timings['app'] / timings['sql']:.2f}x"
    )


if __name__ == "__main__":
    main()
