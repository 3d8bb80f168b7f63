"""A round's life: asked for, seated (a job), swapped, published, closed (by the director
or the clock)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from rules_engine import GAMES
from scorekeeper import selectors as core_selectors
from scorekeeper import services as core
from scorekeeper.access import Actor
from scorekeeper.errors import Conflict, InvalidInput, NotFound
from scorekeeper.models import Player

from .. import jobs, points, seating_adapter, selectors
from ..access import require_director
from ..models import (
    CloseReason,
    Round,
    RoundKind,
    RoundPlayer,
    RoundStatus,
    SeatingMethod,
    SeatingStatus,
    Table,
    Tournament,
    TournamentStatus,
)
from ..seating import SeatingError
from ._base import _deal_limit, _game_options, _locked, _open, _user, choices
from .closing import _close, unconfirmed_text

logger = logging.getLogger(__name__)


def _layout_check(tournament: Tournament, count: int) -> None:
    game = GAMES[tournament.game_type]
    try:
        seating_adapter.table_sizes(
            count, game.player_counts, tournament.table_size, tournament.mixed_sizes
        )
    except SeatingError as error:
        raise Conflict(
            f"too few players checked in to seat a round ({error.message}); check players in first",
            field="players",
        ) from None


@transaction.atomic
def round_request(
    *, actor: Actor, tournament: Tournament, method: str | None = None
) -> tuple[Round, bool]:
    """Ask for the next round to be seated (in the background). Idempotent: while the last
    round has not closed it is the answer (a seating still queued or failed is sent
    again; one running or done is left alone). Returns the round and whether a seating
    job was sent."""
    tournament = _locked(tournament)
    require_director(actor, tournament.club)
    _open(tournament)
    if method is not None and method not in SeatingMethod.values:
        raise InvalidInput(f"the seating method is one of {choices(SeatingMethod)}", field="method")
    last = selectors.last_round(tournament)
    if last is not None and last.status != RoundStatus.CLOSED:
        if last.status == RoundStatus.SEATING and last.seating_status == SeatingStatus.QUEUED:
            # Sent again, in case the first message was lost: the job is idempotent. One no
            # worker has started for a while is done here, now (the director is waiting).
            jobs.seat_round(tournament.pk, last.number, here=selectors.seating_stuck(last))
            return last, True
        if last.status == RoundStatus.SEATING and last.seating_status == SeatingStatus.FAILED:
            _layout_check(tournament, selectors.checked_in(tournament, last.number).count())
            last.seating_status = SeatingStatus.QUEUED
            last.seating_progress = 0
            last.seating_error = ""
            if method is not None:
                last.seating_method = method
            last.save()
            jobs.seat_round(tournament.pk, last.number)
            return last, True
        return last, False
    number = 1 if last is None else last.number + 1
    if number > tournament.rounds_planned:
        raise Conflict(f"all {tournament.rounds_planned} rounds have been played")
    _layout_check(tournament, selectors.checked_in(tournament, number).count())
    try:
        with transaction.atomic():
            round = Round.objects.create(
                tournament=tournament,
                number=number,
                seating_method=method or tournament.seating_method,
            )
    except IntegrityError:  # pragma: no cover - the tournament lock makes this unlikely
        return Round.objects.get(tournament=tournament, number=number), False
    if tournament.status == TournamentStatus.OPEN:
        tournament.status = TournamentStatus.RUNNING
        tournament.save(update_fields=["status"])
    jobs.seat_round(tournament.pk, number)
    return round, True


def _seating_request(tournament: Tournament, round: Round) -> seating_adapter.SeatingRequest:
    registrations = list(selectors.checked_in(tournament, round.number))
    ids = [r.player_id for r in registrations]
    names = {r.player_id: r.player.name for r in registrations}
    if round.seating_method == SeatingMethod.STANDINGS:
        table = points.standings(
            [selectors.round_result(r) for r in _closed_rounds(tournament)],
            selectors.points_rule(tournament),
            players=ids,
            order=lambda p: names.get(p, ""),
        )
        ranked = [row.player for row in table if row.player in names]
    else:
        ranked = sorted(ids)
    game = GAMES[tournament.game_type]
    return seating_adapter.SeatingRequest(
        players=tuple(ranked),
        method=round.seating_method,
        sizes=tuple(game.player_counts),
        preferred=tournament.table_size,
        mixed=tournament.mixed_sizes,
        history=selectors.seating_history(tournament, round.number),
        seed=tournament.pk * 1000 + round.number,
        rounds_left=max(1, tournament.rounds_planned - round.number + 1),
    )


def _closed_rounds(tournament: Tournament) -> list[Round]:
    return list(tournament.rounds.filter(status=RoundStatus.CLOSED).order_by("number"))


def round_seat(*, tournament_id: int, number: int) -> Round:
    """Seat round ``number`` (the background job). Idempotent: a round already seated is
    left as it is, and the unique (round, player) constraint seats nobody twice.

    The dashboard polls ``seating_status`` (queued, running, done, failed) and
    ``seating_progress`` (0 to 100), each written in its own short transaction.
    """
    with transaction.atomic():
        tournament = _locked(tournament_id)
        round = Round.objects.filter(tournament=tournament, number=number).first()
        if round is None:
            raise NotFound(f"the tournament has no round {number}")
        if round.status != RoundStatus.SEATING or round.seating_status == SeatingStatus.DONE:
            return round
        round.seating_status = SeatingStatus.RUNNING
        round.seating_progress = 1
        round.seating_error = ""
        round.save(update_fields=["seating_status", "seating_progress", "seating_error"])
        request = _seating_request(tournament, round)
    round_pk = round.pk

    def progress(percent: int) -> None:
        Round.objects.filter(pk=round_pk, seating_status=SeatingStatus.RUNNING).update(
            seating_progress=max(1, min(99, percent))
        )

    try:
        plan = seating_adapter.plan_round(request, progress)
    except SeatingError as error:
        _seating_failed(round, error.message)
        round.refresh_from_db()
        return round
    except Exception:
        _seating_failed(round, "the seating failed unexpectedly; it has been logged")
        raise

    with transaction.atomic():
        tournament = _locked(tournament_id)
        round = Round.objects.select_for_update().get(pk=round.pk)
        if round.status != RoundStatus.SEATING or round.seating_status == SeatingStatus.DONE:
            return round  # another run got there first
        tables = Table.objects.bulk_create(
            Table(
                round=round,
                number=index + 1,
                size=len(planned.players),
                first_dealer=planned.first_dealer,
            )
            for index, planned in enumerate(plan.tables)
        )
        places = [
            RoundPlayer(round=round, player_id=player, table=table, position=position)
            for table, planned in zip(tables, plan.tables, strict=True)
            for position, player in enumerate(planned.players)
        ]
        places += [RoundPlayer(round=round, player_id=player) for player in plan.byes]
        RoundPlayer.objects.bulk_create(places)
        round.status = RoundStatus.SEATED
        round.seating_status = SeatingStatus.DONE
        round.seating_progress = 100
        round.seated_at = timezone.now()
        round.save()
    return round


def _seating_failed(round: Round, message: str) -> None:
    Round.objects.filter(pk=round.pk, status=RoundStatus.SEATING).update(
        seating_status=SeatingStatus.FAILED, seating_error=message[:500]
    )


def _directed(actor: Actor, round: Round) -> tuple[Tournament, Round]:
    """A director's change to a round: its tournament and the round, both locked, once the
    actor is known to direct the club's tournaments."""
    tournament = _locked(round.tournament_id)
    require_director(actor, tournament.club)
    return tournament, Round.objects.select_for_update().get(pk=round.pk)


