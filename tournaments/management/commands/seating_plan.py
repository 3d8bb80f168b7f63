"""``manage.py seating_plan``: a thin wrapper over the plain seating engine.

The arguments, checks and output are those of ``python -m tournaments.seating`` (see
``tournaments.seating.cli``): ``--players N --table-size K --rounds R [--sizes 4,4,3]
[--byes B] [--seed S] [--time-limit SEC] [--json]``. Bad arguments exit with status 2 and,
with ``--json``, an ``{"error": {"field", "message"}}`` object on standard output.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.seating import cli


class Command(BaseCommand):
    help = cli.DESCRIPTION

    def run_from_argv(self, argv: list[str]) -> None:
        # From the command line the plain engine parses everything itself, so that usage
        # errors, too, come out as the documented JSON error object with exit status 2.
        raise SystemExit(cli.main(argv[2:], prog=f"{argv[0]} {argv[1]}"))

    def add_arguments(self, parser: ArgumentParser) -> None:
        cli.add_arguments(parser)  # for call_command(...)

    def handle(self, *args: Any, **options: Any) -> None:
        status = cli.run(options, self.stdout, self.stderr)
        if status:
            raise CommandError("bad arguments for seating_plan", returncode=status)
