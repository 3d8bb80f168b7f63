"""Reads for tournaments: what the API, the pages and the services show. No writes.

Over 500 lines by design: every read of the tournament app is here, in the order of a
tournament's day (visibility, jobs, registrations, rounds and tables, conflicts, standings,
the clock), so pages, API and services share one door to the database."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.utils import timezone

from scorekeeper import access, outbox
from scorekeeper import selectors as core_selectors
from scorekeeper.access import Actor, TableGuest, actor_device, actor_name
from scorekeeper.deal_limits import DealLimit
from scorekeeper.errors import NotFound
from scorekeeper.models import (
    Club,
    DealDraft,
    DealRevision,
    Game,
    GameStatus,
    OutboxJob,
    Player,
    Result,
    RevisionAction,
)

from . import seating_adapter
from .models import (
    Announcement,
    Registration,
    RegistrationStatus,
    Round,
    RoundPlayer,
    RoundStatus,
    SeatingStatus,
    Standing,
    Table,
    Tournament,
    TournamentStatus,
)
from .points import RoundResult, Rule, TableResult


def tournaments_visible_to(actor: Actor) -> QuerySet[Tournament]:
    """Tournaments of the actor's clubs (anonymous callers: none)."""
    if not actor.is_authenticated or actor.pk is None:
        return Tournament.objects.none()
    return Tournament.objects.filter(club__memberships__user_id=actor.pk).distinct()


def tournament_visible_to(actor: Actor, pk: int) -> Tournament:
    """The tournament if the actor is a member of its club; otherwise NotFound."""
    return core_selectors.by_id(
        tournaments_visible_to(actor).select_related("club"), pk, "no such tournament"
    )


def tournament_results_readable_by(actor: Actor, pk: int) -> Tournament:
    """The tournament if the actor may read its results (its club's members, or anyone
    when the club publishes its results); otherwise NotFound."""
    return core_selectors.by_id(
        Tournament.objects.select_related("club"),
        pk,
        "no such tournament",
        lambda tournament: access.can_read_results(actor, tournament.club),
    )


def tournaments_of(club: Club) -> QuerySet[Tournament]:
    return (
        Tournament.objects.filter(club=club)
        .annotate(
            registered=Count(
                "registrations", filter=Q(registrations__status=RegistrationStatus.ACTIVE)
            )
        )
        .order_by("-played_on", "-id")
    )


# A seating queued this long has not been picked up by a worker: the director may try again.
SEATING_STUCK_AFTER = timedelta(seconds=30)


def seating_stuck(round: Round | None) -> bool:
    """Whether the round's seating is still queued (no worker started it) a while after it
    was asked for."""
    return (
        round is not None
        and round.status == RoundStatus.SEATING
        and round.seating_status == SeatingStatus.QUEUED
        and round.created_at < timezone.now() - SEATING_STUCK_AFTER
    )


def stuck_jobs(tournament: Tournament) -> list[outbox.StuckJob]:
    """The tournament's background jobs that are stuck (see :func:`scorekeeper.outbox.stuck`),
    newest first, one per thing the director waits for: the standings, a round's emails, a
    seating a worker started and did not finish (one no worker started has its own notice,
    :func:`seating_stuck`)."""
    rounds = {r.pk: r for r in tournament.rounds.all()}
    found = outbox.stuck().filter(_jobs_of(tournament, list(rounds)))
    numbered = {r.number: r for r in rounds.values()}
    shown: dict[str, outbox.StuckJob] = {}
    for job in reversed(list(found)):
        args = list(job.args)
        if job.task == STANDINGS_TASK:
            what = "Updating the standings"
        elif job.task == NOTIFY_TASK:
            what = f"Emailing round {rounds[args[0]].number}'s players where they sit"
        else:
            round = numbered.get(args[1]) if len(args) > 1 else None
            if round is None or round.seating_status != SeatingStatus.RUNNING:
                continue
            what = f"Seating round {round.number}"
        shown.setdefault(what, outbox.shown(job, what))
    return list(shown.values())


def tournament_has_job(tournament: Tournament, job_id: int) -> bool:
    """Whether the outbox's job ``job_id`` is one of the tournament's."""
    rounds = list(tournament.rounds.values_list("pk", flat=True))
    return OutboxJob.objects.filter(_jobs_of(tournament, rounds), pk=job_id).exists()


