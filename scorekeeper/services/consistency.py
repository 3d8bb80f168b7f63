"""The stored scores against the rules engine: every game replayed from its deal records.

Recording a deal, undo and finishing carry on from the last stored deal (no replay);
corrections replay the game. This check replays every game and reports (and with ``fix``
mends) any stored deal, result or deal count that differs from what the engine makes of
the records.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.db import transaction

from rules_engine import RuleError

from ..models import Deal, Game, Result
from ..scoring import placings, sheet_from_records
from ._base import locked_game, seats_of, sync_results


@dataclass(frozen=True)
class Difference:
    game: int
    what: str  # "deal 3 scores", "result of seat 1", "deal count", "records"
    stored: object
    replayed: object

    def __str__(self) -> str:
        return f"game {self.game}: {self.what} stored {self.stored!r}, replayed {self.replayed!r}"


def _differences(game: Game, *, fix: bool) -> list[Difference]:
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    try:
        sheet = sheet_from_records(game, seats_of(game), [deal.record for deal in deals])
    except RuleError as error:
        return [Difference(game.pk, "records", "stored deals", f"refused: {error.message}")]
    found: list[Difference] = []
    changed: list[Deal] = []
    for deal, scored in zip(deals, sheet.deals, strict=True):
        replayed = {
            "dealer": scored.dealer,
            "scores": list(scored.scores),
            "totals": list(scored.totals),
            "context": dict(scored.context),
        }
        for field, value in replayed.items():
            if getattr(deal, field) != value:
                found.append(
                    Difference(game.pk, f"deal {deal.number} {field}", getattr(deal, field), value)
                )
                setattr(deal, field, value)
                if deal not in changed:
                    changed.append(deal)
    if game.deal_count != len(deals):
        found.append(Difference(game.pk, "deal count", game.deal_count, len(deals)))
    places = placings(sheet.totals)
    for result in Result.objects.filter(game=game).order_by("position"):
        expected = (sheet.totals[result.position], places[result.position])
        if (result.total, result.placing) != expected:
            found.append(
                Difference(
                    game.pk,
                    f"result of seat {result.position}",
                    (result.total, result.placing),
                    expected,
                )
            )
    if fix and found:
        Deal.objects.bulk_update(changed, ["dealer", "scores", "totals", "context"])
        sync_results(game, sheet)
    return found


def scores_check(*, fix: bool = False) -> Iterator[Difference]:
    """Every difference between the stored scores and a replay, game by game; with
    ``fix``, each game found different is rescored from its records (under its lock)."""
    for game_id in Game.objects.order_by("pk").values_list("pk", flat=True).iterator():
        with transaction.atomic():
            game = Game.objects.get(pk=game_id)
            if fix:
                game = locked_game(game)
            yield from _differences(game, fix=fix)
