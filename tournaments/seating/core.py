"""``plan`` and ``next_round``: who sits at which table in each round of an event.

The request is checked and put in the planner's terms by :mod:`.spec`; the planner here
starts from a known design where one fits (:mod:`.designs`), otherwise from a greedy
round, and improves it with a tabu search (:mod:`.search`) until it has no repeat or its
time is up; :mod:`.seats` then orders each table's seats.

Over 500 lines, kept whole: it is the one place that decides, round by round, between
going on with a design, seating the short tables of mixed sizes with "ghosts", and
searching, and those choices read the same history and request."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tournaments.seating import swiss
from tournaments.seating.designs import best_design, earlier_designs
from tournaments.seating.errors import SeatingError
from tournaments.seating.search import (
    Tabu,
    greedy_round,
    pair_weights,
    pigeonhole_rematches,
    pigeonhole_repeats,
    repeats_lower_bound,
)
from tournaments.seating.seats import order_seats
from tournaments.seating.spec import (
    MAX_ROUNDS,
    Method,
    Rounds,
    _Spec,
    _spec,
    _whole,
)

DEFAULT_TIME_LIMIT = 5.0


@dataclass(frozen=True)
class Plan:
    """The planned rounds. ``rounds[r]`` lists round r's tables; a table lists its players in
    seat order, the first listed dealing first. Players missing from a round sit out
    (``byes[r]``, sorted)."""

    rounds: list[list[list[int]]]
    byes: list[list[int]]
    method: str
    seed: int
    #: extra meetings over the whole event (history and these rounds): a pair that meets
    #: m > 1 times counts m - 1
    repeats: int
    #: the most meetings of one pair over the whole event
    max_meetings: int
    #: how the tables were made: the construction used, and/or "search"
    source: str
    #: True when the search provably could not do better (no repeat it could remove, or a
    #: counting lower bound reached); False also when it merely ran out of ideas or time
    optimal: bool
    #: the search stopped at the time limit (the result then depends on the machine's speed)
    timed_out: bool = False
    stats: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of ``seating_plan --json``: the rounds and, when some pair meets
        twice, the repeats and the lower bound on them the search used."""
        if not self.repeats:
            return {"rounds": self.rounds}
        return {
            "rounds": self.rounds,
            "repeats": self.repeats,
            "lower_bound": self.stats.get("repeats_lower_bound", 0),
        }


def meeting_counts(rounds: Rounds) -> dict[tuple[int, int], int]:
    """How often each pair (smaller id first) sat at the same table."""
    counts: dict[tuple[int, int], int] = {}
    for rnd in rounds:
        for table in rnd:
            ordered = sorted(table)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1 :]:
                    counts[(a, b)] = counts.get((a, b), 0) + 1
    return counts


def evaluate(rounds: Rounds) -> tuple[int, int]:
    """``(repeats, max_meetings)``: extra meetings (m - 1 for each pair meeting m > 1 times)
    and the most meetings of one pair (0 when nobody met)."""
    counts = meeting_counts(rounds)
    repeats = sum(m - 1 for m in counts.values() if m > 1)
    return repeats, max(counts.values(), default=0)


