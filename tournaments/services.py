"""The only write paths of tournaments.

Like :mod:`scorekeeper.services`: keyword-only, transactional, rights checked first,
refusals raised as :class:`~scorekeeper.errors.ServiceError`. Writes that touch a
tournament's rounds lock its row (``select_for_update``), so two directors, two
workers or a worker and the clock are served one after the other. Tables' games are
ordinary games, written only through :mod:`scorekeeper.services`.

Background work (seating, standings, e-mails) is enqueued with
``transaction.on_commit``, so a task never runs before the rows it reads exist.

Closing a round with unfinished tables (the director, or the time limit): a game with
deals is finished by hand at its current totals (``game_finish``: the top totals win);
a game with no deal is abandoned and its players count as tied at 0. Either way the
table is marked ``unfinished``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from rules_engine import GAMES, RuleError, new_scoresheet
from scorekeeper import access
from scorekeeper import services as core
from scorekeeper.access import Actor, TableGuest, actor_name
from scorekeeper.errors import Conflict, InvalidInput, NotAllowed, NotFound
from scorekeeper.models import Club, Game, GameStatus, Player, Role, Season, TableLink
from scorekeeper.names import clean_name, tidy
from scorekeeper.selectors import season_for_date

from . import jobs, points, seating_adapter, selectors
from .models import (
    MAX_ROUNDS,
    ByeScore,
    CloseReason,
    PointsSystem,
    Registration,
    RegistrationStatus,
    Round,
    RoundKind,
    RoundPlayer,
    RoundStatus,
    SeatingMethod,
    SeatingStatus,
    Standing,
    Table,
    Tournament,
    TournamentStatus,
)
from .seating import SeatingError

logger = logging.getLogger(__name__)

DIRECTORS = (Role.ADMIN, Role.DIRECTOR)


def can_direct(actor: Actor, club: Club) -> bool:
    """Run the club's tournaments: its admins and directors."""
    return access.role_in(actor, club) in DIRECTORS


def _require_director(actor: Actor, club: Club) -> None:
    if not can_direct(actor, club):
        raise NotAllowed("only the club's admins and directors run its tournaments")


def _user(actor: Actor) -> User | None:
    return actor if isinstance(actor, User) and actor.is_authenticated else None


def _locked(tournament: Tournament | int) -> Tournament:
    pk = tournament if isinstance(tournament, int) else tournament.pk
    try:
        return Tournament.objects.select_for_update(of=("self",)).select_related("club").get(pk=pk)
    except Tournament.DoesNotExist:
        raise NotFound("no such tournament") from None


