"""The only write paths of the score-keeping core.

Every function is keyword-only and transactional, checks the caller's rights
first, and leaves nothing half-written when it refuses (it raises a
:class:`~scorekeeper.errors.ServiceError`). Deal writes lock the game row, so
two phones at one table are served one after the other.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from rules_engine import RuleError, Scoresheet

from . import access
from .access import Actor, TableGuest, actor_name
from .errors import Conflict, IdempotencyMismatch, InvalidInput, NotAllowed, NotFound, StaleVersion
from .models import (
    Club,
    Deal,
    DealDraft,
    DealRevision,
    Game,
    GameStatus,
    IdempotencyKey,
    Membership,
    Player,
    Result,
    RevisionAction,
    Role,
    Season,
    Seat,
    TableLink,
)
from .scoring import empty_sheet, invalid_from_rule, placings
from .selectors import deal_payload, entered_by, season_for_date

MAX_REASON = 500


def _require(allowed: bool, message: str) -> None:
    if not allowed:
        raise NotAllowed(message)


def _user(actor: Actor) -> User | None:
    return actor if isinstance(actor, User) and actor.is_authenticated else None


def _guest_name(actor: Actor) -> str:
    return actor_name(actor) if isinstance(actor, TableGuest) else ""


# --- Clubs, people, players, seasons ------------------------------------------------------


@transaction.atomic
def club_create(*, actor: Actor, name: str, slug: str, results_public: bool = False) -> Club:
    """A new club; its creator becomes its admin."""
    user = _user(actor)
    if user is None:
        raise NotAllowed("log in to create a club")
    if Club.objects.filter(slug=slug).exists():
        raise InvalidInput(f'a club called "{slug}" already exists', field="slug")
    club = Club.objects.create(name=name, slug=slug, results_public=results_public)
    Membership.objects.create(club=club, user=user, role=Role.ADMIN)
    return club


@transaction.atomic
def membership_set(*, actor: Actor, club: Club, user: User, role: str) -> Membership:
    """Give ``user`` a role in the club (admins only)."""
    _require(access.can_administer(actor, club), "only the club's admins can change roles")
    if role not in Role.values:
        raise InvalidInput(f"role must be one of {', '.join(Role.values)}", field="role")
    membership, _ = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership


@transaction.atomic
def player_create(
    *,
    actor: Actor,
    club: Club,
    name: str,
    email: str = "",
    user: User | None = None,
) -> Player:
    """Add a player to the club's roster (club staff)."""
    _require(access.can_manage_roster(actor, club), "only the club's staff can add players")
    name = " ".join(name.split())
    if not name:
        raise InvalidInput("a player needs a name", field="name")
    if len(name) > 100:
        raise InvalidInput("a player's name has at most 100 characters", field="name")
    if Player.objects.filter(club=club, name__iexact=name).exists():
        raise InvalidInput(f'the roster already has a player called "{name}"', field="name")
    if user is not None and Player.objects.filter(club=club, user=user).exists():
        raise InvalidInput("that account is already linked to a player of this club", field="user")
    return Player.objects.create(club=club, name=name, email=email, user=user)


@transaction.atomic
def season_create(*, actor: Actor, club: Club, name: str, starts_on: date, ends_on: date) -> Season:
    """A season of the club: a date range that does not overlap another."""
    _require(access.can_manage_seasons(actor, club), "only admins and directors manage seasons")
    if ends_on < starts_on:
        raise InvalidInput("a season cannot end before it starts", field="ends_on")
    if Season.objects.filter(club=club, name=name).exists():
        raise InvalidInput(f'the club already has a season called "{name}"', field="name")
    overlap = Season.objects.filter(
        club=club, starts_on__lte=ends_on, ends_on__gte=starts_on
    ).first()
    if overlap is not None:
        raise InvalidInput(
            f"these dates overlap the season {overlap.name} "
            f"({overlap.starts_on} to {overlap.ends_on})",
            field="starts_on",
        )
    return Season.objects.create(club=club, name=name, starts_on=starts_on, ends_on=ends_on)


# --- Games --------------------------------------------------------------------------------

