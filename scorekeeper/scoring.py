"""The one place where database rows meet the rules engine."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rules_engine import (
    RuleError,
    ScoredDeal,
    Scoresheet,
    Verdict,
    get_game,
    judge_request,
    new_scoresheet,
)

from .errors import InvalidInput
from .models import Deal, Game, Seat


def player_names(seats: Sequence[Seat]) -> list[str]:
    return [seat.player.name for seat in seats]


def empty_sheet(game: Game, seats: Sequence[Seat], *, set_up: bool = False) -> Scoresheet:
    """A scoresheet for ``game`` with no deals, from its stored set-up; ``set_up``: a game
    being set up, whose house rules are also checked together (never for a stored game:
    one accepted before a check was added still opens)."""
    return new_scoresheet(
        game.game_type,
        player_names(seats),
        options=game.options,
        first_dealer=game.first_dealer,
        set_up=set_up,
    )


def sheet_from_records(game: Game, seats: Sequence[Seat], records: Iterable[Any]) -> Scoresheet:
    """Replay deal records through the engine."""
    sheet = empty_sheet(game, seats)
    sheet.extend(records)
    return sheet


def sheet_after_last_deal(
    game: Game, seats: Sequence[Seat], *, last_number: int | None = None
) -> Scoresheet:
    """A scoresheet that carries on from the game's last stored deal, without replaying
    the ones before it: what recording the next deal needs, at the same cost on the
    thousandth deal as on the first. (Corrections and undo replay the whole game; so
    does ``manage.py scores_check``, which compares the stored scores with a replay.)"""
    last = (
        Deal.objects.filter(
            game=game, number=game.deal_count if last_number is None else last_number
        )
        .values_list("number", "dealer", "record", "scores", "totals", "context")
        .first()
    )
    scored = None
    if last is not None:
        number, dealer, record, scores, totals, context = last
        scored = ScoredDeal(number, dealer, record, tuple(scores), tuple(totals), context)
    return sheet_resumed(game, player_names(seats), scored)


def sheet_resumed(game: Game, players: Sequence[str], last: ScoredDeal | None) -> Scoresheet:
    """The game's scoresheet carrying on from ``last``, its last stored deal, as read,
    with its players' names in seat order."""
    return Scoresheet.resume(
        get_game(game.game_type),
        players,
        options=game.options,
        first_dealer=game.first_dealer,
        last=last,
    )


def sheet_for(game: Game) -> Scoresheet:
    """The game's scoresheet as stored, replayed through the engine."""
    seats = list(game.seats.select_related("player").order_by("position"))
    deals = Deal.objects.filter(game=game).order_by("number").values_list("record", flat=True)
    return sheet_from_records(game, seats, deals)


def invalid_from_rule(error: RuleError, *, prefix: str = "") -> InvalidInput:
    """An engine rejection as a service error, naming the deal by its number and the field.

    The engine counts deals from 0 (their index in a record); the app, its URLs and
    its players count them from 1, so the error carries the deal's number.
    """
    number = None if error.deal is None else error.deal + 1
    return InvalidInput(prefix + error.message, field=error.field, deal=number)


def placings(totals: Sequence[int]) -> list[int]:
    """1 for the highest total; equal totals share a placing (1, 1, 3)."""
    return [1 + sum(1 for other in totals if other > total) for total in totals]


def judge_trick(trick: dict[str, Any]) -> Verdict:
    """The rules assistant's verdict on a trick (see :mod:`rules_engine.tricks`); an
    engine refusal as :class:`InvalidInput` naming the field."""
    try:
        return judge_request(trick)
    except RuleError as error:
        raise invalid_from_rule(error) from None