def _jobs_of(tournament: Tournament, round_ids: list[int]) -> Q:
    return Q(task__in=(SEAT_TASK, STANDINGS_TASK), args__0=tournament.pk) | Q(
        task=NOTIFY_TASK, args__0__in=round_ids
    )


SEAT_TASK = "tournaments.seat_round"
STANDINGS_TASK = "tournaments.recompute_standings"
NOTIFY_TASK = "tournaments.notify_round"


def last_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


def check_in_round(tournament: Tournament) -> int:
    """The round check-ins are for: the round being seated, or else the next one."""
    last = last_round(tournament)
    if last is None:
        return 1
    if last.status == RoundStatus.SEATING:
        return last.number
    return last.number + 1


def registrations(tournament: Tournament) -> QuerySet[Registration]:
    return tournament.registrations.select_related("player").order_by("player__name")


def checked_in(tournament: Tournament, number: int) -> QuerySet[Registration]:
    """Who is present for round ``number``: checked in from it or an earlier round, and
    not checked out since (see :meth:`Registration.present_for`)."""
    return tournament.registrations.filter(
        status=RegistrationStatus.ACTIVE, checked_in_round__lte=number
    ).select_related("player")


def roster_for_registration(
    tournament: Tournament, query: str = ""
) -> list[tuple[Player, Registration | None]]:
    """The club's active roster (names containing ``query``), each player with their
    registration in the tournament if any, by name."""
    found = {r.player_id: r for r in tournament.registrations.all()}
    players = Player.objects.filter(club_id=tournament.club_id, active=True).order_by("name")
    needle = query.strip().casefold()
    return [(p, found.get(p.pk)) for p in players if needle in p.name.casefold()]


def unregistered_roster(tournament: Tournament, query: str = "") -> list[Player]:
    """Active roster players (names containing ``query``) never registered in it."""
    return [p for p, r in roster_for_registration(tournament, query) if r is None]


def points_rule(tournament: Tournament) -> Rule:
    from fractions import Fraction

    return Rule(
        system=tournament.points_system,
        placing=tuple(Fraction(str(value)) for value in tournament.placing_points),
        bye=tournament.bye_score,
        bye_points=Fraction(str(tournament.bye_points)),
        tie_breaks=tuple(tournament.tie_breaks),
    )


def played_out(table: Table) -> bool:
    """Whether the table's game reached its own end (all its deals), confirmed or not; a
    game the round's close finished at its totals did not."""
    game = table.game
    return game is not None and game.status == GameStatus.FINISHED and not game.ended_by_hand


def recorded_last_deal(actor: Actor, game: Game) -> bool:
    """Whether ``actor`` recorded the game's last deal or made its latest change (a
    correction, an undo), and so does not confirm its result: the member who did, or the
    guest at the table link who gave that name or came in with that browser (whatever
    name it gives now), or in whose browser that member used the game pages (signed out
    since)."""
    last = game.deals.order_by("-number").first()
    if last is None:
        return False
    revisions = DealRevision.objects.filter(game=game).order_by("-id")
    # who recorded the last deal (and from which browser), and who made the latest change
    done = [(last.entered_by_id, last.entered_by_name, "")]
    for revision in (
        revisions.filter(number=last.number, action=RevisionAction.RECORD).first(),
        revisions.first(),
    ):
        if revision is not None:
            done.append(
                (revision.changed_by_id, revision.changed_by_name, revision.changed_by_device)
            )
    if isinstance(actor, TableGuest):
        # a guest who gave no name yet is known by the browser alone ("someone at the
        # table" may be anyone else who gave none)
        me = actor_name(actor).strip().casefold() if actor.name.strip() else ""
        device = actor_device(actor)
        return any(
            by in actor.members
            if by is not None
            else bool(me) and name.strip().casefold() == me or bool(device) and seen == device
            for by, name, seen in done
        )
    return any(by is not None and by == actor.pk for by, _, _ in done)


def round_scores(round: Round) -> dict[int, list[tuple[int, int]]]:
    """Each table's (player, game score) in seat order, from its game's results."""
    return _scores_of(list(round.tables.order_by("number")))


def _scores_of(tables: list[Table]) -> dict[int, list[tuple[int, int]]]:
    results = Result.objects.filter(game_id__in=[t.game_id for t in tables if t.game_id])
    by_game: dict[int, list[tuple[int, int]]] = {}
    for result in results.order_by("game_id", "position"):
        by_game.setdefault(result.game_id, []).append((result.player_id, result.total))
    return {table.pk: by_game.get(table.game_id, []) if table.game_id else [] for table in tables}