def _decimal(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.001"))


# --- Tournaments -----------------------------------------------------------------------------


def _resolve_options(
    game_type: str, options: Mapping[str, Any] | None, size: int
) -> dict[str, Any]:
    game = GAMES[game_type]
    names = [f"Player {i + 1}" for i in range(size)]
    try:
        sheet = new_scoresheet(game_type, names, options=dict(options or {}))
    except RuleError as error:
        field = error.field if error.field.startswith("options") else "options"
        raise InvalidInput(error.message, field=field) from None
    return game.options_json(sheet.options)


@transaction.atomic
def tournament_create(
    *,
    actor: Actor,
    club: Club,
    name: str,
    game_type: str,
    rounds: int,
    round_kind: str,
    round_deals: int | None = None,
    round_minutes: int | None = None,
    grace_minutes: int = 10,
    options: Mapping[str, Any] | None = None,
    seating_method: str = SeatingMethod.NEW_OPPONENTS,
    table_size: int | None = None,
    mixed_sizes: bool = False,
    points_system: str = PointsSystem.OPPONENTS,
    placing_points: Sequence[float | int] | None = None,
    tie_breaks: Sequence[str] | None = None,
    bye_score: str = ByeScore.AVERAGE,
    bye_points: Decimal | float | int = 0,
    season: Season | None = None,
    played_on: date | None = None,
) -> Tournament:
    """A tournament of the club: the game and its house rules (checked by the engine),
    how many rounds and what a round is, how tables are drawn and rounds scored."""
    _require_director(actor, club)
    name = clean_name(name, what="a tournament", max_length=120)
    if Tournament.objects.filter(club=club, name__iexact=name).exists():
        raise InvalidInput(f'the club already has a tournament called "{name}"', field="name")
    if game_type not in GAMES:
        raise InvalidInput(f"unknown game {game_type!r}", field="game_type")
    game = GAMES[game_type]
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidInput(f"a tournament has 1 to {MAX_ROUNDS} rounds", field="rounds")
    if round_kind not in RoundKind.values:
        raise InvalidInput(
            f"round_kind is one of {', '.join(RoundKind.values)}", field="round_kind"
        )
    if round_kind != RoundKind.TIME:
        grace_minutes = 10  # only timed rounds have one: ignored
    if not 0 <= grace_minutes <= 120:
        raise InvalidInput("grace_minutes is from 0 to 120", field="grace_minutes")
    size = table_size or game.table_size
    if size not in game.player_counts:
        raise InvalidInput(
            f"{game.name} is played by {game.player_count_text()}", field="table_size"
        )
    if mixed_sizes and len(game.player_counts) == 1:
        raise InvalidInput(
            f"{game.name} has one table size; players left over get byes", field="mixed_sizes"
        )
    resolved = _resolve_options(game_type, options, size)
    if round_kind == RoundKind.DEALS:
        if not round_deals or round_deals < 1:
            raise InvalidInput(
                "a round of deals needs round_deals (1 or more)", field="round_deals"
            )
        round_minutes = None
        if "finish" in resolved:  # the game's own finish option ends it after N deals
            resolved["finish"] = {"deals": round_deals}
    elif round_kind == RoundKind.TIME:
        if not round_minutes or round_minutes < 1:
            raise InvalidInput(
                "a timed round needs round_minutes (1 or more)", field="round_minutes"
            )
        round_deals = None
    else:
        round_deals = round_minutes = None
        if "finish" in resolved and resolved["finish"] is None:
            raise InvalidInput(
                f"{game.name} without options.finish has no end of its own: set "
                'options.finish (e.g. {"target": 21}) or make rounds of deals or of time',
                field="options.finish",
            )
    if seating_method not in SeatingMethod.values:
        raise InvalidInput(
            f"seating_method is one of {', '.join(SeatingMethod.values)}", field="seating_method"
        )
    if points_system != PointsSystem.PLACING:
        placing_points = None  # only the placing system reads them: ignored
    if bye_score != ByeScore.FIXED:
        bye_points = 0  # only a fixed bye score reads it: ignored
    placing = list(placing_points) if placing_points is not None else list(points.DEFAULT_PLACING)
    breaks = list(tie_breaks) if tie_breaks is not None else list(points.TIE_BREAKS)
    try:
        points.Rule(
            system=points_system,
            placing=tuple(Fraction(str(v)) for v in placing),
            bye=bye_score,
            tie_breaks=tuple(breaks),
        )
    except ValueError as error:
        raise InvalidInput(str(error), field="points_system") from None
    if not placing or any(Fraction(str(v)) < 0 for v in placing):
        raise InvalidInput("placing points are numbers of 0 or more", field="placing_points")
    played_on = played_on or timezone.localdate()
    if season is None:
        season = season_for_date(club, played_on)
    elif season.club_id != club.pk:
        raise InvalidInput("the season belongs to another club", field="season")
    return Tournament.objects.create(
        club=club,
        season=season,
        name=name,
        game_type=game_type,
        options=resolved,
        rounds_planned=rounds,
        round_kind=round_kind,
        round_deals=round_deals,
        round_minutes=round_minutes,
        grace_minutes=grace_minutes,
        seating_method=seating_method,
        table_size=size,
        mixed_sizes=mixed_sizes,
        points_system=points_system,
        placing_points=placing,
        tie_breaks=breaks,
        bye_score=bye_score,
        bye_points=Decimal(str(bye_points)),
        played_on=played_on,
        created_by=_user(actor),
    )


def _open(tournament: Tournament) -> None:
    if tournament.status == TournamentStatus.FINISHED:
        raise Conflict("the tournament is finished")


# --- Registration, check-in, withdrawal ------------------------------------------------------


@transaction.atomic
def register(
    *,
    actor: Actor,
    tournament: Tournament,
    players: Sequence[Player],
    check_in: bool = False,
) -> list[Registration]:
    """Register roster players (a late arrival too: between rounds). With ``check_in``
    they are checked in from the next round at once. A withdrawn player comes back."""
    tournament = _locked(tournament)
    _require_director(actor, tournament.club)
    _open(tournament)
    for player in players:
        if player.club_id != tournament.club_id:
            raise InvalidInput(f"{player.name} is not on this club's roster", field="players")
    if len({player.pk for player in players}) != len(players):
        raise InvalidInput("a player is listed twice", field="players")
    late = tournament.rounds.exclude(status=RoundStatus.SEATING).exists()
    number = selectors.check_in_round(tournament)
    result = []
    for player in players:
        registration, created = Registration.objects.get_or_create(
            tournament=tournament, player=player, defaults={"late": late}
        )
        if not created and registration.status == RegistrationStatus.WITHDRAWN:
            registration.status = RegistrationStatus.ACTIVE
            registration.withdrawn_at = None
            registration.withdrawn_after_round = None
        if check_in:
            _mark_present(registration, number)
        registration.save()
        result.append(registration)
    return result


@transaction.atomic
def register_new(
    *, actor: Actor, tournament: Tournament, name: str, email: str = "", check_in: bool = False
) -> Registration:
    """Someone on the spot: added to the club's roster, then registered."""
    _require_director(actor, tournament.club)
    player = core.player_create(actor=actor, club=tournament.club, name=name, email=email)
    (registration,) = register(
        actor=actor, tournament=tournament, players=[player], check_in=check_in
    )
    return registration


def _registrations(tournament: Tournament, players: Sequence[Player]) -> list[Registration]:
    found = {
        r.player_id: r
        for r in Registration.objects.filter(
            tournament=tournament, player_id__in=[p.pk for p in players]
        ).select_related("player")
    }
    for player in players:
        if player.pk not in found:
            raise InvalidInput(f"{player.name} is not registered", field="players")
    return [found[player.pk] for player in players]


def _mark_present(registration: Registration, number: int) -> None:
    """Present from round ``number`` on (one already present stays as they are)."""
    if not registration.present_for(number):
        registration.checked_in_round = number
    registration.checked_out_round = None


@transaction.atomic
def check_in(
    *,
    actor: Actor,
    tournament: Tournament,
    players: Sequence[Player] = (),
    everyone: bool = False,
) -> list[Registration]:
    """Check players in from the next round on (``everyone``: every active registration).
    A check-in carries over: they stay checked in for later rounds until they check out."""
    tournament = _locked(tournament)
    _require_director(actor, tournament.club)
    _open(tournament)
    number = selectors.check_in_round(tournament)
    if number > tournament.rounds_planned:
        raise Conflict(f"all {tournament.rounds_planned} rounds are seated")
    if everyone:
        registrations = list(
            tournament.registrations.filter(status=RegistrationStatus.ACTIVE).select_related(
                "player"
            )
        )
    else:
        registrations = _registrations(tournament, players)
    for registration in registrations:
        if registration.status == RegistrationStatus.WITHDRAWN:
            raise InvalidInput(
                f"{registration.player.name} has withdrawn; register them again",
                field="players",
            )
        _mark_present(registration, number)
    Registration.objects.bulk_update(registrations, ["checked_in_round", "checked_out_round"])
    return registrations


@transaction.atomic
def check_out(
    *, actor: Actor, tournament: Tournament, players: Sequence[Player]
) -> list[Registration]:
    """Players leave from the next round on (the round being seated, or else the one
    after the last): they are no longer seated until checked in again. Unlike a
    withdrawal they stay in the tournament. A round already seated keeps its seats."""
    tournament = _locked(tournament)
    _require_director(actor, tournament.club)
    _open(tournament)
    number = selectors.check_in_round(tournament)
    if number > tournament.rounds_planned:
        raise Conflict(f"all {tournament.rounds_planned} rounds are seated")
    registrations = _registrations(tournament, players)
    for registration in registrations:
        if registration.status == RegistrationStatus.WITHDRAWN:
            raise InvalidInput(f"{registration.player.name} has withdrawn", field="players")
        if registration.checked_in_round is not None:
            registration.checked_out_round = number
        registration.checked_in_round = None
    Registration.objects.bulk_update(registrations, ["checked_in_round", "checked_out_round"])
    return registrations


@transaction.atomic
def withdraw(
    *, actor: Actor, tournament: Tournament, players: Sequence[Player]
) -> list[Registration]:
    """Withdraw players between rounds: not while they sit in a round still being
    seated or played. Their results so far stay in the standings."""
    tournament = _locked(tournament)
    _require_director(actor, tournament.club)
    registrations = _registrations(tournament, players)
    busy = RoundPlayer.objects.filter(
        round__tournament=tournament,
        player_id__in=[p.pk for p in players],
        round__status__in=[RoundStatus.SEATED, RoundStatus.PLAYING],
    ).select_related("player", "round")
    for place in busy:
        raise Conflict(
            f"{place.player.name} is in round {place.round.number}, which has not closed: "
            "withdraw them once it has",
            field="players",
        )
    last = tournament.rounds.filter(status=RoundStatus.CLOSED).order_by("-number").first()
    now = timezone.now()
    for registration in registrations:
        if registration.status == RegistrationStatus.WITHDRAWN:
            continue
        registration.status = RegistrationStatus.WITHDRAWN
        registration.withdrawn_at = now
        registration.withdrawn_after_round = last.number if last else 0
        registration.checked_in_round = None
        registration.checked_out_round = None
        registration.save()
    jobs.recompute_standings(tournament.pk)
    return registrations


# --- Seating ---------------------------------------------------------------------------------


def _layout_check(tournament: Tournament, count: int) -> None:
    game = GAMES[tournament.game_type]
    try:
        seating_adapter.table_sizes(
            count, game.player_counts, tournament.table_size, tournament.mixed_sizes
        )
    except SeatingError as error:
        raise Conflict(error.message, field="players") from None


@transaction.atomic
def round_request(
    *, actor: Actor, tournament: Tournament, method: str | None = None
) -> tuple[Round, bool]:
    """Ask for the next round to be seated (in the background). Idempotent: while the last
    round has not closed it is the answer (a seating still queued or failed is sent
    again; one running or done is left alone). Returns the round and whether a seating
    job was sent."""
    tournament = _locked(tournament)
    _require_director(actor, tournament.club)
    _open(tournament)
    if method is not None and method not in SeatingMethod.values:
        raise InvalidInput(f"method is one of {', '.join(SeatingMethod.values)}", field="method")
    last = selectors.last_round(tournament)
    if last is not None and last.status != RoundStatus.CLOSED:
        if last.status == RoundStatus.SEATING and last.seating_status == SeatingStatus.QUEUED:
            # Sent again, in case the first message was lost: the job is idempotent.
            jobs.seat_round(tournament.pk, last.number)
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


@transaction.atomic
def round_swap(
    *, actor: Actor, round: Round, first: Player, second: Player
) -> list[selectors.SeatingConflict]:
    """Swap two players' places (seats or byes) before the round is published. Allowed
    even if it repeats a meeting: the round's conflicts are returned for the director."""
    tournament = _locked(round.tournament_id)
    _require_director(actor, tournament.club)
    round = Round.objects.select_for_update().get(pk=round.pk)
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
    a_place, b_place = (a.table_id, a.position), (b.table_id, b.position)
    a.table_id, a.position = None, None  # free the seat first: (table, position) is unique
    a.save(update_fields=["table", "position"])
    b.table_id, b.position = a_place
    b.save(update_fields=["table", "position"])
    a.table_id, a.position = b_place
    a.save(update_fields=["table", "position"])
    return selectors.round_conflicts(round)


# --- Publishing and play ---------------------------------------------------------------------


def _game_options(tournament: Tournament) -> dict[str, Any]:
    return dict(tournament.options)


def _deal_limit(tournament: Tournament) -> int | None:
    """The deals a round allows where the game itself does not end there."""
    if tournament.round_kind != RoundKind.DEALS:
        return None
    if "finish" in tournament.options:
        return None  # the game's own finish option: {"deals": N}
    return tournament.round_deals


@transaction.atomic
def round_publish(*, actor: Actor, round: Round, notify: bool = True) -> Round:
    """Start every table's game (an ordinary game, with a table link each) and tell the
    players where they sit."""
    tournament = _locked(round.tournament_id)
    _require_director(actor, tournament.club)
    round = Round.objects.select_for_update().get(pk=round.pk)
    if round.status != RoundStatus.SEATED:
        state = round.get_status_display().lower()
        raise Conflict(f"round {round.number} cannot be published: it is {state}")
    today = timezone.localdate()
    limit = _deal_limit(tournament)
    options = _game_options(tournament)
    for table in round.tables.order_by("number"):
        seats = list(table.seats.select_related("player").order_by("position"))
        game = core.game_start(
            actor=actor,
            club=tournament.club,
            game_type=tournament.game_type,
            players=[seat.player for seat in seats],
            options=options,
            first_dealer=table.first_dealer,
            season=tournament.season,
            played_on=today,
        )
        core.table_link_create(actor=actor, game=game)
        table.game = game
        table.deal_limit = limit
        table.save(update_fields=["game", "deal_limit"])
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


def _same_person(actor: Actor, game: Game) -> bool:
    """Whether ``actor`` recorded the game's last deal."""
    last = game.deals.order_by("-number").first()
    if last is None:
        return False
    if isinstance(actor, TableGuest):
        return last.entered_by_id is None and (
            last.entered_by_name.strip().casefold() == actor_name(actor).strip().casefold()
        )
    return last.entered_by_id is not None and last.entered_by_id == actor.pk


@transaction.atomic
def table_confirm(*, actor: Actor, table: Table, name: str = "") -> Table:
    """A second player at the table confirms its result: a member seated at the table, or
    someone at its table link giving a name, but not whoever recorded the last deal.
    The last table to confirm closes the round."""
    if isinstance(actor, TableGuest) and not actor.name.strip() and name.strip():
        actor = TableGuest(game_id=actor.game_id, name=tidy(name))
    tournament = _locked(table.round.tournament_id)
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round", "game")
        .get(pk=table.pk)
    )
    round = table.round
    game = table.game
    if isinstance(actor, TableGuest):
        if game is None or actor.game_id != game.pk:
            raise NotAllowed("this table link is for another table")
        if not actor.name.strip():
            raise InvalidInput("say who you are to confirm the result", field="name")
    else:
        seated = (
            actor.is_authenticated
            and access.is_member(actor, tournament.club)
            and table.seats.filter(player__user_id=actor.pk).exists()
        )
        after_close = round.status == RoundStatus.CLOSED and can_direct(actor, tournament.club)
        if not seated and not after_close:
            raise NotAllowed("only a player at the table can confirm its result")
    if game is None or round.status not in (RoundStatus.PLAYING, RoundStatus.CLOSED):
        raise Conflict(f"round {round.number} is not being played")
    if table.confirmed_at is not None:
        raise Conflict(f"table {table.number} was already confirmed by {table.confirmed_by_name}")
    if round.status == RoundStatus.CLOSED:
        if not can_direct(actor, tournament.club):
            raise Conflict(f"round {round.number} is closed: the director confirms its tables")
        return _confirm_after_close(tournament, table, actor)
    if game.status == GameStatus.ABANDONED:
        raise Conflict("the game was abandoned: the director closes the round")
    if table.deal_limit is not None and game.deal_count > table.deal_limit:
        raise Conflict(
            f"the round has {table.deal_limit} deals at this table; undo the deals after it",
            field="number",
        )
    state, _ = selectors.table_state(table)
    if state != "finished":
        raise Conflict(f"the game is not finished: deal {game.deal_count + 1} is being played")
    if _same_person(actor, game):
        raise NotAllowed(
            "the result is confirmed by someone other than whoever recorded the last deal"
        )
    if game.status == GameStatus.IN_PROGRESS:  # at the round's deal limit: end it there
        core.game_finish(actor=actor, game=game)
    _mark_confirmed(table, actor)
    if not round.tables.filter(confirmed_at__isnull=True).exists():
        _close(tournament, round, CloseReason.CONFIRMED, None)
    return table


