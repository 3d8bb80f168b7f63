"""The club side of the phone pages: a club's home, its players, new games, table links,
and the read-only scoresheet of a finished game shared by link.

Reads come from :mod:`scorekeeper.selectors`, writes go through :mod:`scorekeeper.services`
(which check the caller's rights again); who sees a page is decided by
:mod:`scorekeeper.access`. A club's pages answer 404 to anyone who is not a member, so
they do not reveal that it exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from rules_engine import GAMES
from scorekeeper import access, revoked_links, selectors, services
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.models import Club, Game, GameStatus, Player, RatingChange, TableLink

from .actors import SESSION_KEY, keep_browser, remember_table_link
from .club_forms import GameSetupForm
from .doors import forbidden, game_rules, member_club, readable_or_sign_in
from .rating_views import player_ratings_context
from .sharing import qr_svg

SHARE_SALT = "share-game"  # as in scorekeeper.pages.sharing.share_token
RECENT_RESULTS = 10
IN_PROGRESS_SHOWN = 30
PLAYER_GAMES = 100


def club_url(club: Club) -> str:
    return reverse("club", kwargs={"slug": club.slug})


# --- Summaries of games ---------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    name: str
    total: int
    won: bool
    player_id: int | None = None


@dataclass(frozen=True)
class GameSummary:
    """A game as a card shows it: who plays, the totals, where it has got to."""

    game: Game
    players: list[Standing]
    deal_number: int | None = None  # the next deal, while in progress
    scheduled_deals: int | None = None
    dealer: str = ""

    @property
    def name(self) -> str:
        return GAMES[self.game.game_type].name

    @property
    def winners(self) -> list[str]:
        return [p.name for p in self.players if p.won]


def _in_progress(game: Game) -> GameSummary:
    payload = selectors.game_payload(game)
    names = [seat["name"] for seat in payload["seats"]]
    next_deal = payload["next_deal"] or {}
    dealer = next_deal.get("dealer")
    return GameSummary(
        game=game,
        players=[
            Standing(name=name, total=total, won=False)
            for name, total in zip(names, payload["totals"], strict=True)
        ],
        deal_number=next_deal.get("number"),
        scheduled_deals=payload["scheduled_deals"],
        dealer=names[dealer] if isinstance(dealer, int) and 0 <= dealer < len(names) else "",
    )


def _from_results(game: Game) -> GameSummary:
    """A finished (or abandoned) game from its stored results, without replaying its deals."""
    return GameSummary(
        game=game,
        players=[
            Standing(name=r.player.name, total=r.total, won=r.won, player_id=r.player_id)
            for r in game.results.all()
        ],
    )


# --- Club home ------------------------------------------------------------------------------


def _standings_context(request: HttpRequest, club: Club, *, url_name: str) -> dict[str, Any]:
    game_type = request.GET.get("game_type", "")
    if game_type not in GAMES:
        game_type = ""
    seasons = selectors.season_shown(
        club, asked=request.GET.get("season", ""), today=timezone.localdate()
    )
    season = seasons.shown
    asked_sort = request.GET.get("sort", "wins")
    table = selectors.season_table(season, game_type or None, asked_sort)
    rows = table.rows
    of = table.game_type  # the one game the rows are of, if one
    # Ratings are kept per game, and scores of different games are not added up: their
    # sorts are offered for one game (chosen, or the only one the season had).
    sorts = {
        key: label
        for key, label in selectors.STANDING_SORTS.items()
        if selectors.standing_sort(key, game_type=of, rows=rows) == key
    }
    sort = table.sort
    sort_note = ""
    score_sort_refused = asked_sort in selectors.SCORE_SORTS and sort != asked_sort
    if asked_sort in selectors.RATING_SORTS and sort != asked_sort:
        sort_note = (
            "No ratings for these games."
            if of is not None
            else "Ratings are kept for each game: choose a game to sort by rating."
        )
    elif score_sort_refused:
        sort_note = "Scores of different games are not added up: choose a game to sort by score."
    return {
        "season": season,
        "seasons": seasons.seasons,
        "current_season": seasons.current,
        "standings_url": reverse(url_name, args=[club.slug]),
        "is_member": access.is_member(request.user, club),
        "standings": rows,
        "sort": sort,
        "sorts": list(sorts.items()),
        "sort_note": sort_note,
        "score_sort_refused": score_sort_refused,  # (its note says the rest)
        "scores_added": table.scores_added,
        "rated": table.rated,
        "game_type": game_type,
        # the games the season's standings have (and the one asked for, even without)
        "game_types": [
            (game.key, game.name)
            for game in GAMES.values()
            if game.key in table.kinds or game.key == game_type
        ],
        "game_type_name": GAMES[game_type].name if game_type else "",
    }


def _standings_only(
    request: HttpRequest, club: Club, standings: dict[str, Any]
) -> HttpResponse | None:
    """The standings alone, when the page's game-type filter changed (htmx); else None."""
    if (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-Target") == "standings"
        and request.headers.get("HX-History-Restore-Request") != "true"
    ):
        response = render(request, "pages/club/_standings.html", {"club": club, **standings})
        patch_vary_headers(response, ["HX-Request", "HX-Target"])
        return response
    return None


