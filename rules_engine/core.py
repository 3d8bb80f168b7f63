"""The game-independent part of the engine: a table, its deals, and the scoresheet."""

from __future__ import annotations

import gc
import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple, TypedDict, Unpack

from rules_engine.errors import RuleError
from rules_engine.options import Option, parse_options
from rules_engine.tricks import TrickRules, pack_cards, parse_trump, trump_note
from rules_engine.validate import mapping, only_keys, required, type_name, whole

MAX_NAME_LENGTH = 100


@dataclass(frozen=True, slots=True)
class Table:
    """A game as set up: which game, who sits where (clockwise), its house rules."""

    game: Game
    players: tuple[str, ...]
    options: Mapping[str, Any]
    first_dealer: int
    #: How many seats: the players' count (read a few times for every deal scored).
    size: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", len(self.players))


# The per-deal values are named tuples: immutable, and cheap to make a hundred
# thousand times when a season is rescored.


class DealContext(NamedTuple):
    """What is known before deal ``number`` (1-based) is played: dealer and game context."""

    number: int
    dealer: int
    info: Mapping[str, Any] = {}

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "dealer": self.dealer, **self.info}


class DealOutcome(NamedTuple):
    """What a game makes of one deal record."""

    scores: tuple[int, ...]
    record: Mapping[str, Any]
    info: Mapping[str, Any] = {}


class ScoredDeal(NamedTuple):
    """A deal as played: its context, the record as read, scores and running totals."""

    number: int
    dealer: int
    record: Mapping[str, Any]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    context: Mapping[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            **self.context,
            "scores": list(self.scores),
            "totals": list(self.totals),
        }