def _lock_reason(table: Table, why: str) -> str:
    return f"{why}; only the tournament director can reopen table {table.number}"


def _mark_confirmed(table: Table, actor: Actor) -> None:
    """Record the confirmation and lock the table's game: from now on its result stands."""
    table.confirmed_at = timezone.now()
    table.confirmed_by = _user(actor)
    table.confirmed_by_name = actor_name(actor)
    table.save(update_fields=["confirmed_at", "confirmed_by", "confirmed_by_name"])
    game = table.game
    assert game is not None
    why = f"the result of table {table.number} was confirmed by {table.confirmed_by_name}"
    if game.locked_at is not None:  # locked when its round closed: the confirmation says why
        core.game_unlock(actor=actor, game=game)
    core.game_lock(actor=actor, game=game, reason=_lock_reason(table, why))


def _confirm_after_close(tournament: Tournament, table: Table, actor: Actor) -> Table:
    """The director confirms a table of a closed round (e.g. once a reopened table's game
    is corrected): the game is locked again and the round's points and standings follow."""
    game = table.game
    assert game is not None
    if game.status == GameStatus.IN_PROGRESS:
        if game.deal_count == 0:
            raise Conflict("the game has no deal; it cannot be confirmed")
        core.game_finish(actor=actor, game=game)
    _mark_confirmed(table, actor)
    jobs.recompute_standings(tournament.pk)
    return table


