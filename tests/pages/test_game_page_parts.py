"""The game page's parts kept between requests (scorekeeper/pages/game_parts.py): a fixed
number of statements however long the game, every change shown at once on the next
request, and nothing of one person (CSRF token, idempotency key, permissions) served to
another."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Game, Role
from scorekeeper.pages import game_parts
from tests.factories import PlayerFactory, member
from tests.pages.helpers import World, text_of
from tests.pages.test_game_pages import HTMX, guest_client, inputs_of, post_deal

pytestmark = pytest.mark.django_db

DEALS = (
    {"widow": None, "tricks": [5, 4, 4]},
    {"widow": 1, "tricks": [3, 6, 4]},
    {"widow": 2, "tricks": [4, 4, 5]},
)


def page(client: Client, game: Game, **extra: Any) -> Any:
    response = client.get(reverse("game", args=[game.pk]), **extra)
    assert response.status_code == 200
    return response


def statements(client: Client, game: Game) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        page(client, game)
    return [query["sql"] for query in queries.captured_queries]


def test_the_page_runs_a_fixed_number_of_statements_however_long_the_game(
    world: World,
) -> None:
    short = world.record(world.start("widow_whist"), *DEALS[:1])
    long = world.record(world.start("widow_whist"), *(DEALS * 14))
    client = world.client(world.scorer)
    for game in (short, long):
        first = statements(client, game)  # rendered, and kept
        again = statements(client, game)
        # The session, the user, the game (with the caller's role and its players):
        # nothing of its deals, nor the cache's table (the parts are kept in the process).
        assert len(again) == 3, again
        assert not any("scorekeeper_deal" in sql for sql in again)
        assert len(first) <= 12, first
    assert len(statements(client, short)) == len(statements(client, long))


def test_a_page_from_another_process_reads_the_cache_once(world: World) -> None:
    game = world.record(world.start("widow_whist"), *DEALS)
    client = world.client(world.scorer)
    html = page(client, game).content.decode()
    game_parts._recent.items.clear()  # as another process would be
    with CaptureQueriesContext(connection) as queries:
        again = page(client, game).content.decode()
    assert not any("scorekeeper_deal" in q["sql"] for q in queries.captured_queries)
    # The same page but for the CSRF tokens and the idempotency key.
    strip = re.compile(r'value="[^"]*"|"X-CSRFToken": "[^"]*"')
    assert strip.sub("", again) == strip.sub("", html)


def test_each_change_shows_at_once_on_the_next_request(world: World) -> None:
    admin = member(world.club, Role.ADMIN, username="admin")
    game = world.record(world.start("widow_whist"), *DEALS[:2])
    client = world.client(world.scorer)

    def shows(change: Callable[[], object], *texts: str, gone: str = "") -> None:
        page(client, game)  # kept as it was
        change()
        game.refresh_from_db()
        text = text_of(page(client, game))
        for expected in texts:
            assert expected in text
        if gone:
            assert gone not in text

    before = text_of(page(client, game))
    assert "Deal 3 ·" in before
    shows(
        lambda: post_deal(client, game, {"widow": "2", "tricks-0": "4", "tricks-1": "4"}),
        "Deal 4 ·",
        "Deal 3 saved.",
        gone="Deal 3 · Cy deals",
    )
    shows(
        lambda: services.deal_correct(
            actor=world.scorer,
            game=game,
            number=1,
            record={"widow": 0, "tricks": [6, 3, 4]},
            reason="miscounted",
        ),
        "After deal 3:",
    )
    shows(lambda: services.deal_undo(actor=world.scorer, game=game), "Deal 3 ·")
    ann = world.players[0]
    shows(
        lambda: services.player_update(actor=admin, player=ann, name="Annabel"),
        "Annabel",
    )
    stand_in = PlayerFactory(club=world.club, name="Zed Stand-in")
    shows(
        lambda: services.player_merge(actor=admin, player=world.players[1], into=stand_in),
        "Zed Stand-in",
        gone="Bob",
    )
    shows(
        lambda: services.game_lock(actor=world.scorer, game=game, reason="checked"),
        "Locked: checked.",
    )
    assert reverse("deal-save", args=[game.pk]) not in page(client, game).content.decode()
    shows(lambda: services.game_unlock(actor=admin, game=game), gone="Locked")
    shows(lambda: services.game_finish(actor=world.scorer, game=game), "Final scores")
    world.players[1] = stand_in
    other = world.record(world.start("widow_whist"), *DEALS[:1])
    page(client, other)
    services.game_abandon(actor=world.scorer, game=other)
    text = text_of(page(client, other))
    assert "abandoned" in text
    assert reverse("deal-save", args=[other.pk]) not in page(client, other).content.decode()


def test_each_request_gets_its_own_csrf_token_and_idempotency_key(world: World) -> None:
    game = world.record(world.start("widow_whist"), *DEALS[:1])
    scorer = world.client(world.scorer)
    first, second = page(scorer, game), page(scorer, game)
    assert inputs_of(first).values["idempotency_key"] != inputs_of(second).values["idempotency_key"]
    guest = guest_client(game, world.scorer, name="Cy")
    guest.get(reverse("game", args=[game.pk]))  # sets its CSRF cookie
    theirs = page(guest, game)
    mine = inputs_of(first).values["csrfmiddlewaretoken"]
    their_token = inputs_of(theirs).values["csrfmiddlewaretoken"]
    assert mine and their_token and "csrf-token" not in mine + their_token
    # Each form's token is good for its own browser (CSRF checks on in this client).
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = guest.cookies
    forms = re.findall(
        r'<template class="upcoming">(.*?)</template>', theirs.content.decode(), re.S
    )
    assert len(forms) == 4
    for form in forms:
        assert f'name="csrfmiddlewaretoken" value="{their_token}"' in form
    response = strict.post(
        reverse("deal-save", args=[game.pk]),
        {
            "csrfmiddlewaretoken": their_token,
            "number": "2",
            "idempotency_key": inputs_of(theirs).values["idempotency_key"],
            "widow": "1",
            "tricks-0": "3",
            "tricks-1": "6",
        },
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.deal_count == 2


def test_permissions_are_not_shared_through_the_kept_parts(world: World) -> None:
    game = world.record(world.start("widow_whist"), *DEALS[:1])
    save = reverse("deal-save", args=[game.pk])
    assert save in page(world.client(world.scorer), game).content.decode()
    looker = page(world.client(world.member), game)
    assert save not in looker.content.decode()
    assert 'id="offline-data"' not in looker.content.decode()
    assert (
        "Only the club’s scorers, this game’s players and whoever started it enter its deals."
        in text_of(looker)
    )
    # And the other way round: kept for a looker first, then a scorer.
    other = world.record(world.start("widow_whist"), *DEALS[:1])
    page(world.client(world.member), other)
    scorer = page(world.client(world.scorer), other).content.decode()
    assert reverse("deal-save", args=[other.pk]) in scorer and 'id="offline-data"' in scorer
    # Guests at the table, each by their own name; a message waiting is shown once.
    for name in ("Bob", "Cy"):
        assert f"Entering as {name} (table link)." in text_of(
            page(guest_client(other, world.scorer, name=name), other)
        )
    client = world.client(world.scorer)
    saved = post_deal(client, other, {"widow": "1", "tricks-0": "3", "tricks-1": "6"})
    assert "Deal 2 saved." in text_of(client.get(saved["Location"]))
    assert "Deal 2 saved." not in text_of(page(client, other))


def test_the_section_for_htmx_uses_the_same_parts(world: World) -> None:
    game = world.record(world.start("widow_whist"), *DEALS[:2])
    client = world.client(world.scorer)
    full = page(client, game).content.decode()
    section = page(client, game, **HTMX).content.decode()
    assert section.lstrip().startswith('<section id="game"')
    assert "<html" not in section and "Scoresheet" in section and "Scoresheet" in full


def test_the_page_is_served_when_the_cache_is_away(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = world.record(world.start("widow_whist"), *DEALS[:2])

    class Away:
        def get(self, *args: object, **kwargs: object) -> None:
            raise ConnectionError("the cache is away")

        def set(self, *args: object, **kwargs: object) -> None:
            raise ConnectionError("the cache is away")

    monkeypatch.setattr(game_parts, "cache", Away())
    game_parts._recent.items.clear()
    response = page(world.client(world.scorer), game)
    assert "Deal 3 ·" in text_of(response)
    assert "After deal 2:" in text_of(response)