_SETUP_FIELDS = {"game": "game_type", "players": "players", "first_dealer": "first_dealer"}


def _setup_field(field: str) -> str:
    if field.startswith("players["):
        return "players"
    return _SETUP_FIELDS.get(field, field)


@transaction.atomic
def game_start(
    *,
    actor: Actor,
    club: Club,
    game_type: str,
    players: Sequence[Player],
    options: Mapping[str, Any] | None = None,
    first_dealer: int = 0,
    season: Season | None = None,
    played_on: date | None = None,
) -> Game:
    """Start a game: seats in clockwise order, house rules validated by the engine."""
    _require(access.can_start_game(actor, club), "only the club's members can start its games")
    for player in players:
        if player.club_id != club.pk:
            raise InvalidInput(f"{player.name} is not on this club's roster", field="players")
    if len({player.pk for player in players}) != len(players):
        raise InvalidInput("a player can take only one seat", field="players")
    played_on = played_on or timezone.localdate()
    if season is None:
        season = season_for_date(club, played_on)
    elif season.club_id != club.pk:
        raise InvalidInput("the season belongs to another club", field="season")
    game = Game(
        club=club,
        season=season,
        game_type=game_type,
        options=dict(options or {}),
        first_dealer=first_dealer,
        played_on=played_on,
        created_by=_user(actor),
    )
    seats = [Seat(game=game, position=i, player=player) for i, player in enumerate(players)]
    try:
        sheet = empty_sheet(game, seats)
    except RuleError as error:
        raise InvalidInput(error.message, field=_setup_field(error.field)) from None
    game.options = sheet.game.options_json(sheet.options)
    game.save()
    for seat in seats:
        seat.game = game
    Seat.objects.bulk_create(seats)
    Result.objects.bulk_create(
        Result(game=game, player=seat.player, position=seat.position, total=0, placing=1)
        for seat in seats
    )
    return game


def _locked(game: Game) -> Game:
    """The game's row, locked until the transaction ends (PostgreSQL: FOR UPDATE;
    SQLite: the IMMEDIATE transaction already holds the write lock)."""
    try:
        return Game.objects.select_for_update().select_related("club").get(pk=game.pk)
    except Game.DoesNotExist:
        raise NotFound("no such game") from None


def _locked_for_scoring(game: Game, actor: Actor, action: str, *, guests: bool = True) -> Game:
    """The game locked, once the actor is known to be allowed to ``action`` in it."""
    game = _locked(game)
    allowed = access.can_score(actor, game) and (guests or not isinstance(actor, TableGuest))
    _require(allowed, f"only the club's scorers and the game's players can {action}")
    return game


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.select_related("player").order_by("position"))


def _sync(game: Game, sheet: Scoresheet) -> None:
    """Bring the game's status and its players' results in step with ``sheet``."""
    now = timezone.now()
    if sheet.finished:
        game.status = GameStatus.FINISHED
        game.ended_by_hand = False
        game.ended_at = game.ended_at or now
    elif game.status == GameStatus.FINISHED and not game.ended_by_hand:
        game.status = GameStatus.IN_PROGRESS  # a correction or undo reopened it
        game.ended_at = None
    game.deal_count = len(sheet.deals)
    game.revision += 1
    game.save()
    if game.status == GameStatus.FINISHED:
        winners = set(sheet.winners or sheet.game.winners(sheet.table, sheet.totals))
    else:
        winners = set()
    places = placings(sheet.totals)
    results = list(Result.objects.filter(game=game).order_by("position"))
    for result in results:
        result.total = sheet.totals[result.position]
        result.placing = places[result.position]
        result.won = result.position in winners
    Result.objects.bulk_update(results, ["total", "placing", "won"])


def _replay(game: Game, seats: Sequence[Seat], records: Sequence[Any]) -> Scoresheet:
    sheet = empty_sheet(game, seats)
    for record in records:
        sheet.add(record)
    return sheet


