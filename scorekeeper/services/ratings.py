"""Ratings: a rating per player per club per game type, from finished games in the order
they were played, with the maintained ``openskill`` package (Plackett–Luce; a two-player
game is a two-player match; equal totals share a rank).

Shown as a conservative figure, ``1000 + 40 × (μ − 3σ)``: a new player starts at 1000
(μ = 25, σ = 25/3) and climbs as their results show more surely how good they are.

A change to a finished game (its end, a correction, an undo that reopens it, an abandon)
asks for a :class:`~scorekeeper.models.RatingJob` in the same transaction; the job rates
the club's games of that type again from that game's day on, in chunks of games, each
chunk its own transaction, and counts its progress on the job's row. The work carries on
from what is stored (the games after the last rated one), so a job that runs twice, or
dies half-way and runs again, leaves the same ratings as one clean run.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from openskill.models import PlackettLuce

from .. import jobs
from ..models import (
    Club,
    Game,
    GameStatus,
    JobStatus,
    Rating,
    RatingChange,
    RatingJob,
    Result,
    Season,
)
from .standings import season_ratings_refresh, standings_refresh

#: openskill's defaults: μ = 25, σ = 25/3, so a new player is shown as 1000.
MODEL = PlackettLuce()
CHUNK = 5_000
SCALE = 40
BASE = 1_000


def shown(mu: float, sigma: float) -> int:
    """The figure players see: ``1000 + 40 × (μ − 3σ)``, rounded."""
    return round(BASE + SCALE * (mu - 3 * sigma))


def game_key(played_on: date, ended_at: datetime | None, game_id: int) -> str:
    """Orders a club's games as played: the day, then when it ended, then its id."""
    ended = ended_at.isoformat(timespec="microseconds") if ended_at else ""
    return f"{played_on.isoformat()}|{ended}|{game_id:012d}"


def day_key(played_on: date) -> str:
    """The key before every game of ``played_on``."""
    return f"{played_on.isoformat()}|"


@dataclass
class Standing:
    """A player's rating while games are rated: μ, σ and rated games so far."""

    mu: float
    sigma: float
    games: int = 0


def new_standing() -> Standing:
    return Standing(MODEL.mu, MODEL.sigma)


def rate(
    standings: dict[int, Standing], placings: Sequence[tuple[int, int]]
) -> list[tuple[int, Standing, Standing]]:
    """Rate one game: ``placings`` are (player id, placing) pairs, 1 the best and ties
    sharing; ``standings`` are updated. Returns (player, before, after) per player."""
    before = [standings.get(player) or new_standing() for player, _ in placings]
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
    rated = MODEL.rate(teams, ranks=[float(placing) for _, placing in placings])
    out = []
    for (player, _), old, team in zip(placings, before, rated, strict=True):
        new = Standing(team[0].mu, team[0].sigma, old.games + 1)
        standings[player] = new
        out.append((player, old, new))
    return out


# --- Asking for a recomputation ---------------------------------------------------------------


def ratings_request(*, game: Game) -> RatingJob:
    """Ask for the club's ratings of ``game``'s type to be rated again from its day on
    (call it inside the transaction that changed a finished game)."""
    return ratings_request_from(
        club_id=game.club_id, game_type=game.game_type, from_key=day_key(game.played_on)
    )


def ratings_request_from(*, club_id: int, game_type: str, from_key: str = "") -> RatingJob:
    """Ask for the club's ratings of a game type to be rated again from ``from_key`` ("":
    from the first game). A job already queued for the same club and game type takes the
    earlier start instead of a second job."""
    queued = (
        RatingJob.objects.select_for_update()
        .filter(club_id=club_id, game_type=game_type, status=JobStatus.QUEUED)
        .first()
    )
    if queued is not None:
        if from_key < queued.from_key:
            queued.from_key = from_key
            queued.save(update_fields=["from_key", "updated_at"])
        return queued
    job = RatingJob.objects.create(club_id=club_id, game_type=game_type, from_key=from_key)
    jobs.ratings_recompute(job.pk)
    return job


