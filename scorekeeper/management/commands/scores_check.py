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

    def handle(self, *args: Any, **options: Any) -> None:
        fix = bool(options["fix"])
        games = Game.objects.count()
        differences = 0
        for difference in scores_check(fix=fix):
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