def _refused_unless(round: Round, status: str, refused: str) -> None:
    """A Conflict unless the round is at ``status``: "round 3 {refused}: it is seated"."""
    if round.status != status:
        state = round.get_status_display().lower()
        raise Conflict(f"round {round.number} {refused}: it is {state}")


@transaction.atomic
def round_swap(
    *, actor: Actor, round: Round, first: Player, second: Player
) -> list[selectors.SeatingConflict]:
    """Swap two players' places (seats or byes) before the round is published. Allowed
    even if it repeats a meeting: the round's conflicts are returned for the director."""
    tournament, round = _directed(actor, round)
    if round.status != RoundStatus.SEATED:
        raise Conflict(
            "players can be swapped only once the round is seated and before it is published"
        )
    if first.pk == second.pk:
        raise InvalidInput("swap two different players", field="players")
    places = {
        p.player_id: p for p in RoundPlayer.objects.filter(round=round, player__in=[first, second])
    }
    for player in (first, second):
        if player.pk not in places:
            raise InvalidInput(f"{player.name} is not in round {round.number}", field="players")
    a, b = places[first.pk], places[second.pk]
    if a.table_id is None and b.table_id is None:
        raise InvalidInput(
            f"{first.name} and {second.name} both sit out round {round.number}: swapping "
            "them changes nothing",
            field="players",
        )
    a_place, b_place = (a.table_id, a.position), (b.table_id, b.position)
    a.table_id, a.position = None, None  # free the seat first: (table, position) is unique
    a.save(update_fields=["table", "position"])
    b.table_id, b.position = a_place
    b.save(update_fields=["table", "position"])
    a.table_id, a.position = b_place
    a.save(update_fields=["table", "position"])
    return selectors.round_conflicts(round)


