"""Scorekeeper's rules engine: validates and scores deals of whist-family card games.

Plain, typed Python with no dependency on Django. The four games are described
in RULES.md; :func:`score_record` reads a whole game record, and a
:class:`Scoresheet` takes deals one at a time::

    sheet = new_scoresheet("italian_whist", ["Ann", "Bob", "Cy"])
    sheet.next_deal            # DealContext(number=1, dealer=0, info={"trumps": "none", ...})
    sheet.add({"first": [4, 3, 2], "second": [2, 3, 4]})
    sheet.totals               # (2, 0, -2)

Every rule broken raises :class:`RuleError` naming the deal, the field and the rule.
:func:`judge_trick` (the rules assistant, :mod:`rules_engine.tricks`) says who won a trick
and why::

    judge_trick("prediction_whist", {"trump": "H"}, ["QS", "9H", "KS"]).winner   # 1
"""

from rules_engine.cards import Card, Suit, parse_card, trick_winner
from rules_engine.core import (
    DealContext,
    Game,
    ScoredDeal,
    Scoresheet,
    Table,
    cyclic_gc_paused,
)
from rules_engine.errors import RuleError
from rules_engine.registry import (
    GAMES,
    describe_games,
    get_game,
    judge_request,
    judge_trick,
    new_scoresheet,
    score_record,
)
from rules_engine.tricks import Verdict

__all__ = [
    "GAMES",
    "Card",
    "DealContext",
    "Game",
    "RuleError",
    "ScoredDeal",
    "Scoresheet",
    "Suit",
    "Table",
    "Verdict",
    "cyclic_gc_paused",
    "describe_games",
    "get_game",
    "judge_request",
    "judge_trick",
    "new_scoresheet",
    "parse_card",
    "score_record",
    "trick_winner",
]