@transaction.atomic
def table_reopen(*, actor: Actor, table: Table, reason: str) -> Table:
    """The director reopens a confirmed table (or a table of a closed round): its
    confirmation is cleared, its game can be corrected again, who and why are kept, and
    the round's points and the standings are computed again. In a round still being
    played the table confirms again as before; in a closed round the director confirms it."""
    tournament = _locked(table.round.tournament_id)
    _require_director(actor, tournament.club)
    reason = " ".join(reason.split())
    if not reason:
        raise InvalidInput("say why the table is reopened", field="reason")
    if len(reason) > 500:
        raise InvalidInput("a reason has at most 500 characters", field="reason")
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round", "game")
        .get(pk=table.pk)
    )
    game = table.game
    if game is None or game.locked_at is None:
        state = "has not started" if game is None else "is not confirmed: it can still be played"
        raise Conflict(f"table {table.number} {state}", field="table")
    table.confirmed_at = None
    table.confirmed_by = None
    table.confirmed_by_name = ""
    table.reopened_at = timezone.now()
    table.reopened_by = _user(actor)
    table.reopened_by_name = actor_name(actor)
    table.reopen_reason = reason
    table.save(
        update_fields=[
            "confirmed_at",
            "confirmed_by",
            "confirmed_by_name",
            "reopened_at",
            "reopened_by",
            "reopened_by_name",
            "reopen_reason",
        ]
    )
    core.game_unlock(actor=actor, game=game)
    if table.round.status == RoundStatus.CLOSED:
        jobs.recompute_standings(tournament.pk)
    return table


