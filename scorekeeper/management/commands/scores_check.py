"""``manage.py scores_check [--fix]``: replay every game and compare with what is stored."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.models import Game
from scorekeeper.services.consistency import scores_check


class Command(BaseCommand):
    help = (
        "Replay every game's deal records through the rules engine and report any stored "
        "score, running total, result or deal count that differs. --fix rescores those games."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--fix", action="store_true", help="rescore the games that differ")
        parser.add_argument(
            "--jobs",
            type=int,
            default=1,
            help="processes that read and replay games side by side (e.g. the machine's cores)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        fix = bool(options["fix"])
        games = Game.objects.count()
        differences = 0
        jobs = int(options["jobs"])
        if jobs < 1:
            raise CommandError("--jobs: at least 1")
        for difference in scores_check(fix=fix, workers=jobs):
            differences += 1
            self.stdout.write(str(difference))
        if not differences:
            self.stdout.write(f"{games} games checked: every stored score matches a replay.")
            return
        if fix:
            self.stdout.write(f"{games} games checked: {differences} differences mended.")
            return
        raise CommandError(
            f"{games} games checked: {differences} differences (run with --fix to rescore)"
        )