def finished_game_changed(game: Game, *, was_finished: bool) -> None:
    """Call after a write to ``game``: when it is or was finished, its season's standings
    rows follow at once, and (for a rated game) a ratings job is asked for."""
    if was_finished or game.status == GameStatus.FINISHED:
        standings_refresh(game=game)
        if game.rated:
            ratings_request(game=game)


# --- Running a recomputation ------------------------------------------------------------------


def _rated_games(club_id: int, game_type: str, after: str) -> list[tuple[str, int]]:
    """(key, id) of the club's finished rated games of the type after ``after``, in order."""
    day = date.fromisoformat(after.split("|", 1)[0]) if after else date.min
    rows = Game.objects.filter(
        club_id=club_id,
        game_type=game_type,
        status=GameStatus.FINISHED,
        rated=True,
        played_on__gte=day,
    ).values_list("played_on", "ended_at", "id")
    keyed = sorted((game_key(*row), row[2]) for row in rows)
    return [(key, game_id) for key, game_id in keyed if key > after]


def _rebuild_ratings(club_id: int, game_type: str) -> dict[int, Standing]:
    """Make the club's Rating rows of the type match each player's latest change."""
    latest: dict[int, Standing] = {}
    changes = (
        RatingChange.objects.filter(club_id=club_id, game_type=game_type)
        .order_by("player_id", "-key")
        .values_list("player_id", "key", "mu_after", "sigma_after", "games")
    )
    for player, _key, mu, sigma, games in changes:
        if player not in latest:
            latest[player] = Standing(mu, sigma, games)
    Rating.objects.filter(club_id=club_id, game_type=game_type).exclude(
        player_id__in=list(latest)
    ).delete()
    _save_ratings(club_id, game_type, latest)
    return latest


def _save_ratings(club_id: int, game_type: str, standings: dict[int, Standing]) -> None:
    existing = {
        rating.player_id: rating
        for rating in Rating.objects.filter(
            club_id=club_id, game_type=game_type, player_id__in=list(standings)
        )
    }
    changed, new = [], []
    for player, standing in standings.items():
        figure = shown(standing.mu, standing.sigma)
        rating = existing.get(player)
        if rating is None:
            new.append(
                Rating(
                    club_id=club_id,
                    player_id=player,
                    game_type=game_type,
                    mu=standing.mu,
                    sigma=standing.sigma,
                    shown=figure,
                    games=standing.games,
                )
            )
        elif (rating.mu, rating.sigma, rating.games) != (
            standing.mu,
            standing.sigma,
            standing.games,
        ):
            rating.mu, rating.sigma, rating.shown = standing.mu, standing.sigma, figure
            rating.games = standing.games
            changed.append(rating)
    Rating.objects.bulk_create(new, batch_size=1_000)
    Rating.objects.bulk_update(changed, ["mu", "sigma", "shown", "games"], batch_size=1_000)


def _placings(game_ids: Iterable[int]) -> dict[int, list[tuple[int, int]]]:
    placings: dict[int, list[tuple[int, int]]] = {}
    rows = (
        Result.objects.filter(game_id__in=list(game_ids))
        .order_by("game_id", "position")
        .values_list("game_id", "player_id", "placing")
    )
    for game_id, player, placing in rows:
        placings.setdefault(game_id, []).append((player, placing))
    return placings


_CHANGE_COLUMNS = (
    "club_id",
    "game_id",
    "season_id",
    "player_id",
    "game_type",
    "key",
    "played_on",
    "placing",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "shown_before",
    "shown_after",
    "games",
)


def _insert_changes(rows: list[tuple[Any, ...]]) -> None:
    """Insert rating changes with one prepared statement (tens of thousands of rows on a
    full recomputation: building a model object for each would take most of its time)."""
    if not rows:
        return
    quote = connection.ops.quote_name
    table = quote(RatingChange._meta.db_table)
    columns = ", ".join(quote(column) for column in _CHANGE_COLUMNS)
    marks = ", ".join(["%s"] * len(_CHANGE_COLUMNS))
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # PostgreSQL takes many rows fastest as one COPY.
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        cursor.executemany(
            f"INSERT INTO {table} ({columns}) VALUES ({marks})",  # noqa: S608
            rows,
        )