def round_result(round: Round) -> RoundResult[int]:
    """A closed (or playing) round as points.py takes it."""
    rows = list(round.tables.select_related("game").order_by("number"))
    scores = _scores_of(rows)
    played = {t.pk for t in rows if t.game is not None and t.game.deal_count > 0}
    tables = tuple(
        TableResult(
            players=tuple(player for player, _ in seats),
            scores=tuple(s for _, s in seats),
            played=table in played,
        )
        for table, seats in scores.items()
        if len(seats) >= 2
    )
    byes = tuple(
        round.players.filter(table__isnull=True)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )
    return RoundResult(tables=tables, byes=byes)


def seating_history(tournament: Tournament, before: int) -> tuple[seating_adapter.PastRound, ...]:
    """Rounds seated before round ``before``, as the seating adapter takes them."""
    rounds = []
    for past in tournament.rounds.filter(number__lt=before).exclude(status=RoundStatus.SEATING):
        seats = list(past.players.order_by("table__number", "position"))
        tables = []
        for table in past.tables.order_by("number"):
            players = tuple(s.player_id for s in seats if s.table_id == table.pk)
            tables.append(seating_adapter.PastTable(players, table.first_dealer))
        byes = tuple(s.player_id for s in seats if s.table_id is None)
        rounds.append(seating_adapter.PastRound(tuple(tables), byes))
    return tuple(rounds)


# --- Tables ---------------------------------------------------------------------------------


TABLE_STATES = ("not_started", "playing", "finished", "confirmed")


def table_state(table: Table) -> tuple[str, int | None]:
    """``not_started`` / ``playing`` (with the deal in play) / ``finished`` (waiting for
    its confirmation) / ``confirmed``."""
    if table.confirmed_at is not None:
        return "confirmed", None
    game = table.game
    if game is None:
        return "not_started", None
    if game.status != GameStatus.IN_PROGRESS:
        return "finished", None
    last = last_deal_at(table, game)
    if last is not None and game.deal_count >= last:
        return "finished", None
    if game.deal_count == 0:
        # the bids of the first deal kept: the cards are dealt (:func:`started_tables`)
        bidding = getattr(table, "bidding", None)
        if bidding is None:
            bidding = game.drafts.exists()
        return ("playing", 1) if bidding else ("not_started", None)
    return "playing", game.deal_count + 1


def last_deal_at(table: Table, game: Game) -> int | None:
    """The last deal the table's round allows it (None: the game's own end): the round's
    deal limit, or once a timed round's time is called, the deal that was in progress then:
    one after the highest deal recorded before the call (as first recorded: an undo does
    not change it), also before the clock's job has called it, and for a table started
    after the call."""
    if table.deal_limit is not None:
        return table.deal_limit
    round = table.round
    called_at = round.time_called_at
    if round.status != RoundStatus.PLAYING or called_at is None:
        return None
    if not round.time_called and timezone.now() < called_at:
        return None
    before = DealRevision.objects.filter(
        game=game, action=RevisionAction.RECORD, changed_at__lt=called_at
    ).aggregate(last=Max("number"))["last"]
    return (before or 0) + 1


def deal_limit(game: Game) -> DealLimit | None:
    """What a tournament table's game may take (``scorekeeper.deal_limits``)."""
    table = table_of(game)
    if table is None or table.confirmed_at is not None:
        return None
    last = last_deal_at(table, game)
    if last is None:
        return None
    round = table.round
    if round.time_called_at is not None:
        reason = f"time was called for round {round.number}"
    else:
        reason = f"round {round.number} is {last} {'deal' if last == 1 else 'deals'}"
    return DealLimit(last=last, reason=reason)


def abandon_refusal(game: Game) -> str | None:
    """Why a tournament table's game is not abandoned (``scorekeeper.abandon_rules``): its
    result counts in the tournament, and the round's closing ends it."""
    table = table_of(game)
    if table is None:
        return None
    return (
        f"this game is table {table.number} of round {table.round.number} of "
        f"{table.round.tournament.name}: it ends when the round closes (a table that played "
        "no deal is abandoned then, and counts as a tie at 0 in the tournament), and a deal "
        "entered wrongly is corrected"
    )


