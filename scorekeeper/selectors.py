"""Reads: what the API and pages show. No writes here.

"Visible to this person, or not found" has one door for pages and API alike:
:func:`club_visible_to`, :func:`game_visible_to` (and, for tournaments,
``tournaments.selectors.tournament_visible_to``) raise :class:`~scorekeeper.errors.NotFound`
for what the person may not see, exactly as for what does not exist.

Over 500 lines, kept one module: every read of the score-keeping app is here, so the pages,
the API and the services share each query (and the few hand-written statements of the deal
write path and the game page sit beside the ORM reads they replace)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from functools import cache, partial, reduce
from typing import Any, TypeVar, cast

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import (
    PROTECT,
    Avg,
    BooleanField,
    Case,
    Count,
    Exists,
    ExpressionWrapper,
    F,
    IntegerField,
    Model,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.utils import timezone

from rules_engine import ScoredDeal, Scoresheet

from . import access, deal_limits, locks, statements
from .access import Actor, TableGuest
from .errors import NotFound
from .models import (
    Club,
    Deal,
    DealDraft,
    DealRevision,
    DiscardedGame,
    Game,
    GameStatus,
    IdempotencyKey,
    Invitation,
    InvitationOpened,
    Membership,
    Player,
    Rating,
    RatingChange,
    Result,
    Season,
    SeasonStanding,
    Seat,
    TableLink,
)
from .scoring import sheet_after_last_deal

# Ids beyond a 64-bit integer cannot exist; looking them up would overflow the database.
MAX_ID = 2**63 - 1

M = TypeVar("M", bound=Model)


def by_id(
    rows: QuerySet[M], pk: int, missing: str, visible: Callable[[M], bool] | None = None
) -> M:
    """The row of ``rows`` with id ``pk``; NotFound (saying ``missing``) when there is none
    or ``visible`` says the caller may not see it, exactly alike. An id no row can have is
    not looked up."""
    row = rows.filter(pk=pk).first() if 0 < pk <= MAX_ID else None
    if row is None or (visible is not None and not visible(row)):
        raise NotFound(missing)
    return row


InClub = TypeVar("InClub", Player, Season)


def by_id_in_club(
    model: type[InClub], pk: int, missing: str, allowed: Callable[[Club], bool]
) -> InClub:
    """The ``model`` row with id ``pk``, its club read with it, when ``allowed`` says yes to
    that club; otherwise NotFound (saying ``missing``), as :func:`by_id`."""
    return by_id(model.objects.select_related("club"), pk, missing, lambda row: allowed(row.club))


def clubs_visible_to(actor: Actor) -> QuerySet[Club]:
    """Clubs the actor is a member of (anonymous callers: none), each with the actor's
    ``role`` in it."""
    if not actor.is_authenticated or actor.pk is None:
        return Club.objects.none()
    role = Membership.objects.filter(club=OuterRef("pk"), user_id=actor.pk).values("role")[:1]
    return Club.objects.filter(memberships__user_id=actor.pk).annotate(role=Subquery(role))


def club_visible_to(actor: Actor, *, pk: int | None = None, slug: str | None = None) -> Club:
    """The club (by id or slug) if the actor is a member; otherwise NotFound."""
    clubs = clubs_visible_to(actor)
    club = None
    if pk is not None and 0 < pk <= MAX_ID:
        club = clubs.filter(pk=pk).first()
    elif slug is not None:
        club = clubs.filter(slug=slug).first()
    if club is None:
        raise NotFound("no such club")
    return club


def _visible_game(actor: Actor, pk: int, games: QuerySet[Game]) -> Game:
    """The game of ``games`` with this pk if the actor may see it; otherwise NotFound. A
    signed-in caller's role in its club is read with it (and remembered for the request)."""
    found = None
    if 0 < pk <= MAX_ID:
        games = games.select_related("club", "season")
        if isinstance(actor, User):
            games = games.annotate(
                caller_role=Subquery(
                    Membership.objects.filter(club=OuterRef("club_id"), user_id=actor.pk).values(
                        "role"
                    )[:1]
                )
            )
        found = games.filter(pk=pk).first()
    if found is not None and isinstance(actor, User):
        access.remember_role(actor, found.club_id, getattr(found, "caller_role", None))
    if found is None or not access.can_see_game(actor, found):
        raise NotFound("no such game")
    return found


# The write path (a deal POST) and the game page read through the few statements below,
# written out by hand: composing them with the ORM cost more than the rest of the request
# together. Table and column names come from the models; the values the ORM converts (JSON)
# are converted here by their fields, so what they return is what the ORM would.


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _table(model: type[Any]) -> str:
    return _q(model._meta.db_table)


def _from_db(model: type[Any], field: str, value: Any) -> Any:
    return model._meta.get_field(field).from_db_value(value, None, connection)


def game_visible_to(actor: Actor, pk: int) -> Game:
    """The game if the actor may see it: a member of its club, or a guest at its table
    (through its table link); otherwise NotFound."""
    return _visible_game(actor, pk, Game.objects.all())


def game_for_next_deal(actor: Actor, pk: int, *, idempotency_key: str | None) -> Game:
    """:func:`game_visible_to` inside a transaction that records the game's next deal: the
    game's row locked as it is read (PostgreSQL: FOR UPDATE of the game's row only; SQLite:
    the IMMEDIATE transaction already holds the write lock), with its players as
    :func:`game_for_page` reads them and what :func:`next_deal_of` answers for
    ``idempotency_key``; the services writing to it in the same transaction do not read
    them again."""
    game = _read_game(actor, pk, lock=True, idempotency_key=idempotency_key)
    locks.mark_locked(game)
    return game


