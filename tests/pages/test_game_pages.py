"""The game page and everything entered on it: Django test client; data made through the
services. Forms are posted as a browser without JavaScript would post them, and again
as htmx does (the ``HX-Request`` header), which gets the game section back in place.
One file for the one page, section by section as the page reads."""

from __future__ import annotations

import re
import uuid
from html import unescape
from html.parser import HTMLParser
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper import selectors, services
from scorekeeper.models import Deal, DealRevision, Game, GameStatus, Role
from scorekeeper.pages.actors import remember_table_link
from scorekeeper.pages.game_sheet import record_summary, short_names
from scorekeeper.pages.game_views import PREVIEW_GAMES, PREVIEW_SESSION_KEY
from scorekeeper.pages.sharing import game_id_from_token, share_token
from tests.factories import PlayerFactory, member
from tests.pages.helpers import World, assert_every_input_labelled, text_of

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# Widow whist, no widow taken: Ann and Bob level after two deals.
TWO_DEALS = ({"widow": None, "tricks": [5, 4, 4]}, {"widow": None, "tricks": [4, 5, 4]})


def element_text(html: str, element_id: str) -> str:
    """The text inside the element with ``element_id`` (up to its first closing tag pair)."""
    match = re.search(rf'id="{re.escape(element_id)}"[^>]*>(.*?)</(fieldset|div|p)>', html, re.S)
    assert match, f"no element {element_id}"
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", match.group(1)).split()))


class _Inputs(HTMLParser):
    """Radio buttons and other inputs: name -> checked value / value; disabled ones."""

    def __init__(self) -> None:
        super().__init__()
        self.checked: dict[str, str] = {}
        self.values: dict[str, str] = {}
        self.disabled: set[tuple[str, str]] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag != "input":
            return
        name, value = str(a.get("name") or ""), str(a.get("value") or "")
        if a.get("type") == "radio":
            if "checked" in a:
                self.checked[name] = value
            if "disabled" in a:
                self.disabled.add((name, value))
        else:
            self.values.setdefault(name, value)


def inputs_of(response: Any) -> _Inputs:
    parser = _Inputs()
    parser.feed(response.content.decode())
    return parser


def form_of(response: Any) -> dict[str, str]:
    """The hidden fields of the entry form as rendered: number and idempotency key."""
    values = inputs_of(response).values
    return {"number": values["number"], "idempotency_key": values["idempotency_key"]}


def post_deal(
    client: Client, game: Game, data: dict[str, str], *, key: str | None = None, **extra: Any
) -> Any:
    game.refresh_from_db()
    body = {"number": str(game.deal_count + 1), "idempotency_key": key or str(uuid.uuid4())}
    return client.post(reverse("deal-save", args=[game.pk]), {**body, **data}, **extra)


def game_page(client: Client, game: Game) -> Any:
    """The game's page as ``client`` gets it, after checking it is shown (200)."""
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    return response


def text_with(response: Any, status: int) -> str:
    """The text of a page answered with ``status``, after checking the status."""
    assert response.status_code == status
    return text_of(response)


def guest_client(game: Game, actor: User, name: str = "Bob") -> Client:
    """A browser that came in through the game's table link (no account)."""
    link = services.table_link_create(actor=actor, game=game)
    client = Client()
    session = client.session
    remember_table_link(SimpleNamespace(session=session), game.pk, link.token, name)  # type: ignore[arg-type]
    session.save()
    return client


# --- Who sees the page --------------------------------------------------------------------


def test_the_page_renders_for_a_member_with_the_scoresheet_and_chart(world: World) -> None:
    game = world.record(
        world.start("widow_whist", options={"finish": {"deals": 6}}),
        {"widow": 1, "tricks": [3, 6, 4]},
        {"widow": None, "tricks": [5, 4, 4]},
    )
    response = world.client(world.scorer).get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    text = text_of(response)
    assert "Deal 3 of 6 · Cy deals · Targets 3 · 4 for the widow" in text
    html = response.content.decode()
    assert 'href="/static/css/game.css"' in html or "css/game." in html
    # Scoresheet: running totals bold, deal scores small; Bob leads with 3.
    assert re.search(r"<small>\+2</small><b>2</b>", html)
    assert (
        '<th scope="col" class="leader">Bob<span class="star" aria-hidden="true">★</span>' in html
    )
    # The chart: inline SVG with a text alternative.
    assert '<svg viewBox="0 0 320 160" role="img"' in html
    assert "After deal 2: Ann 2, Bob 3, Cy 2." in text
    # Each deal links to its page; the table link page is offered to signed-in users.
    assert reverse("deal", args=[game.pk, 1]) in html
    assert reverse("table-link", args=[game.pk]) in html


def test_the_page_renders_for_a_table_guest_who_can_enter_deals(world: World) -> None:
    game = world.start("widow_whist")
    client = guest_client(game, world.scorer, name="Bob")
    response = game_page(client, game)
    assert "Entering as Bob (table link)." in text_of(response)
    assert reverse("table-link", args=[game.pk]) not in response.content.decode()
    response = post_deal(client, game, {"widow": "none", "tricks-0": "5", "tricks-1": "4"})
    assert response.status_code == 302
    deal = Deal.objects.get(game=game)
    assert deal.entered_by is None and deal.entered_by_name == "Bob (table link)"


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_non_members_get_404(world: World, who: str) -> None:
    game = world.start("widow_whist")
    client = world.client(None if who == "anonymous" else world.outsider)
    for url in (
        reverse("game", args=[game.pk]),
        reverse("deal", args=[game.pk, 1]),
    ):
        assert client.get(url).status_code == 404
    response = post_deal(client, game, {"widow": "none", "tricks-0": "5", "tricks-1": "4"})
    assert response.status_code == 404
    assert not Deal.objects.exists()


def test_a_member_who_does_not_score_sees_the_sheet_without_the_form(world: World) -> None:
    game = world.record(world.start("widow_whist"), {"widow": None, "tricks": [5, 4, 4]})
    client = world.client(world.member)
    response = game_page(client, game)
    assert (
        "Only the club’s scorers, this game’s players and whoever started it enter its deals."
        in text_of(response)
    )
    assert reverse("deal-save", args=[game.pk]) not in response.content.decode()
    # The sheet is the scorers' one (rendered once); what would tell this member to correct
    # a deal is hidden for them (static/css/game.css: no data-corrects on the game).
    html = response.content.decode()
    assert '<span class="or-correct"> or correct it</span>' in html
    assert " data-corrects" not in html
    assert " data-corrects" in game_page(world.client(world.scorer), game).content.decode()
    response = post_deal(client, game, {"widow": "none", "tricks-0": "5", "tricks-1": "4"})
    assert response.status_code == 302
    follow = client.get(response["Location"])
    assert (
        "Only the club's scorers, the game's players and whoever started it can record deals"
        in text_of(follow)
    )
    assert game.deals.count() == 1