def finish_refusal(game: Game) -> str | None:
    """Why a tournament table's game is not finished by hand yet
    (``scorekeeper.abandon_rules``): the table plays until its round's last deal (a round of
    N deals, or the deal in progress when time is called); then confirming its result ends
    it. The director closes a round early."""
    table = table_of(game)
    if table is None or table.confirmed_at is not None:
        return None
    round = table.round
    if round.status != RoundStatus.PLAYING:
        return None  # a closed round's table, reopened: the director confirms it
    last = last_deal_at(table, game)
    if last is not None and game.deal_count >= last:
        return None
    if last is not None:
        until = f"its last deal, deal {last}"
    elif round.time_called_at is not None:
        called = timezone.localtime(round.time_called_at)
        until = f"the deal in progress when time is called at {called:%H:%M}"
    else:
        until = "the game's own end"
    return (
        f"this game is table {table.number} of round {round.number} of "
        f"{round.tournament.name}: it is played until {until} (the director can close the "
        "round sooner)"
    )


def table_of(game: Game) -> Table | None:
    """The tournament table a game is played at, if any (for the phone pages), with its
    round and tournament; kept with the game (none: known when the game was read)."""
    relation = Game._meta.get_field("tournament_table")
    if relation.is_cached(game):
        known: Table | None = getattr(game, "tournament_table", None)
        if known is None or Table.round.is_cached(known):
            return known
    table = Table.objects.select_related("round__tournament").filter(game=game).first()
    relation.set_cached_value(game, table)
    return table


def round_tables(round: Round) -> list[Table]:
    """The round's tables with their games and players, and whether the bids of a deal
    are kept at each (``bidding``, for :func:`table_state`)."""
    drafts = DealDraft.objects.filter(game=OuterRef("game_id"))
    return list(
        round.tables.select_related("game", "confirmed_by")
        .prefetch_related("seats__player")
        .annotate(bidding=Exists(drafts))
        .order_by("number")
    )


def round_byes(round: Round) -> list[Player]:
    return [
        place.player
        for place in round.players.filter(table__isnull=True)
        .select_related("player")
        .order_by("player__name")
    ]


@dataclass(frozen=True)
class SeatingConflict:
    kind: str
    players: tuple[int, ...]
    names: tuple[str, ...]
    times: int
    table: int | None  # the table's number in this round
    message: str
    met_at: tuple[tuple[int, int], ...] = ()  # (round, table) where the pair met before

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "players": list(self.players),
            "table": self.table,
            "times": self.times,
            "met_at": [{"round": r, "table": t} for r, t in self.met_at],
            "message": self.message,
        }


def _meetings(round: Round) -> dict[frozenset[int], list[tuple[int, int]]]:
    """Each pair seated together before ``round``: where, as (round, table) numbers."""
    at: dict[tuple[int, int], list[int]] = {}
    places = (
        RoundPlayer.objects.filter(
            round__tournament_id=round.tournament_id,
            round__number__lt=round.number,
            table__isnull=False,
        )
        .exclude(round__status=RoundStatus.SEATING)
        .values_list("round__number", "table__number", "player_id")
    )
    for number, table, player in places:
        at.setdefault((number, table), []).append(player)
    met: dict[frozenset[int], list[tuple[int, int]]] = {}
    for where, players in sorted(at.items()):
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                met.setdefault(frozenset((a, b)), []).append(where)
    return met


def _places_text(where: Sequence[tuple[int, int]]) -> str:
    parts = [f"table {t} of round {r}" for r, t in where]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def round_conflicts(round: Round) -> list[SeatingConflict]:
    """What the round's seating repeats: pairs that met before, second byes."""
    places = list(round.players.select_related("player", "table"))
    names = {place.player_id: place.player.name for place in places}
    tables: dict[int, list[RoundPlayer]] = {}
    for place in places:
        if place.table is not None:
            tables.setdefault(place.table.number, []).append(place)
    numbers = sorted(tables)
    seated = [
        [p.player_id for p in sorted(tables[n], key=lambda p: p.position or 0)] for n in numbers
    ]
    byes = [p.player_id for p in places if p.table_id is None]
    history = seating_history(round.tournament, round.number)
    found = seating_adapter.find_conflicts(history, seated, byes)
    meetings = _meetings(round) if any(i.kind == "met_before" for i in found) else {}
    result = []
    for item in found:
        who = tuple(names.get(p, str(p)) for p in item.players)
        table = None if item.table is None else numbers[item.table]
        times = "once" if item.times == 1 else f"{item.times} times"
        met_at: tuple[tuple[int, int], ...] = ()
        if item.kind == "met_before":
            met_at = tuple(meetings.get(frozenset(item.players), ()))
            if met_at:
                where = _places_text(met_at)
                message = f"{who[0]} and {who[1]} already met at {where}"
            else:  # pragma: no cover - the history and the seats agree
                message = f"{who[0]} and {who[1]} already met {times}"
        else:
            message = f"{who[0]} already sat out {times}, before everyone else has"
        result.append(
            SeatingConflict(item.kind, item.players, who, item.times, table, message, met_at)
        )
    return result