def game_for_page(actor: Actor, pk: int) -> Game:
    """:func:`game_visible_to` for the game's pages, in one hand-written statement
    (composing the ORM's took longer than the rest of a game page served from the cache):
    the game with its club's name and slug, the caller's role in the club, whether it is
    played at a tournament table (when not, nothing asks again), and its players in seat
    order (:func:`seat_players`), one row each."""
    return _read_game(actor, pk, lock=False, idempotency_key=None)


@cache
def _read_game_sql(vendor: str, lock: bool) -> str:
    """:func:`_read_game`'s statement, written once for each database in use."""
    fields = Game._meta.concrete_fields
    at_table = Game._meta.get_field("tournament_table")
    game_, club, member = _table(Game), _table(Club), _table(Membership)
    seat, player = _table(Seat), _table(Player)
    tables = _table(at_table.related_model)
    columns = ", ".join(f"{game_}.{_q(str(field.column))}" for field in fields)
    next_deal, last_deal = "", ""
    if lock:  # the facts of the next deal (_next_deal_facts), then the last deal's columns
        deals = _table(Deal)
        game_id, deal_count = f"{game_}.{_q('id')}", f"{game_}.{_q('deal_count')}"
        next_deal = ", " + _next_deal_facts(game_id, f"{deal_count} + 1")
        next_deal += "".join(f", {deals}.{_q(column)}" for column in _LAST_DEAL)
        last_deal = (
            f" LEFT JOIN {deals} ON {deals}.{_q('game_id')} = {game_id} "
            f"AND {deals}.{_q('number')} = {deal_count}"
        )
        if vendor == "postgresql":
            # The row's version as locked, and as the statement's view of the data has it:
            # they differ when the statement waited for the lock while another wrote it.
            next_deal += (
                f", {game_}.xmin::text, "
                f"(SELECT g.xmin::text FROM {game_} AS g WHERE g.{_q('id')} = {game_id})"
            )
    sql = (
        f"SELECT {columns}, {club}.{_q('name')}, {club}.{_q('slug')}, "
        f"(SELECT {member}.{_q('role')} FROM {member} "
        f"WHERE {member}.{_q('club_id')} = {game_}.{_q('club_id')} "
        f"AND {member}.{_q('user_id')} = %s LIMIT 1), "
        f"EXISTS (SELECT 1 FROM {tables} "
        f"WHERE {tables}.{_q(at_table.field.column)} = {game_}.{_q('id')}), "
        f"{seat}.{_q('player_id')}, {player}.{_q('name')}{next_deal} "
        f"FROM {game_} JOIN {club} ON {club}.{_q('id')} = {game_}.{_q('club_id')} "
        f"LEFT JOIN {seat} ON {seat}.{_q('game_id')} = {game_}.{_q('id')} "
        f"LEFT JOIN {player} ON {player}.{_q('id')} = {seat}.{_q('player_id')}{last_deal} "
        f"WHERE {game_}.{_q('id')} = %s ORDER BY {seat}.{_q('position')}"
    )
    if lock and connection.features.has_select_for_update_of:
        sql += f" FOR UPDATE OF {game_}"
    return sql


def _read_game(actor: Actor, pk: int, *, lock: bool, idempotency_key: str | None) -> Game:
    """:func:`game_for_page`'s statement; ``lock``: FOR UPDATE of the game's row only, and
    the facts of its next deal for ``idempotency_key``, kept on the game for
    :func:`next_deal_of` when the game's row as locked is the row as the statement's view
    of the data has it (PostgreSQL: the same version; it differs when the statement waited
    for the lock while another transaction changed the row). That holds the facts to be
    current because every write of a game's deals, keys, revisions or drafts also writes
    the game's row, in the same transaction (``services._base.sync_results`` and
    ``touch``).

    Locked: the players come from the statement's own view of the data even when it
    waited for the lock (PostgreSQL's READ COMMITTED re-reads only the locked row): a
    player renamed, or merged into another, while it waited shows under the name read
    before, in this one answer. The write path takes only the names from them (for the
    scoresheet's messages); what is written goes by the game's row, read after the wait."""
    rows: list[Any] = []
    fields = Game._meta.concrete_fields
    at_table = Game._meta.get_field("tournament_table")
    if 0 < pk <= MAX_ID:
        user_id = actor.pk if isinstance(actor, User) else None
        params = [user_id, idempotency_key or "", pk] if lock else [user_id, pk]
        with statements.cursor() as cursor:
            cursor.execute(_read_game_sql(connection.vendor, lock), params)
            rows = cursor.fetchall()
    if not rows:
        raise NotFound("no such game")
    first, seats = len(fields), len(fields) + 4
    game = _instance(Game, rows[0][:first])
    club_name, club_slug, role, at_a_table = rows[0][first:seats]
    game.club = Club.from_db(
        connection.alias, ["id", "name", "slug"], [game.club_id, club_name, club_slug]
    )
    if not at_a_table:
        at_table.set_cached_value(game, None)
    players = [(row[seats], row[seats + 1]) for row in rows if row[seats] is not None]
    setattr(game, _SEAT_PLAYERS, players)
    if lock:
        facts = rows[0][seats + 2 :]
        versions = facts[3 + len(_LAST_DEAL) :]  # PostgreSQL: as locked, as first seen
        unchanged = not versions or versions[0] == versions[1]
        # (a game with deals whose last one is not there is left to next_deal_of's own read)
        if unchanged and (facts[3] is not None or not game.deal_count):
            next_deal = _next_deal(facts, idempotency_key)
            setattr(game, _NEXT_DEAL_READ, (idempotency_key or "", game.deal_count, next_deal))
    if isinstance(actor, User):
        access.remember_role(actor, game.club_id, role)
    if not access.can_see_game(actor, game):
        raise NotFound("no such game")
    return game


