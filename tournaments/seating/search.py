"""Building and improving schedules: greedy rounds, then tabu search over swaps.

Players are internal indices 0..n-1. A schedule is a list of planned rounds, each a list of
tables (lists of players); players of a round who are at no table sit out (their byes are
chosen beforehand and never change here). ``cnt[a * n + b]`` counts the meetings of a and b
over the whole event: history plus planned rounds.

The cost of a pair that meets m times is ``W[m]``: 0 for m <= 1, then
``REPEAT * (m - 1) + SPREAD * (m - 1) * (m - 2)``: each repeat costs ``REPEAT``, and the
second term spreads unavoidable repeats so that no pair meets far more often than others
(a pair meeting three times costs more than two pairs meeting twice, less than three). The search
(in the manner of Dotu and Van Hentenryck's tabu search for the social golfer problem) takes
a pair that meets too often, one round where they sit together, and makes the best swap of
either of them with a player at another table of that round that is not tabu, even if it
makes things worse; it restarts from the best schedule with a few random swaps when stuck.

One module, over 500 lines: the moves, the cost and the lower bounds that stop the search
share the meeting counts and the weights above and change together; split, each part would
need the others' internals.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

REPEAT = 64
SPREAD = 24  # a pair meeting 3 times costs more than two pairs meeting twice
assert REPEAT >= 2 * SPREAD  # ``cost_lower_bound`` relies on it
PLACE = 2  # by standings: a player seated d tables from their place costs PLACE * d * d


def pair_weights(limit: int) -> tuple[list[int], list[int], list[int]]:
    """``W``, ``inc[m] = W[m+1] - W[m]`` and ``dec[m] = W[m-1] - W[m]`` for m < limit."""
    weights = [
        0 if m <= 1 else REPEAT * (m - 1) + SPREAD * (m - 1) * (m - 2) for m in range(limit + 2)
    ]
    inc = [weights[m + 1] - weights[m] for m in range(limit + 1)]
    dec = [0] + [weights[m - 1] - weights[m] for m in range(1, limit + 1)]
    return weights, inc, dec


def lower_bound(n: int, meetings: Sequence[int], weights: Sequence[int]) -> int:
    """A bound on the total cost: player p meets ``meetings[p]`` times n - 1 others, at best
    as evenly as possible (W is convex); every pair is counted from both ends."""
    total = 0
    others = n - 1
    if others <= 0:
        return 0
    for m in meetings:
        q, r = divmod(m, others)
        total += r * weights[q + 1] + (others - r) * weights[q]
    return (total + 1) // 2


def repeats_lower_bound(n: int, meetings: Sequence[int]) -> int:
    """The fewest repeated meetings possible: player p meets ``meetings[p]`` times but has
    only n - 1 others to meet, so at least ``meetings[p] - (n - 1)`` of those are repeats;
    every repeat is counted from both ends."""
    extra = sum(max(0, m - (n - 1)) for m in meetings)
    return (extra + 1) // 2


def _spread_pairs(size: int, groups: int) -> int:
    """The fewest pairs from one group among ``size`` players drawn from ``groups`` groups:
    spread as evenly as possible (sizes of the groups not counted, so a lower bound)."""
    q, r = divmod(size, groups)
    return r * (q + 1) * q // 2 + (groups - r) * q * (q - 1) // 2


def _forced_by_round(
    history: Sequence[Sequence[Sequence[int]]], planned: Sequence[Sequence[Sequence[int]]]
) -> tuple[bool, list[tuple[list[int], list[int]]]]:
    """For each planned round, the fewest of its pairs that sat together in each round played
    and in each earlier planned round (the pigeonhole principle, see ``pigeonhole_repeats``),
    and whether no pair met twice in the rounds played."""
    seen: set[tuple[int, int]] = set()
    disjoint = True
    for rnd in history:
        for table in rnd:
            ordered = sorted(table)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1 :]:
                    disjoint = disjoint and (a, b) not in seen
                    seen.add((a, b))
    # each round: who sits at which of its tables, and its table sizes
    played_rounds = [_Seating(rnd) for rnd in history]
    planned_rounds = [_Seating(rnd) for rnd in planned]
    out = []
    for j, this in enumerate(planned_rounds):
        sizes = this.sizes
        against_played = []
        for played in played_rounds:
            groups = [g for g in played.groups_of(this) if g]
            # a seated player absent from that round is a group of their own
            groups_count = len(groups) + len(this.where) - sum(groups)
            against_played.append(_forced(sizes, groups, groups_count))
        against_planned = []
        for earlier in planned_rounds[:j]:
            # at most one group a table of that round, and one for each player it left out
            groups_count = len(earlier.sizes) + len(this.where.keys() - earlier.where.keys())
            against_planned.append(_forced(sizes, earlier.groups_of(this), groups_count))
        out.append((against_played, against_planned))
    return disjoint, out


class _Seating:
    """A round's tables: the table of each player seated, and the tables' sizes."""

    __slots__ = ("sizes", "where")

    def __init__(self, rnd: Sequence[Sequence[int]]) -> None:
        self.sizes = [len(table) for table in rnd]
        self.where = {p: t for t, table in enumerate(rnd) for p in table}

    def groups_of(self, other: _Seating) -> list[int]:
        """How many of ``other``'s seated players sat at each of these tables."""
        groups = list(self.sizes)
        for p in self.where.keys() - other.where.keys():
            groups[self.where[p]] -= 1
        return groups