def _finish_unfinished(round: Round, reason: str) -> None:
    """Finish by hand (or abandon, with no deal) the games of unconfirmed tables."""
    clock = "tournament clock" if reason == CloseReason.TIME else "tournament director"
    for table in round.tables.filter(confirmed_at__isnull=True).select_related("game"):
        game = table.game
        if game is None:
            continue
        if game.status == GameStatus.IN_PROGRESS:
            guest = TableGuest(game_id=game.pk, name=clock)
            if game.deal_count > 0:
                core.game_finish(actor=guest, game=game)
            else:
                core.game_abandon(actor=guest, game=game)
            table.unfinished = True
            table.save(update_fields=["unfinished"])


def _score_round(tournament: Tournament, round: Round) -> None:
    """Store each player's game score, points and table win for the round."""
    result = selectors.round_result(round)
    rule = selectors.points_rule(tournament)
    given = points.round_points(result, rule)
    scores = {p: s for t in result.tables for p, s in zip(t.players, t.scores, strict=True)}
    winners = {p for t in result.tables for p in points.table_winners(t)}
    places = list(round.players.all())
    for place in places:
        value = given.get(place.player_id)
        place.points = None if value is None else _decimal(value)
        place.score = scores.get(place.player_id)
        place.table_win = place.player_id in winners
    RoundPlayer.objects.bulk_update(places, ["points", "score", "table_win"])


