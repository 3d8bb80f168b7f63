"""The only write paths of tournaments.

Like :mod:`scorekeeper.services`: keyword-only, transactional, rights checked first,
refusals raised as :class:`~scorekeeper.errors.ServiceError`. Writes that touch a
tournament's rounds lock its row (``select_for_update``), so two directors, two
workers or a worker and the clock are served one after the other. Tables' games are
ordinary games, written only through :mod:`scorekeeper.services`.

Background work (seating, standings, emails) is enqueued with
``transaction.on_commit``, so a task never runs before the rows it reads exist.

Closing a round with unfinished tables (the director, or the time limit): a game with
deals is finished by hand at its current totals (``game_finish``: the top totals win);
a game with no deal is abandoned and its players count as tied at 0. Either way the
table is marked ``unfinished``.

One module a subject: :mod:`.setup` (creating a tournament), :mod:`.registration`
(registering, check-in, check-out, withdrawal), :mod:`.rounds` (asking for, seating, swapping,
publishing and closing rounds), :mod:`.results` (confirming and reopening a table's result,
standings), :mod:`.notify` (telling players where they sit), :mod:`.retry` (trying a stuck
job again); :mod:`.closing` is what closing a
round does, whoever closes it; :mod:`._base` what they share. Who may direct is
:mod:`tournaments.access`. Callers import the package: ``from tournaments import services``.
"""

from .closing import unconfirmed_text
from .notify import round_notify, tournament_announce, tournament_announcement_withdraw
from .registration import (
    check_in,
    check_out,
    register,
    register_many,
    register_new,
    withdraw,
)
from .results import standings_recompute, table_confirm, table_reopen
from .retry import tournament_job_retry
from .rounds import (
    round_close,
    round_publish,
    round_request,
    round_seat,
    round_swap,
    round_unpublish,
    rounds_close_due,
)
from .setup import tournament_create, tournament_delete, tournament_update

__all__ = [
    "check_in",
    "check_out",
    "register",
    "register_many",
    "register_new",
    "round_close",
    "round_notify",
    "round_publish",
    "round_request",
    "round_seat",
    "round_swap",
    "round_unpublish",
    "rounds_close_due",
    "standings_recompute",
    "table_confirm",
    "table_reopen",
    "tournament_announce",
    "tournament_announcement_withdraw",
    "tournament_create",
    "tournament_delete",
    "tournament_job_retry",
    "tournament_update",
    "unconfirmed_text",
    "withdraw",
]
