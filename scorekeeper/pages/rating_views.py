"""Ratings on the pages: a club's table per game type (with the progress of a
recomputation, for its admins), how ratings work in plain words, a season's standings as
CSV, and what a player's page shows of their ratings and record."""

from __future__ import annotations

import csv
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_POST

from rules_engine import GAMES
from scorekeeper import access, selectors
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.models import Player, Rating
from scorekeeper.services.jobs import ratings_job_retry, stuck_rating_jobs
from scorekeeper.services.ratings import BASE, SCALE, pending_jobs

from .doors import member_club
from .game_sheet import Chart, line_chart

RECENT_GAMES = 20


def _ranked(ratings: list[Rating]) -> list[tuple[int, Rating]]:
    """Each rating with its rank, equal ratings sharing one (1, 1, 3)."""
    ranked: list[tuple[int, Rating]] = []
    for place, rating in enumerate(ratings, 1):
        same = ranked and ranked[-1][1].shown == rating.shown
        ranked.append((ranked[-1][0] if same else place, rating))
    return ranked


@login_required
@require_GET
def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    club = member_club(request, slug)
    game_type = request.GET.get("game_type", "")
    if game_type not in GAMES:
        game_type = next(iter(GAMES))
    administers = access.can_administer(request.user, club)
    jobs = pending_jobs(club) if administers else []
    return render(
        request,
        "pages/club/ratings.html",
        {
            "club": club,
            "game_type": game_type,
            "game_name": GAMES[game_type].name,
            "game_types": [(game.key, game.name) for game in GAMES.values()],
            "ratings": _ranked(list(selectors.club_ratings(club, game_type))),
            "jobs": [
                {
                    "game": GAMES[job.game_type].name,
                    "status": job.get_status_display(),
                    "done": job.done,
                    "total": job.total,
                }
                for job in jobs
            ],
            "stuck_jobs": stuck_rating_jobs(club) if administers else [],
        },
    )


@login_required
@require_POST
def ratings_retry(request: HttpRequest, slug: str) -> HttpResponse:
    """A club admin tries a stuck ratings recomputation again now."""
    club = member_club(request, slug)
    try:
        job_id = int(request.POST.get("job", ""))
    except ValueError:
        messages.error(request, "Choose the job to try again.")
    else:
        try:
            if ratings_job_retry(actor=request.user, club=club, job_id=job_id):
                messages.success(request, "Tried again now.")
            else:
                messages.info(request, "That was done already (or someone has just tried it).")
        except ServiceError as error:
            messages.error(request, error.message)
    return redirect("club-ratings", slug=club.slug)


@require_GET
def ratings_explained(request: HttpRequest) -> HttpResponse:
    return render(request, "pages/ratings_explained.html", {"base": BASE, "scale": SCALE})


@require_GET
def season_standings_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season's standings table as the page shows it (game type and order), as CSV."""
    try:
        season = selectors.season_results_readable_by(request.user, season_id)
    except NotFound:
        raise Http404("no such season") from None
    game_type = request.GET.get("game_type") or None
    if game_type is not None and game_type not in GAMES:
        game_type = None
    sort = request.GET.get("sort", "wins")
    table = selectors.season_table(season, game_type, sort)
    rows = table.rows
    name = "-".join(
        part for part in (season.club.slug, slugify(season.name), game_type or "") if part
    )
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{name}.csv"'
    # The page's columns: scores for one game (chosen, or the season's only one), and its
    # ratings when it has them.
    columns = [("Player", "name"), ("Played", "games_played"), ("Won", "games_won")]
    if table.scores_added:
        columns += [
            ("Total", "total_score"),
            ("Average a game", "average_score"),
            ("Average a deal", "average_per_deal"),
        ]
    columns.append(("Average placing", "average_placing"))
    if table.rated:
        columns += [("Rating", "rating"), ("Rating change", "rating_change")]
    writer = csv.writer(response)
    writer.writerow([title for title, _ in columns])
    for row in rows:
        writer.writerow(
            [
                _safe(row[key]) if key == "name" else "" if row[key] is None else row[key]
                for _, key in columns
            ]
        )
    return response


def _safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula (=, +, -, @ first)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def player_ratings_context(player: Player, game_ids: list[int]) -> dict[str, Any]:
    """What the player page shows of ratings and record: a chart per game type, the rating
    change of each listed game, best and worst opponents, and season by season."""
    history = selectors.rating_history(player)
    charts: list[tuple[str, int, Chart]] = []
    for game_type, changes in history.items():
        run = [changes[0].shown_before, *(change.shown_after for change in changes)]
        name = GAMES[game_type].name
        description = (
            f"{player.name}'s {name} rating over {len(changes)} game"
            f"{'s' if len(changes) != 1 else ''}: from {run[0]} to {run[-1]}."
        )
        chart = line_chart(
            [name], [run], description=description, baseline=BASE, signed_ticks=False
        )
        charts.append((name, run[-1], chart))
    opponents = selectors.head_to_head(player)
    return {
        "ratings": selectors.player_ratings(player),
        "charts": charts,
        "changes": selectors.rating_changes_of(player, game_ids),
        "best_opponents": opponents[:3],
        "worst_opponents": list(reversed(opponents[3:]))[:3] if len(opponents) > 3 else [],
        "seasons": selectors.player_seasons(player),
        "game_names": {key: game.name for key, game in GAMES.items()},
    }
