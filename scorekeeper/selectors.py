"""Reads: what the API and pages show. No writes here.

"Visible to this person, or not found" has one door for pages and API alike:
:func:`club_visible_to`, :func:`game_visible_to` (and, for tournaments,
``tournaments.selectors.tournament_visible_to``) raise :class:`~scorekeeper.errors.NotFound`
for what the person may not see, exactly as for what does not exist."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import Avg, Count, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum

from rules_engine import Scoresheet

from . import access
from .access import Actor, TableGuest
from .errors import NotFound
from .locks import mark_locked
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
    Season,
    TableLink,
)
from .scoring import sheet_after_last_deal

# Ids beyond a 64-bit integer cannot exist; looking them up would overflow the database.
MAX_ID = 2**63 - 1


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


def game_visible_to(actor: Actor, pk: int, *, for_update: bool = False) -> Game:
    """The game if the actor may see it: a member of its club, or a guest at its table
    (through its table link); otherwise NotFound.

    ``for_update`` (inside a transaction): the game's row is locked as it is read, and the
    services writing to it in the same transaction do not read it again."""
    game = None
    if 0 < pk <= MAX_ID:
        games = Game.objects.select_related("club", "season")
        if for_update:
            games = games.select_for_update(of=("self",))
        game = games.filter(pk=pk).first()
    if game is None or not access.can_see_game(actor, game):
        raise NotFound("no such game")
    if for_update:
        mark_locked(game)
    return game


def games_visible_to(actor: Actor) -> QuerySet[Game]:
    if not actor.is_authenticated or actor.pk is None:
        return Game.objects.none()
    return Game.objects.filter(club__memberships__user_id=actor.pk).distinct()


def player_visible_to(actor: Actor, pk: int) -> Player:
    """A player of one of the actor's clubs; otherwise NotFound."""
    player = None
    if 0 < pk <= MAX_ID:
        player = Player.objects.select_related("club").filter(pk=pk).first()
    if player is None or not access.is_member(actor, player.club):
        raise NotFound("no such player")
    return player


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
    season = None
    if 0 < pk <= MAX_ID:
        season = Season.objects.select_related("club").filter(pk=pk).first()
    if season is None or not access.can_read_results(actor, season.club):
        raise NotFound("no such season")
    return season


def season_for_date(club: Club, day: date) -> Season | None:
    return Season.objects.filter(club=club, starts_on__lte=day, ends_on__gte=day).first()


def entered_by(deal: Deal) -> str:
    """Who entered a deal: their username, or the name given at the table link."""
    if deal.entered_by is not None:
        return deal.entered_by.get_username()
    return deal.entered_by_name or "someone"


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
    return {
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


def deal_history(game: Game, number: int) -> list[DealRevision]:
    return list(
        DealRevision.objects.filter(game=game, number=number)
        .select_related("changed_by")
        .order_by("id")
    )


def season_standings(season: Season, game_type: str | None = None) -> list[dict[str, Any]]:
    """Per player, over the season's finished games: played, won, total, averages.

    A query over the per-game results, which the services keep in step with the deals.
    """
    results = Result.objects.filter(game__season=season, game__status=GameStatus.FINISHED)
    if game_type:
        results = results.filter(game__game_type=game_type)
    rows = (
        results.values("player_id", "player__name")
        .annotate(
            games_played=Count("id"),
            games_won=Count("id", filter=Q(won=True)),
            total_score=Sum("total"),
            average_score=Avg("total"),
            average_placing=Avg("placing"),
        )
        .order_by("-games_won", "-total_score", "average_placing", "player__name")
    )
    return [
        {
            "player": row["player_id"],
            "name": row["player__name"],
            "games_played": row["games_played"],
            "games_won": row["games_won"],
            "total_score": row["total_score"],
            "average_score": round(float(row["average_score"]), 2),
            "average_placing": round(float(row["average_placing"]), 2),
        }
        for row in rows
    ]


def seasons_of(club: Club) -> QuerySet[Season]:
    """The club's seasons, latest first."""
    return club.seasons.order_by("-starts_on")


def roster(club: Club) -> QuerySet[Player]:
    return Player.objects.filter(club=club).order_by("name")


def table_guest(token: str, name: str = "") -> TableGuest | None:
    """The guest a table link lets in, or None if the link is unknown or revoked."""
    link = TableLink.objects.filter(token=token, revoked_at__isnull=True).first()
    return None if link is None else TableGuest(game_id=link.game_id, name=name)


def active_table_link(game: Game) -> TableLink | None:
    return TableLink.objects.filter(game=game, revoked_at__isnull=True).first()


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
    revision, confirmed, reopened = row
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


def deal_recorder(game: Game, number: int) -> str:
    """Who recorded deal ``number``: their roster name when their account has one in the
    game's club, else their username, or the name given at the table link."""
    deal = Deal.objects.filter(game=game, number=number).select_related("entered_by").first()
    if deal is None:
        return "someone"
    if deal.entered_by_id is not None:
        name = (
            Player.objects.filter(club_id=game.club_id, user_id=deal.entered_by_id)
            .values_list("name", flat=True)
            .first()
        )
        if name:
            return name
    return entered_by(deal)
