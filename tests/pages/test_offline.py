"""The game page offline, on the server's side: the service worker and the manifest, the
data a page carries for entering deals with no connection, and how a save says it ended."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper import services
from scorekeeper.models import Game
from tests.pages.helpers import World
from tests.pages.test_game_pages import HTMX, guest_client

pytestmark = pytest.mark.django_db


def offline_data(html: str) -> dict[str, Any]:
    match = re.search(r'<script id="offline-data" type="application/json">(.*?)</script>', html)
    assert match, "the page carries no offline data"
    return json.loads(match.group(1))


def save(client: Client, game: Game, number: int, **values: str) -> Any:
    data = {"number": str(number), "idempotency_key": str(uuid.uuid4()), **values}
    return client.post(reverse("deal-save", args=[game.pk]), data, **HTMX)


def test_the_service_worker_is_served_from_the_root_with_the_files_to_keep(
    client: Client,
) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    config = json.loads(re.search(r"self\.SCOREKEEPER = (\{.*\});", body).group(1))
    kept = " ".join(config["assets"])
    # Static files by their hashed names (a new release, a new worker).
    assert re.search(r"/static/js/offline\.\w+\.js", kept)
    assert re.search(r"/static/css/game\.\w+\.css", kept)
    assert re.search(
        r'importScripts\("/static/js/queue\.\w+\.js", "/static/js/service-worker\.\w+\.js"\)', body
    )


def test_a_game_has_a_manifest_needing_no_sign_in(world: World, client: Client) -> None:
    game = world.start("widow_whist", 3)
    response = client.get(reverse("game-manifest", args=[game.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["start_url"] == f"/g/{game.pk}/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#1f5f3f"
    assert [icon["sizes"] for icon in manifest["icons"]] == ["192x192", "512x512"]
    page = world.client(world.scorer).get(reverse("game", args=[game.pk])).content.decode()
    assert f'<link rel="manifest" href="/g/{game.pk}/manifest.webmanifest">' in page


def test_the_page_carries_the_engines_checks_and_the_forms_of_the_deals_ahead(
    world: World,
) -> None:
    game = world.start("prediction_whist", 3)
    html = world.client(world.scorer).get(reverse("game", args=[game.pk])).content.decode()
    data = offline_data(html)
    assert data["game"] == game.pk and data["totals"] == [0, 0, 0]
    assert data["save"] == f"/g/{game.pk}/deal/"
    assert data["by_key"] == f"/g/{game.pk}/deals/by-key/KEY/"
    deals = data["deals"]
    assert [deal["number"] for deal in deals] == list(range(1, 6))
    first = deals[0]
    assert first["header"] == "Deal 1 of 21 · Ann deals · 1 card · trumps turned"
    assert [check["check"] for check in first["checks"]] == ["range", "range", "not_sum", "sum"]
    assert first["score"]["table"] == [[5, -1], [-1, 6]]
    assert first["missing"]["bids-1"] == "Tap Bob’s bid."
    # The next deal's form is the page's own; the four after it come as templates.
    assert html.count('<template class="upcoming">') == 4
    assert 'id="entry-2"' in html and 'id="entry-5"' in html and 'id="entry-6"' not in html
    assert 'data-live="/g/' in html and "js/offline." in html


def test_a_table_guest_gets_it_too_and_a_looker_on_does_not(world: World) -> None:
    game = world.start("widow_whist", 3)
    guest = guest_client(game, world.scorer)
    assert offline_data(guest.get(reverse("game", args=[game.pk])).content.decode())["deals"]
    looker = world.client(world.member).get(reverse("game", args=[game.pk])).content.decode()
    assert 'id="offline-data"' not in looker and "js/offline." not in looker


def test_third_hand_says_nothing_of_the_deals_after_the_next(world: World) -> None:
    game = world.start("third_hand", 2)
    html = world.client(world.scorer).get(reverse("game", args=[game.pk])).content.decode()
    deals = offline_data(html)["deals"]
    assert [deal["number"] for deal in deals] == [1]
    assert deals[0]["score"] is None
    assert deals[0]["instead"] == {"points-0": "cap-", "points-1": "cap-"}
    assert '<template class="upcoming">' not in html


def test_a_save_says_how_it_ended(world: World) -> None:
    game = world.start("widow_whist", 3)
    client = world.client(world.scorer)
    tricks = {"widow": "none", "tricks-0": "5", "tricks-1": "4", "tricks-2": "4"}
    saved = save(client, game, 1, **tricks)
    assert saved["Deal-Outcome"] == "saved"
    refused = save(client, game, 2, widow="none", **{"tricks-0": "5"})
    assert refused["Deal-Outcome"] == "refused"
    assert "Tap Bob’s tricks." in refused.content.decode()
    services.deal_record(
        actor=world.scorer, game=game, number=2, record={"widow": None, "tricks": [4, 4, 5]}
    )
    collision = save(client, game, 2, **tricks)
    assert collision["Deal-Outcome"] == "collision"
    assert "Deal 2 is already recorded" in collision.content.decode()
    services.game_finish(actor=world.scorer, game=game)
    after_the_end = save(client, game, 3, **tricks)
    assert after_the_end["Deal-Outcome"] == "not-saved"