#: Where a game read by :func:`game_for_page` keeps its players, for :func:`seat_players`.
_SEAT_PLAYERS = "_seat_players_read"
#: Where a game read locked keeps the facts of its next deal, for :func:`next_deal_of`:
#: (the idempotency key, the deal count, the NextDeal).
_NEXT_DEAL_READ = "_next_deal_read"


_CONVERTERS: dict[type[Any], list[tuple[Any, list[Any]]]] = {}


def _instance(model: type[M], values: Sequence[Any]) -> M:
    """An instance of ``model`` from the values of its concrete fields, in their order,
    converted from the database's as the ORM does."""
    fields = model._meta.concrete_fields
    converters = _CONVERTERS.get(model)
    if converters is None:
        columns = [field.get_col(model._meta.db_table) for field in fields]
        converters = _CONVERTERS[model] = [
            (
                column,
                connection.ops.get_db_converters(column) + column.get_db_converters(connection),
            )
            for column in columns
        ]
    converted = []
    for value, (column, functions) in zip(values, converters, strict=True):
        for function in functions:
            value = function(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, [field.attname for field in fields], converted)


@dataclass(frozen=True)
class NextDeal:
    """What recording a game's next deal needs to know besides the game itself."""

    #: The fingerprint of the deal first sent with this Idempotency-Key (None: key unused).
    key_fingerprint: str | None
    #: The next deal's version: 1, or on from the versions of a deal that was undone.
    version: int
    #: Whether a draft of the next deal (prediction whist's bids) is kept.
    has_draft: bool
    #: The game's last stored deal, which the next one is scored from (None: no deal yet).
    last: ScoredDeal | None


_LAST_DEAL = ("number", "dealer", "record", "scores", "totals", "context")


def _next_deal_facts(game_id: str, number: str) -> str:
    """The columns of what recording deal ``number`` of game ``game_id`` (SQL
    expressions) needs besides the last deal: the fingerprint of the deal first sent with
    the Idempotency-Key (a parameter), the highest version deal ``number`` had, and
    whether a draft of it is kept."""
    keys, revisions, drafts = _table(IdempotencyKey), _table(DealRevision), _table(DealDraft)
    game_id_, number_ = _q("game_id"), _q("number")
    return (
        f"(SELECT {keys}.{_q('request_hash')} FROM {keys} WHERE {keys}.{game_id_} = {game_id} "
        f"AND {keys}.{_q('key')} = %s), "
        f"(SELECT MAX({revisions}.{_q('version')}) FROM {revisions} "
        f"WHERE {revisions}.{game_id_} = {game_id} AND {revisions}.{number_} = {number}), "
        f"EXISTS (SELECT 1 FROM {drafts} WHERE {drafts}.{game_id_} = {game_id} "
        f"AND {drafts}.{number_} = {number})"
    )


@cache
def _next_deal_sql(vendor: str, with_last: bool) -> str:
    """:func:`next_deal_of`'s statement, written once for each database in use."""
    facts = _next_deal_facts("%s", "%s")
    if not with_last:
        return f"SELECT {facts}"
    deals, game_id, number_ = _table(Deal), _q("game_id"), _q("number")
    columns = ", ".join(f"{deals}.{_q(column)}" for column in _LAST_DEAL)
    return (
        f"SELECT {facts}, {columns} FROM {deals} "
        f"WHERE {deals}.{game_id} = %s AND {deals}.{number_} = %s"
    )


def _next_deal(row: Sequence[Any], idempotency_key: str | None) -> NextDeal:
    """A :class:`NextDeal` from the facts' columns and the last deal's (all None: no deal
    yet)."""
    key_fingerprint, earlier_version, has_draft = row[:3]
    last = None
    if row[3] is not None:
        number, dealer, record, scores, totals, context = row[3:9]
        last = ScoredDeal(
            number,
            dealer,
            _from_db(Deal, "record", record),
            tuple(_from_db(Deal, "scores", scores)),
            tuple(_from_db(Deal, "totals", totals)),
            _from_db(Deal, "context", context),
        )
    return NextDeal(
        key_fingerprint=key_fingerprint if idempotency_key else None,
        version=(earlier_version or 0) + 1,
        has_draft=bool(has_draft),
        last=last,
    )


def deal_limit_of(game: Game) -> deal_limits.DealLimit | None:
    """The last deal the game is meant to take where an app on top ends it early (a
    tournament round's), with why: ``deal_limits``."""
    return deal_limits.limit_of(game)


def next_deal_of(game: Game, *, idempotency_key: str | None) -> NextDeal:
    """What recording the game's next deal (number ``deal_count + 1``) needs to know, in
    one statement: the game's last deal, with the key's fingerprint, the next version and
    whether a draft is kept. Read it after locking the game, in a statement of its own:
    under PostgreSQL's READ COMMITTED a statement sees what was committed when it began,
    so one that waited for the lock would not see what the holder of the lock wrote. A
    game read locked for its next deal (:func:`game_visible_to`) has it already, unless
    its row changed while that statement waited for the lock."""
    read = getattr(game, _NEXT_DEAL_READ, None)
    if (
        read is not None
        and read[0] == (idempotency_key or "")
        and read[1] == game.deal_count
        and locks.held(game)
    ):
        return cast(NextDeal, read[2])
    number = game.deal_count + 1
    params: list[Any] = [game.pk, idempotency_key or "", game.pk, number, game.pk, number]
    if game.deal_count:
        params += [game.pk, game.deal_count]
    sql = _next_deal_sql(connection.vendor, bool(game.deal_count))
    with statements.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if not game.deal_count:
        row = (*row, *(None for _ in _LAST_DEAL))
    return _next_deal(row, idempotency_key)


