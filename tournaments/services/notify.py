"""Telling the players: where they sit (one email each, once), and the director's messages
to every table."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from scorekeeper import services as core
from scorekeeper.access import Actor
from scorekeeper.errors import InvalidInput, NotFound
from scorekeeper.models import Game, TableLink
from scorekeeper.names import forbidden_characters

from .. import selectors
from ..access import require_director
from ..models import (
    Announcement,
    Round,
    RoundPlayer,
    Tournament,
)
from ._base import _locked, _user

ANNOUNCEMENT_MAX = 300


def _table_url(game: Game | None) -> str:
    if game is None:
        return ""
    link = TableLink.objects.filter(game=game, revoked_at__isnull=True).first()
    if link is None:
        return ""
    try:
        path = reverse("table-enter", kwargs={"token": link.token})
    except NoReverseMatch:  # pragma: no cover - the pages are always installed
        return ""
    return f"{settings.SITE_URL}{path}"


def round_notify(*, round_id: int, send: Callable[..., int] = send_mail) -> int:
    """Email each player of the round with an address where they sit (once each: a
    retry sends only what was not sent). Returns how many emails were sent."""
    round = Round.objects.select_related("tournament").get(pk=round_id)
    tournament = round.tournament
    places = list(
        round.players.filter(notified_at__isnull=True)
        .exclude(player__email="")
        .select_related("player", "table__game")
    )
    sent = 0
    for place in places:
        if place.table is None:
            subject = f"{tournament.name}, round {round.number}: you have a bye"
            body = (
                f"You sit out round {round.number} of {tournament.name}; "
                "the bye scores as the tournament says."
            )
        else:
            table = place.table
            seats = list(table.seats.select_related("player").order_by("position"))
            others = ", ".join(s.player.name for s in seats if s.player_id != place.player_id)
            dealer = seats[table.first_dealer].player.name
            url = _table_url(table.game)
            position = (place.position or 0) + 1
            subject = f"{tournament.name}, round {round.number}: table {table.number}"
            body = (
                f"Round {round.number} of {tournament.name}: table {table.number}, "
                f"seat {position} of {table.size} (clockwise), with {others}. "
                f"{dealer} deals first."
            )
            if url:
                body += f"\nEnter the scores at {url}"
        send(subject, body, None, [place.player.email])
        RoundPlayer.objects.filter(pk=place.pk).update(notified_at=timezone.now())
        sent += 1
    return sent


@transaction.atomic
def tournament_announce(*, actor: Actor, tournament: Tournament, text: str) -> Announcement:
    """A message from the director to every table: on the dashboard, the projector view and
    the tables' game pages, which follow it at once."""
    tournament = _locked(tournament.pk)
    require_director(actor, tournament.club)
    text = " ".join(text.split())
    if not text:
        raise InvalidInput("write the message to the tables", field="text")
    bad = forbidden_characters(text)
    if bad:
        raise InvalidInput(
            f"the message may not hold control characters ({', '.join(bad)})", field="text"
        )
    if len(text) > ANNOUNCEMENT_MAX:
        raise InvalidInput(f"a message has at most {ANNOUNCEMENT_MAX} characters", field="text")
    announcement = Announcement.objects.create(
        tournament=tournament, text=text, created_by=_user(actor)
    )
    core.games_touch(game_ids=selectors.playing_games(tournament))
    return announcement


@transaction.atomic
def tournament_announcement_withdraw(
    *, actor: Actor, tournament: Tournament, announcement_id: int
) -> None:
    """Take a message to the tables down (wrong, or no longer true): it leaves the
    dashboard, the projector view and the tables' pages, which follow at once."""
    tournament = _locked(tournament.pk)
    require_director(actor, tournament.club)
    deleted, _ = Announcement.objects.filter(tournament=tournament, pk=announcement_id).delete()
    if not deleted:
        raise NotFound("no such message (taken down already?)", field="announcement")
    core.games_touch(game_ids=selectors.playing_games(tournament))