def _start_table(actor: Actor, tournament: Tournament, table: Table) -> None:
    """Start the table's game (an ordinary game of the club) with its table link."""
    seats = list(table.seats.select_related("player").order_by("position"))
    game = core.game_start(
        actor=actor,
        club=tournament.club,
        game_type=tournament.game_type,
        players=[seat.player for seat in seats],
        options=_game_options(tournament),
        first_dealer=table.first_dealer,
        season=tournament.season,
        played_on=timezone.localdate(),
        rated=tournament.rated,
        kept_by_starter=False,  # the director's role scores it, while they hold it
        house_rules_accepted=True,  # checked when the tournament was set up
    )
    core.table_link_create(actor=actor, game=game, token=table.link_token)
    table.game = game
    table.deal_limit = _deal_limit(tournament)
    table.link_token = ""
    table.save(update_fields=["game", "deal_limit", "link_token"])


def _discard_game(actor: Actor, table: Table) -> None:
    """Discard the game of a table that has not started, keeping its table link's token for
    the game that replaces it (the table's printed card keeps working)."""
    game, table.game, table.deal_limit = table.game, None, None
    link = core_selectors.active_table_link(game) if game is not None else None
    table.link_token = link.token if link is not None else ""
    table.save(update_fields=["game", "deal_limit", "link_token"])
    if game is not None:
        core.game_discard(actor=actor, game=game)


def seat_late_arrival(actor: Actor, tournament: Tournament, player: Player) -> Table | None:
    """Seat a player checked in after the last round was seated in that round, where the
    seating allows (the caller holds the tournament locked): with the round's byes, when
    together they make a table (its game started at once if the round is being played);
    or at its smallest table that can take one more (a table of prediction whist below 6)
    and, once the round is being played, has not started (its game starts again with them,
    on the same table link). None: they wait for the next round."""
    round = (
        Round.objects.select_for_update()
        .filter(tournament=tournament, status__in=(RoundStatus.SEATED, RoundStatus.PLAYING))
        .order_by("-number")
        .first()
    )
    if round is None or RoundPlayer.objects.filter(round=round, player=player).exists():
        return None
    sizes = GAMES[tournament.game_type].player_counts
    byes = list(RoundPlayer.objects.filter(round=round, table__isnull=True).order_by("id"))
    if len(byes) + 1 in sizes:
        number = (round.tables.aggregate(top=Max("number"))["top"] or 0) + 1
        table = Table.objects.create(round=round, number=number, size=len(byes) + 1)
        late = RoundPlayer.objects.create(round=round, player=player)
        for position, place in enumerate([*byes, late]):
            place.table, place.position = table, position
        RoundPlayer.objects.bulk_update([*byes, late], ["table", "position"])
        if round.status == RoundStatus.PLAYING:
            _start_table(actor, tournament, table)
        return table
    tables = round.tables.filter(size__lt=max(sizes), size__gte=min(sizes))
    if round.status == RoundStatus.PLAYING:
        # only a table that has not started (no deal, no bids kept) takes one more: its
        # game starts again with them, on the same table link
        started = selectors.started_tables(round)
        tables = tables.filter(confirmed_at__isnull=True).exclude(number__in=started)
    smallest = tables.order_by("size", "number").first()
    if smallest is None or (smallest.size + 1 not in sizes):
        return None
    _discard_game(actor, smallest)
    RoundPlayer.objects.create(round=round, player=player, table=smallest, position=smallest.size)
    smallest.size += 1
    smallest.save(update_fields=["size"])
    if round.status == RoundStatus.PLAYING:
        _start_table(actor, tournament, smallest)
    return smallest