# --- The header, per game -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_type", "seats", "options", "deals", "header"),
    [
        (
            "widow_whist",
            3,
            {"finish": {"deals": 3}},
            [],
            "Deal 1 of 3 · Ann deals · Targets 3 · 4 for the widow",
        ),
        ("widow_whist", 3, {}, [], "Deal 1 · Ann deals · Targets 3 · 4 for the widow"),
        ("italian_whist", 3, {}, [], "Deal 1 · Ann deals · No trumps · pass left"),
        (
            "italian_whist",
            3,
            {},
            [{"first": [3, 3, 3], "second": [3, 3, 3]}] * 4,
            "Deal 5 · Bob deals · Spades trumps · pass right",
        ),
        # The target is said once, above: "Third Hand · first past 500 wins".
        ("third_hand", 2, {}, [], "Deal 1 · Ann deals"),
        (  # both past the target, tied: the game goes on, and says why
            "third_hand",
            2,
            {"target": 100},
            [
                {"bids": [None, None], "points": [60, 70]},
                {"bids": [None, None], "points": [70, 60]},
            ],
            "Deal 3 · Ann deals · tied at 130: play on",
        ),
        ("prediction_whist", 3, {}, [], "Deal 1 of 21 · Ann deals · 1 card · trumps turned"),
        (
            "prediction_whist",
            4,
            {},
            [{"bids": [0, 0, 0, 0], "tricks": [1, 0, 0, 0]}] * 4
            + [{"bids": [0, 0, 0, 0], "tricks": [2, 0, 0, 0]}]
            + [{"bids": [0, 0, 0, 0], "tricks": [3, 0, 0, 0]}],
            "Deal 7 of 24 · Cy deals · 4 cards · trumps turned",
        ),
    ],
)
def test_the_header_says_whose_deal_it_is_and_what_it_is(
    world: World,
    game_type: str,
    seats: int,
    options: dict[str, Any],
    deals: list[dict[str, Any]],
    header: str,
) -> None:
    game = world.record(world.start(game_type, seats, options=options), *deals)
    response = world.client(world.scorer).get(reverse("game", args=[game.pk]))
    assert f'<h1 id="game-title" class="deal-head">{header}</h1>' in unescape(
        response.content.decode()
    )
    if game_type == "third_hand":
        target = options.get("target", 500)
        assert f"Third Hand · first past {target} wins" in text_of(response)


def test_prediction_whist_with_eight_cards_has_no_trumps(world: World) -> None:
    deals = [{"bids": [0, 0, 0], "tricks": [size, 0, 0]} for size in (1, 1, 1, 2, 3, 4, 5, 6, 7)]
    game = world.record(world.start("prediction_whist"), *deals)
    text = text_of(world.client(world.scorer).get(reverse("game", args=[game.pk])))
    assert "Deal 10 of 21 · Ann deals · 8 cards · no trumps" in text


# --- Entering deals -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_type", "seats", "data", "record"),
    [
        (
            "widow_whist",
            3,
            {"widow": "2", "tricks-0": "3", "tricks-1": "4", "tricks-2": "6"},
            {"widow": 2, "tricks": [3, 4, 6]},
        ),
        (
            "italian_whist",
            3,
            {"first-0": "4", "first-1": "3", "first-2": "2"}
            | {"second-0": "1", "second-1": "3", "second-2": "5"},
            {"first": [4, 3, 2], "second": [1, 3, 5]},
        ),
        (
            "third_hand",
            2,
            {
                "bids-1": "J",
                "bids-0": "Q",
                "trump": "H",
                "exchanged": "yes",
                "points-0": "90",
                "points-1": "40",
            },
            {"bids": ["Q", "J"], "points": [90, 40], "trump": "H", "exchanged": True},
        ),
        (
            "third_hand",
            2,
            {"bids-1": "none", "bids-0": "none", "points-0": "60", "points-1": "61"},
            {"bids": [None, None], "points": [60, 61]},
        ),
        (
            "prediction_whist",
            3,
            {
                "bids-1": "1",
                "bids-2": "1",
                "bids-0": "1",
                "tricks-0": "0",
                "tricks-1": "1",
                "tricks-2": "0",
            },
            {"bids": [1, 1, 1], "tricks": [0, 1, 0]},
        ),
    ],
)
def test_saving_a_deal_of_each_game(
    world: World, game_type: str, seats: int, data: dict[str, str], record: dict[str, Any]
) -> None:
    game = world.start(game_type, seats)
    client = world.client(world.scorer)
    response = post_deal(client, game, data)
    assert response.status_code == 302
    assert response["Location"] == reverse("game", args=[game.pk])
    deal = Deal.objects.get(game=game)
    assert deal.number == 1 and deal.record == record
    follow = client.get(response["Location"])
    assert "Deal 1 saved." in text_of(follow)
    assert "Deal 2" in text_of(follow)


def test_a_form_sent_with_values_no_tap_gives_names_each_of_them(world: World) -> None:
    """A form sent by other means than the page's taps (a script, an edited page): each
    bad value is named beside its field, and nothing is saved."""
    game = world.start("widow_whist")
    client = world.client(world.scorer)
    sent = {"widow": "7", "tricks-0": "abc", "tricks-1": "-1", "tricks-2": ""}
    page = text_with(post_deal(client, game, sent), 422)
    assert "Tap who took the widow, or Nobody: '7' is not a player's seat or none." in page
    assert "Tap Ann’s tricks: 'abc' is not a whole number from 0 to 13." in page
    assert "Tap Bob’s tricks: '-1' is not a whole number from 0 to 13." in page
    assert "Tap Cy’s tricks." in page  # nothing sent: what to do
    assert not Deal.objects.filter(game=game).exists()


@pytest.mark.parametrize(
    ("game_type", "data", "record"),
    [
        (
            "widow_whist",
            {"widow": "none", "tricks-0": "6", "tricks-2": "2"},
            {"widow": None, "tricks": [6, 5, 2]},
        ),
        (
            "italian_whist",
            {"first-0": "4", "first-1": "4", "second-1": "0", "second-2": "9"},
            {"first": [4, 4, 1], "second": [0, 0, 9]},
        ),
    ],
)
def test_the_last_count_is_filled_in_without_javascript(
    world: World, game_type: str, data: dict[str, str], record: dict[str, Any]
) -> None:
    game = world.start(game_type)
    assert post_deal(world.client(world.scorer), game, data).status_code == 302
    assert Deal.objects.get(game=game).record == record


def test_htmx_save_swaps_the_game_section_with_a_fresh_form(world: World) -> None:
    game = world.start("widow_whist")
    client = world.client(world.scorer)
    page = client.get(reverse("game", args=[game.pk]))
    first_key = form_of(page)["idempotency_key"]
    response = post_deal(
        client, game, {"widow": "none", "tricks-0": "5", "tricks-1": "4"}, key=first_key, **HTMX
    )
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#game"
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="game"')
    assert "<html" not in html
    assert "Deal 1 saved." in text_of(response)
    assert form_of(response)["number"] == "2"
    assert form_of(response)["idempotency_key"] != first_key