def _fingerprint(number: int, record: Any) -> str:
    body = json.dumps({"number": number, "record": record}, sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()


@dataclass(frozen=True)
class DealRecorded:
    """The answer to a deal submission; ``replayed`` when an idempotency key repeated it."""

    payload: dict[str, Any]
    replayed: bool
    deal: Deal | None = None


def _writable(game: Game) -> None:
    if game.locked_at is not None:
        raise Conflict(f"the game is locked: {game.locked_reason}", details={"locked": True})
    if game.status == GameStatus.ABANDONED:
        raise Conflict("the game was abandoned; it takes no more changes")


def _touch(game: Game, *fields: str) -> None:
    """Save ``fields`` of the locked game and tell the phones that follow it."""
    game.revision += 1
    game.save(update_fields=[*fields, "revision", "updated_at"])


def deal_record(
    *,
    actor: Actor,
    game: Game,
    number: int,
    record: Mapping[str, Any],
    idempotency_key: str | None = None,
) -> DealRecorded:
    """Record deal ``number`` of the game.

    A repeat with the same idempotency key and the same deal returns the first
    answer; the same key with another deal is refused. A number already
    recorded, or not the next one, is refused with the deal already there.
    """
    record = {key: value for key, value in record.items() if key != "number"}
    fingerprint = _fingerprint(number, record)
    with transaction.atomic():
        game = _locked_for_scoring(game, actor, "record deals")
        if idempotency_key:
            earlier = IdempotencyKey.objects.filter(game=game, key=idempotency_key).first()
            if earlier is not None:
                if earlier.request_hash != fingerprint:
                    raise IdempotencyMismatch(
                        "this Idempotency-Key was already used for a different deal",
                        field="Idempotency-Key",
                    )
                return DealRecorded(payload=earlier.response_body, replayed=True)
        _writable(game)
        expected = game.deal_count + 1
        if number != expected:
            there = (
                Deal.objects.filter(game=game, number=number).select_related("entered_by").first()
            )
            if there is not None:
                who = entered_by(there)
                raise Conflict(
                    f"deal {number} is already recorded (by {who})",
                    field="number",
                    deal=number,
                    details={"deal": deal_payload(there), "next_number": expected},
                )
            if game.status == GameStatus.FINISHED:
                raise Conflict("the game is finished; it takes no more deals", field="number")
            raise Conflict(
                f"the next deal is {expected}; deal {number} cannot be recorded yet",
                field="number",
                deal=number,
                details={"next_number": expected},
            )
        if game.status == GameStatus.FINISHED:
            raise Conflict("the game is finished; it takes no more deals", field="number")
        seats = _seats(game)
        records = list(game.deals.order_by("number").values_list("record", flat=True))
        sheet = _replay(game, seats, records)
        try:
            scored = sheet.add(record)
        except RuleError as error:
            raise invalid_from_rule(error) from None
        user = _user(actor)
        # A number recorded again after an undo carries on its version count.
        earlier_version = (
            DealRevision.objects.filter(game=game, number=number).aggregate(v=Max("version"))["v"]
            or 0
        )
        deal = Deal.objects.create(
            game=game,
            number=number,
            version=earlier_version + 1,
            record=record,
            dealer=scored.dealer,
            scores=list(scored.scores),
            totals=list(scored.totals),
            context=dict(scored.context),
            entered_by=user,
            entered_by_name=_guest_name(actor),
        )
        DealRevision.objects.create(
            game=game,
            number=number,
            version=deal.version,
            action=RevisionAction.RECORD,
            record=record,
            scores=list(scored.scores),
            changed_by=user,
            changed_by_name=actor_name(actor),
        )
        _sync(game, sheet)
        DealDraft.objects.filter(game=game, number=number).delete()
        payload = deal_payload(deal)
        if idempotency_key:
            IdempotencyKey.objects.create(
                game=game,
                key=idempotency_key,
                request_hash=fingerprint,
                response_status=201,
                response_body=payload,
            )
    return DealRecorded(payload=payload, replayed=False, deal=deal)


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise InvalidInput("say why the deal is corrected", field="reason")
    if len(reason) > MAX_REASON:
        raise InvalidInput(f"a reason has at most {MAX_REASON} characters", field="reason")
    return reason


@transaction.atomic
def deal_correct(
    *,
    actor: Actor,
    game: Game,
    number: int,
    record: Mapping[str, Any],
    reason: str,
    expected_version: int | None = None,
) -> Deal:
    """Correct deal ``number``, rescoring every later deal (the next dealer, the end of
    the game may move). Refused, naming the deal, if a later deal becomes impossible."""
    record = {key: value for key, value in record.items() if key != "number"}
    game = _locked_for_scoring(game, actor, "correct deals")
    _writable(game)
    reason = _reason(reason)
    deals = list(game.deals.order_by("number"))
    if not 1 <= number <= len(deals):
        raise NotFound(f"the game has no deal {number}")
    target = deals[number - 1]
    if expected_version is not None and target.version != expected_version:
        raise StaleVersion(
            f"deal {number} is at version {target.version}, not {expected_version}: "
            "someone corrected it meanwhile",
            deal=number,
            details={"deal": deal_payload(target)},
        )
    records = [deal.record for deal in deals]
    records[number - 1] = record
    sheet = empty_sheet(game, _seats(game))
    for index, item in enumerate(records):
        try:
            sheet.add(item)
        except RuleError as error:
            if index == number - 1:
                raise invalid_from_rule(error) from None
            raise invalid_from_rule(
                error, prefix=f"this correction would make deal {index + 1} impossible: "
            ) from None
    user = _user(actor)
    for deal, scored in zip(deals[number - 1 :], sheet.deals[number - 1 :], strict=True):
        deal.dealer = scored.dealer
        deal.scores = list(scored.scores)
        deal.totals = list(scored.totals)
        deal.context = dict(scored.context)
    target.record = record
    target.version += 1
    Deal.objects.bulk_update(
        deals[number - 1 :], ["dealer", "scores", "totals", "context", "record", "version"]
    )
    DealRevision.objects.create(
        game=game,
        number=number,
        version=target.version,
        action=RevisionAction.CORRECT,
        record=record,
        scores=target.scores,
        reason=reason,
        changed_by=user,
        changed_by_name=actor_name(actor),
    )
    if game.status == GameStatus.FINISHED and game.ended_by_hand and sheet.finished:
        game.ended_by_hand = False
    _sync(game, sheet)
    target.refresh_from_db()
    return target


@transaction.atomic
def deal_undo(
    *, actor: Actor, game: Game, reason: str = "", expected_number: int | None = None
) -> int:
    """Take back the last deal (its history stays). Returns the number undone.

    With ``expected_number`` (the last deal as the caller saw it), a page or client
    that is behind cannot undo a deal it has not seen.
    """
    game = _locked_for_scoring(game, actor, "undo deals")
    _writable(game)
    if game.ended_by_hand:
        raise Conflict("the game was finished by hand; it takes no more changes")
    last = game.deals.order_by("-number").first()
    if last is None:
        raise Conflict("the game has no deal to undo")
    if expected_number is not None and last.number != expected_number:
        raise Conflict(
            f"deal {expected_number} is not the last deal any more; nothing was undone",
            deal=expected_number,
        )
    DealRevision.objects.create(
        game=game,
        number=last.number,
        version=last.version,
        action=RevisionAction.UNDO,
        record=last.record,
        scores=last.scores,
        reason=reason.strip()[:MAX_REASON],
        changed_by=_user(actor),
        changed_by_name=actor_name(actor),
    )
    number = last.number
    last.delete()
    records = list(game.deals.order_by("number").values_list("record", flat=True))
    _sync(game, _replay(game, _seats(game), records))
    return number


@transaction.atomic
def game_finish(*, actor: Actor, game: Game) -> Game:
    """End a game by hand (an open-ended game, or a time limit): top totals win."""
    game = _locked_for_scoring(game, actor, "finish it")
    _writable(game)
    if game.status != GameStatus.IN_PROGRESS:
        raise Conflict(f"the game is already {game.get_status_display().lower()}")
    if game.deal_count == 0:
        raise Conflict("a game with no deals cannot be finished; abandon it instead")
    game.status = GameStatus.FINISHED
    game.ended_by_hand = True
    game.ended_at = timezone.now()
    records = list(game.deals.order_by("number").values_list("record", flat=True))
    _sync(game, _replay(game, _seats(game), records))
    return game


@transaction.atomic
def game_abandon(*, actor: Actor, game: Game) -> Game:
    """Abandon a game: it keeps its deals but counts in no standings."""
    game = _locked_for_scoring(game, actor, "abandon it")
    if game.status == GameStatus.ABANDONED:
        raise Conflict("the game is already abandoned")
    _writable(game)
    game.status = GameStatus.ABANDONED
    game.ended_at = timezone.now()
    _touch(game, "status", "ended_at")
    Result.objects.filter(game=game).update(won=False)
    return game


# --- At the table: table links and drafts -------------------------------------------------


@transaction.atomic
def table_link_create(*, actor: Actor, game: Game) -> TableLink:
    """A new table link for the game; an earlier one stops working."""
    game = _locked_for_scoring(game, actor, "share its table link", guests=False)
    _writable(game)
    TableLink.objects.filter(game=game, revoked_at__isnull=True).update(revoked_at=timezone.now())
    return TableLink.objects.create(
        game=game, token=secrets.token_urlsafe(24), created_by=_user(actor)
    )


@transaction.atomic
def table_link_revoke(*, actor: Actor, game: Game) -> int:
    """Stop the game's table link from working. Returns how many links were revoked."""
    game = _locked_for_scoring(game, actor, "revoke its table link", guests=False)
    return TableLink.objects.filter(game=game, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


@transaction.atomic
def deal_draft_save(*, actor: Actor, game: Game, number: int, data: Mapping[str, Any]) -> DealDraft:
    """Keep what is known of the next deal before it is played out (prediction whist bids).

    ``data["bids"]`` has one entry per seat: a whole number from 0 to the hand size,
    or null for a bid not yet made.
    """
    game = _locked_for_scoring(game, actor, "enter bids")
    _writable(game)
    if game.status != GameStatus.IN_PROGRESS or number != game.deal_count + 1:
        raise Conflict(f"deal {number} is not the next deal of this game", field="number")
    sheet = _replay(
        game, _seats(game), list(game.deals.order_by("number").values_list("record", flat=True))
    )
    context = sheet.next_deal
    assert context is not None
    size = context.info.get("hand_size")
    bids = data.get("bids")
    if size is None or not isinstance(bids, list) or len(bids) != len(sheet.players):
        raise InvalidInput("bids are one entry per seat", field="bids")
    for seat, bid in enumerate(bids):
        if bid is None:
            continue
        if isinstance(bid, bool) or not isinstance(bid, int) or not 0 <= bid <= size:
            raise InvalidInput(
                f"{sheet.players[seat]}'s bid must be a whole number from 0 to {size}",
                field=f"bids[{seat}]",
            )
    draft, _ = DealDraft.objects.update_or_create(
        game=game, number=number, defaults={"data": {"bids": list(bids)}}
    )
    _touch(game)
    return draft


# --- Locks: a result others rely on (e.g. a confirmed tournament table) ----------------------


@transaction.atomic
def game_lock(*, actor: Actor, game: Game, reason: str) -> Game:
    """Lock the game: no deal, correction, undo, bid, finish or abandon until it is unlocked.
    ``reason`` is shown to whoever tries (e.g. "table 2's result was confirmed by Ann")."""
    game = _locked_for_scoring(game, actor, "lock it")
    reason = " ".join(reason.split())[:200]
    if not reason:
        raise InvalidInput("say why the game is locked", field="reason")
    game.locked_at = timezone.now()
    game.locked_reason = reason
    _touch(game, "locked_at", "locked_reason")
    return game


@transaction.atomic
def game_unlock(*, actor: Actor, game: Game) -> Game:
    """Release a lock (whoever may lift it decides, e.g. the tournament director)."""
    game = _locked_for_scoring(game, actor, "unlock it", guests=False)
    if game.locked_at is None:
        raise Conflict("the game is not locked")
    game.locked_at = None
    game.locked_reason = ""
    _touch(game, "locked_at", "locked_reason")
    return game
