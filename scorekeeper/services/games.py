"""Games: starting one, finishing or abandoning it by hand, locking it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from rules_engine import RuleError

from .. import abandon_rules, access
from ..access import Actor, actor_name
from ..errors import Conflict, InvalidInput, NotAllowed, ServiceError
from ..models import (
    Club,
    DiscardedGame,
    Game,
    GameStatus,
    Player,
    Result,
    Season,
    Seat,
)
from ..scoring import empty_sheet, sheet_after_last_deal
from ._base import (
    check_writable,
    locked_for_scoring,
    locked_game,
    locked_refusal,
    require,
    seats_of,
    sync_results,
    touch,
    user_of,
)
from .clubs import season_kept_for
from .ratings import finished_game_changed

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
    rated: bool = True,
    kept_by_starter: bool = True,
    house_rules_accepted: bool = False,
) -> Game:
    """Start a game: seats in clockwise order, house rules validated by the engine;
    ``rated``: whether it counts for the club's ratings once finished;
    ``kept_by_starter``: whether the actor, as the one who started it, may score it (not
    when they start it in a role, as a director starts a tournament's tables);
    ``house_rules_accepted``: the house rules were accepted before (a tournament's, checked
    when it was set up; a club's records brought back), so only each option's own range is
    checked, not how they keep together (a rule added since must not refuse them)."""
    require(access.can_start_game(actor, club), "only the club's members can start its games")
    for player in players:
        if player.club_id != club.pk:
            raise InvalidInput(f"{player.name} is not on this club's roster", field="players")
    if len({player.pk for player in players}) != len(players):
        raise InvalidInput("a player can take only one seat", field="players")
    played_on = played_on or timezone.localdate()
    season = season_kept_for(club=club, played_on=played_on, season=season)
    game = Game(
        club=club,
        season=season,
        game_type=game_type,
        options=dict(options or {}),
        first_dealer=first_dealer,
        played_on=played_on,
        rated=rated,
        kept_by_starter=kept_by_starter,
        created_by=user_of(actor),
    )
    seats = [Seat(game=game, position=i, player=player) for i, player in enumerate(players)]
    try:
        sheet = empty_sheet(game, seats, set_up=not house_rules_accepted)
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


@transaction.atomic
def game_finish(*, actor: Actor, game: Game) -> Game:
    """End a game by hand (an open-ended game, or a time limit): top totals win."""
    game = locked_for_scoring(game, actor, "finish it")
    check_writable(game)
    if game.status != GameStatus.IN_PROGRESS:
        raise Conflict(f"the game is already {game.get_status_display().lower()}")
    if game.deal_count == 0:
        raise Conflict("a game with no deals cannot be finished; abandon it instead")
    ruled_out = abandon_rules.finish_refusal(game)
    if ruled_out is not None:
        raise Conflict(ruled_out)
    return _finished_by_hand(game, user=user_of(actor), name=actor_name(actor))


def _finished_by_hand(game: Game, *, user: User | None, name: str) -> Game:
    game.status = GameStatus.FINISHED
    game.ended_by_hand = True
    game.ended_at = timezone.now()
    game.ended_by, game.ended_by_name = user, name
    sync_results(game, sheet_after_last_deal(game, seats_of(game)))
    return game


@transaction.atomic
def game_abandon(*, actor: Actor, game: Game) -> Game:
    """Abandon a game: it keeps its deals but counts in no standings. Who may is
    :func:`access.can_abandon`: while it is played, the club's staff and the member who
    started it (a game started by mistake); a finished game leaves the standings and
    ratings it counted in, for good: only the club's admins and directors abandon one (a
    game played by mistake); its scorers correct its deals."""
    game = locked_game(game)
    refused = abandon_refused(actor=actor, game=game)
    if refused is not None:
        raise refused
    ruled_out = abandon_rules.refusal(game)
    if ruled_out is not None:
        raise Conflict(ruled_out)
    return _abandoned(game, user=user_of(actor), name=actor_name(actor))


def abandon_refused(*, actor: Actor, game: Game) -> ServiceError | None:
    """The error :func:`game_abandon` would refuse the actor with, in its order (their
    rights, then the game's state: already abandoned, locked); None when it would go on
    (to the rules of the app the game is played in, :mod:`scorekeeper.abandon_rules`). For
    a page that asks before abandoning: it says why instead of asking."""
    refusal = access.abandon_refusal(actor, game)
    if refusal is not None:
        return NotAllowed(refusal)
    if game.status == GameStatus.ABANDONED:
        return Conflict("the game is already abandoned")
    return locked_refusal(game)


@transaction.atomic
def game_end_unfinished(*, game: Game, by: str, user: User | None = None) -> Game:
    """End a game still being played when the event it belongs to says time is up (a
    tournament's round closing; no one at the table chose to): finished by hand at its
    totals when it has a deal, abandoned when it has none; a game already ended is left as
    it is. Read under the game's lock, so a deal recorded meanwhile counts. Not for a
    person's request: no rights are asked (``by`` names what ends it on the game's page,
    e.g. "the tournament clock"; ``user``, the account that had it ended, if any)."""
    game = locked_game(game)
    if game.status != GameStatus.IN_PROGRESS:
        return game
    check_writable(game)
    if game.deal_count:
        return _finished_by_hand(game, user=user, name=by)
    return _abandoned(game, user=user, name=by)


def _abandoned(game: Game, *, user: User | None, name: str) -> Game:
    was_finished = game.status == GameStatus.FINISHED
    game.status = GameStatus.ABANDONED
    game.ended_at = timezone.now()
    game.ended_by, game.ended_by_name = user, name
    touch(game, "status", "ended_at", "ended_by", "ended_by_name")
    Result.objects.filter(game=game).update(won=False)
    finished_game_changed(game, was_finished=was_finished)
    return game


@transaction.atomic
def game_ending_restore(
    *, actor: User, game: Game, ended_at: datetime | None, ended_by: str | None
) -> Game:
    """An imported game's end as the file of games records it, instead of the import's own
    time and importer: when (``ended_at``, aware; None leaves it) and, for a game ended by
    hand or abandoned, by whom (``ended_by``, a name, the account being unknown here; None:
    nobody recorded). Only for a game the actor entered (an import starts each of its games
    as the account it acts as), a member of the club's staff; not for a locked game."""
    game = locked_game(game)
    require(
        access.role_in(actor, game.club) in access.STAFF_ROLES and game.created_by_id == actor.pk,
        "only whoever entered the game records when and by whom it ended (an import)",
    )
    if game.status == GameStatus.IN_PROGRESS:
        raise Conflict("the game is still being played: it has no end to record")
    if (locked := locked_refusal(game)) is not None:
        raise locked
    fields = ["ended_by", "ended_by_name"]
    by_someone = game.ended_by_hand or game.status == GameStatus.ABANDONED
    if ended_by is not None and not by_someone:
        raise InvalidInput(
            "only a game ended by hand or abandoned was ended by someone; its rules ended this one",
            field="ended_by",
        )
    game.ended_by, game.ended_by_name = None, ended_by or ""
    moved = ended_at is not None and ended_at != game.ended_at
    if ended_at is not None:
        if timezone.is_naive(ended_at):
            raise InvalidInput("a time with its offset from UTC", field="ended_at")
        if ended_at > timezone.now():
            raise InvalidInput("a game cannot have ended in the future", field="ended_at")
        if timezone.localdate(ended_at) < game.played_on:
            raise InvalidInput(
                f"a game played on {game.played_on.isoformat()} did not end before it",
                field="ended_at",
            )
        game.ended_at = ended_at
        fields.append("ended_at")
    touch(game, *fields)
    if moved:  # the ratings go game by game in the order the games ended
        finished_game_changed(game, was_finished=game.status == GameStatus.FINISHED)
    return game


def games_touch(*, game_ids: Sequence[int]) -> None:
    """Something shown on these games' pages changed outside them (a message from the
    tournament's director): the phones that follow them fetch their pages again."""
    Game.objects.filter(pk__in=list(game_ids)).update(
        revision=F("revision") + 1, updated_at=timezone.now()
    )


@transaction.atomic
def game_discard(*, actor: Actor, game: Game) -> None:
    """Delete a game nobody has played yet (no deal recorded, no bid kept): one started by
    mistake. A game with deals is abandoned instead, and keeps them."""
    game = locked_for_scoring(game, actor, "discard it", guests=False)
    if game.deal_count or game.deals.exists() or game.drafts.exists():
        raise Conflict(f"a deal of game {game.pk} was entered: it can be abandoned, not discarded")
    link = game.table_links.filter(revoked_at__isnull=True).first()
    DiscardedGame.objects.create(
        game_id=game.pk, club_id=game.club_id, link_token=link.token if link else ""
    )
    # no phone is still on the page of a game discarded weeks ago: forget those
    DiscardedGame.objects.filter(discarded_at__lt=timezone.now() - DiscardedGame.KEPT).delete()
    game.delete()


@transaction.atomic
def game_lock(*, actor: Actor, game: Game, reason: str) -> Game:
    """Lock the game: no deal, correction, undo, bid, finish or abandon until it is unlocked.
    ``reason`` is shown to whoever tries (e.g. "table 2's result was confirmed by Ann")."""
    game = locked_for_scoring(game, actor, "lock it")
    reason = " ".join(reason.split())[:200]
    if not reason:
        raise InvalidInput("say why the game is locked", field="reason")
    game.locked_at = timezone.now()
    game.locked_reason = reason
    touch(game, "locked_at", "locked_reason")
    return game


@transaction.atomic
def game_unlock(*, actor: Actor, game: Game) -> Game:
    """Release a lock (whoever may lift it decides, e.g. the tournament director)."""
    game = locked_for_scoring(game, actor, "unlock it", guests=False)
    if game.locked_at is None:
        raise Conflict("the game is not locked")
    game.locked_at = None
    game.locked_reason = ""
    touch(game, "locked_at", "locked_reason")
    return game
