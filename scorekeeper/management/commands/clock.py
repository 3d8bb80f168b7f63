"""``manage.py clock``: the beat schedule's jobs (``CELERY_BEAT_SCHEDULE``: the tournament
clock that calls time and closes timed rounds, the job relay, unsent email), run in this
process at their intervals. For the embedded default, which has no broker and so no beat;
``make run`` starts it beside the server. With a broker, run Celery beat instead."""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import current_app
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import close_old_connections

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Run the beat schedule's jobs in this process (the embedded default, no broker)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="run every job once, then stop")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.CELERY_TASK_ALWAYS_EAGER:  # a broker is configured
            raise CommandError(
                "CELERY_BROKER_URL is set: run Celery beat (make beat) instead, and only one"
            )
        try:
            failed = self._run(once=options["once"], verbosity=options["verbosity"])
        except KeyboardInterrupt:
            return
        if failed:
            raise CommandError(f"{failed} job(s) failed; see the log")

    def _run(self, *, once: bool, verbosity: int) -> int:
        schedule: dict[str, dict[str, Any]] = settings.CELERY_BEAT_SCHEDULE
        due = dict.fromkeys(schedule, 0.0)
        failed = 0
        while True:
            now = time.monotonic()
            for name, entry in schedule.items():
                if now < due[name]:
                    continue
                due[name] = now + float(entry["schedule"])
                try:  # one job's trouble does not stop the others, nor the next run
                    result = current_app.tasks[entry["task"]].apply(throw=True).result
                except Exception:
                    logger.exception("the job %s failed; it runs again at its next time", name)
                    failed += 1
                    continue
                if verbosity > 1 or once:
                    self.stdout.write(f"{name}: {result}")
            if once:
                return failed
            close_old_connections()  # as after a request: none kept past its age or broken
            time.sleep(max(0.5, min(due.values()) - time.monotonic()))
