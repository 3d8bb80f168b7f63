"""Shared builders for the rules-engine tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from rules_engine import RuleError, Scoresheet, score_record

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus")


def record(game: str, players: int, deals: list[Any], **extra: Any) -> dict[str, Any]:
    return {"game": game, "players": list(NAMES[:players]), "deals": deals, **extra}


def play(game: str, players: int, deals: list[Any], **extra: Any) -> Scoresheet:
    return score_record(record(game, players, deals, **extra))


def rejection(game: str, players: int, deals: list[Any], **extra: Any) -> RuleError:
    try:
        play(game, players, deals, **extra)
    except RuleError as error:
        return error
    raise AssertionError("the record was accepted")


def run_engine(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m rules_engine ARGS`` run from the checkout, fed ``stdin``."""
    return subprocess.run(
        [sys.executable, "-m", "rules_engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