def test_the_preview_shows_the_scores_before_saving(world: World) -> None:
    game = world.record(world.start("widow_whist"), {"widow": None, "tricks": [5, 4, 4]})
    client = world.client(world.scorer)
    url = reverse("deal-preview", args=[game.pk])
    response = client.post(
        url, {"number": "2", "widow": "1", "tricks-0": "3", "tricks-1": "6"}, **HTMX
    )
    text = text_with(response, 200)
    assert "Deal 2 would score" in text
    assert "Ann 0 2 Bob +2 3 Cy +1 2" in text
    assert "Bob took the widow: target 4." in text
    assert "Cy: 4 filled in from what is left." in text
    assert not Deal.objects.filter(number=2).exists()
    # Not complete yet: what is still to tap.
    response = client.post(url, {"number": "2", "tricks-0": "3"}, **HTMX)
    assert "Tap who took the widow, or Nobody." in text_of(response)
    # Complete but against the rules: the engine's message.
    response = client.post(
        url, {"number": "2", "widow": "none", "tricks-0": "9", "tricks-1": "9"}, **HTMX
    )
    assert "Cy" not in text_of(response) or "would score" not in text_of(response)


def test_without_javascript_the_preview_is_a_page_of_its_own_until_the_deal_is_saved(
    world: World,
) -> None:
    """A plain "Check the scores" is kept and answered with a redirect to the preview's
    address: reloading it shows the same entry, and once the deal is saved (Back to it,
    say) it opens the game rather than the entry saved."""
    game = world.start("widow_whist")
    other = world.start("widow_whist")
    client = world.client(world.scorer)
    url = reverse("deal-preview", args=[game.pk])
    # Nothing kept yet: the address opens the game (a restored tab).
    assert client.get(url)["Location"] == reverse("game", args=[game.pk])
    entry = {"number": "1", "widow": "none", "tricks-0": "7", "tricks-1": "2"}
    response = client.post(url, {**entry, "idempotency_key": "k-1"})
    # (the button's own address says where the page opens: #preview-1)
    assert response.status_code == 302 and response["Location"] == url
    assert f'formaction="{url}#preview-1"' in client.get(url).content.decode()
    for _reload in range(2):
        page = client.get(url)
        text = text_with(page, 200)
        assert "Cy: 4 filled in from what is left." in text
        assert form_of(page)["idempotency_key"] == "k-1"
    assert not Deal.objects.exists()  # a preview writes nothing
    # Kept for this game only: another game's address opens that game.
    assert client.get(reverse("deal-preview", args=[other.pk]))["Location"] == reverse(
        "game", args=[other.pk]
    )
    saved = post_deal(client, game, {**entry, "tricks-2": "4"}, key="k-1")
    assert saved.status_code == 302 and Deal.objects.filter(game=game).count() == 1
    assert client.get(url)["Location"] == reverse("game", args=[game.pk])
    # Deal 2 checked here, then recorded by another phone: the address opens the game and
    # says so (the entry is not offered again for a deal that is recorded).
    client.post(url, {"number": "2", "widow": "none", "tricks-0": "5"})
    game.refresh_from_db()
    world.record(game, {"widow": None, "tricks": [5, 4, 4]})
    response = client.get(url, follow=True)
    assert response.redirect_chain == [(reverse("game", args=[game.pk]), 302)]
    assert "Deal 2 was recorded meanwhile, on another phone" in text_of(response)
    assert client.get(url)["Location"] == reverse("game", args=[game.pk])


def test_without_javascript_each_game_keeps_its_own_entry(world: World) -> None:
    """Two tabs, one game each: checking the scores in one does not replace the other's
    entry; saving one game's deal forgets that game's entry only; a few games at most."""
    games = [world.start("widow_whist") for _ in range(PREVIEW_GAMES + 2)]
    client = world.client(world.scorer)
    entry = {"number": "1", "widow": "none", "tricks-0": "6", "tricks-1": "2"}

    def check(game: Game) -> None:
        client.post(
            reverse("deal-preview", args=[game.pk]), {**entry, "idempotency_key": f"k-{game.pk}"}
        )

    def kept_key(game: Game) -> str | None:
        page = client.get(reverse("deal-preview", args=[game.pk]))
        if page.status_code == 302:
            assert page["Location"] == reverse("game", args=[game.pk])
            return None
        return form_of(page)["idempotency_key"]

    check(games[0])
    check(games[1])
    assert kept_key(games[0]) == f"k-{games[0].pk}"
    assert kept_key(games[1]) == f"k-{games[1].pk}"
    post_deal(client, games[1], {**entry, "tricks-2": "5"}, key=f"k-{games[1].pk}")
    assert kept_key(games[1]) is None
    assert kept_key(games[0]) == f"k-{games[0].pk}"
    # The latest games' entries are kept; the oldest goes first.
    for game in games[2:]:
        check(game)
    assert kept_key(games[0]) is None
    assert [kept_key(game) for game in games[2:]] == [f"k-{game.pk}" for game in games[2:]]


def test_an_entry_kept_by_an_earlier_version_of_the_page_is_let_go(world: World) -> None:
    """A session that kept its entry in an earlier shape (one entry, not one a game) opens
    the game rather than failing; checking the scores again keeps the entry anew."""
    game = world.start("widow_whist")
    client = world.client(world.scorer)
    session = client.session
    session[PREVIEW_SESSION_KEY] = {"game": game.pk, "fields": [["number", "1"]]}
    session.save()
    url = reverse("deal-preview", args=[game.pk])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    session = client.session
    session[PREVIEW_SESSION_KEY] = {str(game.pk): "number=1"}
    session.save()
    assert client.get(url).status_code == 302
    client.post(url, {"number": "1", "widow": "none", "tricks-0": "6", "idempotency_key": "k"})
    assert form_of(client.get(url))["idempotency_key"] == "k"
    assert list(client.session[PREVIEW_SESSION_KEY]) == [str(game.pk)]


def test_the_preview_address_of_a_revoked_table_link_opens_the_game_page_that_says_so(
    world: World,
) -> None:
    game = world.start("widow_whist")
    guest = guest_client(game, world.scorer)
    url = reverse("deal-preview", args=[game.pk])
    guest.post(url, {"number": "1", "widow": "none"})
    assert "Save deal 1" in text_with(guest.get(url), 200)
    services.table_link_revoke(actor=world.scorer, game=game)
    response = guest.get(url)
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    assert "This link no longer works" in text_of(guest.get(response["Location"]))


