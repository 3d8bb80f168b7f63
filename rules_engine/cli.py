"""Command line: ``python -m rules_engine score FILE|-`` (a game record),
``python -m rules_engine trick FILE|-`` (who won a trick) and ``python -m rules_engine games``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from rules_engine.errors import RuleError
from rules_engine.registry import describe_games, judge_request, score_record

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def _emit(payload: Any, out: TextIO) -> None:
    json.dump(payload, out, ensure_ascii=False)
    out.write("\n")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _read(source: str, stdin: TextIO, what: str) -> object:
    try:
        if source == "-":
            text = stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        raise RuleError(f"cannot read {source}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise RuleError(f"{source} is not UTF-8 text") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as error:
        raise RuleError(f"the {what} is not valid JSON: {error}") from None


def _answer(
    make: Callable[[object], Any], what: str, source: str, stdin: TextIO, out: TextIO
) -> int:
    """Read JSON, answer with ``make(data).as_dict()``, or an error and exit status 2."""
    try:
        result = make(_read(source, stdin, what))
    except RuleError as error:
        _emit({"error": error.as_dict()}, out)
        return EXIT_BAD_INPUT
    except RecursionError:
        _emit({"error": RuleError(f"the {what} is nested too deeply").as_dict()}, out)
        return EXIT_BAD_INPUT
    _emit(result.as_dict(), out)
    return EXIT_OK


def score(source: str, stdin: TextIO, out: TextIO) -> int:
    return _answer(score_record, "game record", source, stdin, out)


def trick(source: str, stdin: TextIO, out: TextIO) -> int:
    return _answer(judge_request, "trick", source, stdin, out)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # usage errors are bad input too
        self.print_usage(sys.stderr)
        _emit({"error": RuleError(f"usage: {message}").as_dict()}, sys.stdout)
        raise SystemExit(EXIT_BAD_INPUT)


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, out: TextIO | None = None
) -> int:
    parser = _Parser(prog="python -m rules_engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    score_cmd = commands.add_parser("score", help="score a game record (JSON)")
    score_cmd.add_argument("file", help="the game record's file, or - for standard input")
    trick_cmd = commands.add_parser(
        "trick", help="judge a trick: who won it and why, and any revoke (JSON)"
    )
    trick_cmd.add_argument("file", help="the trick's file, or - for standard input")
    commands.add_parser("games", help="list the games, their player counts and options")
    args = parser.parse_args(argv)
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    if args.command == "games":
        _emit(describe_games(), out)
        return EXIT_OK
    if args.command == "trick":
        return trick(args.file, stdin, out)
    return score(args.file, stdin, out)