@transaction.atomic
def round_publish(*, actor: Actor, round: Round, notify: bool = True) -> Round:
    """Start every table's game (an ordinary game, with a table link each) and tell the
    players where they sit."""
    tournament, round = _directed(actor, round)
    _refused_unless(round, RoundStatus.SEATED, "cannot be published")
    for table in round.tables.order_by("number"):
        _start_table(actor, tournament, table)
    now = timezone.now()
    round.status = RoundStatus.PLAYING
    round.published_at = now
    if tournament.round_kind == RoundKind.TIME and tournament.round_minutes:
        round.time_called_at = now + timedelta(minutes=tournament.round_minutes)
        round.deadline = round.time_called_at + timedelta(minutes=tournament.grace_minutes)
    round.save()
    if notify:
        jobs.notify_round(round.pk)
    return round


@transaction.atomic
def round_unpublish(*, actor: Actor, round: Round) -> Round:
    """Take back publishing a round before any table started: its games are discarded and
    the round is seated again (its tables can be swapped, and it published anew)."""
    tournament, round = _directed(actor, round)
    _refused_unless(round, RoundStatus.PLAYING, "is not being played")
    tables = list(round.tables.select_related("game").order_by("number"))
    started = selectors.started_tables(round)
    if started:
        which = ", ".join(str(number) for number in started)
        tables_have = f"tables {which} have" if len(started) > 1 else f"table {which} has"
        raise Conflict(
            f"{tables_have} started playing round {round.number}: the round can no longer "
            "be taken back",
            field="round",
        )
    for table in tables:
        _discard_game(actor, table)
    round.status = RoundStatus.SEATED
    round.published_at = round.time_called_at = round.deadline = None
    round.time_called = False
    round.save()
    return round


@transaction.atomic
def round_close(*, actor: Actor, round: Round, force: bool = False) -> Round:
    """The director closes the round. Tables that have not confirmed are refused unless
    ``force``: then they are marked unfinished and their games finished at the current
    totals (a game with no deal: abandoned, its players tied at 0)."""
    tournament, round = _directed(actor, round)
    if round.status == RoundStatus.CLOSED:
        raise Conflict(f"round {round.number} is closed already")
    _refused_unless(round, RoundStatus.PLAYING, "cannot be closed")
    open_tables = list(
        round.tables.filter(confirmed_at__isnull=True)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if open_tables and not force:
        raise Conflict(
            f"round {round.number} is not closed: {unconfirmed_text(open_tables)}; close it "
            "now with force to finish unconfirmed tables at their totals",
            details={"unconfirmed": open_tables},
        )
    _close(tournament, round, CloseReason.DIRECTOR, _user(actor))
    return round


def rounds_close_due(now: datetime | None = None) -> dict[str, int]:
    """The clock (every 15 s): call time on timed rounds (each table may finish the
    deal in progress: one more deal) and close those whose deadline has passed."""
    now = now or timezone.now()
    called = closed = 0
    due = Round.objects.filter(
        status=RoundStatus.PLAYING, time_called=False, time_called_at__lte=now
    ).values_list("pk", flat=True)
    for pk in list(due):
        with transaction.atomic():
            round = Round.objects.select_for_update().get(pk=pk)
            if round.status != RoundStatus.PLAYING or round.time_called:
                continue
            for table in round.tables.filter(confirmed_at__isnull=True).select_related("game"):
                game = table.game
                if game is not None and table.deal_limit is None:
                    # The deal in progress when time was called, as the tables' pages have
                    # shown it since (deals after it are undone before confirming).
                    table.round = round
                    table.deal_limit = selectors.last_deal_at(table, game) or (game.deal_count + 1)
                    table.save(update_fields=["deal_limit"])
            round.time_called = True
            round.save(update_fields=["time_called"])
            called += 1
    late = Round.objects.filter(status=RoundStatus.PLAYING, deadline__lte=now).values_list(
        "pk", "tournament_id"
    )
    for pk, tournament_id in list(late):
        try:
            with transaction.atomic():
                tournament = _locked(tournament_id)
                round = Round.objects.select_for_update().get(pk=pk)
                if round.status != RoundStatus.PLAYING:
                    continue
                _close(tournament, round, CloseReason.TIME, None)
                closed += 1
        except Exception:  # one round's trouble must not stop the clock for the others
            logger.exception("closing round %s at its time limit failed", pk)
    return {"called": called, "closed": closed}