class Game(ABC):
    """The rules of one game. Subclasses are stateless; a :class:`Table` carries the setup."""

    key: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    options: ClassVar[tuple[Option[Any], ...]]
    #: The keys of a deal record and their JSON types, as a JSON Schema object (for the
    #: API's documentation and fuzzing); :meth:`score` is what checks a record.
    record_schema: ClassVar[Mapping[str, Any]]

    #: For a game of several player counts, the one it plays best at.
    preferred_players: ClassVar[int | None] = None
    #: Whether who deals next depends on how a deal scored (Third Hand): then the deals
    #: after the next one cannot be known before it is scored.
    dealer_follows_scores: ClassVar[bool] = False

    @property
    def table_size(self) -> int:
        """The table size a tournament seats by default: the game's own player count, or
        for a game of several counts, the one it plays best at (e.g. prediction whist: 4)."""
        return self.preferred_players or min(self.player_counts)

    def deal_info(self, table: Table, number: int) -> dict[str, Any]:
        """Context of deal ``number`` known before it is played (beyond the dealer)."""
        return {}

    @abstractmethod
    def score(self, table: Table, context: DealContext, deal: Mapping[str, object]) -> DealOutcome:
        """Validate one deal record and score it; raise :class:`RuleError` naming the field."""

    @abstractmethod
    def sample_deal(self, rng: random.Random, table: Table, context: DealContext) -> dict[str, Any]:
        """A made-up record of the deal ``context`` that :meth:`score` accepts and that
        reads like real play (demo data, benchmarks), drawn from ``rng``."""

    def check_draft(
        self, table: Table, context: DealContext, draft: Mapping[str, object]
    ) -> dict[str, Any]:
        """What of the deal ``context`` is known before it is played out and kept till
        then (prediction whist's bids, entered before play), checked, as it is kept; a
        value not given yet is None. :class:`RuleError` naming the field; a game that keeps
        nothing before play refuses any."""
        raise RuleError(f"{self.name} keeps nothing of a deal before it is played", field="")

    def checks(self, table: Table, context: DealContext) -> list[dict[str, Any]]:
        """The rules a record of the deal ``context`` describes must keep that can be checked
        without the server, as data (:mod:`rules_engine.constraints` lists the kinds)."""
        return []

    def score_table(self, table: Table, context: DealContext) -> dict[str, Any] | None:
        """How the deal scores, as a lookup table a phone can apply per seat, or ``None``
        when its scores cannot be read off one (:mod:`rules_engine.constraints`)."""
        return None

    def trick_rules(
        self, options: Mapping[str, Any], context: Mapping[str, object], players: int
    ) -> TrickRules:
        """How a trick is played, read from the deal's ``context`` (for the rules assistant,
        :mod:`rules_engine.tricks`). Plain whist: aces high, a 52-card pack, trumps named by
        ``context["trump"]`` (or none)."""
        only_keys(context, frozenset(("trump",)), "", f"the context of a {self.name} trick")
        trump = parse_trump(
            required(context, "trump", "trump", "the trump suit (S, H, D, C), or null for none"),
            "trump",
            allow_none=True,
        )
        return TrickRules(self.name, players, trump, notes=(trump_note(trump),))

    def trick_pack(self, players: int) -> tuple[str, ...]:
        """The cards a trick of this game is played with, for a card grid: 52 by default."""
        return pack_cards()

    def next_dealer(self, table: Table, deal: ScoredDeal) -> int:
        return (deal.dealer + 1) % table.size

    @abstractmethod
    def is_finished(self, table: Table, played: int, last: ScoredDeal) -> bool:
        """Whether the game is over once ``played`` deals are played, ``last`` the latest.
        (What a game needs to know of its past is in these two: a scoresheet can resume
        from the last stored deal without replaying the others.)"""

    def winners(self, table: Table, totals: Sequence[int]) -> tuple[int, ...]:
        """Seats with the highest total (equal highest totals share the win)."""
        top = max(totals)
        return tuple(seat for seat, total in enumerate(totals) if total == top)

    def scheduled_deals(self, table: Table) -> int | None:
        """How many deals the game has, when that is fixed in advance."""
        return None

    def check_new_table(self, table: Table) -> None:
        """Rules a new game's house rules keep together, beyond each option's own range:
        :class:`RuleError` naming the option. Run when a game is set up, never when a
        stored one is read (a game accepted before a check was added still opens).
        By default, none."""
        return None

    def describe(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "summary": self.summary,
            "players": list(self.player_counts),
            "min_players": min(self.player_counts),
            "max_players": max(self.player_counts),
            "table_size": self.table_size,
            "options": [option.describe() for option in self.options],
        }

    def options_json(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {option.name: option.to_json(options[option.name]) for option in self.options}

    def player_count_text(self) -> str:
        counts = self.player_counts
        if len(counts) == 1:
            return f"{counts[0]} players"
        return f"{counts[0]} to {counts[-1]} players"


def _players(value: object, game: Game) -> tuple[str, ...]:
    if not isinstance(value, list | tuple):
        raise RuleError(
            f"players must be a list of names in seat order; got {type_name(value)}",
            field="players",
        )
    names: list[str] = []
    for seat, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            raise RuleError(
                f"each player must be a non-empty name; seat {seat} has {type_name(name)}",
                field=f"players[{seat}]",
            )
        if len(name) > MAX_NAME_LENGTH:
            raise RuleError(
                f"a player's name has at most {MAX_NAME_LENGTH} characters",
                field=f"players[{seat}]",
            )
        if name.strip() in names:
            raise RuleError(
                f'two seats have the name "{name.strip()}"; each player needs their own name',
                field=f"players[{seat}]",
            )
        names.append(name.strip())
    if len(names) not in game.player_counts:
        raise RuleError(
            f"{game.name} is played by {game.player_count_text()}; this game has {len(names)}",
            field="players",
        )
    return tuple(names)


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while scoring many deals.

    Scoring makes no reference cycles, so reference counting frees everything;
    but each deal allocates a few small containers, and on a long rescore the
    collector would otherwise walk the growing sheet again and again (about
    half the time of a 100,000-deal rescore). The caller's setting is restored.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class SheetSetup(TypedDict, total=False):
    """A new :class:`Scoresheet`'s keywords: the house rules and the first dealer's seat."""

    options: object
    first_dealer: object


class Scoresheet:
    """A game being played: add deals one by one; read totals, the next deal, the winners.

    Every deal added is validated against the rules and the deals before it;
    a deal that breaks a rule raises :class:`RuleError` and leaves the sheet
    as it was.
    """

    def __init__(
        self,
        game: Game,
        players: Sequence[str],
        *,
        options: object = None,
        first_dealer: object = None,
    ) -> None:
        names = _players(players, game)
        if first_dealer is None:
            first_dealer = 0
        dealer = whole(first_dealer, "first_dealer", 0, len(names) - 1, "first_dealer (a seat)")
        resolved = parse_options(game.options, options, game.name)
        self.table = Table(game, names, resolved, dealer)
        self.deals: list[ScoredDeal] = []
        self.played = 0
        self.totals: tuple[int, ...] = (0,) * len(names)
        self.finished = False
        self._next: DealContext | None = self._context(1, dealer)

    @classmethod
    def resume(
        cls,
        game: Game,
        players: Sequence[str],
        *,
        last: ScoredDeal | None = None,
        **setup: Unpack[SheetSetup],
    ) -> Scoresheet:
        """A sheet that carries on after ``last``, the latest deal as it was scored and
        stored (``None``: no deal yet), without replaying the deals before it; ``options``
        and ``first_dealer`` as for a new sheet. Its ``deals`` lists only the deals added
        to it; ``played`` counts them all."""
        sheet = cls(game, players, **setup)
        if last is not None:
            sheet._carry_on(last)
        return sheet

    def _carry_on(self, deal: ScoredDeal) -> None:
        self.played = deal.number
        self.totals = deal.totals
        self.finished = self.game.is_finished(self.table, self.played, deal)
        if self.finished:
            self._next = None
        else:
            self._next = self._context(deal.number + 1, self.game.next_dealer(self.table, deal))

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def players(self) -> tuple[str, ...]:
        return self.table.players

    @property
    def options(self) -> Mapping[str, Any]:
        return self.table.options

    @property
    def next_deal(self) -> DealContext | None:
        """Context of the next deal, or ``None`` once the game is finished."""
        return self._next

    @property
    def winners(self) -> tuple[int, ...]:
        """Winning seats; empty while the game is not finished."""
        if not self.finished:
            return ()
        return self.game.winners(self.table, self.totals)

    @property
    def scheduled_deals(self) -> int | None:
        return self.game.scheduled_deals(self.table)

    def upcoming(self, count: int) -> list[DealContext]:
        """The contexts of up to ``count`` next deals that are known before any of them is
        played: the dealer passes on as it does after any deal, and a game of a fixed number
        of deals stops there. Only the next one when who deals next follows the scores."""
        context = self._next
        contexts: list[DealContext] = []
        scheduled = self.scheduled_deals
        rotation = ScoredDeal(0, 0, {}, (0,) * self.table.size, self.totals, {})
        while context is not None and len(contexts) < count:
            contexts.append(context)
            if self.game.dealer_follows_scores:
                break
            number = context.number + 1
            if scheduled is not None and number > scheduled:
                break
            dealer = self.game.next_dealer(self.table, rotation._replace(dealer=context.dealer))
            context = self._context(number, dealer)
        return contexts

    def _context(self, number: int, dealer: int) -> DealContext:
        return DealContext(number, dealer, self.game.deal_info(self.table, number))

    def preview(self, raw: object) -> ScoredDeal:
        """Score ``raw`` as the next deal without adding it."""
        index = self.played
        context = self._next
        if context is None:
            raise RuleError(
                f"the game finished after deal {index}; no more deals can be recorded",
                field="deals",
                deal=index,
            )
        try:
            if type(raw) is not dict:
                raw = mapping(raw, "deal", "a deal record")
            if "number" in raw:
                number = raw["number"]
                if isinstance(number, bool) or number != context.number:
                    raise RuleError(
                        f"this is deal {context.number}; the record says {type_name(number)}",
                        field="number",
                    )
                raw = {key: value for key, value in raw.items() if key != "number"}
            outcome = self.game.score(self.table, context, raw)
        except RuleError as error:
            raise error.at_deal(index) from None
        totals = tuple(map(operator.add, self.totals, outcome.scores))
        # (number, dealer, record, scores, totals, context), positional: made for every deal
        return ScoredDeal(
            context.number,
            context.dealer,
            outcome.record,
            outcome.scores,
            totals,
            {**context.info, **outcome.info},
        )

    def add(self, raw: object) -> ScoredDeal:
        """Validate, score and add the next deal."""
        deal = self.preview(raw)
        self.deals.append(deal)
        self._carry_on(deal)
        return deal

    def extend(self, raws: Iterable[object]) -> None:
        """Add many deals (a whole record, or a season's rescore)."""
        with cyclic_gc_paused():
            for raw in raws:
                self.add(raw)

    def as_dict(self) -> dict[str, Any]:
        """The scoresheet in the shape the command line prints."""
        return {
            "game": self.game.key,
            "players": list(self.players),
            "first_dealer": self.table.first_dealer,
            "options": self.game.options_json(self.options),
            "deals": [deal.as_dict() for deal in self.deals],
            "totals": list(self.totals),
            "finished": self.finished,
            "winners": list(self.winners),
            "next_deal": self._next.as_dict() if self._next is not None else None,
        }