def test_third_hand_preview_says_whether_the_contract_was_made(world: World) -> None:
    game = world.start("third_hand", 2)
    client = world.client(world.scorer)
    url = reverse("deal-preview", args=[game.pk])
    base = {"number": "1", "bids-1": "Q", "bids-0": "none"}
    made = client.post(url, {**base, "points-0": "40", "points-1": "90"}, **HTMX)
    assert "Bob bid Q and needs 80: 90 points, contract made." in text_of(made)
    assert "Bob’s score: 90 + 50 (the difference)." in text_of(made)
    failed = client.post(url, {**base, "points-0": "70", "points-1": "60"}, **HTMX)
    assert "Bob bid Q and needs 80: 60 points, contract failed." in text_of(failed)
    assert "Bob’s score: 60 − 10 (the difference)." in text_of(failed)
    # Level points: a failed contract loses nothing (the difference is 0).
    level = client.post(url, {**base, "points-0": "60", "points-1": "60"}, **HTMX)
    assert "Bob’s score: 60 − 0 (the difference)." in text_of(level)
    both = client.post(url, {**base, "bids-0": "K", "points-0": "90", "points-1": "40"}, **HTMX)
    assert "Ann’s score: 90 + 2 × 50 (the difference, doubled)." in text_of(both)
    assert "Ann +190" in text_of(both)


def test_third_hand_dealer_may_only_top_the_first_bid(world: World) -> None:
    game = world.start("third_hand", 2)  # Ann deals; Bob bids first
    client = world.client(world.scorer)
    response = client.post(
        reverse("deal-preview", args=[game.pk]), {"number": "1", "bids-1": "J"}, **HTMX
    )
    # The dealer's pills come back out of band, ranks up to J disabled.
    html = response.content.decode()
    assert 'id="d1-bids-0"' in html and 'hx-swap-oob="true"' in html
    disabled = inputs_of(response).disabled
    assert {("bids-0", rank) for rank in ("9", "10", "J")} <= disabled
    assert ("bids-0", "Q") not in disabled and ("bids-0", "none") not in disabled
    # Without JavaScript: a lower bid is refused beside the dealer's pills.
    response = post_deal(
        client, game, {"bids-1": "J", "bids-0": "10", "points-0": "60", "points-1": "60"}
    )
    assert response.status_code == 422
    assert "Ann deals and bids second, so their bid must be higher than Bob’s J." in (
        element_text(response.content.decode(), "d1-bids-0")
    )
    assert not Deal.objects.exists()


def test_third_hand_points_counted_from_tapped_cards(world: World) -> None:
    game = world.start("third_hand", 2, options={"target": 150})
    client = world.client(world.scorer)
    url = reverse("deal-preview", args=[game.pk])
    # Without JavaScript each tap posts the form: the card moves on to the next owner.
    response = client.post(url, {"number": "1", "cycle": "AS"}, follow=True)
    assert response.redirect_chain == [(url, 302)]  # where the card was: no #preview-1
    assert inputs_of(response).values["cap-AS"] == "0"
    response = client.post(url, {"number": "1", "cap-AS": "0", "cycle": "AS"}, follow=True)
    assert inputs_of(response).values["cap-AS"] == "1"
    response = client.post(url, {"number": "1", "cap-AS": "1", "cycle": "AS"}, follow=True)
    assert inputs_of(response).values["cap-AS"] == ""
    # Ann captured 8 cards (the nines and the tens), Bob 6 (aces and two kings): 76 and 24.
    cards = {f"cap-{rank}{suit}": "0" for rank in ("9", "10") for suit in "SHDC"}
    cards |= {f"cap-A{suit}": "1" for suit in "SHDC"} | {"cap-KS": "1", "cap-KH": "1"}
    data = {"bids-1": "none", "bids-0": "none", **cards}
    preview = client.post(url, {"number": "1", **data}, **HTMX)
    assert "Points from the cards: Ann 76, Bob 24." in text_of(preview)
    assert post_deal(client, game, data).status_code == 302
    deal = Deal.objects.get(game=game)
    assert deal.context["points"] == [76, 24] and deal.scores == [76, 24]
    assert len(deal.record["captured"][0]) == 8
    # The deal's page counts the points from the cards too.
    assert "Points: Ann 76, Bob 24" in text_of(client.get(reverse("deal", args=[game.pk, 1])))


def test_a_third_hand_deal_names_its_trumps() -> None:
    """However the trump suit was written (the API takes "h", "H" or "♥"), the deal reads
    with the suit's sign and name."""
    for trump in ("h", "H", "♥"):
        record = {"bids": ["9", None], "points": [70, 40], "trump": trump, "exchanged": False}
        lines = record_summary("third_hand", record, ["Ann", "Bob"])
        assert lines[-1] == "Trumps ♥ hearts, no exchange"
        assert "Points: Ann 70, Bob 40" in lines


# --- Rejections ---------------------------------------------------------------------------


def test_a_rejection_shows_the_engines_message_beside_the_field_keeping_values(
    world: World,
) -> None:
    game = world.start("widow_whist")
    client = world.client(world.scorer)
    page = client.get(reverse("game", args=[game.pk]))
    key = form_of(page)["idempotency_key"]
    data = {"widow": "0", "tricks-0": "5", "tricks-1": "5", "tricks-2": "5"}
    response = post_deal(client, game, data, key=key)
    assert response.status_code == 422
    html = response.content.decode()
    assert "Tricks add up to 15; a deal of widow whist has 13 tricks" in element_text(
        html, "d1-sec-tricks-error"
    )
    assert 'class="entry-section has-error" id="d1-sec-tricks"' in html
    inputs = inputs_of(response)
    assert inputs.checked == {"widow": "0", "tricks-0": "5", "tricks-1": "5", "tricks-2": "5"}
    # The same key is kept: nothing was recorded under it.
    assert form_of(response)["idempotency_key"] == key
    assert not Deal.objects.exists()


def test_a_rejection_of_one_players_value_is_shown_beside_that_player(world: World) -> None:
    game = world.start("third_hand", 2)
    client = world.client(world.scorer)
    data = {"bids-1": "none", "bids-0": "none", "points-0": "55", "points-1": "60"}
    response = post_deal(client, game, data, **HTMX)
    assert response.status_code == 200  # htmx swaps 2xx only
    html = response.content.decode()
    assert "Ann's 55 points cannot be made of captured cards" in element_text(
        html, "d1-points-0-error"
    )
    assert inputs_of(response).values["points-0"] == "55"
    assert inputs_of(response).values["points-1"] == "60"
    assert 'aria-invalid="true" aria-describedby="d1-points-0-error"' in html


def test_a_rejection_is_said_once_not_again_in_the_preview(world: World) -> None:
    game = world.start("third_hand", 2)
    client = world.client(world.scorer)
    data = {"bids-1": "none", "bids-0": "none", "points-0": "55", "points-1": "60"}
    html = post_deal(client, game, data, **HTMX).content.decode()
    assert html.count("55 points cannot be made of captured cards") == 1
    assert "The scores show here once the entry above is put right." in element_text(
        html, "preview-1"
    )
    data = {"bids-1": "none", "bids-0": "none", "points-0": "100", "points-1": "100"}
    html = post_deal(client, game, data, **HTMX).content.decode()
    assert html.count("Points add up to 200") == 1
    assert "Points add up to 200" in element_text(html, "d1-sec-points-error")
    # Both boxes first, then the error below them.
    assert html.index('id="d1-points-1-input"') < html.index('id="d1-sec-points-error"')


