"""``manage.py export_games --club SLUG [--season NAME] [--output FILE|-]``."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import CommandError

from scorekeeper.management.club_command import ClubCommand
from scorekeeper.models import Season
from scorekeeper.records import export_games


class Command(ClubCommand):
    help = (
        "Write a club's games (or one season's) as a scorekeeper-games/1 JSON file; "
        "each game is a RULES.md game record the rules engine can score."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--season", metavar="NAME", help="only this season's games")
        parser.add_argument(
            "--output", default="-", metavar="FILE", help="where to write (default -: stdout)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        club = self.club(options)
        season = None
        if options["season"] is not None:
            season = Season.objects.filter(club=club, name=options["season"]).first()
            if season is None:
                raise CommandError(f'{club.slug} has no season called "{options["season"]}"')
        data = export_games(club, season)
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
        if options["output"] == "-":
            self.stdout.write(text, ending="")
            return
        with open(options["output"], "w", encoding="utf-8") as handle:
            handle.write(text)
        deals = sum(len(game["deals"]) for game in data["games"])
        self.stderr.write(
            f"Wrote {len(data['games'])} games ({deals} deals) to {options['output']}."
        )
