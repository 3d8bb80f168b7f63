"""What keeps every phone current: the game's version (a conditional GET answered by 304
while nothing changed), the lookup of a save by its idempotency key, the collision view,
and pages that the browser never shows from its cache."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper import selectors, services
from scorekeeper.models import Deal, Game
from tests.pages.helpers import World, text_of
from tests.pages.test_game_pages import HTMX, guest_client

pytestmark = pytest.mark.django_db

DEAL_1 = {"widow": None, "tricks": [5, 4, 4]}


def version(client: Client, game: Game, etag: str = "") -> Any:
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(reverse("game-version", args=[game.pk]), **headers)


def test_the_version_is_a_304_while_unchanged_and_200_when_anything_moves(
    world: World,
) -> None:
    game = world.start("prediction_whist", 3)
    client = world.client(world.member)  # a member who only looks
    first = version(client, game)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('W/"g') and first.json() == {"version": etag}
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    same = version(client, game, etag)
    assert same.status_code == 304 and same.content == b"" and same["ETag"] == etag
    # Every change a phone should see moves the version on.
    changes = [
        lambda: services.deal_draft_save(
            actor=world.scorer, game=game, number=1, data={"bids": [1, None, None]}
        ),
        lambda: services.deal_record(
            actor=world.scorer, game=game, number=1, record={"bids": [1, 0, 1], "tricks": [1, 0, 0]}
        ),
        lambda: services.deal_correct(
            actor=world.scorer,
            game=game,
            number=1,
            record={"bids": [0, 0, 0], "tricks": [1, 0, 0]},
            reason="bids misheard",
        ),
        lambda: services.game_lock(actor=world.scorer, game=game, reason="the result is checked"),
        lambda: services.game_unlock(actor=world.scorer, game=game),
        lambda: services.deal_undo(actor=world.scorer, game=game),
    ]
    seen = {etag}
    for change in changes:
        change()
        game.refresh_from_db()
        moved = version(client, game, etag)
        assert moved.status_code == 200 and moved["ETag"] not in seen
        etag = moved["ETag"]
        seen.add(etag)
        assert version(client, game, etag).status_code == 304


def test_the_304_costs_one_query_on_the_game(world: World) -> None:
    game = world.start("widow_whist")
    client = world.client(world.scorer)
    etag = version(client, game)["ETag"]
    with CaptureQueriesContext(connection) as queries:
        assert version(client, game, etag).status_code == 304
    on_games = [q["sql"] for q in queries.captured_queries if "scorekeeper_game" in q["sql"]]
    assert len(on_games) == 1
    # Besides it: the session and the signed-in user, nothing else.
    assert len(queries.captured_queries) <= 3


def test_the_page_carries_the_version_it_was_rendered_at(world: World) -> None:
    game = world.start("widow_whist")
    client = world.client(world.scorer)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    etag = version(client, game)["ETag"]
    quoted = etag.replace('"', "&quot;")
    assert f'data-etag="{quoted}"' in page
    assert f'data-live="/g/{game.pk}/version/"' in page


def test_who_may_not_see_the_game_gets_404_from_its_version(world: World) -> None:
    game = world.start("widow_whist")
    assert version(Client(), game).status_code == 404
    assert version(world.client(world.outsider), game).status_code == 404
    assert version(world.client(world.scorer), Game(pk=game.pk + 1000)).status_code == 404
    guest = guest_client(game, world.scorer)
    answer = version(guest, game)
    assert answer.status_code == 200
    assert version(guest, game, answer["ETag"]).status_code == 304
    services.table_link_revoke(actor=world.scorer, game=game)
    assert version(guest, game).status_code == 404
    assert version(guest, game, answer["ETag"]).status_code == 404


def test_game_and_club_pages_are_never_served_from_the_browsers_cache(world: World) -> None:
    game = world.start("widow_whist")
    services.deal_record(actor=world.scorer, game=game, number=1, record=DEAL_1)
    client = world.client(world.scorer)
    for name, args in (
        ("game", [game.pk]),
        ("deal", [game.pk, 1]),
        ("club", [world.club.slug]),
        ("game-new", [world.club.slug]),
        ("player", [world.players[0].pk]),
        ("table-link", [game.pk]),
    ):
        response = client.get(reverse(name, args=args))
        assert response.status_code == 200, name
        control = response["Cache-Control"]
        assert "no-store" in control and "no-cache" in control and "private" in control, name
    # So is the section swapped in by htmx.
    section = client.get(reverse("game", args=[game.pk]), **HTMX)
    assert "no-store" in section["Cache-Control"]


def test_a_save_is_found_by_its_idempotency_key(world: World) -> None:
    game = world.start("widow_whist")
    client = world.client(world.scorer)
    key = str(uuid.uuid4())
    services.deal_record(
        actor=world.scorer, game=game, number=1, record=DEAL_1, idempotency_key=key
    )
    found = client.get(reverse("deal-by-key", args=[game.pk, key]))
    assert found.status_code == 200 and found["Cache-Control"].startswith("no-store")
    assert found.json()["deal"]["number"] == 1
    assert found.json()["deal"]["record"] == DEAL_1
    assert selectors.deal_by_idempotency_key(game, key) == found.json()["deal"]
    # A key that recorded nothing (the save never arrived): 404, so the page says "Not saved".
    assert client.get(reverse("deal-by-key", args=[game.pk, "never-sent"])).status_code == 404
    # Someone else's game: 404 whatever the key.
    outsider = world.client(world.outsider)
    assert outsider.get(reverse("deal-by-key", args=[game.pk, key])).status_code == 404
    # A table-link guest asks too; after a revoke, 404.
    guest = guest_client(game, world.scorer)
    assert guest.get(reverse("deal-by-key", args=[game.pk, key])).status_code == 200
    services.table_link_revoke(actor=world.scorer, game=game)
    assert guest.get(reverse("deal-by-key", args=[game.pk, key])).status_code == 404


def test_a_save_through_the_page_is_found_by_its_key(world: World) -> None:
    game = world.start("widow_whist")
    client = world.client(world.scorer)
    key = str(uuid.uuid4())
    data = {"number": "1", "idempotency_key": key, "widow": "none"}
    data |= {"tricks-0": "5", "tricks-1": "4"}
    assert client.post(reverse("deal-save", args=[game.pk]), data).status_code == 302
    found = client.get(reverse("deal-by-key", args=[game.pk, key]))
    assert found.status_code == 200 and found.json()["deal"]["entered_by"] == "scorer"


def test_the_collision_view_shows_the_recorded_deal_beside_the_entry_and_writes_nothing(
    world: World,
) -> None:
    game = world.start("widow_whist")
    world.players[1].user = world.scorer
    world.players[1].save()
    services.deal_record(actor=world.scorer, game=game, number=1, record=DEAL_1)
    guest = guest_client(game, world.scorer, name="Cy")
    url = reverse("deal-collision", args=[game.pk])
    entry = {"number": "1", "idempotency_key": "k", "widow": "1", "tricks-0": "3"}
    response = guest.post(url, {**entry, "tricks-1": "6"}, **HTMX)
    page = text_of(response)
    assert response.status_code == 200
    # Who recorded it by their roster name (the scorer's account is Bob's).
    assert "Deal 1 is already recorded, by Bob" in page
    assert "Ann +2 2 Bob +1 1 Cy +1 1" in page
    assert "Your entry: Widow: Bob · Tricks: Ann 3, Bob 6, Cy 4" in page
    html = response.content.decode()
    assert 'name="tricks-0" value="3"' in html and 'name="widow" value="1"' in html
    assert f'action="/g/{game.pk}/d/1/"' in html
    assert Deal.objects.get(game=game).record == DEAL_1
    # The correction it offers, posted: deal 1 now is this phone's entry.
    form = {
        "version": "1",
        "reason": "Entered on two phones at once; Cy (table link)'s entry kept",
        "widow": "1",
        "tricks-0": "3",
        "tricks-1": "6",
    }
    reason = form["reason"].replace("'", "&#x27;")
    assert f'name="reason" value="{reason}"' in html
    assert guest.post(reverse("deal", args=[game.pk, 1]), form).status_code == 302
    assert Deal.objects.get(game=game).record == {"widow": 1, "tricks": [3, 6, 4]}
    # This phone's own save, recorded (its answer lost): saved, not a collision.
    mine = str(uuid.uuid4())
    services.deal_record(
        actor=world.scorer, game=game, number=2, record=DEAL_1, idempotency_key=mine
    )
    own = guest.post(url, {"number": "2", "idempotency_key": mine, "widow": "none"}, **HTMX)
    assert "Deal 2 saved." in text_of(own) and "already recorded" not in text_of(own)
    # The next deal, asked about: just the section, no collision.
    nxt = guest.post(url, {"number": "3", "widow": "none"}, **HTMX)
    assert "already recorded" not in text_of(nxt) and "Save deal 3" in text_of(nxt)
