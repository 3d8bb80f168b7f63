"""Seating by standings (Swiss style): tables of players of near standing, without repeats.

The standings hold for the round being seated only, so the rounds still to play are
planned with it (``next_round``'s ``lookahead``) to keep them possible without a repeat;
the search (``search.Tabu`` with the place costs of ``places``) then moves players from
their places as little as it must. Where that search cannot keep every round to come
free of repeats (a field near the most rounds a design gives, such as 24 at tables of 4
for 6 rounds), the rounds are taken from the resolvable design instead: the first round's
tables are then exactly the standings' neighbours, and each later round is the design's
round still unplayed whose tables lie closest to the standings (``design_rounds``). A
design continues only when every round played is one of its rounds under the labelling the
first round gives (``_labelling``), so a tournament that left the design is not put back.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.seating.designs import best_design
from tournaments.seating.search import PLACE
from tournaments.seating.spec import _Spec


def swiss_round(n: int, ranked: list[int], sizes: Sequence[int], cnt: list[int]) -> list[list[int]]:
    """Tables from the top: the best-ranked player left heads the next table, joined by the
    next best-ranked players who have met nobody at it (failing that, who met it least).
    Updates ``cnt``."""
    left = list(ranked)
    rnd: list[list[int]] = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            best_at, best_met = 0, -1
            for at, p in enumerate(left):
                met = sum(1 for x in table if cnt[p * n + x])
                if best_met < 0 or met < best_met:
                    best_at, best_met = at, met
                    if met == 0:
                        break
            table.append(left.pop(best_at))
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                cnt[a * n + b] += 1
                cnt[b * n + a] += 1
        rnd.append(table)
    return rnd


def places(spec: _Spec) -> list[list[int]]:
    """The cost of each player at each table of the round (top table 0): ``PLACE`` times the
    square of how many tables they sit from the one their rank falls in."""
    assert spec.rank is not None
    rank = spec.rank
    n = len(spec.ids)
    seated_order = sorted(range(n), key=lambda p: rank[p])
    # a player's place: the table their rank among all players falls in; byes shift little
    bounds = []
    at = 0
    scale = n / max(1, sum(spec.sizes))
    for size in spec.sizes:
        at += size
        bounds.append(at * scale)
    place = []
    for p in range(n):
        position = seated_order.index(p) + 0.5
        home = next((t for t, b in enumerate(bounds) if position < b), len(bounds) - 1)
        place.append([PLACE * (t - home) ** 2 for t in range(len(spec.sizes))])
    return place


def design_rounds(spec: _Spec, place: list[list[int]]) -> tuple[list[list[list[int]]], str] | None:
    """The rounds to play from a resolvable design of the whole field (every round at full
    tables, nobody sitting out), the first of them seated by the standings (``place``: the
    cost of each player at each table, from :func:`places`); None when no design fits, it
    has too few rounds left, or the rounds played do not follow it."""
    assert spec.rank is not None
    n = len(spec.ids)
    k = spec.sizes[0]
    if spec.byes or any(size != k for size in spec.sizes):
        return None
    design = best_design(n, k)
    if design is None or len(design.rounds) < len(spec.history) + spec.rounds:
        return None
    blocks = [sorted(sorted(block) for block in rnd) for rnd in design.rounds]
    rank = spec.rank
    if spec.history:
        found = _labelling(spec, blocks)
        if found is None:
            return None
        label, left = found
    else:
        # the first round's tables are the standings' neighbours, top table first
        ranked = sorted(range(n), key=rank.__getitem__)
        label = [0] * n
        for point, player in zip((p for block in blocks[0] for p in block), ranked, strict=True):
            label[point] = player
        left = list(range(len(blocks)))
    candidates = []
    for index in left:
        tables = sorted(
            ([label[p] for p in block] for block in blocks[index]),
            key=lambda table: sum(rank[p] for p in table),
        )
        cost = sum(place[p][t] for t, table in enumerate(tables) for p in table)
        candidates.append((cost, index, tables))
    candidates.sort(key=lambda candidate: candidate[:2])
    rounds = [tables for _, _, tables in candidates[: spec.rounds]]
    how = f"{design.name} ({len(design.rounds)} rounds) by standings"
    if spec.history:
        how += f", continued after round {len(spec.history)}"
    return rounds, how


def _labelling(
    spec: _Spec, blocks: Sequence[Sequence[Sequence[int]]]
) -> tuple[list[int], list[int]] | None:
    """The players of the design's points and the design's rounds not yet played, when the
    rounds played are rounds of the design in any order: the first played round labels the
    design's first round (tables by their lowest player id, blocks by their lowest point,
    players in order, as ``design_rounds`` seated it)."""
    n = len(spec.ids)

    def key(p: int) -> int:
        return spec.ids[p]

    first = sorted((sorted(table, key=key) for table in spec.history[0]), key=lambda t: key(t[0]))
    if [len(table) for table in first] != [len(block) for block in blocks[0]]:
        return None
    label = [0] * n
    for table, block in zip(first, blocks[0], strict=True):
        for player, point in zip(table, block, strict=True):
            label[point] = player
    played = {
        frozenset(frozenset(label[p] for p in block) for block in rnd): i
        for i, rnd in enumerate(blocks)
    }
    left = set(range(len(blocks)))
    for rnd in spec.history:
        index = played.get(frozenset(frozenset(table) for table in rnd))
        if index is None or index not in left:
            return None
        left.discard(index)
    return label, sorted(left)
