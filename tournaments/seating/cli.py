"""Command line: ``python -m tournaments.seating --players N --table-size K --rounds R ...``.

``manage.py seating_plan`` is the same command (it calls ``main`` / ``run``). With
``--json`` it prints ``{"rounds": [[[0, 5, 9], [1, 2, 7], ...], ...]}`` (players 0..N-1;
a player missing from a round sits out), with ``"repeats"`` and ``"lower_bound"`` (the
fewest repeats possible, which the search stops at) when some pair meets twice; without,
a readable plan, ending with the lower bound used when it is not free of repeats. Bad
arguments exit with status 2 and, with ``--json``, print ``{"error": {"field": ...,
"message": ...}}`` on standard output (otherwise the message goes to standard error). No
traceback is printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, Protocol, TextIO

from tournaments.seating.core import DEFAULT_TIME_LIMIT, Plan, plan
from tournaments.seating.errors import SeatingError
from tournaments.seating.spec import METHODS

EXIT_OK = 0
EXIT_BAD_INPUT = 2
PROG = "python -m tournaments.seating"
DESCRIPTION = (
    "Seat N players (numbered 0..N-1) at card tables for R rounds, meeting new opponents "
    "as much as possible. If neither --sizes nor --byes is given and N is not a multiple "
    "of K, N mod K players sit out each round (in turn: nobody twice before everyone once)."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's arguments. Values stay text: ``run`` checks them, naming the field."""
    parser.add_argument("--players", metavar="N", help="number of players, numbered 0..N-1")
    parser.add_argument("--table-size", metavar="K", help="players at each table")
    parser.add_argument("--rounds", metavar="R", help="number of rounds")
    parser.add_argument(
        "--sizes",
        metavar="4,4,3",
        help="the table sizes of each round (mixed sizes); they must seat N minus the byes",
    )
    parser.add_argument(
        "--byes",
        metavar="B",
        help="players sitting out each round (default N mod K; 0 with --sizes)",
    )
    parser.add_argument("--seed", metavar="S", default="0", help="random seed (default 0)")
    parser.add_argument(
        "--time-limit",
        metavar="SEC",
        default=str(DEFAULT_TIME_LIMIT),
        help=f"search time limit in seconds (default {DEFAULT_TIME_LIMIT:g})",
    )
    parser.add_argument(
        "--method",
        metavar="METHOD",
        default="new_opponents",
        help=f"{' | '.join(METHODS)} (default new_opponents)",
    )
    parser.add_argument(
        "--standings", metavar="IDS", help="standings: player numbers best first, e.g. 3,0,2,1"
    )
    parser.add_argument(
        "--history",
        metavar="FILE",
        help='rounds already played, JSON {"rounds": [...]} as printed (- for stdin)',
    )
    parser.add_argument("--json", action="store_true", help="print JSON")


class Writer(Protocol):
    """Where output goes: a text stream, or Django's ``OutputWrapper``."""

    def write(self, text: str, /) -> object: ...


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)


def _int(options: Mapping[str, Any], name: str, flag: str, required: bool) -> int | None:
    value = options.get(name)
    if value is None:
        if required:
            raise SeatingError(name, f"{flag} is required")
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    try:
        return int(str(value).strip())
    except ValueError:
        raise SeatingError(name, f"{flag} must be a whole number, not {value!r}") from None


def _int_list(options: Mapping[str, Any], name: str, flag: str) -> list[int] | None:
    value = options.get(name)
    if value is None:
        return None
    if isinstance(value, list | tuple):
        return [int(v) for v in value]
    try:
        return [int(part) for part in str(value).split(",")]
    except ValueError:
        raise SeatingError(
            name, f"{flag} must be whole numbers separated by commas, not {value!r}"
        ) from None


