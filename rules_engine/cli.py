"""Command line: ``python -m rules_engine score FILE|-`` and ``python -m rules_engine games``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from rules_engine.errors import RuleError
from rules_engine.registry import describe_games, score_record

EXIT_OK = 0
EXIT_BAD_INPUT = 2


def _emit(payload: Any, out: TextIO) -> None:
    json.dump(payload, out, ensure_ascii=False)
    out.write("\n")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _read(source: str, stdin: TextIO) -> object:
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
        raise RuleError(f"the game record is not valid JSON: {error}") from None


def score(source: str, stdin: TextIO, out: TextIO) -> int:
    try:
        sheet = score_record(_read(source, stdin))
    except RuleError as error:
        _emit({"error": error.as_dict()}, out)
        return EXIT_BAD_INPUT
    except RecursionError:
        _emit({"error": RuleError("the game record is nested too deeply").as_dict()}, out)
        return EXIT_BAD_INPUT
    _emit(sheet.as_dict(), out)
    return EXIT_OK


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
    commands.add_parser("games", help="list the games, their player counts and options")
    args = parser.parse_args(argv)
    stdin = stdin or sys.stdin
    out = out or sys.stdout
    if args.command == "games":
        _emit(describe_games(), out)
        return EXIT_OK
    return score(args.file, stdin, out)
