"""The rules of the next deals as data, for a phone that has lost its connection.

A phone keeps entering deals while it is offline; the checks that need no server run there
before a deal is kept to send, and where a deal's scores can be read off a table the phone
shows them as provisional. Neither is a second copy of the rules: each game says what its
checks are (:meth:`Game.checks`) and how a deal scores (:meth:`Game.score_table`), and the
page only applies them. The server's verdict, when the deal is sent, is final.

A record's fields are read per seat (``tricks``: one value a seat) or whole (``widow``).
A check is a mapping with ``check`` (its kind), ``field`` and ``message``, a template in
which ``{name}`` is the seat's player, ``{value}`` the value given, ``{sum}`` the sum of
the field's values and ``{forbidden}`` the value that is not allowed. A check applies once
every value it reads has been given. The kinds:

``range``
    each seat's value is a whole number from ``min`` to ``max`` (the error names the seat);
``sum``
    the seats' values add up to ``total``;
``sum_range``
    the seats' values add up to between ``min`` and ``max``;
``one_of``
    each seat's value is one of ``values`` (the error names the seat);
``pairs``
    the two seats' values, as ``"a,b"``, are one of ``pairs``;
``not_sum``
    seat ``seat``'s value may not make the values add up to ``total``
    (``{forbidden}``: the value that would); the error names the seat;
``above``
    seat ``seat``'s value comes after seat ``over``'s in ``order`` when both are given
    (``null`` is no value); ``{over}`` is seat ``over``'s value; the error names the seat.

A score table (``score``) gives each seat's score as ``table[k0][k1]``, where each key
``k`` is read from ``keys``: ``{"field": f}`` the seat's value of ``f``, or
``{"is_seat": f}`` 1 if the record's ``f`` is this seat, else 0.
"""

from __future__ import annotations

from typing import Any

from rules_engine.core import Scoresheet


def deal_constraints(sheet: Scoresheet, ahead: int = 1) -> list[dict[str, Any]]:
    """The next deals known before they are played (up to ``ahead``; see
    :meth:`Scoresheet.upcoming`), each with its context, checks and score table."""
    game, table = sheet.game, sheet.table
    return [
        {
            **context.as_dict(),
            "checks": game.checks(table, context),
            "score": game.score_table(table, context),
        }
        for context in sheet.upcoming(ahead)
    ]


def range_check(field: str, low: int, high: int, what: str) -> dict[str, Any]:
    """Each seat's ``field`` is a whole number from ``low`` to ``high``: the engine's own
    message (:func:`rules_engine.validate.whole_list`) with the seat's name left open."""
    return {
        "check": "range",
        "field": field,
        "min": low,
        "max": high,
        "message": f"{{name}}'s {what} must be a whole number from {low} to {high}; got {{value}}",
    }


def sum_check(field: str, total: int, message: str) -> dict[str, Any]:
    """The seats' ``field`` adds up to ``total``; ``message`` says so with ``{sum}``."""
    return {"check": "sum", "field": field, "total": total, "message": message}