def balanced_sizes(players: int, preferred: int, smallest: int = 3, largest: int = 6) -> list[int]:
    """Table sizes seating all ``players``, between ``smallest`` and ``largest``: the number
    of tables whose average size is nearest ``preferred``, sizes differing by at most one
    (e.g. prediction whist, 26 players, preferred 4 -> 4, 4, 4, 4, 4, 3, 3; 14 -> 4, 4, 3, 3).

    Why: a round lasts as long as its slowest table and a larger table takes longer a deal,
    while a table smaller than preferred makes a weaker game. Sizes within one of each other
    keep the tables' lengths close; the average nearest ``preferred`` weighs a table too many
    (short tables) against one too few (long tables, everyone waiting on them) by how far
    each is from the size the director asked for. Raises SeatingError when no such tables
    exist."""
    if not smallest <= preferred <= largest:
        raise SeatingError("table_size", f"{preferred} is not between {smallest} and {largest}")
    best: tuple[float, int] | None = None
    for tables in range(1, players // smallest + 1):
        low, extra = divmod(players, tables)
        high = low + (1 if extra else 0)
        if low < smallest or high > largest:
            continue
        spread = abs(players / tables - preferred)
        if best is None or spread < best[0]:
            best = (spread, tables)
    if best is None:
        raise SeatingError(
            "players", f"{players} players cannot sit at tables of {smallest} to {largest}"
        )
    tables = best[1]
    low, extra = divmod(players, tables)
    return [low + 1] * extra + [low] * (tables - extra)


def round_sizes(
    players: int, preferred: int, smallest: int, largest: int, mixed: bool
) -> tuple[list[int], int]:
    """A round's table sizes (largest first) for ``players`` and how many sit out, for a
    game seating ``smallest`` to ``largest`` at a table. Not ``mixed`` (or one size only):
    tables of ``preferred`` and the rest sit out. ``mixed``: everyone plays, at
    ``balanced_sizes``. Raises SeatingError when the round cannot be seated."""
    if not smallest <= preferred <= largest:
        raise SeatingError("table_size", f"tables of {preferred} are not allowed for this game")
    if mixed and smallest < largest:
        if players < smallest:
            raise SeatingError("players", f"{players} players; a table needs {smallest}")
        return balanced_sizes(players, preferred, smallest, largest), 0
    if players < preferred:
        raise SeatingError("players", f"{players} players; a table needs {preferred}")
    tables, byes = divmod(players, preferred)
    return [preferred] * tables, byes


# --------------------------------------------------------------------------- planning


def plan(
    players: int | Sequence[int],
    rounds: int = 1,
    *,
    table_size: int | None = None,
    sizes: Sequence[int] | None = None,
    byes: int | None = None,
    history: Rounds = (),
    method: Method = "new_opponents",
    standings: Sequence[int] | Mapping[int, float] | None = None,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Plan:
    """Seat ``players`` (a count n, meaning ids 0..n-1, or a list of ids) for ``rounds`` rounds.

    Tables: ``table_size`` k with ``byes`` players sitting out each round (default n mod k),
    or explicit ``sizes`` of every round's tables (they must seat n - byes players; byes
    default to 0 then). ``history``: rounds already played (lists of tables of ids, seat
    order as played); ids not in ``players`` are withdrawn players and are ignored, and a
    current player absent from a played round counts as having sat out (so late arrivals do
    not sit out first). ``method``:

    * ``"new_opponents"``: as few repeated meetings as possible over the whole event
      (history included), spread so that no pair meets far more often than others; uses a
      resolvable design when one fits, then tabu search;
    * ``"standings"`` (also ``"by_standings"``): Swiss style: tables of players with similar
      standing (``standings``: ids best first, or a mapping id -> score, higher is better),
      top table first, moving players as little as possible to avoid repeats; the standings
      hold for the first round only, so the rounds after it are planned to leave them
      without repeats (``next_round``'s ``lookahead``: the rounds still to play);
    * ``"random"``: tables drawn at random.

    Byes rotate: each round those who have sat out least sit out (ties in a seeded order; by
    standings the lowest ranked), so nobody sits out twice before everyone has once. Seat
    order and the first dealer are balanced over the event. The result depends only on the
    arguments and ``seed``, unless the search is cut short by ``time_limit`` (seconds; the
    best schedule found by then is returned, see ``Plan.timed_out``).
    Raises SeatingError (with ``field``) for bad arguments.
    """
    started = time.perf_counter()
    spec = _spec(
        players, rounds, table_size, sizes, byes, history, method, standings, seed, time_limit
    )
    return _plan(spec, started)


def next_round(
    players: int | Sequence[int],
    history: Rounds,
    *,
    table_size: int | None = None,
    sizes: Sequence[int] | None = None,
    byes: int | None = None,
    method: Method = "new_opponents",
    standings: Sequence[int] | Mapping[int, float] | None = None,
    seed: int = 0,
    time_limit: float = DEFAULT_TIME_LIMIT,
    lookahead: int = 1,
) -> Plan:
    """The next round given the ``history`` of rounds played: ``plan(...).rounds[0]``.

    ``players`` are those present now (withdrawn players left out, late arrivals added).
    With ``lookahead`` > 1 the rounds still to come are planned together (so that this round
    does not leave the later ones without good tables) and only the first is returned.
    """
    started = time.perf_counter()
    lookahead = _whole(lookahead, "lookahead")
    if not 1 <= lookahead <= MAX_ROUNDS:
        raise SeatingError("lookahead", f"must be from 1 to {MAX_ROUNDS}, not {lookahead}")
    spec = _spec(
        players, lookahead, table_size, sizes, byes, history, method, standings, seed, time_limit
    )
    full = _plan(spec, started)
    if lookahead == 1:
        return full
    first = full.rounds[:1]
    repeats, most = evaluate([*spec.raw_history, *first])
    return Plan(
        first,
        full.byes[:1],
        full.method,
        full.seed,
        repeats,
        most,
        full.source,
        optimal=False,
        timed_out=full.timed_out,
        stats=full.stats,
    )


def _choose_byes(spec: _Spec, counts: list[int], tiebreak: list[int]) -> list[int]:
    """The ``spec.byes`` players who have sat out least (ties by ``tiebreak``)."""
    n = len(spec.ids)
    order = sorted(range(n), key=lambda p: (counts[p], tiebreak[p]))
    chosen = order[: spec.byes]
    for p in chosen:
        counts[p] += 1
    return chosen


def _design_start(spec: _Spec, rng: random.Random) -> tuple[list[list[list[int]]], str] | None:
    """Rounds from a resolvable design when one fits this field, relabelled at random: on
    exactly n players, or on n + 1 with one "ghost" whose tablemates sit out (when k - 1 sit
    out each round) or whose table is the one short table. With a history, the design is
    continued when the rounds played are its first rounds as ``_continuation`` labels them
    (as they are when this engine seated them one at a time), else None."""
    if spec.method != "new_opponents":
        return None
    n = len(spec.ids)
    k = spec.sizes[0]
    if spec.byes == 0 and all(s == k for s in spec.sizes):
        v = n
    elif spec.byes == 0 and spec.sizes[-1] == k - 1 and all(s == k for s in spec.sizes[:-1]):
        v = n + 1  # the ghost's table is the short one
        if k - 1 < 2:
            return None
    elif spec.byes == k - 1 and all(s == k for s in spec.sizes):
        v = n + 1  # the ghost's tablemates sit out
    else:
        short = spec.sizes.count(k - 1)
        if spec.byes or k < 3 or short + spec.sizes.count(k) != len(spec.sizes):
            return None
        v = n + short  # a ghost at each short table
    design = best_design(v, k)
    if design is None or len(design.rounds) < 2:
        return None
    if spec.history:  # the design the rounds played come from, if any
        found = None
        for candidate in (design, *earlier_designs(v, k)):
            if v > n + 1:
                ghosts, usable = _ghosts(candidate.rounds, v - n)
                found = _continuation_with_ghosts(spec, usable, ghosts, v)
            else:
                found = _continuation(spec, candidate.rounds, v)
            if found is not None:
                design = candidate
                break
        if found is None:
            return None
        label, chosen = found
    elif v > n + 1:
        ghosts, usable = _ghosts(design.rounds, v - n)
        if len(usable) < 2:
            return None
        chosen = list(usable)
        rng.shuffle(chosen)
        chosen = chosen[: spec.rounds]
        others = [p for p in range(v) if p not in ghosts]
        rng.shuffle(others)
        label = [0] * v
        for player, point in enumerate(others):
            label[point] = player
        for extra, point in enumerate(ghosts):
            label[point] = n + extra
    else:
        chosen = list(design.rounds)
        rng.shuffle(chosen)
        chosen = chosen[: spec.rounds]
        label = list(range(v))
        rng.shuffle(label)  # point i is player label[i]; label n (if any) is the ghost
    rounds = []
    for rnd in chosen:
        tables = []
        for block in rnd:
            table = [label[p] for p in block if label[p] < n]
            if len(table) == len(block) or spec.byes == 0:
                tables.append(table)
        rounds.append(tables)
    how = f"{design.name} ({len(design.rounds)} rounds"
    if v > n + 1:
        how += f", {v - n} players left out)"
    else:
        how += ", one player left out)" if v > n else ")"
    if spec.history:
        how += f", continued after round {len(spec.history)}"
    return rounds, how


def _ghosts(
    rounds: Sequence[Sequence[Sequence[int]]], count: int
) -> tuple[list[int], list[Sequence[Sequence[int]]]]:
    """``count`` points to leave out (one at each short table) and the rounds where no two of
    them share a table: points that never meet when the design has some (a group of a
    group divisible design), else points of one table of the first round, which is dropped
    (they meet nowhere else)."""
    v = sum(len(block) for block in rounds[0])
    met: list[set[int]] = [set() for _ in range(v)]
    for rnd in rounds:
        for block in rnd:
            for p in block:
                met[p].update(block)
    chosen: list[int] = []
    for p in range(v):
        if not any(p in met[q] for q in chosen):
            chosen.append(p)
            if len(chosen) == count:
                return chosen, list(rounds)
    block = max(rounds[0], key=len)
    if len(block) < count:
        return list(range(count)), []
    chosen = list(block[:count])
    return chosen, [
        rnd for rnd in rounds if not any(len(set(chosen) & set(table)) > 1 for table in rnd)
    ]


def _continuation_with_ghosts(
    spec: _Spec, rounds: Sequence[Sequence[Sequence[int]]], ghosts: Sequence[int], v: int
) -> tuple[list[int], list[Sequence[Sequence[int]]]] | None:
    """``_continuation`` for several short tables, each with a ghost: the first played
    round labels the design's first usable round, the short tables (by their lowest player
    id) taking the blocks of the ghosts in turn."""
    n = len(spec.ids)
    played = len(spec.history)
    if len(rounds) <= played:
        return None
    k = max(len(block) for block in rounds[0])

    def key(p: int) -> int:
        return spec.ids[p]

    first = [sorted(table, key=key) for table in spec.history[0]]
    short = sorted((t for t in first if len(t) == k - 1), key=lambda t: key(t[0]))
    full = sorted((t for t in first if len(t) == k), key=lambda t: key(t[0]))
    where = {p: block for block in rounds[0] for p in block}
    ghost_blocks = [where[g] for g in ghosts]
    rest = sorted((b for b in rounds[0] if not set(b) & set(ghosts)), key=min)
    if len(short) != len(ghosts) or len(full) != len(rest) or len(full) + len(short) != len(first):
        return None
    label = [0] * v
    for j, (table, block) in enumerate(zip(short, ghost_blocks, strict=True)):
        label[ghosts[j]] = n + j
        for player, point in zip(table, sorted(p for p in block if p != ghosts[j]), strict=True):
            label[point] = player
    for table, block in zip(full, rest, strict=True):
        if len(block) != len(table):
            return None
        for player, point in zip(table, sorted(block), strict=True):
            label[point] = player
    for rnd, design_round in zip(spec.history, rounds[:played], strict=True):
        mine = {frozenset(table) for table in rnd}
        theirs = {frozenset(label[p] for p in block if label[p] < n) for block in design_round}
        if mine != theirs:
            return None
    return label, list(rounds[played : played + spec.rounds])


def _continuation(
    spec: _Spec, rounds: Sequence[Sequence[Sequence[int]]], v: int
) -> tuple[list[int], list[Sequence[Sequence[int]]]] | None:
    """The labelling of the design's points and its rounds still to play when the rounds
    played are its first rounds, the first played round labelling the design's first
    round (tables by their lowest player id, blocks by their lowest point, players in
    order);
    None when they are not (other players, a table changed by hand, another plan)."""
    n = len(spec.ids)
    ghost = max(spec.ids) + 1

    def key(p: int) -> int:  # by player id, so that the order of the players does not matter
        return spec.ids[p] if p < n else ghost

    def blocks(rnd: Sequence[Sequence[int]]) -> list[list[int]]:
        out = [sorted(table, key=key) for table in rnd]
        if v > n:  # the ghost (player n) joins the short table or those sitting out
            seated = {p for table in rnd for p in table}
            out_players = [p for p in range(n) if p not in seated]
            short = [t for t in out if len(t) < len(rounds[0][0])]
            if out_players and not short:
                out.append(sorted(out_players, key=key))
                short = [out[-1]]
            if len(short) != 1:
                return []
            short[0].append(n)
        return sorted(out, key=lambda table: key(table[0]))

    first = blocks(spec.history[0])
    points = sorted((sorted(block) for block in rounds[0]), key=min)
    if len(first) != len(points) or any(
        len(a) != len(b) for a, b in zip(first, points, strict=True)
    ):
        return None
    label = [0] * v
    for table, block in zip(first, points, strict=True):
        for player, point in zip(table, block, strict=True):
            label[point] = player
    played = len(spec.history)
    if len(rounds) <= played:
        return None
    for rnd, design_round in zip(spec.history[1:], rounds[1:played], strict=False):
        mine = {frozenset(table) for table in blocks(rnd)}
        theirs = {frozenset(label[p] for p in block) for block in design_round}
        if mine != theirs:
            return None
    return label, list(rounds[played : played + spec.rounds])


def _plan(spec: _Spec, started: float) -> Plan:
    deadline = started + spec.time_limit
    rng = random.Random(spec.seed)
    n = len(spec.ids)
    # how often each current player has sat out so far (absent from a played round)
    sat_out = [0] * n
    for rnd in spec.history:
        present = {p for table in rnd for p in table}
        for p in range(n):
            if p not in present:
                sat_out[p] += 1
    if spec.rank is not None:
        tiebreak = [-r for r in spec.rank]  # lowest ranked sit out first
    else:
        tiebreak = list(range(n))
        rng.shuffle(tiebreak)

    base = [0] * (n * n)
    for rnd in spec.history:
        for table in rnd:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    base[a * n + b] += 1
                    base[b * n + a] += 1

    tables: list[list[list[int]]] = []
    sources: list[str] = []
    start = _design_start(spec, rng)
    if start is not None:
        tables, how = start
        sources.append(how)
        for rnd in tables:
            present = {p for table in rnd for p in table}
            for p in range(n):
                if p not in present:
                    sat_out[p] += 1

    cnt = list(base)
    for rnd in tables:
        for table in rnd:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    cnt[a * n + b] += 1
                    cnt[b * n + a] += 1
    _, inc, _ = pair_weights(len(spec.history) + spec.rounds + 2)
    place = swiss.places(spec) if spec.rank is not None else None
    designed = None
    # by standings, a resolvable design of the field is asked for once: first when the
    # rounds played may have come from it (it goes on with them), else after the search
    # if the search leaves a pair meeting twice
    design_first = place is not None and len(spec.history) >= 2
    if place is not None and design_first:
        designed = swiss.design_rounds(spec, place)
    if designed is not None:
        tables, how = designed
        sources.append(how)
    while len(tables) < spec.rounds:
        out = set(_choose_byes(spec, sat_out, tiebreak))
        seated = [p for p in range(n) if p not in out]
        if spec.method == "random":
            rng.shuffle(seated)
            rnd, at = [], 0
            for size in spec.sizes:
                rnd.append(seated[at : at + size])
                at += size
        elif spec.rank is not None and not tables:
            rnd = swiss.swiss_round(n, sorted(seated, key=spec.rank.__getitem__), spec.sizes, cnt)
        else:
            rnd = greedy_round(n, seated, spec.sizes, cnt, inc, rng)
        tables.append(rnd)
    if spec.method == "random":
        sources.append("random draw")
    elif spec.rank is not None and designed is None:
        sources.append("by standings")
    elif len(tables) > (len(start[0]) if start is not None else 0):
        sources.append("greedy rounds")

    timed_out = False
    optimal = spec.method == "random" or designed is not None
    iterations = restarts = bound = 0
    bound_from = ""
    if spec.method != "random" and designed is None:
        search = Tabu(n, tables, base, rng, place)
        search.forced_repeats = pigeonhole_repeats(spec.history, tables)
        search.forced_rematches = pigeonhole_rematches(spec.history, tables)
        # restarts until the time is up or the lower bound is reached (a perfect plan is not
        # known here); by standings, until no pair meets twice and then until it stops
        # improving the places
        max_iters = 50_000_000
        patience = 6_000 + 40 * n
        outcome = search.run(deadline, max_iters, patience, restart=True)
        restarts = outcome.restarts
        bound = outcome.lower_bound
        bound_from = outcome.lower_bound_from
        tables = outcome.tables
        timed_out = outcome.timed_out
        optimal = outcome.cost <= outcome.lower_bound or search.settled()
        iterations = outcome.iterations
        if iterations:
            sources.append("tabu search")
        if place is not None and not design_first and search.bad.items:
            # a pair would meet twice in the rounds to come: a design keeps them all clear
            designed = swiss.design_rounds(spec, place)
            if designed is not None:
                tables, how = designed
                sources = [how]
                optimal, timed_out = True, False

    meetings = [0] * n
    for rnd in [*spec.history, *tables]:
        for table in rnd:
            for p in table:
                meetings[p] += len(table) - 1
    counting = repeats_lower_bound(n, meetings)
    pigeonhole = evaluate(spec.raw_history)[0] + pigeonhole_repeats(spec.history, tables)
    ordered = order_seats(tables, spec.history, rng)
    if spec.rank is None:
        for rnd in ordered:
            rnd.sort(key=lambda table: min(table))
    ids = spec.ids
    result = [[[ids[p] for p in table] for table in rnd] for rnd in ordered]
    byes = []
    for rnd in ordered:
        present = {p for table in rnd for p in table}
        byes.append(sorted(ids[p] for p in range(n) if p not in present))
    repeats, most = evaluate([*spec.raw_history, *result])
    return Plan(
        result,
        byes,
        spec.method,
        spec.seed,
        repeats,
        most,
        " + ".join(sources),
        optimal,
        timed_out,
        {
            "iterations": iterations,
            "restarts": restarts,
            # the proven lower bound on the search's cost that it stops at (0: no repeat
            # needed), in the cost units of search.pair_weights
            "lower_bound": bound,
            # which argument gave it: "counting", "pigeonhole" (tables that cannot all be
            # split up: the repeats, and the rematches that make some pairs meet three
            # times when they are forced against two rounds at once) or "" (none)
            "lower_bound_from": bound_from,
            # the fewest repeated meetings any plan can have (the counting bound: everyone's
            # meetings against the others there are to meet)
            "repeats_lower_bound": max(counting, pigeonhole),
            # which argument gave it: "counting" or "pigeonhole" (the tables already played)
            "repeats_lower_bound_from": "pigeonhole" if pigeonhole > counting else "counting",
            "seconds": round(time.perf_counter() - started, 3),
        },
    )