def player_names_of(game: Game) -> list[str]:
    """The names of the game's players, in seat order."""
    return [name for _player, name in seat_players(game)]


def _players_in_seats(game: Game) -> list[tuple[int, str]]:
    """The game's players (id and name) in seat order, in one hand-written statement."""
    seats, players = _table(Seat), _table(Player)
    sql = (
        f"SELECT {seats}.{_q('player_id')}, {players}.{_q('name')} FROM {seats} "
        f"INNER JOIN {players} ON {players}.{_q('id')} = {seats}.{_q('player_id')} "
        f"WHERE {seats}.{_q('game_id')} = %s ORDER BY {seats}.{_q('position')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game.pk])
        return [(player, name) for player, name in cursor.fetchall()]


def games_visible_to(actor: Actor) -> QuerySet[Game]:
    if not actor.is_authenticated or actor.pk is None:
        return Game.objects.none()
    return Game.objects.filter(club__memberships__user_id=actor.pk).distinct()


def player_visible_to(actor: Actor, pk: int) -> Player:
    """A player of one of the actor's clubs; otherwise NotFound."""
    return by_id_in_club(Player, pk, "no such player", partial(access.is_member, actor))


def with_results(games: QuerySet[Game]) -> QuerySet[Game]:
    """The games with their results (in seat order) and the players' names, in one query."""
    return games.prefetch_related(
        Prefetch("results", queryset=Result.objects.select_related("player").order_by("position"))
    )


def games_in_progress(club: Club) -> QuerySet[Game]:
    """The club's games being played, the most recently changed first."""
    return (
        Game.objects.filter(club=club, status=GameStatus.IN_PROGRESS)
        .select_related("club")
        .order_by("-updated_at", "-id")
    )


def games_finished(club: Club) -> QuerySet[Game]:
    """The club's finished games with their results, the most recently ended first."""
    return with_results(
        Game.objects.filter(club=club, status=GameStatus.FINISHED).order_by("-ended_at", "-id")
    )


def games_of_player(player: Player) -> QuerySet[Game]:
    """The games a player sat in, with their results, newest first."""
    return with_results(Game.objects.filter(seats__player=player).order_by("-played_on", "-id"))


def deal_of(game: Game, number: int) -> Deal:
    """Deal ``number`` of the game as recorded; otherwise NotFound."""
    deal = None
    if 0 < number <= MAX_ID:
        deal = game.deals.select_related("entered_by").filter(number=number).first()
    if deal is None:
        raise NotFound(f"the game has no deal {number}")
    return deal


def season_results_readable_by(actor: Actor, pk: int) -> Season:
    """The season if the actor may read its standings (its club's members, or anyone when
    the club publishes its results); otherwise NotFound."""
    return by_id_in_club(Season, pk, "no such season", partial(access.can_read_results, actor))


def club_results_readable_by(actor: Actor, slug: str) -> Club:
    """The club if the actor may read its standings (its members, or anyone when the club
    publishes its results); otherwise NotFound."""
    club = Club.objects.filter(slug=slug).first()
    if club is None or not access.can_read_results(actor, club):
        raise NotFound("no such club")
    return club


def season_for_date(club: Club, day: date) -> Season | None:
    return Season.objects.filter(club=club, starts_on__lte=day, ends_on__gte=day).first()


def _author(user: User | None, name_given: str) -> str:
    """Who did something: the account's username, else the name given at the table link."""
    if user is not None:
        return user.get_username()
    return name_given or "someone"


def entered_by(deal: Deal) -> str:
    """Who entered a deal: their username, or the name given at the table link."""
    return _author(deal.entered_by, deal.entered_by_name)


def deal_payload(deal: Deal) -> dict[str, Any]:
    """A recorded deal, as the API returns it (and as idempotent replays repeat it)."""
    return {
        "number": deal.number,
        "dealer": deal.dealer,
        **deal.context,
        "record": deal.record,
        "scores": deal.scores,
        "totals": deal.totals,
        "version": deal.version,
        "entered_by": entered_by(deal),
        "entered_at": deal.entered_at.isoformat(),
    }


def sheet_of(game: Game) -> Scoresheet:
    """The game's scoresheet, ready for its next deal (from the last stored deal)."""
    seats = list(game.seats.select_related("player").order_by("position"))
    return sheet_after_last_deal(game, seats)


def game_payload(
    game: Game, *, deals_after: int = 0, deals_limit: int | None = None
) -> dict[str, Any]:
    """A game with its seats and deals, in the shapes of the rules engine's command line,
    read from the stored deals (three queries, however long the game; the stored scores
    are the engine's: ``manage.py scores_check`` replays them).

    ``deals`` lists the deals numbered above ``deals_after``, at most ``deals_limit`` of
    them; ``deal_count`` is how many the game has, ``more_deals`` whether any come after
    the last one listed."""
    return game_view(game, deals_after=deals_after, deals_limit=deals_limit)[0]


def seat_players(game: Game) -> list[tuple[int, str]]:
    """The game's players (id and name), in seat order: as read with the game by
    :func:`game_for_page` (or locked by :func:`game_visible_to`), else in one
    hand-written statement."""
    read: list[tuple[int, str]] | None = getattr(game, _SEAT_PLAYERS, None)
    return read if read is not None else _players_in_seats(game)


def game_view(
    game: Game, *, deals_after: int = 0, deals_limit: int | None = None
) -> tuple[dict[str, Any], Scoresheet]:
    """:func:`game_payload`, with the scoresheet it was read from (ready for the next
    deal), for a page that needs both without reading the game twice."""
    seats = list(game.seats.select_related("player").order_by("position"))
    sheet = sheet_after_last_deal(game, seats)
    rows = game.deals.filter(number__gt=deals_after).select_related("entered_by")
    page = list(rows.order_by("number")[: deals_limit + 1] if deals_limit is not None else rows)
    more = deals_limit is not None and len(page) > deals_limit
    listed = [deal_payload(deal) for deal in page[:deals_limit]]
    winners = list(sheet.winners)
    if game.ended_by_hand and not winners:
        winners = list(sheet.game.winners(sheet.table, sheet.totals))
    next_deal = sheet.next_deal
    payload = {
        "id": game.pk,
        "club": game.club_id,
        "season": game.season_id,
        "game_type": game.game_type,
        "status": game.status,
        "played_on": game.played_on.isoformat(),
        "seats": [
            {"position": seat.position, "player": seat.player_id, "name": seat.player.name}
            for seat in seats
        ],
        "players": list(sheet.players),
        "first_dealer": sheet.table.first_dealer,
        "options": sheet.game.options_json(sheet.options),
        "deals": listed,
        "deal_count": sheet.played,
        "more_deals": more,
        "totals": list(sheet.totals),
        "finished": game.status == GameStatus.FINISHED,
        "ended_by": game.ended_by_name or None,
        "winners": winners if game.status == GameStatus.FINISHED else [],
        "next_deal": (
            next_deal.as_dict()
            if next_deal is not None and game.status == GameStatus.IN_PROGRESS
            else None
        ),
        "scheduled_deals": sheet.scheduled_deals,
        "revision": game.revision,
        "locked": game.locked_at is not None,
        "locked_reason": game.locked_reason,
    }
    return payload, sheet


def deal_history(game: Game, number: int) -> list[DealRevision]:
    return list(
        DealRevision.objects.filter(game=game, number=number)
        .select_related("changed_by")
        .order_by("id")
    )


#: How season standings may be sorted: each a key of a row, best first.
STANDING_SORTS: dict[str, str] = {
    "wins": "Most wins",
    "games": "Most games",
    "total": "Highest total",
    "per_deal": "Best average a deal",
    "placing": "Best average placing",
    "rating": "Highest rating",
    "change": "Most improved rating",
    "name": "Name",
}


#: Sorts by what is kept per game (ratings), and by scores (not added up across games).
RATING_SORTS = ("rating", "change")
SCORE_SORTS = ("total", "per_deal")


def standing_sort(sort: str, *, game_type: str | None, rows: Sequence[Mapping[str, Any]]) -> str:
    """The order season standings ``rows`` of ``game_type`` (None: games of several kinds)
    are shown in when ``sort`` is asked for: by wins when it is unknown, asks for ratings
    the rows do not have (:func:`rows_rated`: over games of several kinds, ratings being
    kept per game; games not rated), or for scores the rows do not add up (all games of a
    season that mixed kinds of game)."""
    if (
        sort not in STANDING_SORTS
        or (sort in RATING_SORTS and not rows_rated(game_type, rows))
        or (sort in SCORE_SORTS and rows and rows[0]["total_score"] is None)
    ):
        return "wins"
    return sort


def _sort_key(sort: str) -> Any:
    def missing_last(value: float | None, descending: bool = True) -> tuple[int, float]:
        if value is None:
            return (1, 0.0)
        return (0, -value if descending else value)

    keys: dict[str, Any] = {
        "wins": lambda r: (
            -r["games_won"],
            missing_last(r["total_score"]),
            r["average_placing"],
        ),
        "games": lambda r: (-r["games_played"], -r["games_won"]),
        "total": lambda r: (missing_last(r["total_score"]),),
        "per_deal": lambda r: (missing_last(r["average_per_deal"]),),
        "placing": lambda r: (r["average_placing"],),
        "rating": lambda r: (missing_last(r["rating"]),),
        "change": lambda r: (missing_last(r["rating_change"]),),
        "name": lambda r: (),
    }
    first = keys[sort]
    return lambda r: (*first(r), r["name"].casefold())


@dataclass(frozen=True)
class SeasonTable:
    """A season's standings as :func:`season_table` gives them."""

    #: A row per player (:func:`season_standings`), in the order applied.
    rows: list[dict[str, Any]]
    #: The game the rows are of: the one asked for, else the season's only kind of game;
    #: None over games of several kinds (their scores are not added up; ratings are kept
    #: per game).
    game_type: str | None
    #: The order applied: the one asked for, or wins where it cannot be (:func:`standing_sort`).
    sort: str
    #: The kinds of game the season's finished games are of (:func:`season_game_types`).
    kinds: frozenset[str]

    @property
    def scores_added(self) -> bool:
        """Whether the rows have scores added up (of one game; or no rows to say otherwise)."""
        return self.game_type is not None or not self.rows

    @property
    def rated(self) -> bool:
        """Whether the rows have ratings to show (of one game, rated, the job has run)."""
        return rows_rated(self.game_type, self.rows)


def rows_rated(game_type: str | None, rows: Sequence[Mapping[str, Any]]) -> bool:
    """Whether standings ``rows`` of ``game_type`` have ratings: of one game, and at least
    one of them rated (a game not rated, or ratings not computed yet, have none)."""
    return game_type is not None and any(row["rating"] is not None for row in rows)


def season_table(
    season: Season | None, game_type: str | None = None, sort: str = "wins"
) -> SeasonTable:
    """Per player, over the season's finished games: played, won, total, averages (a game,
    a deal, the placing) and, for one game, the rating after the season's games and its
    change over the season. Over all games of a season of one kind of game, that game's.
    Over games of several kinds the scores are not added up (the total, its averages:
    None; a point of one game is not a point of another) and there are no ratings; played,
    won and the average placing are counted over all of them. Sorted by ``sort``
    (:data:`STANDING_SORTS`), or by wins where :func:`standing_sort` says it cannot be.

    Read from the season's standings rows, which the services keep in step with the games
    (``scorekeeper.services.standings``): indexed queries, however long the season.
    No season (a club that has none yet): no rows.
    """
    if season is None:
        return SeasonTable(
            rows=[],
            game_type=game_type,
            sort=standing_sort(sort, game_type=game_type, rows=[]),
            kinds=frozenset(),
        )
    kinds = frozenset(season_game_types(season))
    of = game_type or (next(iter(kinds)) if len(kinds) == 1 else None)
    values = SeasonStanding.objects.filter(
        season=season, game_type=of or "", games__gt=0
    ).values_list(
        "player_id",
        "player__name",
        "games",
        "wins",
        "total",
        "deals",
        "placing_sum",
        "rating",
        "rating_change",
    )
    rows = [_standing_row(row, one_game=of is not None) for row in values]
    applied = standing_sort(sort, game_type=of, rows=rows)
    rows.sort(key=_sort_key(applied))
    return SeasonTable(rows=rows, game_type=of, sort=applied, kinds=kinds)


def season_standings(
    season: Season, game_type: str | None = None, sort: str = "wins"
) -> list[dict[str, Any]]:
    """The rows of :func:`season_table`."""
    return season_table(season, game_type, sort).rows


def _standing_row(values: Sequence[Any], *, one_game: bool) -> dict[str, Any]:
    player, name, games, wins, total, deals, placing_sum, rating, change = values
    added = rated = one_game
    return {
        "player": player,
        "name": name,
        "games_played": games,
        "games_won": wins,
        "total_score": total if added else None,
        "average_score": round(total / games, 2) if added else None,
        "average_per_deal": (round(total / deals, 2) if deals else 0.0) if added else None,
        "average_placing": round(placing_sum / games, 2),
        "rating": rating if rated else None,
        "rating_change": change if rated else None,
    }


def season_game_types(season: Season) -> set[str]:
    """The game types of the season's finished games (from its standings rows)."""
    return set(
        SeasonStanding.objects.filter(season=season, games__gt=0)
        .exclude(game_type="")
        .values_list("game_type", flat=True)
        .distinct()
    )


def seasons_of(club: Club) -> QuerySet[Season]:
    """The club's seasons, latest first."""
    return club.seasons.order_by("-starts_on")


def seasons_with_game_counts(club: Club) -> QuerySet[Season]:
    """The club's seasons, latest first, each with its ``game_count`` (the games played in
    it, abandoned ones too) and ``held``: whether anything else that keeps its season
    refers to it (what an app on top counts in it, as a tournament; found from the
    relations that protect a season, so the core names none of them)."""
    seasons = seasons_of(club).annotate(game_count=Count("games"))
    holders = [
        Exists(relation.related_model._base_manager.filter(**{relation.field.name: OuterRef("pk")}))
        for relation in Season._meta.related_objects
        if relation.on_delete is PROTECT and relation.related_model is not Game
    ]
    held: Any = reduce(operator.or_, holders) if holders else Value(False)
    return seasons.annotate(held=ExpressionWrapper(held, output_field=BooleanField()))


@dataclass(frozen=True)
class SeasonsShown:
    seasons: list[Season]  # the club's that have started (to choose from), latest first
    current: Season | None  # today's
    shown: Season | None  # whose standings are shown


def season_shown(club: Club, *, asked: str, today: date) -> SeasonsShown:
    """The season whose standings a page shows: the one asked for (by id, among the
    club's own that have started: one to come has no standings yet), else today's, else
    the latest that has started; None before the first."""
    started = [s for s in seasons_of(club) if s.starts_on <= today]
    current = next((s for s in started if s.ends_on >= today), None)
    chosen = next((s for s in started if str(s.pk) == asked), None)
    shown = chosen or current or (started[0] if started else None)
    return SeasonsShown(seasons=started, current=current, shown=shown)


def roster(club: Club) -> QuerySet[Player]:
    return Player.objects.filter(club=club).order_by("name")


def club_members(club: Club) -> QuerySet[Membership]:
    """The club's people with their roles, admins first."""
    order = {"admin": 0, "director": 1, "scorer": 2, "member": 3}
    rank = Case(
        *(When(role=role, then=Value(n)) for role, n in order.items()),
        output_field=IntegerField(),
    )
    return (
        Membership.objects.filter(club=club)
        .select_related("user")
        .annotate(rank=rank)
        .order_by("rank", "user__username")
    )


def member_of(club: Club, user_id: int) -> User:
    """A member of the club by their account's id; NotFound for anyone else."""
    membership = (
        Membership.objects.filter(club=club, user_id=user_id).select_related("user").first()
    )
    if membership is None:
        raise NotFound("no such member of this club")
    return membership.user


def club_player(club: Club, pk: int) -> Player:
    """A player of the club's roster; NotFound for another club's."""
    return by_id(Player.objects.filter(club=club), pk, "no such player in this club")


def usable_invitations() -> QuerySet[Invitation]:
    """Invitations that can still be used: not withdrawn, not expired, with uses left
    (``services.members.invitation_problem`` says why one cannot)."""
    return Invitation.objects.filter(
        revoked_at__isnull=True, expires_at__gt=timezone.now(), uses__lt=F("max_uses")
    )


def open_invitations(club: Club) -> QuerySet[Invitation]:
    """The club's invitations that can still be used, newest first."""
    return usable_invitations().filter(club=club).order_by("-created_at")


def club_invitation(club: Club, pk: int) -> Invitation:
    return by_id(Invitation.objects.filter(club=club), pk, "no such invitation")


def invitation_to_join(user: Actor) -> Invitation | None:
    """The latest invitation ``user`` signed up from and has not answered, while it can
    still be used and would give them a club or a higher role there; None otherwise."""
    if not isinstance(user, User):
        return None
    opened = (
        usable_invitations()
        .select_related("club")
        .filter(pk__in=InvitationOpened.objects.filter(user=user).values("invitation"))
        .order_by("-created_at")
    )
    for invitation in opened:
        if access.ranks_below(access.role_in(user, invitation.club), invitation.role):
            return invitation
    return None


def invitation_by_token(token: str) -> Invitation:
    """The invitation a link carries (whatever its state); NotFound for a wrong link."""
    invitation = Invitation.objects.select_related("club").filter(token=token).first()
    if invitation is None:
        raise NotFound("no such invitation: check the link")
    return invitation


def season_of_member(actor: Actor, pk: int) -> Season:
    """A season of one of the actor's clubs; NotFound for any other."""
    return by_id_in_club(Season, pk, "no such season", partial(access.is_member, actor))


def club_season(club: Club, pk: int) -> Season:
    return by_id(Season.objects.filter(club=club), pk, "no such season")


def games_of_user(user: User) -> QuerySet[Game]:
    """Games in which a player linked to ``user`` sits, in clubs they belong to: those in
    progress first, then the latest."""
    in_progress = Case(
        When(status=GameStatus.IN_PROGRESS, then=Value(0)),
        default=Value(1),
        output_field=IntegerField(),
    )
    return (
        Game.objects.filter(seats__player__user=user, club__memberships__user=user)
        .select_related("club")
        .annotate(playing=in_progress)
        .order_by("playing", "-played_on", "-pk")
        .distinct()
    )


def table_guest(
    token: str, name: str = "", device: str = "", members: tuple[int, ...] = ()
) -> TableGuest | None:
    """The guest a table link lets in, or None if the link is unknown or revoked."""
    link = TableLink.objects.filter(token=token, revoked_at__isnull=True).first()
    if link is None:
        return None
    return TableGuest(game_id=link.game_id, name=name, device=device, members=members)


def active_table_link(game: Game) -> TableLink | None:
    return TableLink.objects.filter(game=game, revoked_at__isnull=True).first()


def table_link_of_token(token: str) -> TableLink | None:
    """The table link with that token, revoked or not (a page says why one no longer
    works); None if there never was one."""
    return TableLink.objects.filter(token=token).first()


def discarded_game_link(actor: Actor, game_id: int) -> tuple[str, TableLink | None] | None:
    """For a member of its club, the table link a game discarded before it was played had:
    its token, and the link with that token now (another game's, where the table started
    again; None while it has none, e.g. its round taken back). None for anyone else, a
    game that was never discarded, or one that had no table link."""
    if not 0 < game_id <= MAX_ID:
        return None
    since = timezone.now() - DiscardedGame.KEPT
    discarded = (
        DiscardedGame.objects.filter(game_id=game_id, discarded_at__gte=since)
        .exclude(link_token="")
        .first()
    )
    if discarded is None or not access.is_member(actor, discarded.club):
        return None
    return discarded.link_token, table_link_of_token(discarded.link_token)


def game_had_table_link(game: Game) -> bool:
    """Whether a table link was ever made for the game (revoked ones count)."""
    return TableLink.objects.filter(game=game).exists()


def deal_draft(game: Game) -> dict[str, Any]:
    """What is kept of the next deal (bids entered before play), or an empty dict."""
    draft = DealDraft.objects.filter(game=game, number=game.deal_count + 1).first()
    return dict(draft.data) if draft is not None else {}


# --- Live pages: the version a phone polls, and what a lost reply recorded ------------------


def game_version(game_id: int, *, user_id: int | None, token: str = "") -> str | None:
    """The game's version as an ETag, for someone who may see it; None otherwise.

    One indexed query: the game by its key, visible to a member of its club (``user_id``)
    or through its unrevoked table link (``token``), with its tournament table's
    confirmation and reopening, which the game page shows too.
    """
    visible = Q()
    if user_id is not None:
        visible |= Q(club__memberships__user_id=user_id)
    if token:
        visible |= Q(table_links__token=token, table_links__revoked_at__isnull=True)
    if not visible:
        return None
    row = (
        Game.objects.filter(visible, pk=game_id)
        .values_list("revision", "tournament_table__confirmed_at", "tournament_table__reopened_at")
        .first()
    )
    if row is None:
        return None
    return _version_tag(game_id, *row)


def seen_game_version(game: Game) -> str:
    """:func:`game_version` of a game read for someone who may see it: without a query
    when its tournament table (if any) was read with it."""
    if not Game._meta.get_field("tournament_table").is_cached(game):
        row = (
            Game.objects.filter(pk=game.pk)
            .values_list("tournament_table__confirmed_at", "tournament_table__reopened_at")
            .first()
        )
        confirmed, reopened = row if row is not None else (None, None)
        return _version_tag(game.pk, game.revision, confirmed, reopened)
    table = getattr(game, "tournament_table", None)
    return _version_tag(
        game.pk,
        game.revision,
        getattr(table, "confirmed_at", None),
        getattr(table, "reopened_at", None),
    )


def _version_tag(
    game_id: int, revision: int, confirmed: datetime | None, reopened: datetime | None
) -> str:
    marks = "".join(
        f"-{kind}{int(when.timestamp() * 1000)}"
        for kind, when in (("c", confirmed), ("o", reopened))
        if when is not None
    )
    return f'W/"g{game_id}-r{revision}{marks}"'


def deal_by_idempotency_key(game: Game, key: str) -> dict[str, Any] | None:
    """The deal a save with ``key`` recorded (as its answer was), or None if none did."""
    found = (
        IdempotencyKey.objects.filter(game=game, key=key, response_status=201)
        .values_list("response_body", flat=True)
        .first()
    )
    return dict(found) if found is not None else None


def roster_names(club_id: int, user_ids: Iterable[int | None]) -> dict[int, str]:
    """The roster names in the club ``club_id`` of those of the accounts ``user_ids`` that
    have one, by account: how the club knows who did something."""
    ids = {user_id for user_id in user_ids if user_id is not None}
    if not ids:
        return {}
    return dict(
        Player.objects.filter(club_id=club_id, user_id__in=ids).values_list("user_id", "name")
    )


def deal_recorder(game: Game, number: int) -> str:
    """Who recorded deal ``number``: their roster name when their account has one in the
    game's club, else their username, or the name given at the table link."""
    deal = Deal.objects.filter(game=game, number=number).select_related("entered_by").first()
    if deal is None:
        return "someone"
    name = roster_names(game.club_id, [deal.entered_by_id]).get(deal.entered_by_id or 0)
    return name or entered_by(deal)


def revision_authors(game: Game, revisions: Sequence[DealRevision]) -> list[str]:
    """Who made each of ``revisions``, named as :func:`deal_recorder` names them."""
    names = roster_names(game.club_id, [revision.changed_by_id for revision in revisions])
    return [
        names.get(revision.changed_by_id or 0)
        or _author(revision.changed_by, revision.changed_by_name)
        for revision in revisions
    ]


def same_author(one: DealRevision, other: DealRevision) -> bool:
    """Whether the same person made both revisions: the same account, or (without one)
    the same name given at the table link on the same phone."""
    if one.changed_by_id is not None or other.changed_by_id is not None:
        return one.changed_by_id == other.changed_by_id
    return (one.changed_by_name, one.changed_by_device) == (
        other.changed_by_name,
        other.changed_by_device,
    )


# --- Ratings and a player's history -----------------------------------------------------------


def club_ratings(club: Club, game_type: str) -> QuerySet[Rating]:
    """The club's ratings of a game type, highest first (retired players too)."""
    return (
        Rating.objects.filter(club=club, game_type=game_type)
        .select_related("player")
        .order_by("-shown", "player__name")
    )


def player_ratings(player: Player) -> list[Rating]:
    return list(Rating.objects.filter(player=player).order_by("-games", "game_type"))


def rating_history(player: Player) -> dict[str, list[RatingChange]]:
    """Each game type's rating changes of the player, in the order the games were played."""
    history: dict[str, list[RatingChange]] = {}
    for change in RatingChange.objects.filter(player=player).order_by("game_type", "key"):
        history.setdefault(change.game_type, []).append(change)
    return history


def rating_changes_of(player: Player, game_ids: list[int]) -> dict[int, RatingChange]:
    return {
        change.game_id: change
        for change in RatingChange.objects.filter(player=player, game_id__in=game_ids)
    }


def head_to_head(player: Player, least: int = 3) -> list[dict[str, Any]]:
    """Every other player met in at least ``least`` finished games: how often this player
    finished ahead, behind or level, best record first."""
    games = Result.objects.filter(player=player, game__status=GameStatus.FINISHED).values("game_id")
    own = dict(
        Result.objects.filter(player=player, game_id__in=games).values_list("game_id", "placing")
    )
    records: dict[int, dict[str, Any]] = {}
    others = (
        Result.objects.filter(game_id__in=games)
        .exclude(player=player)
        .values_list("game_id", "player_id", "player__name", "placing")
    )
    for game_id, other, name, placing in others:
        record = records.setdefault(
            other, {"player": other, "name": name, "met": 0, "ahead": 0, "behind": 0, "level": 0}
        )
        record["met"] += 1
        mine = own[game_id]
        record["ahead" if mine < placing else "behind" if mine > placing else "level"] += 1
    met = [record for record in records.values() if record["met"] >= least]
    for record in met:
        record["share"] = (record["ahead"] + record["level"] / 2) / record["met"]
    return sorted(met, key=lambda r: (-r["share"], -r["met"], r["name"].casefold()))


def player_seasons(player: Player) -> list[dict[str, Any]]:
    """Season by season: finished games, wins, total and average placing, latest first. The
    total is None over games of several kinds (as in the season's standings, a point of one
    game is not a point of another)."""
    rows = (
        Result.objects.filter(player=player, game__status=GameStatus.FINISHED)
        .values("game__season_id", "game__season__name", "game__season__starts_on")
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=Q(won=True)),
            total=Sum("total"),
            kinds=Count("game__game_type", distinct=True),
            average_placing=Avg("placing"),
        )
        .order_by("-game__season__starts_on")
    )
    return [
        {
            "season": row["game__season__name"] or "No season",
            "games": row["games"],
            "wins": row["wins"],
            "total": row["total"] if row["kinds"] == 1 else None,
            "average_placing": round(float(row["average_placing"]), 2),
        }
        for row in rows
    ]