def _history(source: str | None, stdin: TextIO) -> Any:
    if source is None:
        return ()
    try:
        text = stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as error:
        raise SeatingError("history", f"cannot read {source}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise SeatingError("history", f"{source} is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise SeatingError("history", f"{source} is not valid JSON: {error}") from None
    if isinstance(data, dict):
        data = data.get("rounds")
    if not isinstance(data, list):
        raise SeatingError("history", 'expected {"rounds": [...]} or a list of rounds')
    return data


def make_plan(options: Mapping[str, Any], stdin: TextIO | None = None) -> Plan:
    """Check the command's options (as parsed, text or numbers) and plan."""
    players = _int(options, "players", "--players", required=True)
    rounds = _int(options, "rounds", "--rounds", required=True)
    table_size = _int(options, "table_size", "--table-size", required=False)
    sizes = _int_list(options, "sizes", "--sizes")
    byes = _int(options, "byes", "--byes", required=False)
    seed = _int(options, "seed", "--seed", required=False)
    limit_text = options.get("time_limit")
    try:
        time_limit = float(limit_text) if limit_text is not None else DEFAULT_TIME_LIMIT
    except (TypeError, ValueError):
        raise SeatingError(
            "time_limit", f"--time-limit must be a number of seconds, not {limit_text!r}"
        ) from None
    if table_size is None and sizes is None:
        raise SeatingError("table_size", "--table-size (or --sizes) is required")
    method = str(options.get("method") or "new_opponents")
    standings = _int_list(options, "standings", "--standings")
    history = _history(options.get("history"), stdin or sys.stdin)
    assert players is not None and rounds is not None
    return plan(
        players,
        rounds,
        table_size=table_size,
        sizes=sizes,
        byes=byes,
        history=history,
        method=method,  # type: ignore[arg-type]  # checked by plan
        standings=standings,
        seed=seed if seed is not None else 0,
        time_limit=time_limit,
    )


def _emit(payload: Any, out: Writer) -> None:
    out.write(json.dumps(payload) + "\n")


def render(result: Plan) -> str:
    """A readable plan: one line per round, then a summary."""
    lines = []
    for number, (rnd, out) in enumerate(zip(result.rounds, result.byes, strict=True), 1):
        tables = " | ".join(" ".join(str(p) for p in table) for table in rnd)
        line = f"Round {number}: {tables}"
        if out:
            line += f"   (sitting out: {' '.join(str(p) for p in out)})"
        lines.append(line)
    lines.append(
        f"Repeated meetings: {result.repeats}; most meetings of one pair: {result.max_meetings}"
        f" ({result.source}{'' if not result.timed_out else ', stopped at the time limit'})."
    )
    if result.repeats:
        bound = result.stats.get("repeats_lower_bound", 0)
        if result.repeats <= bound:
            verdict = "reached: no plan has fewer"
        elif result.timed_out:
            verdict = "not reached by the time limit"
        else:
            verdict = "not reached"
        if result.stats.get("repeats_lower_bound_from") == "pigeonhole":
            why = "players who sat at one table in a round played cannot all be split up"
        else:
            why = "each player's meetings against the others there are to meet"
        lines.append(
            f"Not a plan without repeats. Lower bound used: {bound} repeated meetings "
            f"({why}); {verdict}."
        )
        if result.optimal and result.stats.get("lower_bound_from") == "pigeonhole":
            lines.append(
                f"Its cost reaches the search's lower bound, {result.stats['lower_bound']} "
                "(repeats, and rematches forced against two rounds at once): no plan spreads "
                "its repeats better."
            )
    lines.append("The first player listed at a table deals first; seats follow the list order.")
    return "\n".join(lines) + "\n"


def run(options: Mapping[str, Any], out: Writer, err: Writer, stdin: TextIO | None = None) -> int:
    """Plan from parsed options and print; returns the exit status."""
    as_json = bool(options.get("json"))
    try:
        result = make_plan(options, stdin)
    except SeatingError as error:
        if as_json:
            _emit({"error": error.as_dict()}, out)
        else:
            err.write(f"error: {error.field}: {error.message}\n")
        return EXIT_BAD_INPUT
    if as_json:
        _emit(result.as_dict(), out)
    else:
        out.write(render(result))
    return EXIT_OK


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    parser = _Parser(prog=prog, description=DESCRIPTION)
    add_arguments(parser)
    try:
        options = parser.parse_args(args)
    except _UsageError as error:
        message = f"usage: {error}"
        if "--json" in args:
            _emit({"error": {"field": "arguments", "message": message}}, sys.stdout)
        else:
            parser.print_usage(sys.stderr)
            sys.stderr.write(f"error: {message}\n")
        return EXIT_BAD_INPUT
    return run(vars(options), sys.stdout, sys.stderr)