def _forced(sizes: Sequence[int], groups: Sequence[int], groups_count: int) -> int:
    """The fewest pairs that sat together before among tables of ``sizes``, whose players
    come from ``groups_count`` groups (earlier tables, and players on their own), those of
    ``groups`` this large: each table holds at least the pairs of its players spread evenly
    over the groups, and each group at least the pairs of its players spread evenly over
    the tables (4 players of one earlier table at 3 tables: two of them meet again)."""
    if max(sizes, default=0) <= groups_count and max(groups, default=0) <= len(sizes):
        return 0  # every table can take one of each group, and each group one a table
    by_table = sum(_spread_pairs(size, groups_count) for size in sizes)
    by_group = sum(_spread_pairs(group, len(sizes)) for group in groups)
    return max(by_table, by_group)


def pigeonhole_repeats(
    history: Sequence[Sequence[Sequence[int]]], planned: Sequence[Sequence[Sequence[int]]]
) -> int:
    """The fewest meetings, in the ``planned`` rounds, of pairs that met in an earlier round
    (played or planned), given who sits at how large a table in each planned round: the
    pigeonhole principle. A table of k players drawn from the g tables of an earlier round
    holds at least the pairs of k spread evenly over g (6 players who sat 3 and 3 cannot make
    two new tables of 3 without two repeats). A planned round counts once for each of its
    pairs: against the rounds played all together where no pair met twice in them (each
    pair then met in at most one), else against the earlier round that forces the most.
    Only table sizes are used of the planned rounds, so the bound holds for any plan that
    seats the same players at tables of the same sizes."""
    disjoint, forced = _forced_by_round(history, planned)
    total = 0
    for against_played, against_planned in forced:
        played = sum(against_played) if disjoint else max(against_played, default=0)
        total += max(played, max(against_planned, default=0))
    return total


def pigeonhole_rematches(
    history: Sequence[Sequence[Sequence[int]]], planned: Sequence[Sequence[Sequence[int]]]
) -> int:
    """The fewest rematches in the ``planned`` rounds: the number of times, over every two
    rounds the later of which is planned, that a pair sits together in both. Each two rounds
    count on their own (the pigeonhole principle, as in ``pigeonhole_repeats``), so this
    exceeds the repeats when the tables that must repeat against one round are those that
    must repeat against another: a pair meeting m times is m - 1 repeats but m (m - 1) / 2
    rematches. Twelve at tables of four for three rounds: 3 forced rematches between each two
    rounds, 9 in all, but only 6 repeats; 6 repeats leave 9 rematches only if three pairs
    meet three times."""
    _, forced = _forced_by_round(history, planned)
    return sum(sum(played) + sum(earlier) for played, earlier in forced)


def cost_lower_bound(repeats: int, rematches: int) -> int:
    """The least cost of a schedule with at least ``repeats`` repeats and ``rematches``
    rematches over the whole event (see ``pigeonhole_rematches``). A pair meeting m >= 1
    times costs ``W[m] = REPEAT (m - 1) + SPREAD (m - 1)(m - 2)``, which is
    ``(REPEAT - 2 SPREAD) (m - 1) + 2 SPREAD m (m - 1) / 2``: linear in its repeats and its
    rematches, both coefficients non-negative; and a pair has at least as many rematches as
    repeats. Summed over the pairs, the cost is at least this."""
    return (REPEAT - 2 * SPREAD) * repeats + 2 * SPREAD * max(repeats, rematches)


class _IndexedSet:
    """A set of ints with O(1) add, discard and uniform random choice (deterministic)."""

    __slots__ = ("index", "items")

    def __init__(self) -> None:
        self.items: list[int] = []
        self.index: dict[int, int] = {}

    def add(self, key: int) -> None:
        if key not in self.index:
            self.index[key] = len(self.items)
            self.items.append(key)

    def discard(self, key: int) -> None:
        i = self.index.pop(key, None)
        if i is not None:
            last = self.items.pop()
            if i < len(self.items):
                self.items[i] = last
                self.index[last] = i


