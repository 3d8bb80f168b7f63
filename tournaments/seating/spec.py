"""What a seating request says, checked and put in the planner's terms: the players (ids,
or a count), the table sizes of each round, the rounds already played (as positions), and
the standings as ranks. Every refusal is a :class:`SeatingError` naming what is wrong."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from tournaments.seating.errors import SeatingError

Method = Literal["new_opponents", "standings", "random", "by_standings"]
#: the methods by their names; "by_standings" is another name for "standings"
METHODS: tuple[str, ...] = get_args(Method)[:3]
ALIASES = {"by_standings": "standings"}
Rounds = Sequence[Sequence[Sequence[int]]]

MAX_PLAYERS = 1000
MAX_ROUNDS = 200


def _whole(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SeatingError(name, f"must be a whole number, not {value!r}")
    return value


@dataclass
class _Spec:
    ids: list[int]
    rounds: int
    sizes: list[int]
    byes: int
    history: list[list[list[int]]]  # internal indices, current players only
    raw_history: list[list[list[int]]]
    method: str
    rank: list[int] | None  # rank[i]: 0 = best
    seed: int
    time_limit: float


def _players(players: int | Sequence[int]) -> list[int]:
    if isinstance(players, bool):
        raise SeatingError("players", "must be a number of players or a list of player ids")
    if isinstance(players, int):
        if players < 2:
            raise SeatingError("players", f"need at least 2 players, not {players}")
        if players > MAX_PLAYERS:
            raise SeatingError("players", f"at most {MAX_PLAYERS} players, not {players}")
        return list(range(players))
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise SeatingError("players", "must be a number of players or a list of player ids")
    ids = [_whole(p, "players") for p in players]
    if len(set(ids)) != len(ids):
        twice = sorted({p for p in ids if ids.count(p) > 1})
        raise SeatingError("players", f"player ids must be distinct; listed twice: {twice}")
    if len(ids) < 2:
        raise SeatingError("players", f"need at least 2 players, not {len(ids)}")
    if len(ids) > MAX_PLAYERS:
        raise SeatingError("players", f"at most {MAX_PLAYERS} players, not {len(ids)}")
    return ids


def _table_sizes(
    count: int, table_size: int | None, sizes: Sequence[int] | None, byes: int | None
) -> tuple[list[int], int]:
    if byes is not None:
        byes = _whole(byes, "byes")
        if not 0 <= byes < count:
            raise SeatingError("byes", f"must be from 0 to {count - 1}, not {byes}")
    if table_size is not None:
        table_size = _whole(table_size, "table_size")
        if table_size < 2:
            raise SeatingError("table_size", f"a table seats at least 2 players, not {table_size}")
    if sizes is not None:
        if isinstance(sizes, str | bytes) or not isinstance(sizes, Sequence) or not sizes:
            raise SeatingError("sizes", "must be a non-empty list of table sizes")
        table_sizes = [_whole(s, "sizes") for s in sizes]
        if min(table_sizes) < 2:
            raise SeatingError("sizes", f"a table seats at least 2 players, not {min(table_sizes)}")
        seated = sum(table_sizes)
        if byes is None:
            byes = 0
        if seated != count - byes:
            out = f" with {byes} sitting out" if byes else ""
            raise SeatingError(
                "sizes",
                f"the tables {_plus(table_sizes)} seat {seated} players, but {count} players"
                f"{out} leave {count - byes} to seat"
                + ("" if byes or seated > count else f" (or let {count - seated} sit out)"),
            )
        return sorted(table_sizes, reverse=True), byes
    if table_size is None:
        raise SeatingError("table_size", "give the table size or the sizes of the tables")
    if byes is None:
        byes = count % table_size
    seated = count - byes
    if seated < table_size:
        raise SeatingError(
            "players",
            f"{count} players with {byes} sitting out cannot fill a table of {table_size}",
        )
    if seated % table_size:
        raise SeatingError(
            "byes",
            f"{count} players with {byes} sitting out leave {seated}, which is not a multiple "
            f"of the table size {table_size}: sit out {count % table_size} (or more by "
            f"multiples of {table_size}), or give mixed table sizes",
        )
    return [table_size] * (seated // table_size), byes


def _plus(sizes: Sequence[int]) -> str:
    return "+".join(str(s) for s in sizes)


def _history(history: Rounds, index: Mapping[int, int]) -> tuple[list[list[list[int]]], ...]:
    if isinstance(history, str | bytes) or not isinstance(history, Sequence):
        raise SeatingError("history", "must be a list of rounds (lists of tables of player ids)")
    raw: list[list[list[int]]] = []
    internal: list[list[list[int]]] = []
    for r, rnd in enumerate(history):
        if isinstance(rnd, str | bytes) or not isinstance(rnd, Sequence):
            raise SeatingError("history", f"round {r + 1} must be a list of tables")
        seen: set[int] = set()
        raw_round: list[list[int]] = []
        internal_round: list[list[int]] = []
        for table in rnd:
            if isinstance(table, str | bytes) or not isinstance(table, Sequence):
                raise SeatingError("history", f"round {r + 1}: a table must be a list of players")
            players = [_whole(p, "history") for p in table]
            for p in players:
                if p in seen:
                    raise SeatingError("history", f"round {r + 1}: player {p} sits twice")
                seen.add(p)
            raw_round.append(players)
            internal_round.append([index[p] for p in players if p in index])
        raw.append(raw_round)
        internal.append(internal_round)
    return internal, raw


def _spec(
    players: int | Sequence[int],
    rounds: int,
    table_size: int | None,
    sizes: Sequence[int] | None,
    byes: int | None,
    history: Rounds,
    method: str,
    standings: Sequence[int] | Mapping[int, float] | None,
    seed: int,
    time_limit: float,
) -> _Spec:
    ids = _players(players)
    rounds = _whole(rounds, "rounds")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise SeatingError("rounds", f"must be from 1 to {MAX_ROUNDS}, not {rounds}")
    table_sizes, bye_count = _table_sizes(len(ids), table_size, sizes, byes)
    if method not in METHODS and method not in ALIASES:
        raise SeatingError("method", f"must be one of {', '.join(METHODS)}, not {method!r}")
    method = ALIASES.get(method, method)
    seed = _whole(seed, "seed")
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
        raise SeatingError("time_limit", f"must be a number of seconds, not {time_limit!r}")
    if not (math.isfinite(time_limit) and 0 < time_limit <= 3600):
        raise SeatingError(
            "time_limit", f"must be more than 0 and at most 3600 s, not {time_limit}"
        )
    index = {p: i for i, p in enumerate(ids)}
    internal, raw = _history(history, index)
    rank: list[int] | None = None
    if method == "standings":
        rank = _ranks(ids, standings)
    elif standings is not None:
        _ranks(ids, standings)  # still validated
    return _Spec(
        ids, rounds, table_sizes, bye_count, internal, raw, method, rank, seed, float(time_limit)
    )


def _ranks(ids: list[int], standings: Sequence[int] | Mapping[int, float] | None) -> list[int]:
    if standings is None:
        raise SeatingError("standings", "seating by standings needs the standings")
    if isinstance(standings, Mapping):
        scores: dict[int, float] = {}
        for player, score in standings.items():
            if isinstance(score, bool) or not isinstance(score, int | float):
                raise SeatingError(
                    "standings", f"player {player}'s score {score!r} is not a number"
                )
            scores[player] = score
        missing = [p for p in ids if p not in scores]
        order = sorted((p for p in ids if p in scores), key=lambda p: (-scores[p], ids.index(p)))
    else:
        if isinstance(standings, str | bytes):
            raise SeatingError("standings", "must list player ids, best first")
        listed = [_whole(p, "standings") for p in standings]
        missing = [p for p in ids if p not in set(listed)]
        order = [p for p in dict.fromkeys(listed) if p in set(ids)]
    if missing:
        raise SeatingError("standings", f"players missing from the standings: {missing[:10]}")
    position = {p: i for i, p in enumerate(order)}
    return [position[p] for p in ids]
