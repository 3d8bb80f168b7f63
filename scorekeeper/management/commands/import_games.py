"""``manage.py import_games FILE --club SLUG [--as USERNAME] [--dry-run]``."""

from __future__ import annotations

import json
import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import CommandError

from scorekeeper.management.club_command import ClubCommand
from scorekeeper.records import ImportRefused, import_actor, import_games


class Command(ClubCommand):
    help = (
        "Import games from a scorekeeper-games/1 file, a list of RULES.md game records or "
        "one record, through the services, all or nothing."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", metavar="FILE", help="the JSON file, or - for stdin")
        super().add_arguments(parser)
        parser.add_argument(
            "--as",
            dest="username",
            metavar="USERNAME",
            help="act as this user (club staff); default: the club's first admin",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="check everything, then write nothing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        club = self.club(options)
        try:
            if options["file"] == "-":
                data = json.load(sys.stdin)
            else:
                with open(options["file"], encoding="utf-8") as handle:
                    data = json.load(handle)
        except OSError as error:
            raise CommandError(f"cannot read {options['file']}: {error.strerror}") from None
        except ValueError as error:
            raise CommandError(f"{options['file']} is not valid JSON: {error}") from None
        try:
            actor = import_actor(club, options["username"])
            summary = import_games(data, club=club, actor=actor, dry_run=options["dry_run"])
        except ImportRefused as error:
            raise CommandError(f"nothing imported: {error.message}") from None
        self.stdout.write(str(summary))