def test_the_dealer_s_refused_bid_is_said_once_when_saved_without_javascript(
    world: World,
) -> None:
    """Prediction whist's hook: beside the dealer's bid, and not again in the preview."""
    game = world.start("prediction_whist", 3)
    data = {"bids-1": "0", "bids-2": "1", "bids-0": "0", "tricks-1": "0", "tricks-0": "0"}
    response = post_deal(world.client(world.scorer), game, data)
    assert response.status_code == 422
    html = response.content.decode()
    refusal = "Ann deals and bids last, and may not make the bids add up to the hand size (1)"
    assert refusal in element_text(html, "d1-bids-0-error")
    assert html.count(refusal) == 1
    assert "The scores show here once the entry above is complete." in element_text(
        html, "preview-1"
    )
    # The bids' line says they are kept as tapped only where a script keeps them.
    assert '<p id="bids-status-1" class="bids-status muted"></p>' in html
    assert not Deal.objects.filter(game=game).exists()


def test_missing_values_are_asked_for_beside_their_fields(world: World) -> None:
    game = world.start("widow_whist")
    response = post_deal(world.client(world.scorer), game, {"tricks-0": "5"})
    assert response.status_code == 422
    html = response.content.decode()
    assert "Tap who took the widow, or Nobody." in element_text(html, "d1-widow-error")
    # Once beside the buttons, not also above them (the preview below says what to tap next).
    assert len(re.findall(r'class="field-error"[^>]*>Tap who took the widow', html)) == 1
    assert "Tap Bob’s tricks." in element_text(html, "d1-tricks-1-error")
    assert inputs_of(response).checked == {"tricks-0": "5"}


# --- Never twice, never lost --------------------------------------------------------------


def test_a_double_submit_with_the_same_key_records_once(world: World) -> None:
    game = world.start("widow_whist")
    client = world.client(world.scorer)
    key = form_of(client.get(reverse("game", args=[game.pk])))["idempotency_key"]
    data = {
        "number": "1",
        "idempotency_key": key,
        "widow": "none",
        "tricks-0": "5",
        "tricks-1": "4",
    }
    url = reverse("deal-save", args=[game.pk])
    first = client.post(url, data)
    second = client.post(url, data)
    assert first.status_code == second.status_code == 302
    assert Deal.objects.filter(game=game).count() == 1
    assert DealRevision.objects.filter(game=game).count() == 1
    assert "Deal 1 saved." in text_of(client.get(second["Location"]))


def test_a_second_phone_is_told_the_deal_is_already_recorded(world: World) -> None:
    game = world.start("widow_whist")
    phone_a = world.client(world.scorer)
    phone_b = guest_client(game, world.scorer, name="Bob")
    page_a = form_of(phone_a.get(reverse("game", args=[game.pk])))
    page_b = form_of(phone_b.get(reverse("game", args=[game.pk])))
    assert page_a["number"] == page_b["number"] == "1"
    url = reverse("deal-save", args=[game.pk])
    tricks = {"widow": "none", "tricks-0": "5", "tricks-1": "4"}
    assert phone_a.post(url, {**page_a, **tricks}).status_code == 302
    # Phone B, same deal number, its own key: refused, and shown what was recorded (by name)
    # beside its own entry, with the next deal's form below.
    response = phone_b.post(url, {**page_b, **tricks, "tricks-0": "4", "tricks-1": "5"})
    page = text_with(response, 409)
    assert "Deal 1 is already recorded, by scorer" in page
    assert "Tricks: Ann 5, Bob 4, Cy 4 Deal 1 as recorded" in page
    assert "Ann +2 2 Bob +1 1 Cy +1 1" in page
    assert "Your entry: Widow: nobody took it · Tricks: Ann 4, Bob 5, Cy 4" in page
    assert "Correct deal 1 with my entry" in page and "Keep what was recorded" in page
    assert form_of(response)["number"] == "2"
    assert Deal.objects.get(game=game).record["tricks"] == [5, 4, 4]
    # With htmx the section comes back in place with the same.
    response = phone_b.post(url, {**page_b, **tricks}, **HTMX)
    assert response.status_code == 200 and response["HX-Retarget"] == "#game"
    assert "Deal 1 is already recorded, by scorer" in text_of(response)
    assert "Your entry is the same." in text_of(response)


def test_a_form_sent_again_changed_after_it_was_saved_is_not_saved_twice(world: World) -> None:
    game = world.start("widow_whist")
    client = world.client(world.scorer)
    key = str(uuid.uuid4())
    data = {"number": "1", "idempotency_key": key, "widow": "none"}
    url = reverse("deal-save", args=[game.pk])
    assert client.post(url, {**data, "tricks-0": "5", "tricks-1": "4"}).status_code == 302
    response = client.post(url, {**data, "tricks-0": "4", "tricks-1": "5"}, **HTMX)
    assert "Deal 1 was already saved from this form; the page now shows it." in text_of(response)
    assert Deal.objects.get(game=game).record["tricks"] == [5, 4, 4]


def test_prediction_bids_are_kept_on_the_server_and_survive_a_reload(world: World) -> None:
    game = world.start("prediction_whist", 4)
    client = world.client(world.scorer)
    url = reverse("bids-save", args=[game.pk])
    response = client.post(url, {"number": "1", "bids-1": "1", "bids-2": "0"}, **HTMX)
    assert response.status_code == 200
    assert "Bids kept: Bob 1, Cy 0." in text_of(response)
    assert selectors.deal_draft(game) == {"bids": [None, 1, 0, None]}
    page = client.get(reverse("game", args=[game.pk]))
    assert inputs_of(page).checked == {"bids-1": "1", "bids-2": "0"}
    # Without JavaScript: "Keep the bids" posts and comes back to the page.
    response = client.post(url, {"number": "1", "bids-1": "1", "bids-2": "0", "bids-3": "1"})
    assert response.status_code == 302
    assert inputs_of(client.get(response["Location"])).checked == {
        "bids-1": "1",
        "bids-2": "0",
        "bids-3": "1",
    }
    # Saving the deal clears the draft.
    data = {"bids-1": "1", "bids-2": "0", "bids-3": "1", "bids-0": "1"}
    data |= {"tricks-0": "0", "tricks-1": "1", "tricks-2": "0"}
    assert post_deal(client, game, data).status_code == 302
    assert Deal.objects.get(game=game).record == {"bids": [1, 1, 0, 1], "tricks": [0, 1, 0, 0]}
    assert selectors.deal_draft(game) == {}