def standings(tournament: Tournament) -> QuerySet[Standing]:
    return tournament.standings.select_related("player").order_by("rank", "player__name")


def players_of(tables: Sequence[Table]) -> dict[int, list[RoundPlayer]]:
    return {
        table.pk: sorted(table.seats.all(), key=lambda seat: seat.position or 0) for table in tables
    }


def tournament_version(tournament_id: int) -> str:
    """An ETag for the live part of the dashboard, from one aggregate query over the
    tournament's rounds, their tables and the tables' games: it changes with a round's
    status or seating progress, a deal, bid or correction at any table (the games'
    revisions), a table confirmed or reopened."""

    def rank(field: str, values: Sequence[str]) -> Case:
        return Case(
            *(When(**{field: value}, then=Value(i)) for i, value in enumerate(values)),
            default=Value(len(values)),
            output_field=IntegerField(),
        )

    state = (
        F("number") * 1_000_000
        + rank("status", RoundStatus.values) * 10_000
        + rank("seating_status", SeatingStatus.values) * 1_000
        + F("seating_progress")
    )
    row = Round.objects.filter(tournament_id=tournament_id).aggregate(
        n_rounds=Count("id", distinct=True),
        state=Max(state, output_field=IntegerField()),
        called=Max(Case(When(time_called=True, then=F("number")), default=Value(0))),
        clock=Max("time_called_at"),
        n_tables=Count("tables", distinct=True),
        n_confirmed=Count("tables__confirmed_at"),
        last_confirmed=Max("tables__confirmed_at"),
        n_reopened=Count("tables__reopened_at"),
        last_reopened=Max("tables__reopened_at"),
        revisions=Sum("tables__game__revision"),
        n_deals=Sum("tables__game__deal_count"),
    )
    playing = RoundStatus.values.index(RoundStatus.PLAYING)
    if row["clock"] is not None and (row["state"] or 0) // 10_000 % 100 == playing:
        # A timed round's clock reads "… to go": let it move on once a minute.
        row["minute"] = int(timezone.now().timestamp() // 60)
    digest = hashlib.blake2b(
        json.dumps(row, default=str, sort_keys=True).encode(), digest_size=8
    ).hexdigest()
    return f'W/"t{tournament_id}-{digest}"'


# --- Rounds, tables and players by number or id (NotFound when there is none) ----------------


def round_numbered(tournament: Tournament, number: int) -> Round:
    round = tournament.rounds.filter(number=number).first() if 0 < number <= 1000 else None
    if round is None:
        raise NotFound(f"the tournament has no round {number}")
    return round


def table_numbered(round: Round, number: int) -> Table:
    table = None
    if 0 < number <= 1000:
        table = round.tables.select_related("round", "game").filter(number=number).first()
    if table is None:
        raise NotFound(f"round {round.number} has no table {number}")
    return table


def table_with_game(table_id: int) -> Table:
    """A table that has its game, with its round and tournament; NotFound otherwise."""
    return core_selectors.by_id(
        Table.objects.select_related("round__tournament__club").filter(game__isnull=False),
        table_id,
        "no such table",
    )


def shown_round(tournament: Tournament, *, director: bool, number: int | None) -> Round | None:
    """Round ``number`` (None: the latest) among those that can be shown: published rounds
    for everyone, a seated round not yet published for the directors too."""
    statuses = [RoundStatus.PLAYING, RoundStatus.CLOSED]
    if director:
        statuses.append(RoundStatus.SEATED)
    rounds = tournament.rounds.filter(status__in=statuses)
    if number is not None:
        return rounds.filter(number=number).first()
    return rounds.order_by("-number").first()


def registered_players(tournament: Tournament) -> QuerySet[Player]:
    return Player.objects.filter(registrations__tournament=tournament)


def round_players(round: Round) -> QuerySet[Player]:
    return Player.objects.filter(round_places__round=round)


# --- What the tables are told: the director's messages and a timed round's clock ------------


def screen_version(tournament: Tournament) -> str:
    """An ETag for a projector's screen (seating, standings): :func:`tournament_version`,
    the director's latest message (shown as soon as it is sent) and the standings as last
    rebuilt (a job that may finish after the round closed)."""
    messages = tournament.announcements.aggregate(latest=Max("pk"), count=Count("pk"))
    latest = f"{messages['latest'] or 0}.{messages['count']}"  # one taken down changes it
    rows = Standing.objects.filter(tournament=tournament).aggregate(
        count=Count("pk"), updated=Max("updated_at")
    )
    built = f"{rows['count']}.{rows['updated'].timestamp() if rows['updated'] else 0}"
    return tournament_version(tournament.pk)[:-1] + f'-m{latest}-s{built}"'


def announcements(tournament: Tournament) -> QuerySet[Announcement]:
    """The director's messages to the tables, the latest first."""
    return tournament.announcements.all()


def tournament_played(tournament: Tournament) -> bool:
    """Whether a round of the tournament was published (its games started)."""
    return tournament.rounds.filter(published_at__isnull=False).exists()


def settings_editable(tournament: Tournament) -> bool:
    """Whether the tournament's settings may still change: open, no round seated yet."""
    return tournament.status == TournamentStatus.OPEN and not tournament.rounds.exists()


def started_tables(round: Round) -> list[int]:
    """The numbers of the round's tables that have started: a deal recorded, or the bids
    of one kept (the cards were dealt)."""
    started = Q(game__deal_count__gt=0) | Q(game__drafts__isnull=False)
    return sorted(set(round.tables.filter(started).values_list("number", flat=True)))


def round_started(round: Round) -> bool:
    """Whether a table of the round has started (:func:`started_tables`)."""
    return bool(started_tables(round))


def playing_games(tournament: Tournament) -> list[int]:
    """The games of the tables of the tournament's rounds in play."""
    return list(
        Table.objects.filter(
            round__tournament=tournament, round__status=RoundStatus.PLAYING, game__isnull=False
        ).values_list("game_id", flat=True)
    )


@dataclass(frozen=True)
class RoundClock:
    """A timed round's clock as a table (or the director) sees it: when time is called and
    the round closes, and, at a table that has played, how many more deals its pace allows."""

    time_called_at: datetime
    deadline: datetime | None
    called: bool
    started: datetime | None
    deals: int
    deals_left: int | None


def round_clock(round: Round, game: Game | None = None) -> RoundClock | None:
    """The clock of a timed round in play (None for other rounds)."""
    if round.status != RoundStatus.PLAYING or round.time_called_at is None:
        return None
    now = timezone.now()
    deals = game.deal_count if game is not None else 0
    deals_left = None
    if deals and round.published_at is not None and not round.time_called:
        per_deal = (now - round.published_at) / deals
        remaining = round.time_called_at - now
        if per_deal.total_seconds() > 0:
            deals_left = max(0, int(remaining / per_deal + 0.5))  # to the nearest deal
    return RoundClock(
        time_called_at=round.time_called_at,
        deadline=round.deadline,
        called=round.time_called or round.time_called_at <= now,
        started=round.published_at,
        deals=deals,
        deals_left=deals_left,
    )


def placed_now(tournament: Tournament) -> dict[int, int | None]:
    """Who has a place in the last round while it is seated or played: each player's table
    (its id), or None for a bye."""
    last = last_round(tournament)
    if last is None or last.status not in (RoundStatus.SEATED, RoundStatus.PLAYING):
        return {}
    return dict(RoundPlayer.objects.filter(round=last).values_list("player_id", "table_id"))


def seated_now(tournament: Tournament) -> dict[int, RoundPlayer]:
    """The places at a table of the last round, while it is seated or played, by player."""
    last = last_round(tournament)
    if last is None or last.status not in (RoundStatus.SEATED, RoundStatus.PLAYING):
        return {}
    places = RoundPlayer.objects.filter(round=last, table__isnull=False).select_related(
        "player", "table", "round"
    )
    return {place.player_id: place for place in places}