def _rate_chunk(club_id: int, game_type: str) -> tuple[int, bool]:
    """Rate the next games after the last rated one; (games rated, whether all are)."""
    with transaction.atomic():
        # One job at a time per club: the club's row, without blocking its other tables.
        Club.objects.select_for_update(no_key=True).filter(pk=club_id).first()
        last = (
            RatingChange.objects.filter(club_id=club_id, game_type=game_type)
            .order_by("-key")
            .values_list("key", flat=True)
            .first()
        ) or ""
        games = _rated_games(club_id, game_type, last)
        chunk = games[:CHUNK]
        if not chunk:
            return 0, True
        standings = {
            rating.player_id: Standing(rating.mu, rating.sigma, rating.games)
            for rating in Rating.objects.filter(club_id=club_id, game_type=game_type)
        }
        ids = [game_id for _, game_id in chunk]
        days = {
            game_id: (day, season)
            for game_id, day, season in Game.objects.filter(pk__in=ids).values_list(
                "id", "played_on", "season_id"
            )
        }
        placings = _placings(ids)
        touched: dict[int, Standing] = {}
        rows: list[tuple[Any, ...]] = []
        for key, game_id in chunk:
            places = placings.get(game_id, [])
            if len(places) < 2:
                continue
            ranks = dict(places)
            for player, old, new in rate(standings, places):
                touched[player] = new
                rows.append(
                    (
                        club_id,
                        game_id,
                        days[game_id][1],
                        player,
                        game_type,
                        key,
                        days[game_id][0],
                        ranks[player],
                        old.mu,
                        old.sigma,
                        new.mu,
                        new.sigma,
                        shown(old.mu, old.sigma),
                        shown(new.mu, new.sigma),
                        new.games,
                    )
                )
        _insert_changes(rows)
        _save_ratings(club_id, game_type, touched)
        return len(chunk), len(games) <= CHUNK


def ratings_recompute(*, job_id: int) -> RatingJob | None:
    """Run job ``job_id``: forget the ratings from its start on, then rate the games from
    there in chunks, counting progress on the job. Running it again is harmless."""
    with transaction.atomic():
        job = RatingJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.status == JobStatus.DONE:
            return job
        Club.objects.select_for_update(no_key=True).filter(pk=job.club_id).first()
        RatingChange.objects.filter(
            club_id=job.club_id, game_type=job.game_type, key__gte=job.from_key
        ).delete()
        _rebuild_ratings(job.club_id, job.game_type)
        job.status = JobStatus.RUNNING
        job.done = 0
        job.total = len(_rated_games(job.club_id, job.game_type, job.from_key))
        job.save(update_fields=["status", "done", "total", "updated_at"])
    finished = False
    while not finished:
        count, finished = _rate_chunk(job.club_id, job.game_type)
        job.done = min(job.done + count, job.total)
        RatingJob.objects.filter(pk=job.pk).update(done=job.done, updated_at=timezone.now())
    # The seasons whose rating columns may have moved: any that ends on or after the start.
    start = date.fromisoformat(job.from_key.split("|", 1)[0]) if job.from_key else date.min
    seasons = Season.objects.filter(club_id=job.club_id, ends_on__gte=start).values_list(
        "pk", flat=True
    )
    with transaction.atomic():
        season_ratings_refresh(
            club_id=job.club_id,
            game_type=job.game_type,
            season_ids=list(seasons),
        )
        RatingJob.objects.filter(pk=job.pk).update(status=JobStatus.DONE, updated_at=timezone.now())
    job.status = JobStatus.DONE
    return job


def ratings_rebuild(*, club: Club, game_type: str) -> RatingJob | None:
    """Rate all of the club's games of a type again from the first (a command, a test)."""
    job = RatingJob.objects.create(club=club, game_type=game_type, from_key="")
    return ratings_recompute(job_id=job.pk)


def pending_jobs(club: Club) -> list[RatingJob]:
    """The club's recomputations still to finish, for its admins to watch."""
    return list(
        RatingJob.objects.filter(club=club).filter(
            Q(status=JobStatus.QUEUED) | Q(status=JobStatus.RUNNING)
        )
    )
