"""Season standings, kept rather than added up: a row per player, season and game type
(and one for all games) with games, wins, total, deals and placings, brought up to date
whenever a finished game of the season changes; and the rating columns (the rating after
the season's games, its change over the season), brought up to date by the ratings job.

Reading a season's standings is then reading its rows, however many deals it holds."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Count, Q, Sum

from ..models import Game, GameStatus, RatingChange, Result, Season, SeasonStanding

ALL = ""


def standings_refresh(*, game: Game) -> None:
    """Bring the standings rows of ``game``'s players in its season up to date (call it in
    the transaction that changed a game which is, or was, finished)."""
    if game.season_id is None:
        return
    players = list(Result.objects.filter(game=game).values_list("player_id", flat=True))
    _refresh(game.season_id, players)


def standings_rebuild(*, season: Season) -> None:
    """Every row of the season again, from the results (seeding, a repair)."""
    players = set(Result.objects.filter(game__season=season).values_list("player_id", flat=True))
    SeasonStanding.objects.filter(season=season).exclude(player_id__in=players).delete()
    _refresh(season.pk, sorted(players))
    types = set(Game.objects.filter(season=season, rated=True).values_list("club_id", "game_type"))
    for club_id, game_type in types:
        season_ratings_refresh(club_id=club_id, game_type=game_type, season_ids=[season.pk])


def _refresh(season_id: int, players: list[int]) -> None:
    rows = (
        Result.objects.filter(
            game__season_id=season_id, game__status=GameStatus.FINISHED, player_id__in=players
        )
        .values("player_id", "game__game_type")
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=Q(won=True)),
            total=Sum("total"),
            deals=Sum("game__deal_count"),
            placing_sum=Sum("placing"),
        )
    )
    figures: dict[tuple[int, str], dict[str, int]] = {}
    for found in rows:
        counts: dict[str, Any] = dict(found)
        for game_type in (counts["game__game_type"], ALL):
            into = figures.setdefault(
                (counts["player_id"], game_type),
                {"games": 0, "wins": 0, "total": 0, "deals": 0, "placing_sum": 0},
            )
            for name in into:
                into[name] += counts[name] or 0
    existing = {
        (row.player_id, row.game_type): row
        for row in SeasonStanding.objects.filter(season_id=season_id, player_id__in=players)
    }
    gone = [row.pk for key, row in existing.items() if key not in figures]
    SeasonStanding.objects.filter(pk__in=gone).delete()
    new, changed = [], []
    for (player, game_type), values in figures.items():
        row = existing.get((player, game_type))
        if row is None:
            new.append(
                SeasonStanding(season_id=season_id, player_id=player, game_type=game_type, **values)
            )
        elif any(getattr(row, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(row, name, value)
            changed.append(row)
    SeasonStanding.objects.bulk_create(new)
    SeasonStanding.objects.bulk_update(changed, ["games", "wins", "total", "deals", "placing_sum"])


def season_ratings_refresh(*, club_id: int, game_type: str, season_ids: Iterable[int]) -> None:
    """The rating columns of the seasons' rows of ``game_type``: each player's rating after
    their last game of the season, and its change from before their first."""
    for season_id in set(season_ids):
        changes = (
            RatingChange.objects.filter(club_id=club_id, game_type=game_type, season_id=season_id)
            .order_by("key")
            .values_list("player_id", "shown_before", "shown_after")
        )
        first: dict[int, int] = {}
        last: dict[int, int] = {}
        for player, before, after in changes:
            first.setdefault(player, before)
            last[player] = after
        rows = list(SeasonStanding.objects.filter(season_id=season_id, game_type=game_type))
        for row in rows:
            rating = last.get(row.player_id)
            row.rating = rating
            row.rating_change = None if rating is None else rating - first[row.player_id]
        SeasonStanding.objects.bulk_update(rows, ["rating", "rating_change"])