@dataclass
class Outcome:
    tables: list[list[list[int]]]
    cost: int
    lower_bound: int
    iterations: int
    timed_out: bool
    restarts: int = 0
    #: which argument gave ``lower_bound``: "counting" (each player's meetings against the
    #: others there are to meet), "pigeonhole" (tables that cannot all be split up, their
    #: repeats and rematches), or "" (none: 0)
    lower_bound_from: str = ""


def greedy_round(
    n: int,
    seated: Sequence[int],
    sizes: Sequence[int],
    cnt: list[int],
    inc: Sequence[int],
    rng: random.Random,
) -> list[list[int]]:
    """Seat ``seated`` at tables of ``sizes``: each player, most-met first, goes to the table
    where they add the least cost (ties at random). Updates ``cnt``."""
    order = list(seated)
    rng.shuffle(order)
    met = {p: n - cnt[p * n : p * n + n].count(0) for p in order}  # partners so far
    order.sort(key=lambda p: -met[p])
    tables: list[list[int]] = [[] for _ in sizes]
    free = list(range(len(sizes)))
    for p in order:
        row = p * n
        mine = cnt[row : row + n]
        costs = [sum([inc[mine[y]] for y in tables[t]]) for t in free]
        low = min(costs)
        ties = [t for t, c in zip(free, costs, strict=True) if c == low]
        best = ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]
        table = tables[best]
        for y in table:
            cnt[row + y] += 1
            cnt[y * n + p] += 1
        table.append(p)
        if len(table) == sizes[best]:
            free.remove(best)
    return tables


