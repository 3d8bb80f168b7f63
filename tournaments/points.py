"""Tournament points and tie-breaks: plain Python, no Django.

A round is a list of tables (each player's game score at the table) and a list of
players on a bye. Points are exact fractions; rounding is for display only.

Points systems (``Rule.system``):

* ``opponents`` (the default): at a table of n players each player gets 1 for every
  opponent they outscored and ½ for every tie, divided by n − 1, so a table of 3 and a
  table of 5 weigh the same (the top of any table gets 1, the bottom 0).
* ``placing``: a placing table, e.g. 3/1/0 for first/second/third; players sharing a
  place share the points of the places they cover (two sharing first with 3/1/0 get 2
  each). Places beyond the table's length score 0.
* ``score``: the raw game score.

A bye scores ``Rule.bye`` points: ``"average"`` is the mean of the points given to the
players seated in that round (so a bye neither helps nor hurts against the field);
``"fixed"`` is ``Rule.bye_points``. A bye adds nothing to the game score, meets nobody
and is no table win.

Standings rank by points, then by the tie-breaks in order (``TIE_BREAKS``):

* ``game_score``: total game score;
* ``opponents``: opponents' average tournament points (each meeting counts once per
  round, the opponents' final points);
* ``table_wins``: rounds in which the player had the top score at the table (shared
  tops count; a table that played no deal has no top);
* ``head_to_head``: within the group still tied, points (as for ``opponents``) earned
  against the others of the group at the same tables.

Players still equal after every tie-break share a rank; they are listed by ``order``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)

SYSTEMS = ("opponents", "placing", "score")
BYE_RULES = ("average", "fixed")
TIE_BREAKS = ("game_score", "opponents", "table_wins", "head_to_head")
DEFAULT_PLACING = (3, 1, 0)


class RuleError(ValueError):
    """A rule refused, with the ``field`` of ``Rule`` it is about."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Rule:
    system: str = "opponents"
    placing: tuple[Fraction | int, ...] = DEFAULT_PLACING
    bye: str = "average"
    bye_points: Fraction | int = 0
    tie_breaks: tuple[str, ...] = TIE_BREAKS

    def __post_init__(self) -> None:
        if self.system not in SYSTEMS:
            raise RuleError("system", f"unknown points system {self.system!r}")
        if self.bye not in BYE_RULES:
            raise RuleError("bye", f"unknown bye rule {self.bye!r}")
        unknown = [name for name in self.tie_breaks if name not in TIE_BREAKS]
        if unknown or len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise RuleError(
                "tie_breaks", f"tie-breaks are distinct names among {', '.join(TIE_BREAKS)}"
            )


@dataclass(frozen=True)
class TableResult(Generic[P]):
    """One table of a round: players in seat order and their game scores; ``played``:
    False for a table closed before it played a deal (its players tied at 0)."""

    players: tuple[P, ...]
    scores: tuple[int, ...]
    played: bool = True

    def __post_init__(self) -> None:
        if len(self.players) != len(self.scores) or len(self.players) < 2:
            raise ValueError("a table has at least two players, each with a score")


@dataclass(frozen=True)
class RoundResult(Generic[P]):
    tables: tuple[TableResult[P], ...]
    byes: tuple[P, ...] = ()


@dataclass
class Standing(Generic[P]):
    player: P
    rank: int = 0
    points: Fraction = Fraction(0)
    game_score: int = 0
    opponents: Fraction = Fraction(0)
    table_wins: int = 0
    played: int = 0
    byes: int = 0
    round_points: list[Fraction | None] = field(default_factory=list)


def _pair_points(mine: int, theirs: int) -> Fraction:
    if mine > theirs:
        return Fraction(1)
    if mine == theirs:
        return Fraction(1, 2)
    return Fraction(0)


def table_points(scores: Sequence[int], rule: Rule = Rule()) -> list[Fraction]:
    """Each seat's tournament points for one table."""
    size = len(scores)
    if rule.system == "score":
        return [Fraction(score) for score in scores]
    if rule.system == "opponents":
        return [
            sum(
                (_pair_points(mine, theirs) for j, theirs in enumerate(scores) if j != i),
                Fraction(0),
            )
            / (size - 1)
            for i, mine in enumerate(scores)
        ]
    placing = [Fraction(value) for value in rule.placing]
    result = []
    for mine in scores:
        above = sum(1 for other in scores if other > mine)
        equal = sum(1 for other in scores if other == mine)
        covered = [
            placing[p] if p < len(placing) else Fraction(0) for p in range(above, above + equal)
        ]
        result.append(sum(covered, Fraction(0)) / equal)
    return result


