"""A pause inside the real tournament jobs, for the killed-worker tests: loaded into a real
worker with ``-I tests.jobs.pause``. With ``PAUSE_AT=seating`` the seating job stops after it
marked the round running (in the search for the seating); with ``PAUSE_AT=closing`` closing a
round stops inside its transaction (the games finished, the links revoked, before the round
is scored). The first run writes ``started-1`` (its process id) in ``PAUSE_DIR`` and waits to
be killed; later runs write ``started-N`` and go on."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from celery.signals import worker_process_init

PAUSE = 120  # killed before this ends


def _pausing(original: Any) -> Any:
    def paused(*args: Any, **kwargs: Any) -> Any:
        where = Path(os.environ["PAUSE_DIR"])
        runs = len(list(where.glob("started-*")))
        (where / f"started-{runs + 1}").write_text(str(os.getpid()))
        if runs == 0:
            time.sleep(PAUSE)
        return original(*args, **kwargs)

    return paused


@worker_process_init.connect
def _install(**_: Any) -> None:
    at = os.environ.get("PAUSE_AT")
    if at == "seating":
        from tournaments import seating_adapter

        seating_adapter.plan_round = _pausing(seating_adapter.plan_round)
    elif at == "closing":
        from tournaments.services import closing

        closing._score_round = _pausing(closing._score_round)  # noqa: SLF001