@require_GET
def club_home(request: HttpRequest, slug: str) -> HttpResponse:
    """Games in progress, recent results, this season's standings, the roster. Anyone else
    (not signed in, or not a member) goes to the standings when the club publishes its
    results, else to sign in, or "not found" when signed in (a private club is not
    revealed)."""
    try:
        club = selectors.club_visible_to(request.user, slug=slug)
    except NotFound:
        # a visitor, or someone signed in who is not a member: the public standings, if
        # the club publishes them
        public = readable_or_sign_in(
            request, lambda: selectors.club_results_readable_by(request.user, slug)
        )
        if isinstance(public, HttpResponse):
            return public
        return redirect("club-standings", slug=slug)
    standings = _standings_context(request, club, url_name="club")
    only = _standings_only(request, club, standings)
    if only is not None:
        return only
    playing = selectors.games_in_progress(club)
    finished = selectors.games_finished(club)
    context = {
        "club": club,
        "can_start": access.can_start_game(request.user, club),
        "in_progress": [_in_progress(g) for g in playing[:IN_PROGRESS_SHOWN]],
        "recent": [_from_results(g) for g in finished[:RECENT_RESULTS]],
        "roster": list(selectors.roster(club).filter(active=True)),
        **standings,
    }
    response = render(request, "pages/club/home.html", context)
    patch_vary_headers(response, ["HX-Request", "HX-Target"])
    return response


@require_GET
def club_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """This season's standings: for the club's members and, when the club publishes its
    results, for anyone (no sign-in needed)."""
    club = readable_or_sign_in(
        request, lambda: selectors.club_results_readable_by(request.user, slug)
    )
    if isinstance(club, HttpResponse):
        return club
    standings = _standings_context(request, club, url_name="club-standings")
    only = _standings_only(request, club, standings)
    if only is not None:
        return only
    response = render(request, "pages/club/standings.html", {"club": club, **standings})
    patch_vary_headers(response, ["HX-Request", "HX-Target"])
    return response


# --- Players --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerGame:
    summary: GameSummary
    own: Standing | None  # the player's own line
    change: RatingChange | None = None  # what the game did to the player's rating

    @classmethod
    def of(
        cls, summary: GameSummary, player: Player, change: RatingChange | None = None
    ) -> PlayerGame:
        own = next((p for p in summary.players if p.player_id == player.pk), None)
        return cls(summary=summary, own=own, change=change)


@login_required
@require_GET
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's ratings and record, and their games newest first, for the members of
    the player's club."""
    try:
        player = selectors.player_visible_to(request.user, player_id)
    except NotFound:
        raise Http404("no such player") from None
    games = selectors.games_of_player(player)[:PLAYER_GAMES]
    ratings = player_ratings_context(player, [game.pk for game in games])
    rows = [
        PlayerGame.of(_from_results(game), player, ratings["changes"].get(game.pk))
        for game in games
    ]
    finished = [row for row in rows if row.summary.game.status == GameStatus.FINISHED]
    return render(
        request,
        "pages/club/player.html",
        {
            "club": player.club,
            "player": player,
            "rows": rows,
            "finished_count": len(finished),
            "won_count": sum(1 for row in finished if row.own is not None and row.own.won),
            **ratings,
        },
    )


