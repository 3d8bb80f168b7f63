"""The rules assistant's page: a trick tapped card by card (GET, the address holds the
trick), with JavaScript off, for members and table guests; 404 for anyone else."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.pages.helpers import World, text_of

pytestmark = pytest.mark.django_db


def url(game_id: int, **query: str) -> str:
    base = reverse("game-trick", args=[game_id])
    if not query:
        return base
    return base + "?" + "&".join(f"{key}={value}" for key, value in query.items())


def test_the_game_page_links_to_the_assistant(world: World) -> None:
    game = world.start("widow_whist")
    page = world.client(world.member).get(reverse("game", args=[game.pk]))
    assert url(game.pk) in page.content.decode()


def test_tapping_cards_in_order_then_the_verdict(world: World) -> None:
    game = world.start("widow_whist")  # Ann deals: Bob, on her left, leads
    client = world.client(world.member)
    first = client.get(url(game.pk))
    assert first.status_code == 200
    html = first.content.decode()
    assert 'value="2S"' in html and 'value="RJ"' not in html  # 52 cards, no jokers
    assert 'name="leader"' in html
    step = client.get(url(game.pk, cards="", add="10H"))
    assert 'name="cards" value="10H"' in step.content.decode()
    assert "1 of 3 cards played" in text_of(step)
    step = client.get(url(game.pk, cards="10H", add="AS"))
    done = client.get(url(game.pk, cards="10H,AS", add="2C"))
    assert done.status_code == 200
    text = text_of(done)
    # Bob led the 10♥, Cy discarded the A♠, Ann trumped with the 2♣: Ann wins.
    assert "Ann wins the trick" in text
    assert "Ann trumped with the 2♣" in text
    assert "Clubs are always trumps" in text


def test_back_takes_the_last_card_away(world: World) -> None:
    game = world.start("widow_whist")
    response = world.client(world.member).get(url(game.pk, cards="10H,AS", back="1"))
    assert 'name="cards" value="10H"' in response.content.decode()


def test_a_tampered_address_is_refused_with_a_message(world: World) -> None:
    game = world.start("third_hand", seats=2)
    response = world.client(world.member).get(url(game.pk, cards="7H"))
    assert response.status_code == 400
    assert "cannot be read: '7H' is not a card of this game" in text_of(response)
    twice = world.client(world.member).get(url(game.pk, cards="AH,AH"))
    assert twice.status_code == 400
    assert "cannot be read: A♥ is played twice" in text_of(twice)
    many = world.client(world.member).get(url(game.pk, cards="AH,KH,QH"))
    assert "cannot be read: a trick has 2 cards" in text_of(many)


def test_third_hand_asks_for_trumps_before_judging(world: World) -> None:
    game = world.start("third_hand", seats=2)
    client = world.client(world.member)
    html = client.get(url(game.pk)).content.decode()
    assert 'value="9S"' in html and 'value="8S"' not in html  # the 24-card pack
    missing = client.get(url(game.pk, cards="AH", add="9H"))
    assert missing.status_code == 422
    assert "Trump is missing" in text_of(missing)
    judged = client.get(url(game.pk, cards="AH", add="9H", trump="S", leader="0"))
    assert judged.status_code == 200
    # Ann led the A♥, which counts low: Bob's 9♥ wins.
    assert "Bob wins the trick" in text_of(judged)


def test_italian_whist_preset_from_the_deal_and_a_joker_choice(world: World) -> None:
    game = world.start("italian_whist")
    client = world.client(world.member)
    html = client.get(url(game.pk)).content.decode()
    assert 'value="RJ"' in html and 'value="BJ"' in html
    # Deal 1: no trumps; the first hand: Bob (dealer's left) leads.
    assert '<option value="1" selected>' in html
    response = client.get(url(game.pk, cards="QH,RJ", add="KH"))
    text = text_of(response)
    assert "It depends on the joker’s player" in text
    assert "Cy would normally choose" in text
    second = client.get(url(game.pk, half="second"))
    assert '<option value="2" selected>' in second.content.decode()  # the dealer's right


def test_prediction_whist_eight_card_deal_has_no_trumps_preset(world: World) -> None:
    game = world.start("prediction_whist", seats=3)
    html = world.client(world.member).get(url(game.pk)).content.decode()
    # Deal 1 (1 card each, trumps turned): the trump is to choose; 3 players: 9 to ace.
    assert '<option value="" selected>Choose…</option>' in html
    assert 'value="8S"' not in html


def test_only_people_who_may_see_the_game(world: World) -> None:
    game = world.start("widow_whist")
    assert world.client(world.outsider).get(url(game.pk)).status_code == 404
    assert world.client().get(url(game.pk)).status_code in (302, 404)


def test_a_table_guest_uses_it_too(world: World) -> None:
    from tests.pages.test_game_pages import guest_client

    game = world.start("prediction_whist", seats=4)
    guest = guest_client(game, world.scorer)
    response = guest.get(url(game.pk, cards="QS,9H,KS", add="AS", trump="H"))
    assert response.status_code == 200
    # 4 players: Bob leads (Ann deals); the 9♥ of Cy is the only trump.
    assert "Cy wins the trick" in text_of(response)