def _close(tournament: Tournament, round: Round, reason: str, by: User | None) -> None:
    _finish_unfinished(round, reason)
    for table in round.tables.filter(confirmed_at__isnull=True):
        if not table.unfinished:  # finished but nobody confirmed it
            table.unfinished = True
            table.save(update_fields=["unfinished"])
    TableLink.objects.filter(game__tournament_table__round=round, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    why = f"round {round.number} is closed"
    for table in round.tables.filter(game__locked_at__isnull=True).select_related("game"):
        assert table.game is not None
        guest = TableGuest(game_id=table.game.pk, name="tournament director")
        core.game_lock(actor=guest, game=table.game, reason=_lock_reason(table, why))
    _score_round(tournament, round)
    round.status = RoundStatus.CLOSED
    round.closed_at = timezone.now()
    round.close_reason = reason
    round.closed_by = by
    round.save()
    if round.number >= tournament.rounds_planned:
        tournament.status = TournamentStatus.FINISHED
        tournament.save(update_fields=["status"])
    jobs.recompute_standings(tournament.pk)


def unconfirmed_text(numbers: Sequence[int]) -> str:
    """As "table 2 has not confirmed" or "tables 1 and 3 have not confirmed"."""
    listed = [str(n) for n in numbers]
    if len(listed) == 1:
        return f"table {listed[0]} has not confirmed"
    return f"tables {', '.join(listed[:-1])} and {listed[-1]} have not confirmed"


@transaction.atomic
def round_close(*, actor: Actor, round: Round, force: bool = False) -> Round:
    """The director closes the round. Tables that have not confirmed are refused unless
    ``force``: then they are marked unfinished and their games finished at the current
    totals (a game with no deal: abandoned, its players tied at 0)."""
    tournament = _locked(round.tournament_id)
    _require_director(actor, tournament.club)
    round = Round.objects.select_for_update().get(pk=round.pk)
    if round.status == RoundStatus.CLOSED:
        raise Conflict(f"round {round.number} is closed already")
    if round.status != RoundStatus.PLAYING:
        state = round.get_status_display().lower()
        raise Conflict(f"round {round.number} cannot be closed: it is {state}")
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
    """The clock (every minute): call time on timed rounds (each table may finish the
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
                if game is not None and game.status == GameStatus.IN_PROGRESS:
                    table.deal_limit = game.deal_count + 1
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


# --- Standings and notices -------------------------------------------------------------------


def standings_recompute(*, tournament_id: int) -> int:
    """Rebuild the tournament's standings rows from its closed rounds (idempotent).
    Each round's stored points are refreshed too (a deal corrected after the round)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        rounds = _closed_rounds(tournament)
        for round in rounds:
            _score_round(tournament, round)
        registrations = {r.player_id: r for r in tournament.registrations.select_related("player")}
        names = {pk: r.player.name for pk, r in registrations.items()}
        rule = selectors.points_rule(tournament)
        table = points.standings(
            [selectors.round_result(r) for r in rounds],
            rule,
            players=list(registrations),
            order=lambda p: names.get(p, ""),
        )
        Standing.objects.filter(tournament=tournament).delete()
        Standing.objects.bulk_create(
            Standing(
                tournament=tournament,
                player_id=row.player,
                rank=row.rank,
                points=_decimal(row.points),
                game_score=row.game_score,
                opponents_points=_decimal(row.opponents),
                table_wins=row.table_wins,
                rounds_played=row.played,
                byes=row.byes,
                round_points=[None if v is None else float(_decimal(v)) for v in row.round_points],
                withdrawn=row.player in registrations
                and registrations[row.player].status == RegistrationStatus.WITHDRAWN,
            )
            for row in table
        )
        tournament.standings_updated_at = timezone.now()
        tournament.save(update_fields=["standings_updated_at"])
    return len(table)


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
    return str(getattr(settings, "SITE_URL", "")).rstrip("/") + path


def round_notify(*, round_id: int, send: Callable[..., int] = send_mail) -> int:
    """E-mail each player of the round with an address where they sit (once each: a
    retry sends only what was not sent). Returns how many e-mails were sent."""
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
