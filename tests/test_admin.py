"""The Django admin: every model browsable; what the services write is read-only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.db.models import Model
from django.test import Client, RequestFactory
from django.urls import reverse

from scorekeeper import models, services
from scorekeeper.models import Deal, Game, GameStatus, Role, TableLink
from tests.factories import ClubFactory, PlayerFactory, SeasonFactory, UserFactory, member

pytestmark = pytest.mark.django_db

READ_ONLY: list[type[Model]] = [
    Deal,
    models.DealRevision,
    models.Result,
    models.IdempotencyKey,
    models.DealDraft,
    TableLink,
]
ALL_MODELS: list[type[Model]] = [models.Club, models.Player, models.Season, Game, *READ_ONLY]


@pytest.fixture
def superuser() -> User:
    user = UserFactory(username="root", is_staff=True, is_superuser=True)
    assert isinstance(user, User)
    return user


@pytest.fixture
def admin_client(client: Client, superuser: User) -> Client:
    client.force_login(superuser)
    return client


@pytest.fixture
def game() -> Game:
    """A widow whist game with two deals (one corrected, one sent with an idempotency key)."""
    club = ClubFactory()
    SeasonFactory(club=club)
    scorer = member(club, Role.SCORER, username="scorer")
    players = [PlayerFactory(club=club, name=name) for name in ("Ann", "Bob", "Cy")]
    game = services.game_start(actor=scorer, club=club, game_type="widow_whist", players=players)
    first, second = {"widow": 1, "tricks": [3, 5, 5]}, {"widow": None, "tricks": [4, 4, 5]}
    services.deal_record(actor=scorer, game=game, number=1, record=first)
    key = "phone-1-deal-2"
    services.deal_record(actor=scorer, game=game, number=2, record=second, idempotency_key=key)
    fixed, reason = {"widow": 1, "tricks": [4, 4, 5]}, "misread the tricks"
    services.deal_correct(actor=scorer, game=game, number=1, record=fixed, reason=reason)
    game.refresh_from_db()
    return game


@pytest.fixture
def everything(game: Game) -> Game:
    """Also a table link for the game, and bids kept as a draft in another club's game."""
    scorer = User.objects.get(username="scorer")
    services.table_link_create(actor=scorer, game=game)
    club = ClubFactory()
    director = member(club, Role.DIRECTOR)
    players = [PlayerFactory(club=club) for _ in range(3)]
    other = services.game_start(
        actor=director, club=club, game_type="prediction_whist", players=players
    )
    services.deal_draft_save(actor=director, game=other, number=1, data={"bids": [0, 1, None]})
    return game


def url(model: type[Model], view: str, *args: Any) -> str:
    meta = model._meta
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_{view}", args=args)


@pytest.mark.parametrize("model", ALL_MODELS, ids=lambda model: model.__name__)
def test_changelist_and_object_pages(
    admin_client: Client, everything: Game, model: type[Model]
) -> None:
    assert model.objects.exists()
    response = admin_client.get(url(model, "changelist"))
    assert response.status_code == 200
    obj = model.objects.first()
    assert obj is not None
    response = admin_client.get(url(model, "change", obj.pk))
    assert response.status_code == 200
    if model is TableLink:
        assert obj.token not in response.content.decode()


def test_game_changelist_filters_and_search(admin_client: Client, game: Game) -> None:
    changelist = url(Game, "changelist")
    for query in (
        {"club__id__exact": game.club_id},
        {"status__exact": GameStatus.IN_PROGRESS},
        {"game_type__exact": "widow_whist"},
        {"season__id__exact": game.season_id},
        {"q": "Bob"},
    ):
        response = admin_client.get(changelist, query)
        assert response.status_code == 200
        assert response.context["cl"].result_count == 1, query
    assert admin_client.get(changelist, {"q": "Nobody"}).context["cl"].result_count == 0


def test_game_page_shows_seats_read_only(admin_client: Client, game: Game) -> None:
    response = admin_client.get(url(Game, "change", game.pk))
    html = response.content.decode()
    assert "Ann" in html and "Bob" in html and "Cy" in html
    (seats,) = [
        inline
        for inline in response.context["inline_admin_formsets"]
        if inline.opts.model._meta.model_name == "seat"
    ]
    assert not seats.has_add_permission and not seats.has_change_permission
    assert not seats.has_delete_permission
    assert admin_client.get(url(Game, "add")).status_code == 403


@pytest.mark.parametrize("model", READ_ONLY, ids=lambda model: model.__name__)
def test_read_only_models_refuse_add_change_delete(superuser: User, model: type[Model]) -> None:
    request = RequestFactory().get("/admin/")
    request.user = superuser
    model_admin = admin.site._registry[model]
    assert model_admin.has_view_permission(request)
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)


def test_deal_cannot_be_changed_through_the_admin(admin_client: Client, game: Game) -> None:
    deal = Deal.objects.get(game=game, number=2)
    before = (deal.record, deal.scores, deal.totals, deal.version)
    response = admin_client.post(
        url(Deal, "change", deal.pk),
        {
            "game": game.pk,
            "number": 2,
            "record": '{"widow": 0, "tricks": [13, 0, 0]}',
            "dealer": 0,
            "scores": "[9, -3, -3]",
            "totals": "[9, -3, -3]",
            "context": "{}",
            "version": 7,
        },
    )
    assert response.status_code == 403
    deal.refresh_from_db()
    assert (deal.record, deal.scores, deal.totals, deal.version) == before
    assert admin_client.get(url(Deal, "add")).status_code == 403
    assert admin_client.post(url(Deal, "delete", deal.pk), {"post": "yes"}).status_code == 403
    assert Deal.objects.filter(pk=deal.pk).exists()
    # The change page shows the deal, read-only: no save button.
    page = admin_client.get(url(Deal, "change", deal.pk)).content.decode()
    assert 'name="_save"' not in page


def test_deal_changelist_columns(admin_client: Client, game: Game) -> None:
    response = admin_client.get(url(Deal, "changelist"))
    html = response.content.decode()
    for column in ("game", "number", "dealer", "scores", "version", "entered_by"):
        assert f"column-{column}" in html
    assert "scorer" in html
