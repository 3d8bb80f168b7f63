"""``manage.py ratings_recompute``: run the ratings jobs still queued or left running (a
broker that lost them, a worker that died), or with ``--club`` rate a club's games again
from the first; then every season's standings rows of that club again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules_engine import GAMES
from scorekeeper.models import Club, JobStatus, RatingJob
from scorekeeper.services.ratings import ratings_rebuild, ratings_recompute
from scorekeeper.services.standings import standings_rebuild


class Command(BaseCommand):
    help = "Run waiting ratings jobs, or rate a club's games again from the first."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", help="the club's slug: rate all its games again")
        parser.add_argument("--game-type", choices=list(GAMES), help="only this game")

    def handle(self, *args: Any, **options: Any) -> None:
        types = [options["game_type"]] if options["game_type"] else list(GAMES)
        if options["club"]:
            club = Club.objects.filter(slug=options["club"]).first()
            if club is None:
                raise CommandError(f"no club {options['club']!r}")
            for season in club.seasons.all():
                standings_rebuild(season=season)
            for game_type in types:
                ratings_rebuild(club=club, game_type=game_type)
                self.stdout.write(f"{club.slug}: {GAMES[game_type].name} rated again")
            return
        waiting = RatingJob.objects.filter(
            status__in=[JobStatus.QUEUED, JobStatus.RUNNING], game_type__in=types
        ).order_by("id")
        count = 0
        for job in waiting:
            ratings_recompute(job_id=job.pk)
            count += 1
        self.stdout.write(f"{count} ratings job{'s' if count != 1 else ''} run")
