"""Clubs and their seasons (their people: :mod:`.members`; their players: :mod:`.roster`)."""

from __future__ import annotations

from datetime import date, timedelta

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError, QuerySet
from django.utils import timezone

from .. import access
from ..access import Actor
from ..errors import Conflict, InvalidInput, NotAllowed, NotFound
from ..models import Club, Game, Membership, RatingChange, Role, Season
from ..names import clean_name
from ..selectors import season_for_date
from ._base import require, user_of
from .standings import standings_rebuild


@transaction.atomic
def club_create(*, actor: Actor, name: str, slug: str, results_public: bool = False) -> Club:
    """A new club; its creator becomes its admin."""
    user = user_of(actor)
    if user is None:
        raise NotAllowed("log in to create a club")
    name = clean_name(name, what="a club", max_length=120)
    slug = slug.strip().lower()
    try:
        validate_slug(slug)
    except ValidationError:
        raise InvalidInput(
            "the club's address may hold only letters, digits, hyphens and underscores",
            field="slug",
        ) from None
    if not 2 <= len(slug) <= 60:
        raise InvalidInput("the club's address must be 2 to 60 characters long", field="slug")
    if Club.objects.filter(slug=slug).exists():
        raise InvalidInput(
            f"the address /c/{slug}/ is taken by another club: choose another", field="slug"
        )
    club = Club.objects.create(name=name, slug=slug, results_public=results_public)
    Membership.objects.create(club=club, user=user, role=Role.ADMIN)
    access.forget_roles()
    return club


@transaction.atomic
def club_update(
    *, actor: Actor, club: Club, name: str | None = None, results_public: bool | None = None
) -> Club:
    """The club's name, and whether anyone may read its standings (each left as it is when
    not given): its admins' to change. Its address stays: links and QR codes use it."""
    if not access.can_administer(actor, club):
        raise NotAllowed("only the club's admins can change its settings")
    if name is not None:
        club.name = clean_name(name, what="a club", max_length=120)
    if results_public is not None:
        club.results_public = results_public
    club.save(update_fields=["name", "results_public"])
    return club


def _day(day: date) -> str:
    """A date as the pages show it: 1 Jan 2026."""
    return f"{day.day} {day:%b %Y}"


#: The years a season's dates may fall in (a typo such as 0026 or 9999 is refused).
SEASON_YEARS = (1900, 2199)


@transaction.atomic
def season_create(*, actor: Actor, club: Club, name: str, starts_on: date, ends_on: date) -> Season:
    """A season of the club: a date range that does not overlap another."""
    require(access.can_manage_seasons(actor, club), "only admins and directors manage seasons")
    name = clean_name(name, what="a season", max_length=100)
    for field, day in (("starts_on", starts_on), ("ends_on", ends_on)):
        if not SEASON_YEARS[0] <= day.year <= SEASON_YEARS[1]:
            raise InvalidInput(
                f"a season's dates are in the years {SEASON_YEARS[0]} to {SEASON_YEARS[1]}"
                f" (got {_day(day)}): check the year",
                field=field,
            )
    if ends_on < starts_on:
        raise InvalidInput("a season cannot end before it starts", field="ends_on")
    if Season.objects.filter(club=club, name__iexact=name).exists():
        raise InvalidInput(f'the club already has a season called "{name}"', field="name")
    overlap = Season.objects.filter(
        club=club, starts_on__lte=ends_on, ends_on__gte=starts_on
    ).first()
    if overlap is not None:
        raise InvalidInput(
            f"these dates overlap the season {overlap.name} "
            f"({_day(overlap.starts_on)} to {_day(overlap.ends_on)}): start after it, "
            f"or end {overlap.name} first",
            field="starts_on",
        )
    season = Season.objects.create(club=club, name=name, starts_on=starts_on, ends_on=ends_on)
    _gather_games(season)
    return season


@transaction.atomic
def season_rename(*, actor: Actor, season: Season, name: str) -> Season:
    """Give a season another name (a typo, "Spring" for "Spring 2026")."""
    require(
        access.can_manage_seasons(actor, season.club), "only admins and directors manage seasons"
    )
    name = clean_name(name, what="a season", max_length=100)
    taken = InvalidInput(f'the club already has a season called "{name}"', field="name")
    same = Season.objects.filter(club_id=season.club_id, name__iexact=name)
    if same.exclude(pk=season.pk).exists():
        raise taken
    season.name = name
    try:
        with transaction.atomic():  # the name taken meanwhile: the constraint says so
            season.save(update_fields=["name"])
    except IntegrityError:
        raise taken from None
    return season