def test_the_dealers_forbidden_bid_is_disabled(world: World) -> None:
    deals = [{"bids": [0, 0, 0], "tricks": [1, 0, 0]}] * 3
    game = world.record(world.start("prediction_whist"), *deals)  # deal 4: 2 cards, Ann deals
    client = world.client(world.scorer)
    services.deal_draft_save(actor=world.scorer, game=game, number=4, data={"bids": [None, 1, 0]})
    page = client.get(reverse("game", args=[game.pk]))
    inputs = inputs_of(page)
    assert ("bids-0", "1") in inputs.disabled
    assert {name for name, _ in inputs.disabled} == {"bids-0"}
    assert "may not bid 1" in element_text(page.content.decode(), "d4-bids-0")
    # Bidding order starts left of the dealer: Bob, Cy, then Ann (deals, bids last).
    html = page.content.decode()
    assert (
        html.index('id="d4-bids-1"') < html.index('id="d4-bids-2"') < html.index('id="d4-bids-0"')
    )
    # After each tap, htmx gets the dealer's pills back with the forbidden bid disabled.
    response = client.post(
        reverse("bids-save", args=[game.pk]), {"number": "4", "bids-1": "2", "bids-2": "0"}, **HTMX
    )
    assert ("bids-0", "0") in inputs_of(response).disabled
    # Posted anyway (no JavaScript): refused beside the dealer's bid.
    data = {"bids-1": "2", "bids-2": "0", "bids-0": "0", "tricks-0": "1", "tricks-1": "1"}
    response = post_deal(client, game, data)
    assert response.status_code == 422
    assert "Ann may not bid 0" in element_text(response.content.decode(), "d4-bids-0")


# --- Corrections, undo, the end -----------------------------------------------------------


def test_a_correction_with_its_reason_shows_in_the_history(world: World) -> None:
    game = world.record(
        world.start("widow_whist"),
        {"widow": None, "tricks": [5, 4, 4]},
        {"widow": 0, "tricks": [4, 5, 4]},
    )
    client = world.client(world.scorer)
    url = reverse("deal", args=[game.pk, 1])
    page = client.get(url)
    assert page.status_code == 200
    text = text_of(page)
    assert "Deal 1 · Ann dealt" in text
    assert "Tricks: Ann 5, Bob 4, Cy 4" in text
    assert inputs_of(page).checked == {
        "widow": "none",
        "tricks-0": "5",
        "tricks-1": "4",
        "tricks-2": "4",
    }
    # No reason: asked for, nothing changed.
    data = {"version": "1", "widow": "2", "tricks-0": "5", "tricks-1": "4", "tricks-2": "4"}
    response = client.post(url, data)
    assert response.status_code == 422
    assert "Say why the deal is corrected." in element_text(
        response.content.decode(), "reason-error"
    )
    response = client.post(url, {**data, "reason": "Cy had the widow"})
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    assert "Deal 1 corrected." in text_of(client.get(response["Location"]))
    deal = Deal.objects.get(game=game, number=1)
    assert deal.record == {"widow": 2, "tricks": [5, 4, 4]} and deal.version == 2
    history = text_of(client.get(url))
    assert "Entered by scorer · version 2" in history
    assert "Recorded (version 1) by scorer" in history
    assert "Corrected (version 2) by scorer" in history
    assert "Reason: Cy had the widow" in history
    # Once the scorer's account is linked to a roster player, the club's name for them.
    PlayerFactory(club=game.club, name="Sam Scorer", user=world.scorer)
    history = text_of(client.get(url))
    assert "Entered by Sam Scorer · version 2" in history
    assert "Recorded (version 1) by Sam Scorer" in history
    assert "Corrected (version 2) by Sam Scorer" in history
    # A stale version is refused, naming what happened.
    response = client.post(url, {**data, "reason": "again"})
    assert response.status_code == 422
    assert "someone corrected it meanwhile" in text_of(response)
    # So is a form that does not say which version it corrects (or says it in nonsense).
    changed = {**data, "widow": "1", "reason": "Bob had it"}
    for version in ("", "zz", "-1", None):
        posted = {k: v for k, v in changed.items() if k != "version" or version is not None}
        if version is not None:
            posted["version"] = version
        response = client.post(url, posted)
        assert response.status_code == 422
        assert "someone corrected it meanwhile" in text_of(response)
    # The refusal shows the version now recorded: saving again from there corrects it.
    assert 'name="version" value="2"' in response.content.decode()
    # A correction into what is recorded already is no correction.
    same = client.post(url, {**data, "version": "2", "reason": "checking"})
    assert "deal 1 is already recorded like this" in text_of(same).lower()
    assert Deal.objects.get(game=game, number=1).version == 2


def test_the_deal_page_names_who_corrected_it_last(world: World) -> None:
    """Entered by one scorer, corrected by another: the deal's line names both."""
    game = world.record(world.start("widow_whist"), {"widow": None, "tricks": [5, 4, 4]})
    other = member(game.club, Role.SCORER, username="dora")
    url = reverse("deal", args=[game.pk, 1])
    data = {"version": "1", "widow": "2", "tricks-0": "5", "tricks-1": "4", "tricks-2": "4"}
    response = world.client(other).post(url, {**data, "reason": "Cy had the widow"})
    assert response.status_code == 302
    text = text_of(world.client(world.scorer).get(url))
    assert "Entered by scorer, last corrected by dora · version 2" in text
    assert "Corrected (version 2) by dora" in text


def test_the_deal_page_tells_two_guests_without_a_name_apart(world: World) -> None:
    """Two phones at the table link, neither giving a name: a correction from the other
    phone is said, though both are "someone"; the recorder's own correction is not."""
    game = world.start("widow_whist")
    link = services.table_link_create(actor=world.scorer, game=game)
    first, second = Client(), Client()
    for phone in (first, second):
        session = phone.session
        remember_table_link(SimpleNamespace(session=session), game.pk, link.token, "")  # type: ignore[arg-type]
        session.save()
        game_page(phone, game)  # each phone gets its own id
    assert (
        post_deal(first, game, {"widow": "none", "tricks-0": "5", "tricks-1": "4"}).status_code
        == 302
    )
    url = reverse("deal", args=[game.pk, 1])
    data = {"widow": "2", "tricks-0": "5", "tricks-1": "4", "tricks-2": "4", "reason": "widow"}
    assert second.post(url, {**data, "version": "1"}).status_code == 302
    text = text_of(world.client(world.scorer).get(url))
    assert (
        "Entered by someone at the table, last corrected by someone at the table on another "
        "phone · version 2" in text
    )
    assert first.post(url, {**data, "widow": "1", "version": "2"}).status_code == 302
    text = text_of(world.client(world.scorer).get(url))
    assert "Entered by someone at the table · version 3" in text
    assert "last corrected" not in text


