"""What the commands about one club share: its ``--club SLUG`` and finding it."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.models import Club


class ClubCommand(BaseCommand):
    """A command about one club, named by its slug with ``--club``."""

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--club", required=True, metavar="SLUG", help="the club's slug")

    def club(self, options: dict[str, Any]) -> Club:
        """The club ``--club`` names; a command error if there is none."""
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f'there is no club with the slug "{options["club"]}"')
        return club