# --- New game -------------------------------------------------------------------------------


@login_required
@require_GET
def game_new(request: HttpRequest, slug: str) -> HttpResponse:
    """Which game? Each as a big card with its two-line summary."""
    club = member_club(request, slug)
    if not access.can_start_game(request.user, club):
        return forbidden(request, "Only the club's members can start games.", club_url(club))
    return render(request, "pages/club/game_new.html", {"club": club, "games": GAMES.values()})


def _add_player(request: HttpRequest, club: Club, form: GameSetupForm, can_add: bool) -> None:
    """Add the typed name to the roster and seat them at the first empty seat."""
    try:
        player = services.player_create(actor=request.user, club=club, name=form.new_player)
    except ServiceError as error:
        form.errors["new_player" if can_add else "general"] = error.message
        return
    form.roster = sorted([*form.roster, player], key=lambda p: p.name.lower())
    seat = form.seat_first_empty(player)
    form.new_player = ""
    where = f" and seated at seat {seat + 1}" if seat is not None else ""
    form.notice = f"{player.name} is on the roster{where}."


@login_required
@require_http_methods(["GET", "POST"])
def game_setup(request: HttpRequest, slug: str, game_type: str) -> HttpResponse:
    """Seats, first dealer and house rules of a new game; on success, to the game page."""
    club = member_club(request, slug)
    rules = game_rules(game_type)
    if not access.can_start_game(request.user, club):
        return forbidden(request, "Only the club's members can start games.", club_url(club))
    can_add = access.can_manage_roster(request.user, club)
    roster = list(selectors.roster(club).filter(active=True))
    form = GameSetupForm(rules, roster, request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if form.new_player or request.POST.get("action") == "add":
            _add_player(request, club, form, can_add)
        else:
            players = form.read_players()
            options = form.read_options()
            first_dealer = form.first_dealer
            if players is not None and len(players) in rules.player_counts:
                # (With the wrong number of players, that is the one thing to say.)
                first_dealer = form.read_first_dealer(len(players)) or 0
            if players is not None and options is not None and not form.has_errors:
                try:
                    game = services.game_start(
                        actor=request.user,
                        club=club,
                        game_type=rules.key,
                        players=players,
                        options=options,
                        first_dealer=first_dealer,
                    )
                except ServiceError as error:
                    form.add_error(error.field, error.message)
                else:
                    return redirect("game", game_id=game.pk)
    return render(
        request,
        "pages/club/game_setup.html",
        {"club": club, "rules": rules, "form": form, "can_add": can_add},
        status=400 if form.has_errors else 200,  # a refusal says so (a name added: 200)
    )


# --- Table links ----------------------------------------------------------------------------


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def table_link_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """The game's table link and its QR code, for the people who can score the game."""
    game = get_object_or_404(Game.objects.select_related("club"), pk=game_id)
    if not access.is_member(request.user, game.club):
        raise Http404("no such game")
    game_url = reverse("game", kwargs={"game_id": game.pk})
    if not access.can_score(request.user, game):
        return forbidden(
            request,
            "Only the club's scorers, the game's players and whoever started it can share "
            "its table link.",
            game_url,
        )
    if request.method == "POST":
        try:
            if request.POST.get("action") == "revoke":
                services.table_link_revoke(actor=request.user, game=game)
                messages.success(request, "The table link is revoked: it no longer works.")
            else:
                services.table_link_create(actor=request.user, game=game)
                messages.success(request, "Here is a new table link. The old one no longer works.")
        except ServiceError as error:
            messages.error(request, error.message)
        return redirect("table-link", game_id=game.pk)

    link = selectors.active_table_link(game)
    if (
        link is None
        and game.status == GameStatus.IN_PROGRESS
        and not selectors.game_had_table_link(game)
    ):
        # The first visit makes the link; after a revoke it takes the "New link" button.
        try:
            link = services.table_link_create(actor=request.user, game=game)
        except ServiceError as error:
            messages.error(request, error.message)
    context: dict[str, Any] = {
        "game": game,
        "game_name": GAMES[game.game_type].name,
        "players": [seat.player.name for seat in game.seats.select_related("player")],
        "game_url": game_url,
        "link": link,
    }
    if link is not None:
        url = request.build_absolute_uri(reverse("table-enter", kwargs={"token": link.token}))
        context.update(url=url, qr=qr_svg(url))
    return render(request, "pages/club/table_link.html", context)


def link_gone(request: HttpRequest, token: str, link: TableLink | None) -> HttpResponse:
    """The page of a table link that no longer lets anyone in (``link``: its row, None if
    there is none): why, when an app that revoked it or took its game away says
    (``revoked_links``), else how to get the table's current link. Answered 404 as for a
    link never made, so that the status tells nobody which links existed."""
    explanation = None
    if link is None or link.revoked_at is not None:
        explanation = revoked_links.explain(request, token, link)
    return link_gone_page(request, explanation)


def link_gone_page(
    request: HttpRequest, explanation: revoked_links.Explanation | None
) -> HttpResponse:
    """:func:`link_gone`'s page, with the explanation already asked for."""
    return render(request, "pages/club/link_gone.html", {"explanation": explanation}, status=404)


@never_cache
@require_http_methods(["GET", "POST"])
def table_link_enter(request: HttpRequest, token: str) -> HttpResponse:
    """Someone at the table scanned the code: no account needed, this game only."""
    guest = selectors.table_guest(token)
    if guest is None:
        return link_gone(request, token, selectors.table_link_of_token(token))
    game = get_object_or_404(Game.objects.select_related("club"), pk=guest.game_id)
    if request.method == "POST":
        remember_table_link(request, game.pk, token, request.POST.get("name", ""))
        response = redirect("game", game_id=game.pk)
        keep_browser(request, response)
        return response
    remembered = request.session.get(SESSION_KEY, {}).get(str(game.pk), {})
    return render(
        request,
        "pages/club/table_enter.html",
        {
            "game": game,
            "game_name": GAMES[game.game_type].name,
            "players": [seat.player.name for seat in game.seats.select_related("player")],
            "name": remembered.get("name", ""),
        },
    )


# --- Shared scoresheet ----------------------------------------------------------------------


@require_GET
def shared_game(request: HttpRequest, signed: str) -> HttpResponse:
    """The final scoresheet of a finished game, read-only, for anyone with the link."""
    try:
        game_id = signing.loads(signed, salt=SHARE_SALT)
    except signing.BadSignature:
        game_id = None
    game = (
        Game.objects.select_related("club").filter(pk=game_id).first()
        if type(game_id) is int  # not a bool
        else None
    )
    if game is None or game.status != GameStatus.FINISHED:
        return render(request, "pages/club/shared_gone.html", status=404)
    payload = selectors.game_payload(game)
    names = [seat["name"] for seat in payload["seats"]]
    winners = set(payload["winners"])
    placing = {
        seat: 1 + sum(1 for other in payload["totals"] if other > total)
        for seat, total in enumerate(payload["totals"])
    }
    final = sorted(
        (
            {
                "name": name,
                "total": payload["totals"][seat],
                "placing": placing[seat],
                "won": seat in winners,
            }
            for seat, name in enumerate(names)
        ),
        key=lambda row: (row["placing"], row["name"]),
    )
    deals = [
        {
            "number": deal["number"],
            "dealer": names[deal["dealer"]],
            "cells": list(zip(deal["scores"], deal["totals"], strict=True)),
        }
        for deal in payload["deals"]
    ]
    return render(
        request,
        "pages/club/shared_game.html",
        {
            "game": game,
            "game_name": GAMES[game.game_type].name,
            "names": names,
            "winners": [names[seat] for seat in sorted(winners)],
            "final": final,
            "deals": deals,
            "totals": payload["totals"],
        },
    )