class Tabu:
    """Tabu search over the planned rounds ``tables`` (modified in place)."""

    def __init__(
        self,
        n: int,
        tables: list[list[list[int]]],
        base: list[int],
        rng: random.Random,
        place: list[list[int]] | None = None,
    ) -> None:
        self.n = n
        self.tables = tables
        self.base = base  # history meetings, n * n
        self.rng = rng
        # by standings: place[p][t] is the cost of p at table t of the first planned round
        # (the rounds after it are planned only so that it leaves them without repeats);
        # None otherwise
        self.place = place
        # planned meetings of pairs that met before, at the fewest (``pigeonhole_repeats``)
        self.forced_repeats = 0
        # the same for rematches (``pigeonhole_rematches``)
        self.forced_rematches = 0
        self.breadth = 2  # conflicting pairs looked at per move
        self.tenure = (1, 5)  # a moved player stays put for 1 to 5 moves
        rounds = len(tables)
        self.limit = max(base, default=0) + rounds + 2
        self.weights, self.inc, self.dec = pair_weights(self.limit)
        if place is not None:
            # by standings a repeat costs more than seating any two players out of place, so
            # players move as far as it takes to avoid one
            worst = max((max(row) for row in place), default=0)
            scale = 1 + (2 * worst) // REPEAT
            self.weights = [w * scale for w in self.weights]
            self.inc = [w * scale for w in self.inc]
            self.dec = [w * scale for w in self.dec]
        self._load(tables)

    # ------------------------------------------------------------------ state

    def _load(self, tables: list[list[list[int]]]) -> None:
        n = self.n
        self.tables = [[list(t) for t in rnd] for rnd in tables]
        self.pos = [[-1] * n for _ in tables]
        self.cnt = list(self.base)
        self.planned = [0] * (n * n)
        for r, rnd in enumerate(self.tables):
            where = self.pos[r]
            for ti, table in enumerate(rnd):
                for i, p in enumerate(table):
                    where[p] = ti
                    for q in table[i + 1 :]:
                        self.cnt[p * n + q] += 1
                        self.cnt[q * n + p] += 1
                        self.planned[min(p, q) * n + max(p, q)] += 1
        self.bad = _IndexedSet()
        for key, m in enumerate(self.planned):
            if m and self.cnt[key] >= 2:
                self.bad.add(key)
        self.cost = self.total_cost()

    def total_cost(self) -> int:
        n = self.n
        w = self.weights
        cost = 0
        for a in range(n):
            row = a * n
            for b in range(a + 1, n):
                cost += w[self.cnt[row + b]]
        if self.place is not None and self.tables:
            for ti, table in enumerate(self.tables[0]):
                for p in table:
                    cost += self.place[p][ti]
        return cost

    def meetings_per_player(self) -> list[int]:
        n = self.n
        return [sum(self.cnt[p * n : p * n + n]) for p in range(n)]

    def _bump(self, a: int, b: int, d: int) -> None:
        n = self.n
        c = self.cnt[a * n + b] + d
        self.cnt[a * n + b] = c
        self.cnt[b * n + a] = c
        key = a * n + b if a < b else b * n + a
        m = self.planned[key] + d
        self.planned[key] = m
        if m and c >= 2:
            self.bad.add(key)
        else:
            self.bad.discard(key)

    def swap(self, r: int, p: int, q: int) -> None:
        where = self.pos[r]
        tp, tq = where[p], where[q]
        table_p, table_q = self.tables[r][tp], self.tables[r][tq]
        bump = self._bump
        for x in table_p:
            if x != p:
                bump(p, x, -1)
                bump(q, x, 1)
        for y in table_q:
            if y != q:
                bump(q, y, -1)
                bump(p, y, 1)
        table_p[table_p.index(p)] = q
        table_q[table_q.index(q)] = p
        where[p], where[q] = tq, tp

    # ------------------------------------------------------------------ moves

    def _best_swaps(
        self, r: int, movers: Sequence[int], it: int, tabu: list[list[int]], best_cost: int
    ) -> tuple[int, list[tuple[int, int]]]:
        """Best non-tabu swap of a mover with a player at another table of round r.

        The change of cost when p (at table P) and q (at table Q) swap is
        ``leave(p) + join(p, Q) - inc[c(p, q)] + own(q) + gain(q, P - p)``: p leaving its
        tablemates, p joining Q's players (less q), q leaving its tablemates, q joining p's.
        """
        n = self.n
        cnt = self.cnt
        inc, dec = self.inc, self.dec
        inc_at = inc.__getitem__
        tables = self.tables[r]
        where = self.pos[r]
        taboo = tabu[r]
        place = self.place if r == 0 else None
        own = [0] * n
        for table in tables:
            for q in table:
                row_q = q * n
                total = 0
                for y in table:
                    if y != q:
                        total += dec[cnt[row_q + y]]
                own[q] = total
        cost = self.cost
        best_d = 0
        best: list[tuple[int, int]] = []
        for p in movers:
            tp = where[p]
            mates = [x for x in tables[tp] if x != p]
            inc_p = list(map(inc_at, cnt[p * n : p * n + n]))
            leave = 0
            for x in mates:
                leave += dec[cnt[p * n + x]]
            if mates:
                gain = list(
                    map(
                        sum, zip(*(map(inc_at, cnt[x * n : x * n + n]) for x in mates), strict=True)
                    )
                )
            else:
                gain = [0] * n
            p_tabu = taboo[p] > it
            place_p = place[p] if place is not None else None
            for tq, table_q in enumerate(tables):
                if tq == tp:
                    continue
                base = leave
                for y in table_q:
                    base += inc_p[y]
                if place_p is not None:
                    base += place_p[tq] - place_p[tp]
                for q in table_q:
                    d = base - inc_p[q] + own[q] + gain[q]
                    if place is not None:
                        d += place[q][tp] - place[q][tq]
                    if best and d > best_d:
                        continue
                    if (p_tabu or taboo[q] > it) and cost + d >= best_cost:
                        continue
                    if not best or d < best_d:
                        best_d = d
                        best = [(p, q)]
                    else:
                        best.append((p, q))
        return best_d, best

    def _unsettled(self, r: int) -> list[int]:
        """Players of round r who are out of place or meet a tablemate again."""
        n = self.n
        cnt = self.cnt
        place = self.place if r == 0 else None
        out = []
        for ti, table in enumerate(self.tables[r]):
            for p in table:
                if place is not None and place[p][ti]:
                    out.append(p)
                    continue
                row = p * n
                for y in table:
                    if y != p and cnt[row + y] >= 2:
                        out.append(p)
                        break
        return out

    def settled(self) -> bool:
        return not any(self._unsettled(r) for r in range(len(self.tables)))

    # ------------------------------------------------------------------ search

    def run(self, deadline: float, max_iters: int, patience: int, restart: bool = False) -> Outcome:
        """Search until the cost reaches the lower bound, no pair meets twice (nor anyone is
        out of place), or ``deadline``. Every ``patience // 8`` moves without a better
        schedule it goes back to the best one with a few random swaps. After ``patience``
        moves without one it stops, unless ``restart``: then it perturbs the best schedule
        harder (more random swaps, growing with each fruitless restart) and goes on, so that
        the whole time budget is used; by standings (``place``) only while a pair in the
        best schedule meets twice. ``max_iters`` bounds the moves either way."""
        rng = self.rng
        n = self.n
        rounds = len(self.tables)
        meetings = self.meetings_per_player()
        lb = lower_bound(n, meetings, self.weights)
        bound_from = "counting" if lb else ""
        if self.forced_repeats or self.forced_rematches:
            # the repeats and rematches of the rounds played, and the fewest the planned
            # rounds add to them
            repeats = sum(m - 1 for m in self.base if m > 1) // 2
            rematches = sum(m * (m - 1) // 2 for m in self.base) // 2
            repeats = max(repeats + self.forced_repeats, repeats_lower_bound(n, meetings))
            forced = cost_lower_bound(repeats, rematches + self.forced_rematches)
            if forced > lb:
                lb, bound_from = forced, "pigeonhole"
        if self.place is not None:
            lb, bound_from = 0, ""  # the bound ignores places; a schedule of cost 0 is optimal
        tabu = [[0] * n for _ in range(rounds)]
        best_cost = self.cost
        best_tables = [[list(t) for t in rnd] for rnd in self.tables]
        best_repeats = bool(self.bad.items)
        it = 0
        last_gain = 0
        restarts = 0
        stall = max(200, patience // 8)
        timed_out = False
        while self.cost > lb and rounds:
            it += 1
            if it > max_iters:
                break
            if it - last_gain > patience:
                if not restart or (self.place is not None and not best_repeats):
                    break  # by standings with no pair meeting twice: places near enough
                restarts += 1
                last_gain = it
                self._kick(best_tables, tabu, swaps=2 + restarts % (2 + n // 4))
                continue
            if it & 31 == 0 and time.perf_counter() > deadline:
                timed_out = True
                break
            if it - last_gain > stall and (it - last_gain) % stall == 0:
                self._kick(best_tables, tabu)
                continue
            bad = self.bad.items
            groups: dict[int, list[int]] = {}
            if self.place is not None and not (bad and it & 1):
                # by standings: every player who is out of place or meets someone again, in
                # one round, may move (every other move, while a pair meets twice, only the
                # players of those pairs, as without places)
                r = rng.randrange(rounds)
                movers = self._unsettled(r)
                if not movers:
                    if self.settled():
                        break
                    continue
                groups[r] = movers
            elif bad:
                sample = bad if len(bad) <= self.breadth else rng.sample(bad, self.breadth)
                for key in sample:
                    a, b = divmod(key, n)
                    for r in range(rounds):
                        where = self.pos[r]
                        if where[a] >= 0 and where[a] == where[b]:
                            group = groups.setdefault(r, [])
                            if a not in group:
                                group.append(a)
                            if b not in group:
                                group.append(b)
            if not groups:
                if not bad:
                    break  # no planned pair meets twice and nobody is out of place: optimal
                continue
            d = 0
            moves: list[tuple[int, int, int]] = []
            for r, movers in groups.items():
                dr, found = self._best_swaps(r, movers, it, tabu, best_cost)
                if found and (not moves or dr < d):
                    d, moves = dr, [(r, p, q) for p, q in found]
                elif found and dr == d:
                    moves.extend((r, p, q) for p, q in found)
            if not moves:
                continue
            r, p, q = moves[rng.randrange(len(moves))]
            self.swap(r, p, q)
            self.cost += d
            lo, span = self.tenure
            tabu[r][p] = it + lo + rng.randrange(span)
            tabu[r][q] = it + lo + rng.randrange(span)
            if self.cost < best_cost:
                best_cost = self.cost
                best_tables = [[list(t) for t in rnd] for rnd in self.tables]
                best_repeats = bool(self.bad.items)
                last_gain = it
        if self.cost > best_cost:
            self._load(best_tables)
        return Outcome(self.tables, self.cost, lb, it, timed_out, restarts, bound_from)

    def _kick(
        self, best_tables: list[list[list[int]]], tabu: list[list[int]], swaps: int = 0
    ) -> None:
        """Back to the best schedule, then a few random swaps (``swaps``, or 1 to 3)."""
        rng = self.rng
        self._load(best_tables)
        for row in tabu:
            for i in range(len(row)):
                row[i] = 0
        for _ in range(swaps or 1 + rng.randrange(3)):
            r = rng.randrange(len(self.tables))
            rnd = self.tables[r]
            if len(rnd) < 2:
                continue
            ta, tb = rng.sample(range(len(rnd)), 2)
            p = rnd[ta][rng.randrange(len(rnd[ta]))]
            q = rnd[tb][rng.randrange(len(rnd[tb]))]
            self.swap(r, p, q)
        self.cost = self.total_cost()
