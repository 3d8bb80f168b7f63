"""The rules assistant's entry point: a trick of a game, read and judged. (By the game's
key, and as one JSON object, in :mod:`rules_engine.registry`, which knows the games.)"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypedDict

from rules_engine.errors import RuleError
from rules_engine.options import Option, parse_options
from rules_engine.tricks.follow import held_cards
from rules_engine.tricks.judge import judge
from rules_engine.tricks.plays import Play, TrickRules, card_words, parse_play
from rules_engine.tricks.verdict import Verdict
from rules_engine.validate import type_name, whole


class TrickGame(Protocol):
    """What judging a trick asks of a game (:class:`rules_engine.core.Game` has it all)."""

    @property
    def key(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def player_counts(self) -> tuple[int, ...]: ...

    @property
    def options(self) -> tuple[Option[Any], ...]: ...

    def player_count_text(self) -> str: ...

    def trick_rules(
        self, options: Mapping[str, Any], context: Mapping[str, object], players: int
    ) -> TrickRules: ...


#: The keys of a trick as the command line and the API take it, beside the game's context.
TRICK_KEYS = frozenset(("game", "cards", "leader", "players", "held", "options"))


class TrickDetails(TypedDict, total=False):
    """The keywords of :func:`judge_trick` beside the game, its context and the cards."""

    leader: object
    players: object
    held: object
    options: object


def _names(value: object, count: int) -> tuple[str, ...]:
    if value is None or isinstance(value, int) and not isinstance(value, bool):
        return tuple(f"seat {seat}" for seat in range(count))
    if not isinstance(value, list | tuple) or not all(
        isinstance(name, str) and name.strip() for name in value
    ):
        raise RuleError(
            "players is the number of players or their names in seat order; "
            f"got {type_name(value)}",
            field="players",
        )
    return tuple(name.strip() for name in value)


def _count(value: object, cards: int, game: TrickGame) -> int:
    if value is None:
        count = cards
        if count not in game.player_counts:
            raise RuleError(
                f"a trick of {game.name} has one card from each of its "
                f"{game.player_count_text()}; got {cards} card{'s' if cards != 1 else ''}",
                field="cards",
            )
    elif isinstance(value, list | tuple):
        count = len(value)
    else:
        count = whole(value, "players", 2, 6, "the number of players")
    if count not in game.player_counts:
        raise RuleError(
            f"{game.name} is played by {game.player_count_text()}; this trick is for {count}",
            field="players",
        )
    if cards != count:
        raise RuleError(
            f"a trick of {game.name} has one card from each of the {count} players; "
            f"got {cards} card{'s' if cards != 1 else ''}",
            field="cards",
        )
    return count


def judge_trick(
    game: TrickGame,
    context: Mapping[str, object],
    cards: object,
    *,
    leader: object = 0,
    players: object = None,
    held: object = None,
    options: object = None,
) -> Verdict:
    """Judge one trick of ``game``: ``cards`` in the order played, the first led by seat
    ``leader``; ``context`` is the deal's context as the game reads it (its trumps, Third
    Hand's ``high_rank``, Italian whist's ``half``); ``held`` optionally lists what each
    seat held when it played, to check that it followed suit.

    Raises :class:`RuleError` naming the field for anything that cannot be judged.
    """
    if not isinstance(cards, list | tuple) or not cards:
        raise RuleError(
            f'cards lists the cards of the trick in the order played, like ["QH", "KH", "2C"]; '
            f"got {type_name(cards)}",
            field="cards",
        )
    count = _count(players, len(cards), game)
    names = _names(players, count)
    first = whole(leader, "leader", 0, count - 1, "leader (the seat that led)")
    table_options = parse_options(game.options, options, game.name)
    rules = game.trick_rules(table_options, context, count)
    plays: list[Play] = []
    notes: list[str] = []
    for i, raw in enumerate(cards):
        play, note = parse_play(raw, f"cards[{i}]", rules)
        if play in plays:
            raise RuleError(
                f"{card_words(play)} is played twice; a pack has one of each card",
                field=f"cards[{i}]",
            )
        plays.append(play)
        if note:
            notes.append(note)
    seats = [(first + i) % count for i in range(count)]
    hands = held_cards(held, plays, seats, rules, names)
    return judge(
        rules, plays, leader=first, names=names, game_key=game.key, held=hands, notes=notes
    )
