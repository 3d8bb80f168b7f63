"""The games the engine knows, by key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Unpack

from rules_engine.core import Game, Scoresheet
from rules_engine.errors import RuleError
from rules_engine.games.italian_whist import ItalianWhist
from rules_engine.games.prediction_whist import PredictionWhist
from rules_engine.games.third_hand import ThirdHand
from rules_engine.games.widow_whist import WidowWhist
from rules_engine.tricks import TRICK_KEYS, TrickDetails, Verdict
from rules_engine.tricks import judge_trick as judge_trick_of
from rules_engine.validate import mapping, type_name

GAMES: Mapping[str, Game] = {
    game.key: game for game in (WidowWhist(), ThirdHand(), ItalianWhist(), PredictionWhist())
}
RECORD_FIELDS = ("game", "players", "first_dealer", "options", "deals")


def get_game(key: object) -> Game:
    """The game called ``key``; :class:`RuleError` on field ``game`` if there is none."""
    if isinstance(key, str) and key in GAMES:
        return GAMES[key]
    known = ", ".join(GAMES)
    raise RuleError(f"unknown game {type_name(key)}; the games are {known}", field="game")


def new_scoresheet(
    game: str,
    players: list[str] | tuple[str, ...],
    *,
    options: object = None,
    first_dealer: object = None,
    set_up: bool = False,
) -> Scoresheet:
    """A scoresheet for a new game, its set-up validated; ``set_up``: a game being set up
    (not a stored one read), whose house rules are also checked together
    (:meth:`Game.check_new_table`)."""
    sheet = Scoresheet(get_game(game), players, options=options, first_dealer=first_dealer)
    if set_up:
        sheet.game.check_new_table(sheet.table)
    return sheet


def score_record(record: object) -> Scoresheet:
    """Read a whole game record (RULES.md) and score every deal in it.

    Raises :class:`RuleError` at the first problem: ``deal`` is ``None`` for the
    record's own fields, otherwise the 0-based index of the deal.
    """
    data = mapping(record, "record", "a game record")
    if "game" not in data:
        raise RuleError("a game record names its game", field="game")
    game = get_game(data["game"])
    if "players" not in data:
        raise RuleError("a game record lists its players in seat order", field="players")
    sheet = Scoresheet(
        game,
        data["players"],  # type: ignore[arg-type]
        options=data.get("options"),
        first_dealer=data.get("first_dealer"),
    )
    deals = data.get("deals", [])
    if not isinstance(deals, list | tuple):
        raise RuleError(
            f"deals must be a list of deal records; got {type_name(deals)}", field="deals"
        )
    sheet.extend(deals)
    return sheet


def describe_games() -> dict[str, Any]:
    """Every game with its player counts and house-rule options, for forms and docs."""
    return {"games": [game.describe() for game in GAMES.values()]}


def judge_trick(
    game: str | Game,
    context: Mapping[str, object],
    cards: object,
    **details: Unpack[TrickDetails],
) -> Verdict:
    """The rules assistant (:mod:`rules_engine.tricks`): who won a trick of ``game`` (its
    key, or the game), and why; ``leader``, ``players``, ``held`` and ``options`` as
    :func:`rules_engine.tricks.judge_trick` takes them. :class:`RuleError` naming the field
    if it cannot be judged."""
    played = get_game(game) if isinstance(game, str) else game
    return judge_trick_of(played, context, cards, **details)


def judge_request(data: object) -> Verdict:
    """Judge a trick given as one JSON object (``python -m rules_engine trick``, the API):
    ``game``, ``cards``, ``leader``, ``players``, ``held``, ``options``, and the game's
    context keys beside them."""
    request = mapping(data, "trick", "a trick")
    if "game" not in request:
        raise RuleError("a trick names its game", field="game")
    game = get_game(request["game"])
    if "cards" not in request:
        raise RuleError(
            "cards is missing: the cards of the trick in the order played", field="cards"
        )
    context = {key: value for key, value in request.items() if key not in TRICK_KEYS}
    if "trumps" in context and "trump" not in context:
        # The deal contexts the engine prints say "trumps" (Italian whist: "none"/"spades").
        context["trump"] = context.pop("trumps")
    return judge_trick(
        game,
        context,
        request["cards"],
        **{key: request[key] for key in ("leader", "players", "held", "options") if key in request},
    )