def season_kept_for(*, club: Club, played_on: date, season: Season | None = None) -> Season | None:
    """The season a new game or tournament of ``played_on`` counts in: ``season`` as given
    (refused when it is another club's, or was deleted meanwhile), else the club's season of
    that day, if any. Its row is kept until the caller's transaction ends (PostgreSQL: FOR
    KEY SHARE, the lock the new row's reference takes: a deletion in progress is waited for
    and then not found, and a deletion that comes after waits and finds the new row, while
    other games started in the season and edits of its name or dates go on)."""
    if season is not None:
        if season.club_id != club.pk:
            raise InvalidInput("the season belongs to another club", field="season")
        kept = _key_shared(Season.objects.filter(pk=season.pk))
        if kept is None:
            raise InvalidInput("that season no longer exists: it was deleted", field="season")
        return kept
    for _ in range(2):  # the day's season deleted (or its dates changed) while it waited
        found = season_for_date(club, played_on)
        if found is None:
            return None
        day = Season.objects.filter(pk=found.pk, starts_on__lte=played_on, ends_on__gte=played_on)
        kept = _key_shared(day)
        if kept is not None:
            return kept
    return None


def _key_shared(seasons: QuerySet[Season]) -> Season | None:
    """The first of ``seasons``, its row locked FOR KEY SHARE on PostgreSQL (SQLite writes
    one transaction at a time: nothing to lock)."""
    if connection.vendor != "postgresql":
        return seasons.first()
    sql, params = seasons.order_by().query.sql_with_params()
    return next(iter(Season.objects.raw(f"{sql} FOR KEY SHARE", params)), None)


@transaction.atomic
def season_delete(*, actor: Actor, season: Season) -> None:
    """Delete a season made by mistake: only one no game counts in (nor a tournament).
    A season with games keeps them: it is ended early instead."""
    require(
        access.can_manage_seasons(actor, season.club), "only admins and directors manage seasons"
    )
    locked = Season.objects.select_for_update().filter(pk=season.pk).first()
    if locked is None:
        raise NotFound("no such season")  # deleted meanwhile (a second click)
    season = locked
    games = Game.objects.filter(season=season).count()
    if games:
        raise Conflict(
            f"{games} game{' was' if games == 1 else 's were'} played in {season.name}: a "
            "season with games is not deleted (end it early instead)",
            field="season",
        )
    try:
        season.delete()
    except ProtectedError:
        # what else counts in it (a tournament): refused alike
        raise Conflict(
            f"a tournament counts in {season.name}: it is not deleted", field="season"
        ) from None


def _gather_games(season: Season) -> None:
    """Games fall into the season of their date, also those played before it was made."""
    moved = Game.objects.filter(
        club=season.club, season__isnull=True, played_on__range=(season.starts_on, season.ends_on)
    )
    if moved.exists():
        RatingChange.objects.filter(game__in=moved).update(season=season)
        moved.update(season=season)
        standings_rebuild(season=season)


@transaction.atomic
def season_make_current(*, actor: Actor, season: Season) -> Season:
    """Make a season still to come the current one: it starts today, and the season that
    held today ends yesterday; games from today on fall into it."""
    require(
        access.can_manage_seasons(actor, season.club), "only admins and directors manage seasons"
    )
    today = timezone.localdate()
    if season.starts_on <= today <= season.ends_on:
        raise Conflict(f"{season.name} is the current season already", field="season")
    if season.ends_on < today:
        raise InvalidInput(
            f"{season.name} ended on {season.ends_on:%d %B %Y}: a past season cannot become "
            "the current one",
            field="season",
        )
    holding = season_for_date(season.club, today)
    if holding is not None:
        if holding.starts_on == today:
            raise Conflict(
                f"{holding.name} started today: it is the current season", field="season"
            )
        season_close(actor=actor, season=holding, on=today - timedelta(days=1))
    season.starts_on = today
    season.save(update_fields=["starts_on"])
    _gather_games(season)
    return season


@transaction.atomic
def season_close(*, actor: Actor, season: Season, on: date | None = None) -> Season:
    """End the season on ``on`` (today by default) instead of its planned last day: games
    played after it no longer count in it."""
    require(
        access.can_manage_seasons(actor, season.club), "only admins and directors manage seasons"
    )
    last_day = on or timezone.localdate()
    if last_day < season.starts_on:
        raise InvalidInput(
            f"{season.name} starts on {_day(season.starts_on)}: it cannot end before that",
            field="on",
        )
    if last_day >= season.ends_on:
        raise InvalidInput(f"{season.name} already ends on {_day(season.ends_on)}", field="on")
    season.ends_on = last_day
    season.save(update_fields=["ends_on"])
    later = Game.objects.filter(season=season, played_on__gt=last_day)
    RatingChange.objects.filter(game__in=later).update(season=None)
    later.update(season=None)
    standings_rebuild(season=season)
    return season
