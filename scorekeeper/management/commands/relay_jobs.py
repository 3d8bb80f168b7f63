"""``manage.py relay_jobs``: hand the outbox's jobs that the broker did not take (it was
down) to it again, and those it took but that are still not done a while later; what the
beat task does every 30 s, for a cron job or by hand."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scorekeeper import outbox


class Command(BaseCommand):
    help = "Send the background jobs still waiting in the outbox to the broker."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--older-than",
            type=float,
            default=outbox.RELAY_AFTER.total_seconds(),
            help="only jobs written this many seconds ago or more (default %(default)s)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        counts = outbox.relay(older_than=timedelta(seconds=options["older_than"]))
        waiting = len(outbox.unsent(older_than=timedelta(0)))
        self.stdout.write(
            f"{counts['sent']} sent, {counts['resent']} sent again (not done), "
            f"{counts['failed']} failed, {waiting} waiting"
        )
