"""At the table: table links let guests score one game; bids are kept on the server."""

import pytest

from scorekeeper import selectors, services
from scorekeeper.access import TableGuest
from scorekeeper.errors import Conflict, InvalidInput, NotAllowed
from scorekeeper.models import Deal, DealDraft, DealRevision, Role
from tests.factories import ClubFactory, member, start_game

pytestmark = pytest.mark.django_db

DEAL = {"widow": None, "tricks": [5, 4, 4]}


def test_a_table_link_scores_its_game_only(club, scorer):
    game = start_game(club, "widow_whist", 3, actor=scorer)
    other = start_game(club, "widow_whist", 3, actor=scorer)
    link = services.table_link_create(actor=scorer, game=game)
    guest = selectors.table_guest(link.token, name="Bob")
    assert guest == TableGuest(game_id=game.pk, name="Bob")
    services.deal_record(actor=guest, game=game, number=1, record=DEAL)
    deal = Deal.objects.get(game=game)
    assert deal.entered_by is None and deal.entered_by_name == "Bob (table link)"
    assert DealRevision.objects.get(game=game).changed_by_name == "Bob (table link)"
    with pytest.raises(NotAllowed):
        services.deal_record(actor=guest, game=other, number=1, record=DEAL)
    with pytest.raises(NotAllowed):
        services.table_link_create(actor=guest, game=game)
    # A second phone at the table sees who recorded it.
    with pytest.raises(Conflict) as caught:
        services.deal_record(actor=TableGuest(game.pk, "Cy"), game=game, number=1, record=DEAL)
    assert "already recorded (by Bob (table link))" in caught.value.message


def test_revoked_and_replaced_links_stop_working(club, scorer):
    game = start_game(club, "widow_whist", 3, actor=scorer)
    first = services.table_link_create(actor=scorer, game=game)
    second = services.table_link_create(actor=scorer, game=game)
    assert selectors.table_guest(first.token) is None
    assert selectors.table_guest(second.token) is not None
    assert services.table_link_revoke(actor=scorer, game=game) == 1
    assert selectors.table_guest(second.token) is None
    assert selectors.active_table_link(game) is None
    with pytest.raises(NotAllowed):
        services.table_link_create(actor=member(ClubFactory(), Role.ADMIN), game=game)


def test_a_link_given_back_its_token_works_again_but_never_takes_anothers(club, scorer):
    game = start_game(club, "widow_whist", 3, actor=scorer)
    other = start_game(club, "widow_whist", 3, actor=scorer)
    held = services.table_link_create(actor=scorer, game=other)
    with pytest.raises(Conflict) as taken:
        services.table_link_create(actor=scorer, game=game, token=held.token)
    assert taken.value.field == "token"
    with pytest.raises(Conflict):
        services.table_link_create(actor=scorer, game=game, token="short/bad")
    assert selectors.active_table_link(game) is None  # nothing written
    kept = "k" * 32  # a token no link holds any more
    link = services.table_link_create(actor=scorer, game=game, token=kept)
    assert link.token == kept and selectors.table_guest(kept) == TableGuest(game.pk, "")


def test_bids_are_kept_until_the_deal_is_recorded(club, scorer):
    game = start_game(club, "prediction_whist", 3, actor=scorer)
    services.deal_draft_save(actor=scorer, game=game, number=1, data={"bids": [1, None, None]})
    services.deal_draft_save(actor=scorer, game=game, number=1, data={"bids": [1, 0, None]})
    assert selectors.deal_draft(game) == {"bids": [1, 0, None]}
    assert DealDraft.objects.count() == 1
    with pytest.raises(InvalidInput) as caught:
        services.deal_draft_save(actor=scorer, game=game, number=1, data={"bids": [2, 0, 0]})
    assert caught.value.field == "bids[0]"  # 1 card: bids from 0 to 1
    with pytest.raises(Conflict):
        services.deal_draft_save(actor=scorer, game=game, number=2, data={"bids": [0, 0, 0]})
    services.deal_record(
        actor=scorer, game=game, number=1, record={"bids": [1, 0, 1], "tricks": [1, 0, 0]}
    )
    game.refresh_from_db()
    assert selectors.deal_draft(game) == {}
    assert not DealDraft.objects.exists()