def test_a_correction_rejected_by_the_rules_keeps_what_was_typed(world: World) -> None:
    game = world.record(world.start("italian_whist"), {"first": [3, 3, 3], "second": [3, 3, 3]})
    client = world.client(world.scorer)
    data = {"version": "1", "reason": "typo", "first-0": "9", "first-1": "9", "first-2": "0"}
    data |= {"second-0": "3", "second-1": "3", "second-2": "3"}
    response = client.post(reverse("deal", args=[game.pk, 1]), data)
    assert response.status_code == 422
    assert "Tricks of the first hand add up to 18" in element_text(
        response.content.decode(), "d1-sec-first-error"
    )
    assert inputs_of(response).checked["first-0"] == "9"
    assert inputs_of(response).values["reason"] == "typo"
    # With JavaScript (htmx) the refusal is shown in place, and a saved correction opens the
    # game page as a link would (so Back returns to the deal, not to a form sent again).
    response = client.post(reverse("deal", args=[game.pk, 1]), data, **HTMX)
    assert response.status_code == 422
    swapped = response.content.decode()  # the part swapped in, with the refusal in it
    assert 'id="deal-page"' in swapped and "Tricks of the first hand add up to 18" in swapped
    data |= {"first-0": "4", "first-1": "3", "first-2": "2"}
    response = client.post(reverse("deal", args=[game.pk, 1]), data, **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("game", args=[game.pk])
    assert Deal.objects.get(game=game, number=1).record["first"] == [4, 3, 2]


def test_undo_takes_back_the_last_deal(world: World) -> None:
    game = world.record(world.start("widow_whist"), *TWO_DEALS)
    client = world.client(world.scorer)
    page = client.get(reverse("game", args=[game.pk]))
    assert "Undo deal 2…" in text_of(page)
    url = reverse("deal-undo", args=[game.pk])
    # A page that is out of date cannot undo another deal than the one it shows.
    response = client.post(url, {"number": "1"})
    assert "Deal 1 is not the last deal any more; nothing was undone" in text_of(
        client.get(response["Location"])
    )
    response = client.post(url, {"number": "2", "reason": "wrong game"}, **HTMX)
    assert response.status_code == 200
    assert "Deal 2 undone." in text_of(response)
    assert form_of(response)["number"] == "2"
    game.refresh_from_db()
    assert game.deal_count == 1
    undo = DealRevision.objects.get(game=game, number=2, action="undo")
    assert undo.reason == "wrong game"


def test_a_finished_game_shows_the_winners_final_totals_and_a_share_link(world: World) -> None:
    game = world.start("widow_whist", options={"finish": {"deals": 3}})
    client = world.client(world.scorer)
    for data in (
        {"widow": "none", "tricks-0": "6", "tricks-1": "4"},
        {"widow": "none", "tricks-0": "5", "tricks-1": "4"},
    ):
        assert post_deal(client, game, data).status_code == 302
    response = post_deal(client, game, {"widow": "none", "tricks-0": "4", "tricks-1": "5"}, **HTMX)
    text = text_of(response)
    assert "Final scores" in text and "Ann wins" in text
    assert "Ann 6 ★ Bob 4 Cy 2" in text
    token = share_token(game)
    assert game_id_from_token(token) == game.pk
    assert reverse("game-shared", args=[token]) in response.content.decode()
    assert reverse("deal-save", args=[game.pk]) not in response.content.decode()
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    # Finished: no undo is offered (even weeks later); a scorer can still correct a deal.
    later = text_of(client.get(reverse("game", args=[game.pk])))
    assert "Undo deal" not in later and "Tap a deal’s number to see it or correct it" in later
    assert " data-corrects" in client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Save the correction" in text_of(client.get(reverse("deal", args=[game.pk, 3])))
    # No more deals.
    response = post_deal(client, game, {"widow": "none", "tricks-0": "4", "tricks-1": "5"})
    assert "The game is finished; it takes no more deals" in text_of(
        client.get(response["Location"])
    )


def test_a_locked_game_offers_no_entry_undo_or_correction(world: World) -> None:
    game = world.record(world.start("widow_whist"), *TWO_DEALS)
    services.game_lock(actor=world.scorer, game=game, reason="the result was confirmed by Bob")
    client = world.client(world.scorer)
    page = client.get(reverse("game", args=[game.pk]))
    text = text_of(page)
    assert "Locked: the result was confirmed by Bob." in text
    assert "Undo deal" not in text and "End the game now" not in text
    assert reverse("deal-save", args=[game.pk]) not in page.content.decode()
    deal = text_of(client.get(reverse("deal", args=[game.pk, 1])))
    assert "Save the correction" not in deal and "cannot be corrected" in deal
    # A form opened before the lock is refused, saying why; nothing is written.
    response = client.post(
        reverse("deal", args=[game.pk, 1]),
        {"widow": "none", "tricks-0": "6", "tricks-1": "4", "tricks-2": "3", "reason": "typo"},
    )
    assert "Not corrected: the game is locked: the result was confirmed by Bob" in text_of(response)
    assert Deal.objects.get(game=game, number=1).version == 1
    response = client.post(reverse("deal-undo", args=[game.pk]), {"number": "2"})
    assert "the game is locked" in text_of(client.get(response["Location"])).lower()
    assert Game.objects.get(pk=game.pk).deal_count == 2


def test_finishing_an_open_ended_game_by_hand(world: World) -> None:
    game = world.record(world.start("widow_whist"), *TWO_DEALS)
    client = world.client(world.scorer)
    assert "End the game now…" in text_of(client.get(reverse("game", args=[game.pk])))
    response = client.post(reverse("game-finish", args=[game.pk]))
    page = text_of(client.get(response["Location"]))
    assert "Game finished." in page
    assert "Ann and Bob share the win" in page


# --- The page itself ----------------------------------------------------------------------


def test_every_input_has_a_label_and_pill_groups_have_legends(world: World) -> None:
    client = world.client(world.scorer)
    for game_type, seats in (
        ("widow_whist", 3),
        ("third_hand", 2),
        ("italian_whist", 3),
        ("prediction_whist", 6),
    ):
        game = world.start(game_type, seats)
        for url in (reverse("game", args=[game.pk]),):
            response = client.get(url)
            html = response.content.decode()
            assert_every_input_labelled(html, exempt=("hidden",), where=f"{game_type}: ")
            assert html.count("<fieldset") == html.count("<legend>")
            assert "maximum-scale" not in html and "user-scalable" not in html


def test_six_players_fit_with_short_names(world: World) -> None:
    assert short_names(["Alice Moreau", "Bernard Okafor", "Chloe Lindqvist"]) == [
        "Alice",
        "Bernard",
        "Chloe",
    ]
    six = ["Alice Moreau", "Bernard Okafor", "Chloe Lindqvist", "Dev", "Elena", "Farid"]
    assert short_names(six) == ["Ali.", "Ber.", "Chl.", "Dev", "Ele.", "Far."]
    twins = ["Alexandra Smith", "Alexandra Jones", "Bo", "Cy", "Di", "Ed"]
    assert short_names(twins) == ["AleS", "AleJ", "Bo", "Cy", "Di", "Ed"]
    club = world.club
    players = [PlayerFactory(club=club, name=name) for name in six]
    game = services.game_start(
        actor=world.scorer, club=club, game_type="prediction_whist", players=players
    )
    world.record(game, {"bids": [0] * 6, "tricks": [1, 0, 0, 0, 0, 0]})
    html = world.client(world.scorer).get(reverse("game", args=[game.pk])).content.decode()
    assert '<table class="sheet cols-6"' in html
    # Short in sight, the full name for screen readers and on hover.
    assert (
        '<abbr title="Bernard Okafor" aria-hidden="true">Ber.</abbr>'
        '<span class="sr-only">Bernard Okafor</span>'
    ) in html
    assert '<th scope="col" class="leader">Dev<span class="star"' in html  # short enough


@pytest.mark.parametrize(
    ("game_type", "options", "scheduled", "text"),
    [
        ("widow_whist", {"finish": {"deals": 1}}, None, "1 deal"),
        ("widow_whist", {"finish": {"deals": 12}}, None, "12 deals"),
        ("prediction_whist", {}, 1, "1 deal"),
    ],
)
def test_how_a_game_ends_counts_its_deals_in_words(game_type, options, scheduled, text):
    from scorekeeper.pages.game_sheet import game_end_text

    assert game_end_text(game_type, options, scheduled) == text


def test_a_game_started_by_mistake_is_abandoned_on_its_page(world: World) -> None:
    """Abandoning is on the page: for whoever may score a game being played (also one with
    no deal yet), not for a guest at the table link; once finished, for admins and
    directors only. The member who started a game scores it, seated or not."""
    mistaken = services.game_start(
        actor=world.member, club=world.club, game_type="widow_whist", players=world.players[:3]
    )
    starter = world.client(world.member)
    assert "Abandon the game…" in text_of(game_page(starter, mistaken))
    assert "Abandon the game…" not in text_of(
        game_page(guest_client(mistaken, world.scorer), mistaken)
    )
    other = world.client(member(world.club, Role.MEMBER, username="other"))
    assert "Abandon the game…" not in text_of(game_page(other, mistaken))
    refused = other.post(reverse("game-abandon", args=[mistaken.pk]), follow=True)
    assert "whoever started the game can abandon it while it is played" in text_of(refused)
    guest = guest_client(mistaken, world.scorer)
    guest.post(reverse("game-abandon", args=[mistaken.pk]))  # a form sent by hand
    mistaken.refresh_from_db()
    assert mistaken.status == GameStatus.IN_PROGRESS
    asked = text_of(starter.get(reverse("game-abandon", args=[mistaken.pk])))
    assert "Abandon the game? Ann, Bob, Cy." in asked and "Keep it" in asked
    # the page's address opened by someone who may not: the game, saying why not
    shown = other.get(reverse("game-abandon", args=[mistaken.pk]), follow=True)
    assert shown.redirect_chain == [(reverse("game", args=[mistaken.pk]), 302)]
    assert "whoever started the game can abandon it while it is played" in text_of(shown)
    done = starter.post(reverse("game-abandon", args=[mistaken.pk]), follow=True)
    assert "Game abandoned: it keeps its deals and counts nowhere." in text_of(done)
    mistaken.refresh_from_db()
    assert mistaken.status == GameStatus.ABANDONED
    assert "Abandon the game…" not in text_of(game_page(starter, mistaken))
    again = starter.get(reverse("game-abandon", args=[mistaken.pk]), follow=True)
    assert "The game is already abandoned." in text_of(again)
    # another phone at the game learns who abandoned it
    seen = text_of(game_page(other, mistaken))
    assert f"Abandoned by {world.member.get_username()} (" in seen
    # an abandoned game with deals: no leader marked, nor how it would have ended
    played = world.record(
        world.start("widow_whist", options={}), {"widow": None, "tricks": [5, 4, 4]}
    )
    assert "finish it by hand" in text_of(game_page(starter, played))
    services.game_abandon(actor=world.scorer, game=played)
    page = game_page(starter, played)
    assert "Widow whist: abandoned" in text_of(page)
    assert "finish it by hand" not in text_of(page)
    assert 'class="leader"' not in page.content.decode()
    # one ended by hand: who ended it, and no more how it would end
    ended = world.record(
        world.start("widow_whist", options={}), {"widow": None, "tricks": [5, 4, 4]}
    )
    services.game_finish(actor=world.scorer, game=ended)
    page = text_of(game_page(other, ended))
    assert "Final scores" in page and f"Ended by {world.scorer.get_username()} (" in page
    assert "finish it by hand" not in page
    # a locked game (a confirmed result): the page's address says so instead of asking
    services.game_lock(actor=world.scorer, game=ended, reason="the result was confirmed")
    admin = world.client(member(world.club, Role.ADMIN, username="boss"))
    locked = admin.get(reverse("game-abandon", args=[ended.pk]), follow=True)
    assert "The game is locked: the result was confirmed." in text_of(locked)
    assert "Abandon the game?" not in text_of(locked)

    finished = world.record(
        world.start("widow_whist", options={"finish": {"deals": 1}}),
        {"widow": None, "tricks": [5, 4, 4]},
    )
    assert finished.status == GameStatus.FINISHED
    assert "Abandon the game…" not in text_of(game_page(world.client(world.scorer), finished))
    # a player who only sits in a game does not abandon it (a tournament table's is the
    # director's to end)
    seated = world.players[0]
    seated.user = member(world.club, Role.MEMBER, username="seated")
    seated.save()
    playing = world.start("widow_whist")
    assert "Abandon the game…" not in text_of(game_page(world.client(seated.user), playing))
    director = world.client(member(world.club, Role.DIRECTOR, username="director"))
    assert "Abandon the game…" in text_of(game_page(director, finished))
    asked = text_of(director.get(reverse("game-abandon", args=[finished.pk])))
    assert "Ann, Bob, Cy: 1 deal." in asked and "standings or ratings, for good" in asked
    director.post(reverse("game-abandon", args=[finished.pk]))
    finished.refresh_from_db()
    assert finished.status == GameStatus.ABANDONED


def test_a_form_address_opened_in_the_browser_links_the_page_it_belongs_to(world: World) -> None:
    """Without JavaScript a refused save leaves /g/<id>/deal/ in the address bar: opened
    again (a restored tab), it says what it is and links the game, rather than an empty 405."""
    game = world.start("widow_whist")
    client = world.client(world.scorer)
    for name in ("deal-save", "deal-undo"):
        response = client.get(reverse(name, args=[game.pk]))
        assert response.status_code == 405 and response["Allow"] == "POST"
        assert "Nothing to open here" in text_of(response)
        assert f'href="/g/{game.pk}/"' in response.content.decode()
        # with the headers of every page: not framed, its CSP, not kept
        assert response["X-Frame-Options"] == "DENY"
        assert "Content-Security-Policy" in response
    # The nearest address above that is a page (a member's role: the members page).
    role = client.get(reverse("member-role", args=[game.club.slug, world.scorer.pk]))
    assert role.status_code == 405
    assert f'href="/c/{game.club.slug}/members/"' in role.content.decode()
    assert client.head(reverse("deal-save", args=[game.pk])).content == b""
    # Signed out, the game itself asks to sign in first (and comes back to it).
    page = Client().get(reverse("game", args=[game.pk]))
    assert page.status_code == 404 and "Not found, or sign in to see it" in text_of(page)
    assert f'href="/accounts/login/?next=/g/{game.pk}/"' in page.content.decode()
