"""Shared builders for the rules-engine tests."""

from __future__ import annotations

from typing import Any

from rules_engine import RuleError, Scoresheet, score_record

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
