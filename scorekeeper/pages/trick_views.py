"""The rules assistant on the game page: tap a trick's cards in playing order, and see
who won it and why (:mod:`rules_engine.tricks`).

The page is a GET form whose address holds the whole trick (the cards so far, the deal's
context, who led): a tap adds a card, the browser's Back button takes it back, and it
works the same with JavaScript off; htmx only swaps the panel in place. Nothing is stored.
What a game asks (trumps, a high rank, which hand) comes from its page module."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render

import rules_engine
from rules_engine.tricks import RANK_WORDS, Verdict

from .. import scoring, selectors
from ..errors import InvalidInput
from .actors import game_and_actor
from .games import page_for
from .games.base import TrickField

SUITS = {"S": ("♠", "spades"), "H": ("♥", "hearts"), "D": ("♦", "diamonds"), "C": ("♣", "clubs")}
JOKER_WORDS = {"RJ": "red joker", "BJ": "black joker"}
MAX_QUERY_CARDS = 6


@dataclass
class CardButton:
    card: str
    label: str
    aria_label: str
    red: bool
    played: bool


@dataclass
class Played:
    """A place in the trick: whose turn it is, and the card they played (or "")."""

    name: str
    card: str
    label: str
    red: bool


@dataclass
class TrickForm:
    names: list[str]
    fields: list[TrickField]
    leader: int
    cards: list[str]
    grid: list[tuple[str, list[CardButton]]]
    played: list[Played]
    context: dict[str, Any]
    error: str = ""
    error_field: str = ""
    verdict: Verdict | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def full(self) -> bool:
        return len(self.cards) == len(self.names)

    def engine_request(self, game_type: str, options: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "game": game_type,
            "cards": self.cards,
            "leader": self.leader,
            "players": self.names,
            "options": dict(options),
            **self.context,
        }


def card_label(card: str) -> tuple[str, str, bool]:
    """(label, words for a screen reader, red?) of a card as the engine writes it."""
    if card in JOKER_WORDS:
        return ("🃏R" if card == "RJ" else "🃏B"), JOKER_WORDS[card], card == "RJ"
    rank, suit = card[:-1], card[-1]
    symbol, suit_words = SUITS[suit]
    return f"{rank}{symbol}", f"{RANK_WORDS[rank]} of {suit_words}", suit in "HD"


def _grid(pack: Sequence[str], played: Sequence[str]) -> list[tuple[str, list[CardButton]]]:
    rows: dict[str, list[CardButton]] = {}
    for card in pack:
        title = "Jokers" if card in JOKER_WORDS else SUITS[card[-1]][1].capitalize()
        label, aria, red = card_label(card)
        rows.setdefault(title, []).append(CardButton(card, label, aria, red, card in played))
    return list(rows.items())


def _seat(query: QueryDict, name: str, players: int, default: int) -> int:
    raw = query.get(name, "")
    return int(raw) if raw.isdigit() and int(raw) < players else default


def read_trick(
    game_type: str, names: list[str], deal: Mapping[str, Any], query: QueryDict
) -> TrickForm:
    """The trick as the address says, with the tapped card added or the last taken back."""
    page = page_for(game_type)
    pack = rules_engine.GAMES[game_type].trick_pack(len(names))
    fields = page.trick_fields(deal, query)
    for trick_field in fields:  # a value not offered (an edited address) counts as unset
        if trick_field.value not in dict(trick_field.choices):
            trick_field.value = ""
    leader = _seat(query, "leader", len(names), page.trick_leader(deal, fields, len(names)))
    given = [card for card in query.get("cards", "").split(",") if card][:MAX_QUERY_CARDS]
    error = ""
    unknown = [card for card in given if card not in pack]
    twice = [card for card in given if card in pack and given.count(card) > 1]
    if unknown:
        error = (
            f"The trick cannot be read: {unknown[0][:6]!r} is not a card of this game; start again."
        )
    elif twice:
        error = f"The trick cannot be read: {card_label(twice[0])[0]} is played twice; start again."
    elif len(given) > len(names):
        error = f"The trick cannot be read: a trick has {len(names)} cards; start again."
    if error:
        given = []
    cards = list(given)
    if "back" in query and cards:
        cards.pop()
    added = query.get("add", "")
    if added in pack and added not in cards and len(cards) < len(names):
        cards.append(added)
    played = []
    for position in range(len(names)):
        name = names[(leader + position) % len(names)]
        if position < len(cards):
            label, _, red = card_label(cards[position])
            played.append(Played(name, cards[position], label, red))
        else:
            played.append(Played(name, "", "", False))
    return TrickForm(
        names=names,
        fields=fields,
        leader=leader,
        cards=cards,
        grid=_grid(pack, cards),
        played=played,
        context=page.trick_context(deal, fields),
        error=error,
        notes=page.header(deal, names, {}),
    )


def trick_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game, _actor = game_and_actor(request, game_id)
    payload = selectors.game_payload(game, deals_limit=1, deals_after=max(game.deal_count - 1, 0))
    names = [seat["name"] for seat in payload["seats"]]
    deal = payload["next_deal"] or (payload["deals"][-1] if payload["deals"] else {})
    deal = {"number": 1, "dealer": game.first_dealer, **deal}
    form = read_trick(game.game_type, names, deal, request.GET)
    status = 400 if form.error else 200
    if form.full and not form.error:
        try:
            form.verdict = scoring.judge_trick(form.engine_request(game.game_type, game.options))
        except InvalidInput as refusal:
            form.error = refusal.message[:1].upper() + refusal.message[1:] + "."
            form.error_field = refusal.field or ""
            status = 422
    return render(
        request,
        "pages/game/trick.html",
        {
            "game": game,
            "game_name": rules_engine.GAMES[game.game_type].name,
            "deal": deal,
            "form": form,
            "winner": None
            if form.verdict is None or form.verdict.winner is None
            else names[form.verdict.winner],
        },
        status=status,
    )