def round_points(result: RoundResult[P], rule: Rule = Rule()) -> dict[P, Fraction]:
    """Every player's points for one round, byes included."""
    points: dict[P, Fraction] = {}
    for table in result.tables:
        for player, value in zip(table.players, table_points(table.scores, rule), strict=True):
            points[player] = value
    if result.byes:
        if rule.bye == "fixed":
            bye = Fraction(rule.bye_points)
        elif points:
            bye = sum(points.values(), Fraction(0)) / len(points)
        else:
            bye = Fraction(0)
        for player in result.byes:
            points[player] = bye
    return points


def table_winners(table: TableResult[P]) -> set[P]:
    """Who had the top score at the table (shared tops count); nobody at a table that
    played no deal."""
    if not table.played:
        return set()
    top = max(table.scores)
    return {p for p, score in zip(table.players, table.scores, strict=True) if score == top}


def standings(
    rounds: Sequence[RoundResult[P]],
    rule: Rule = Rule(),
    *,
    players: Iterable[P] = (),
    order: Callable[[P], object] | None = None,
) -> list[Standing[P]]:
    """Standings after ``rounds``, best first, with ranks (equal players share one).

    ``players`` adds players who have played no round yet; ``order`` lists players
    who are still equal after every tie-break (default: as first seen).
    """
    rows: dict[P, Standing[P]] = {}

    def row(player: P) -> Standing[P]:
        if player not in rows:
            rows[player] = Standing(player=player, round_points=[None] * len(rounds))
        return rows[player]

    for player in players:
        row(player)
    met: dict[P, list[P]] = defaultdict(list)
    # Head-to-head: points earned by a against b at the same table, over the event.
    versus: dict[tuple[P, P], Fraction] = defaultdict(Fraction)
    for index, result in enumerate(rounds):
        points = round_points(result, rule)
        for player, value in points.items():
            entry = row(player)
            entry.points += value
            entry.round_points[index] = value
        for table in result.tables:
            winners = table_winners(table)
            size = len(table.players)
            for i, player in enumerate(table.players):
                entry = row(player)
                entry.played += 1
                entry.game_score += table.scores[i]
                entry.table_wins += player in winners
                for j, other in enumerate(table.players):
                    if i != j:
                        met[player].append(other)
                        versus[player, other] += _pair_points(table.scores[i], table.scores[j]) / (
                            size - 1
                        )
        for player in result.byes:
            row(player).byes += 1
    for player, entry in rows.items():
        opponents = met.get(player, [])
        if opponents:
            entry.opponents = sum((rows[o].points for o in opponents), Fraction(0)) / len(opponents)

    seen = list(rows)
    position = {player: i for i, player in enumerate(seen)}

    def simple(name: str) -> Callable[[P], object]:
        if name == "game_score":
            return lambda p: rows[p].game_score
        if name == "opponents":
            return lambda p: rows[p].opponents
        return lambda p: rows[p].table_wins

    # Split groups of equal players criterion by criterion, best first.
    groups: list[list[P]] = [seen]
    criteria: list[str] = ["points", *rule.tie_breaks]
    for name in criteria:
        refined: list[list[P]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if name == "points":
                key: Callable[[P], object] = lambda p: rows[p].points  # noqa: E731
            elif name == "head_to_head":
                members = set(group)
                scores = {
                    p: sum((versus[p, q] for q in members if q != p), Fraction(0)) for p in group
                }
                key = scores.__getitem__
            else:
                key = simple(name)
            refined.extend(_split(group, key))
        groups = refined

    ranked: list[Standing[P]] = []
    for group in groups:
        rank = len(ranked) + 1
        listing = order if order is not None else position.__getitem__
        for player in sorted(group, key=listing):  # type: ignore[arg-type]
            entry = rows[player]
            entry.rank = rank
            ranked.append(entry)
    return ranked


def _split(group: list[P], value: Callable[[P], object]) -> list[list[P]]:
    """``group`` split into runs of equal ``value``, highest first."""
    values = {p: value(p) for p in group}
    distinct = sorted(set(values.values()), reverse=True)  # type: ignore[type-var]
    return [[p for p in group if values[p] == v] for v in distinct]


def meetings(rounds: Iterable[Iterable[Sequence[P]]]) -> Mapping[frozenset[P], int]:
    """How often each pair sat at one table, from rounds given as lists of tables."""
    counts: dict[frozenset[P], int] = defaultdict(int)
    for tables in rounds:
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    counts[frozenset((a, b))] += 1
    return counts
