"""The seating engine: which players sit at which table, round by round.

Plain typed Python (no Django). From the command line::

    python -m tournaments.seating --players 15 --table-size 3 --rounds 7 --json
    python manage.py seating_plan ...        # the same, as a management command

From Python::

    plan(players, rounds, table_size=k | sizes=[...], byes=None, history=(),
         method="new_opponents" | "standings" | "random", standings=None,
         seed=0, time_limit=5.0) -> Plan
    next_round(players, history, ..., lookahead=1) -> Plan     # one more round

``players`` is a count (ids 0..n-1) or a list of ids; ``history`` the rounds already played
(tables of ids, in seat order). A ``Plan`` has ``rounds`` (tables of ids in seat order, the
first listed dealing first), ``byes``, ``repeats`` and ``max_meetings`` over the whole event,
``source`` (the construction and/or search used), ``optimal`` and ``timed_out``. Bad input
raises ``SeatingError`` (``field``, ``message``). ``best_design(v, k)`` gives the known
zero-repeat schedules; ``round_sizes`` a round's tables and byes (``balanced_sizes`` the
mixed table sizes for prediction whist).

How: a resolvable design when one fits the field (affine planes, transversal designs over
products of finite fields or from stored orthogonal arrays of orders 12, 14, 15, 18, 20,
Kirkman triple systems for every v = 3 (mod 6) and nearly Kirkman ones for every v = 0 (mod
6), v >= 18, up to 99, resolvable (v, 4, 1) designs, social golfer solutions, round robins;
``known_max_rounds`` gives the most rounds known without a repeat), possibly with one
"ghost" player whose tablemates sit out (or a ghost at each short table), and continued
round by round when the rounds played are its first rounds; then greedy rounds and a tabu
search over swaps of players who meet too often, restarting from its best schedule until its
time is up unless it reaches a proven lower bound (``Plan.stats["lower_bound"]``, which
argument gave it in ``Plan.stats["lower_bound_from"]``: counting, or the pigeonhole
principle's forced repeats and rematches; the fewest repeats possible in
``Plan.stats["repeats_lower_bound"]``). ``verify`` checks plans against what was asked and
lists the sweep of every request from 4 to 100 players (``bench/seating.py --part sweep``).
"""

from tournaments.seating.core import (
    Plan,
    balanced_sizes,
    evaluate,
    meeting_counts,
    next_round,
    plan,
    round_sizes,
)
from tournaments.seating.designs import Design, best_design, known_max_rounds
from tournaments.seating.errors import SeatingError
from tournaments.seating.seats import seat_counts
from tournaments.seating.spec import METHODS, Method

__all__ = [
    "METHODS",
    "Design",
    "Method",
    "Plan",
    "SeatingError",
    "balanced_sizes",
    "best_design",
    "evaluate",
    "known_max_rounds",
    "meeting_counts",
    "next_round",
    "plan",
    "round_sizes",
    "seat_counts",
]
