"""Tournament pages: the club's tournaments, a new tournament, the director's dashboard
(registrations, check-in, seating with its progress, swaps, publishing, closing, every
table's state polled with htmx), seating and standings (phone or projector), printable
table cards with QR codes, and a public "find your table" page.

Reads come from :mod:`tournaments.selectors`, writes go through
:mod:`tournaments.services` (which check the caller's rights again). A club's
tournaments answer 404 to anyone who is not a member, except "find your table" of a club
that publishes its results. Writes are plain POSTs: done, they are answered by a redirect
to the dashboard with the outcome as a message; refused (by their form or a service), by
the dashboard at once, 4xx, with the reason beside the field and the form as it was sent.
Each director's action is a small function under :func:`director_action`, which does the
rest.

One module, in the order a tournament day runs (list and create; the dashboard and its
actions; seating, standings and cards; find your table; a table's result): every view is
a few lines over the selectors and services, and they share the dashboard's helpers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh

from rules_engine import GAMES
from scorekeeper import access
from scorekeeper import selectors as core_selectors
from scorekeeper.access import Actor, TableGuest
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.models import Game, Player
from scorekeeper.pages.actors import game_and_actor
from scorekeeper.pages.doors import forbidden, game_rules, member_club, readable_or_sign_in
from scorekeeper.pages.game_views import game_page_refused
from scorekeeper.pages.live_views import LIVE_CACHE_CONTROL, etag_matches
from scorekeeper.pages.panels import Panel
from scorekeeper.pages.sharing import qr_svg

from .. import models, selectors, services
from ..access import can_direct
from ..models import Round, RoundStatus, Tournament
from .forms import AnnouncementForm, NewPlayerForm, PlayersForm, SwapForm, TournamentForm

# What the dashboard follows live (static/js/live.js polls its part about once a second,
# answered by a 304 while nothing moved).
SEATING_POLL = "seating"
PLAYING_POLL = "playing"


# --- Who may see what -----------------------------------------------------------------------


def _tournament(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament, for members of its club; 404 for anyone else."""
    try:
        return selectors.tournament_visible_to(request.user, tournament_id)
    except NotFound:
        raise Http404("no such tournament") from None


def _forbidden(request: HttpRequest, back: str) -> HttpResponse:
    return forbidden(request, "Only the club's admins and directors run its tournaments.", back)


def dashboard_url(tournament: Tournament) -> str:
    return reverse("tournament", kwargs={"tournament_id": tournament.pk})


def _projector(request: HttpRequest) -> bool:
    return request.GET.get("projector") == "1"


def _report(request: HttpRequest, error: ServiceError) -> None:
    messages.error(request, capfirst(error.message))


def _form_errors(request: HttpRequest, form: Any) -> None:
    """Each of the form's errors summed up above the dashboard's forms, a field's named by
    its label ("Name: This field is required."); the form shows them beside its fields."""
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        label = (field.label or name.replace("_", " ")).capitalize() if field else ""
        for error in errors:
            messages.error(request, f"{label}: {capfirst(error)}" if label else error)


# --- Tables and rounds as the pages show them -------------------------------------------------


STATE_LABELS = {
    "not_started": "Not started",
    "playing": "Deal {deal}",
    "finished": "Finished: waiting for confirmation",
    "confirmed": "Confirmed",
}


@dataclass
class TableRow:
    table: models.Table
    seats: list[models.RoundPlayer]
    state: str
    deal: int | None
    link: str = ""
    qr: SafeString | None = None

    @property
    def label(self) -> str:
        if self.state == "confirmed" and self.table.confirmed_by_name:
            return f"Confirmed by {self.table.confirmed_by_name}"
        if self.table.reopened_at is not None:
            base = STATE_LABELS[self.state].format(deal=self.deal)
            return (
                f"Reopened by {self.table.reopened_by_name} ({self.table.reopen_reason}) · {base}"
            )
        if self.table.unfinished:  # the round was closed before the table confirmed
            return "Closed unconfirmed" if selectors.played_out(self.table) else "Closed unfinished"
        return STATE_LABELS[self.state].format(deal=self.deal)

    @property
    def dealer(self) -> Player | None:
        first = self.table.first_dealer
        return self.seats[first].player if 0 <= first < len(self.seats) else None


def table_rows(round: Round) -> list[TableRow]:
    tables = selectors.round_tables(round)
    seats = selectors.players_of(tables)
    rows = []
    for table in tables:
        state, deal = selectors.table_state(table)
        rows.append(TableRow(table=table, seats=seats[table.pk], state=state, deal=deal))
    return rows


@dataclass
class RoundView:
    """The round a page is about, with its tables, byes and (before publishing) conflicts."""

    round: Round
    tables: list[TableRow]
    byes: list[Player]
    conflicts: list[selectors.SeatingConflict] = field(default_factory=list)

    @property
    def by_name(self) -> list[tuple[Player, TableRow | None]]:
        """Every player of the round, alphabetically, with their table (None: a bye)."""
        pairs: list[tuple[Player, TableRow | None]] = [
            (seat.player, row) for row in self.tables for seat in row.seats
        ]
        pairs += [(player, None) for player in self.byes]
        return sorted(pairs, key=lambda pair: pair[0].name.casefold())

    @property
    def unconfirmed(self) -> list[int]:
        return [row.table.number for row in self.tables if row.state != "confirmed"]


def round_view(round: Round, conflicts: bool = False) -> RoundView:
    return RoundView(
        round=round,
        tables=table_rows(round),
        byes=selectors.round_byes(round),
        conflicts=selectors.round_conflicts(round) if conflicts else [],
    )


def _phase(round: Round | None) -> str:
    """What the dashboard's controls depend on: when it changes, the page is reloaded."""
    if round is None:
        return "none"
    failed = ":failed" if round.seating_status == models.SeatingStatus.FAILED else ""
    return f"{round.number}:{round.status}{failed}"


def _poll(round: Round | None) -> str:
    if round is None:
        return ""
    if round.status == RoundStatus.SEATING and round.seating_status != models.SeatingStatus.FAILED:
        return SEATING_POLL
    if round.status == RoundStatus.PLAYING:
        return PLAYING_POLL
    return ""


def _check_in_label(tournament: Tournament, under_way: Round | None, number: int) -> str:
    """The words of the registration forms' check-in box: the round a check-in is for."""
    planned = tournament.rounds_planned
    if under_way is not None:
        then = f", else from round {number}" if number <= planned else ""
        return f"Check them in (round {under_way.number}, where it has room{then})"
    if number <= planned:
        return f"Check them in for round {number}"
    return f"Check them in (round {planned}, where it has room)"


def _status_context(
    tournament: Tournament, round: Round | None, directs: bool = False
) -> dict[str, Any]:
    view = None
    if round is not None and round.status in (RoundStatus.PLAYING, RoundStatus.CLOSED):
        view = round_view(round)
    return {
        "tournament": tournament,
        "round": round,
        "view": view,
        "phase": _phase(round),
        "poll": _poll(round),
        "can_direct": directs,
        "stuck": selectors.seating_stuck(round),
        "etag": _status_etag(tournament, round) if _poll(round) else "",
        "clock": selectors.round_clock(round) if round is not None else None,
        # in the polled part: gone once a table has started
        "can_unpublish": directs
        and round is not None
        and round.status == RoundStatus.PLAYING
        and not selectors.round_started(round),
    }


# --- The club's tournaments and a new one -----------------------------------------------------


@login_required
@require_GET
def tournament_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = member_club(request, slug)
    return render(
        request,
        "tournaments/list.html",
        {
            "club": club,
            "tournaments": selectors.tournaments_of(club),
            "can_direct": can_direct(request.user, club),
            "games": GAMES.values(),
        },
    )


def _settings_page(
    request: HttpRequest,
    form: TournamentForm,
    save: Callable[[dict[str, Any]], Tournament],
    done: str,
    context: dict[str, Any],
) -> HttpResponse:
    """The tournament form (new, or a tournament's settings): posted, its settings are
    ``save``d through the service and the director goes on to the dashboard, told ``done``
    (with the tournament's name); refused, the form again with the service's reason."""
    status = 200
    if request.method == "POST":
        options = form.read_options()
        status = 400  # refused: the form again, its errors beside the fields
        if form.is_valid() and options is not None:
            try:
                tournament = save(form.service_arguments(options))
            except ServiceError as error:
                form.service_error(error.field, error.message)
                status = error.status
            else:
                messages.success(request, done.format(tournament.name))
                return redirect(dashboard_url(tournament))
    context = {
        **context,
        "form": form,
        "round_fields": form.field_rows("round_deals", "round_minutes", "grace_minutes"),
        "scoring_fields": form.field_rows("placing_points", "bye_score", "bye_points"),
    }
    return render(request, "tournaments/new.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest, slug: str, game_type: str) -> HttpResponse:
    club = member_club(request, slug)
    rules = game_rules(game_type)
    if not can_direct(request.user, club):
        return _forbidden(request, reverse("tournament-list", kwargs={"slug": club.slug}))
    return _settings_page(
        request,
        TournamentForm(rules, request.POST if request.method == "POST" else None),
        lambda settings: services.tournament_create(
            actor=request.user, club=club, game_type=rules.key, **settings
        ),
        "{} is created: register its players.",
        {"club": club, "rules": rules},
    )


@login_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director changes a tournament's settings (not its game) before round 1 is seated."""
    tournament = _tournament(request, tournament_id)
    if not can_direct(request.user, tournament.club):
        return _forbidden(request, dashboard_url(tournament))
    if request.method == "GET" and not selectors.settings_editable(tournament):
        messages.info(request, "The settings can be changed only before round 1 is seated.")
        return redirect(dashboard_url(tournament))
    rules = GAMES[tournament.game_type]
    data = request.POST if request.method == "POST" else None
    return _settings_page(
        request,
        TournamentForm(rules, data, tournament=tournament),
        lambda settings: services.tournament_update(
            actor=request.user, tournament=tournament, **settings
        ),
        "{}'s settings are saved.",
        {"club": tournament.club, "rules": rules, "tournament": tournament},
    )


@login_required
@require_POST
def tournament_delete(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director deletes a tournament none of whose rounds was played."""
    tournament, allowed = _director_post(request, tournament_id)
    if not allowed:
        return _forbidden(request, dashboard_url(tournament))
    try:
        services.tournament_delete(actor=request.user, tournament=tournament)
    except ServiceError as error:
        _report(request, error)
        return redirect(dashboard_url(tournament))
    messages.success(request, f"{tournament.name} is deleted.")
    return redirect("tournament-list", slug=tournament.club.slug)


# --- The dashboard ----------------------------------------------------------------------------


@never_cache
@login_required
@require_GET
def dashboard(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The director's dashboard (members see it without the controls)."""
    return _dashboard_page(request, _tournament(request, tournament_id))


#: The dashboard's forms that choose players from its lists: the roster's, the registered.
_ROSTER_FORMS = {"tournament-register"}
_REGISTERED_FORMS = {"tournament-check-in", "tournament-check-out", "tournament-withdraw"}


def _refusal(
    request: HttpRequest,
    tournament: Tournament,
    status: int,
    sent: QueryDict | None,
    errors: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The dashboard's context for a refused form (none when ``status`` is not 4xx): its
    name (``refused``: its part of the page is shown open, to put right), what it was
    ``sent`` with and its fields' ``errors``, keyed by the form (``refused_sent.swap.first``,
    ``refused_fields.register_new.name``: no other form shows them); for a choice of players,
    which list (``refused_list``) and who was chosen; the roster's filter as it was; and
    the dashboard's address to put in the history in its place (``refused_at``)."""
    match = request.resolver_match
    refused = match.url_name if status >= 400 and match and match.url_name else ""
    key = refused.removeprefix("tournament-").replace("-", "_")
    data: QueryDict | dict[str, Any] = sent if refused and sent is not None else {}
    listed = "roster" if refused in _ROSTER_FORMS else "registered"
    refused_list = listed if refused in _ROSTER_FORMS | _REGISTERED_FORMS else ""
    chosen = set(data.getlist("players")) if isinstance(data, QueryDict) else set()
    # the roster as it was filtered when the form was sent (GET ?roster=; the form's q)
    roster_query = str(data.get("q", "")) if refused in _ROSTER_FORMS else ""
    roster_query = roster_query or request.GET.get("roster", "")
    refused_at = dashboard_url(tournament)
    if refused in _ROSTER_FORMS and roster_query.strip():
        refused_at += "?" + urlencode({"roster": roster_query.strip()}) + "#register"
    return {
        "refused": refused,
        "refused_sent": {key: data} if refused else {},
        "refused_fields": {key: errors or {}} if refused else {},
        "refused_list": refused_list,
        "refused_errors": (errors or {}) if refused_list else {},
        "chosen_roster": chosen if refused_list == "roster" else set(),
        "chosen_registered": chosen if refused_list == "registered" else set(),
        "roster_query": roster_query,
        "refused_at": refused_at if refused else "",
    }


def _dashboard_page(
    request: HttpRequest,
    tournament: Tournament,
    status: int = 200,
    *,
    sent: QueryDict | None = None,
    errors: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """The dashboard as it stands, answered with ``status``. A refused request shows it
    again with what was wrong among its messages, and its form as ``sent`` (the players
    chosen still chosen), each field's ``errors`` beside it. Never kept by the browser:
    Back after a refusal and its correction shows the dashboard as it now is."""
    directs = can_direct(request.user, tournament.club)
    round = selectors.last_round(tournament)
    registrations = list(selectors.registrations(tournament))
    check_in_round = selectors.check_in_round(tournament)
    present = {r.player_id for r in registrations if r.present_for(check_in_round)}
    # a round seated or being played: a check-in sits in it where there is room
    under_way = round is not None and round.status in (RoundStatus.SEATED, RoundStatus.PLAYING)
    refusal = _refusal(request, tournament, status, sent, errors)
    roster_query = " ".join(refusal["roster_query"].split())[:60]
    roster = selectors.roster_for_registration(tournament, roster_query)
    seated = None
    if round is not None and round.status == RoundStatus.SEATED:
        seated = round_view(round, conflicts=True)
    next_number = 1 if round is None else round.number + 1
    can_seat = (
        tournament.status != models.TournamentStatus.FINISHED
        and next_number <= tournament.rounds_planned
        and (round is None or round.status == RoundStatus.CLOSED)
    )
    context = {
        **_status_context(tournament, round, directs),
        "club": tournament.club,
        "game_name": GAMES[tournament.game_type].name,
        "registrations": registrations,
        "active_count": sum(
            1 for r in registrations if r.status == models.RegistrationStatus.ACTIVE
        ),
        "check_in_round": check_in_round,
        "under_way": under_way,
        "check_in_label": _check_in_label(tournament, round if under_way else None, check_in_round),
        "checked_in_count": len(present),
        "present": present,
        "roster": roster,
        "roster_query": roster_query,
        "listed_count": sum(1 for _, registration in roster if registration is None),
        "seated": seated,
        "can_seat": can_seat,
        "can_edit": selectors.settings_editable(tournament),
        "can_delete": not selectors.tournament_played(tournament),
        "announcements": selectors.announcements(tournament)[:5],
        "stuck_jobs": selectors.stuck_jobs(tournament) if directs else [],
        "next_number": next_number,
        "methods": models.SeatingMethod.choices,
        **refusal,
    }
    response = render(request, "tournaments/dashboard.html", context, status=status)
    add_never_cache_headers(response)
    return response


@login_required
@require_GET
def dashboard_status(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The polled part of the dashboard: seating progress, or every table's state. When
    the round moves on (seated, published, closed) the whole page is reloaded, so its
    controls follow."""
    tournament = _tournament(request, tournament_id)
    seating = ":seating" in request.GET.get("phase", "")
    etag = _status_etag(tournament, selectors.last_round(tournament) if seating else None)
    if etag_matches(request, etag):
        # Nothing moved at any table since the caller's copy: no rendering at all.
        return _live(HttpResponse(status=304), etag)
    round = selectors.last_round(tournament)
    if request.GET.get("phase", _phase(round)) != _phase(round):
        return HttpResponseClientRefresh()
    context = _status_context(tournament, round, can_direct(request.user, tournament.club))
    context["etag"] = etag
    return _live(render(request, "tournaments/_status.html", context), etag)


def _status_etag(tournament: Tournament, round: Round | None) -> str:
    """The polled part's ETag; a seating no worker picks up changes nothing stored, so
    while seating it also says whether the seating is stuck (see ``seating_stuck``)."""
    etag = selectors.tournament_version(tournament.pk)
    return etag[:-1] + '-stuck"' if selectors.seating_stuck(round) else etag


def _live(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    response["Cache-Control"] = LIVE_CACHE_CONTROL
    response["Vary"] = "Cookie"
    return response


def _director_post(request: HttpRequest, tournament_id: int) -> tuple[Tournament, bool]:
    tournament = _tournament(request, tournament_id)
    return tournament, can_direct(request.user, tournament.club)


class Refused(Exception):
    """A director's request the page refuses itself (a form filled in wrongly): already
    said in ``messages``; the dashboard is shown again, answered ``status``."""

    def __init__(self, status: int = 400, form: Any = None) -> None:
        super().__init__(status)
        self.status = status
        self.form = form  # the form refused, its errors shown beside its fields


DirectorView = Callable[..., "str | None"]


def director_action(view: DirectorView) -> Callable[..., HttpResponse]:
    """A director's POST about a tournament. Others get the "not allowed" page; the view
    gets the tournament and returns what to tell the director (or raises ``Refused``).
    Done, back to the dashboard (so that a reload does not post again); refused by the form or
    by a service, the dashboard is shown at once with what was wrong, answered 400 or the
    service's own status (409 for a round already under way), so nothing reads it as done.
    The address of such a page is the form's: opened again (a GET), it leads to the
    dashboard."""

    @login_required
    @require_http_methods(["GET", "POST"])
    @wraps(view)
    def wrapped(request: HttpRequest, tournament_id: int, **kwargs: Any) -> HttpResponse:
        if request.method == "GET":
            return redirect(dashboard_url(_tournament(request, tournament_id)))
        tournament, allowed = _director_post(request, tournament_id)
        if not allowed:
            return _forbidden(request, dashboard_url(tournament))
        try:
            said = view(request, tournament, **kwargs)
        except Refused as refused:
            form = refused.form
            return _dashboard_page(
                request,
                _tournament(request, tournament_id),
                refused.status,
                sent=request.POST,
                errors=form.errors if form is not None else {},
            )
        except ServiceError as error:
            _report(request, error)
            return _dashboard_page(
                request,
                _tournament(request, tournament_id),
                error.status,
                sent=request.POST,
                errors={error.field: [capfirst(error.message)]} if error.field else {},
            )
        if said:
            messages.success(request, said)
        return redirect(dashboard_url(tournament))

    return wrapped


def _valid(request: HttpRequest, form: Any) -> Any:
    """The form's cleaned data, or ``Refused`` with its errors: summed up above the
    dashboard's forms, and beside the fields of the form refused (shown again as filled in)."""
    if not form.is_valid():
        _form_errors(request, form)
        raise Refused(form=form)
    return form.cleaned_data


def _names(players: list[Player]) -> str:
    return ", ".join(player.name for player in players)


def _late_seated(
    request: HttpRequest, tournament: Tournament, before: dict[int, int | None]
) -> set[int]:
    """Tell the director where late arrivals were seated in the round under way
    (``before``: :func:`selectors.placed_now` before they came), and who of the round's
    byes now plays at their table; the late arrivals' player ids."""
    now = selectors.seated_now(tournament)
    from_byes: dict[int, list[str]] = {}  # table number: who had a bye and now sits there
    for player_id, place in now.items():
        if player_id in before and before[player_id] is None and place.table is not None:
            from_byes.setdefault(place.table.number, []).append(place.player.name)
    late = set()
    for player_id, place in now.items():
        if player_id in before or place.table is None:
            continue
        late.add(player_id)
        byes = from_byes.get(place.table.number)
        with_byes = f", with {_and(sorted(byes))}, who had a bye" if byes else ""
        messages.info(
            request,
            f"{place.player.name} arrived late and sits at table {place.table.number} "
            f"of round {place.round.number}{with_byes}.",
        )
    return late


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


@director_action
def register(request: HttpRequest, tournament: Tournament) -> str:
    """Register players from the roster (a late arrival too, between rounds)."""
    check_in = request.POST.get("check_in") in ("on", "1", "true")
    if request.POST.get("everyone") == "1":
        # "Register everyone listed": the roster as the filter shows it, not yet registered.
        query = " ".join(request.POST.get("q", "").split())[:60]
        players = selectors.unregistered_roster(tournament, query)
        if not players:
            messages.error(request, "Everyone listed is registered already.")
            raise Refused
    else:
        roster = core_selectors.roster(tournament.club)
        players = list(_valid(request, PlayersForm(roster, request.POST))["players"])
    before = selectors.placed_now(tournament)
    services.register(actor=request.user, tournament=tournament, players=players, check_in=check_in)
    _late_seated(request, tournament, before)
    checked = " and checked in" if check_in else ""
    return f"Registered{checked} ({len(players)}): {_names(players)}."


@director_action
def register_new(request: HttpRequest, tournament: Tournament) -> str:
    """Someone on the spot: onto the roster and into the tournament."""
    data = _valid(request, NewPlayerForm(request.POST))
    before = selectors.placed_now(tournament)
    registration = services.register_new(
        actor=request.user,
        tournament=tournament,
        name=data["name"],
        email=data["email"],
        check_in=data["check_in"],
    )
    _late_seated(request, tournament, before)
    number = registration.checked_in_round  # the round under way for a late arrival seated
    checked = f" and checked in for round {number}" if data["check_in"] and number else ""
    return f"{registration.player.name} is registered{checked}."


def _chosen_registered(request: HttpRequest, tournament: Tournament) -> list[Player]:
    form = PlayersForm(selectors.registered_players(tournament), request.POST)
    return list(_valid(request, form)["players"])


@director_action
def check_in(request: HttpRequest, tournament: Tournament) -> str:
    everyone = request.POST.get("everyone") == "1"
    players = [] if everyone else _chosen_registered(request, tournament)
    before = selectors.placed_now(tournament)
    done = services.check_in(
        actor=request.user, tournament=tournament, players=players, everyone=everyone
    )
    late = len(_late_seated(request, tournament, before))  # each told where they sit
    number = selectors.check_in_round(tournament)
    if late:
        plays = (
            "plays in round {} as a late arrival"
            if late == 1
            else "play in round {} as late arrivals"
        )
        then = f", {len(done) - late} from round {number} on" if late < len(done) else ""
        return (
            f"{len(done)} checked in: {late} {plays.format(number - 1)}{then}; they stay "
            "checked in until they check out."
        )
    return (
        f"{len(done)} checked in for round {number}; they stay checked in for later "
        "rounds until they check out."
    )


@director_action
def check_out(request: HttpRequest, tournament: Tournament) -> str:
    """Players who leave: not seated from the next round on (they stay in the tournament)."""
    players = _chosen_registered(request, tournament)
    number = selectors.check_in_round(tournament)
    done = services.check_out(actor=request.user, tournament=tournament, players=players)
    present = {registration.player_id for registration in done}
    left = [player for player in players if player.pk in present]
    absent = [player for player in players if player.pk not in present]
    said = f"Checked out from round {number}: {_names(left)}." if left else ""
    if absent:
        were = "were" if len(absent) > 1 else "was"
        said += (
            f" ({_names(absent)} {were} not checked in.)"
            if left
            else (f"{_names(absent)} {were} not checked in: nothing to check out.")
        )
    return said.strip()


@director_action
def withdraw(request: HttpRequest, tournament: Tournament) -> str:
    players = _chosen_registered(request, tournament)
    services.withdraw(actor=request.user, tournament=tournament, players=players)
    return f"Withdrawn: {_names(players)}."


@director_action
def seat(request: HttpRequest, tournament: Tournament) -> str:
    """Ask for the next round to be seated; the dashboard shows the progress."""
    method = request.POST.get("method") or None
    round, _ = services.round_request(actor=request.user, tournament=tournament, method=method)
    round.refresh_from_db()  # without a broker the seating has run already
    if round.status == RoundStatus.SEATED:
        return f"Round {round.number} is seated: look over its tables, then publish it."
    return f"Round {round.number} is being seated."


@director_action
def job_retry(request: HttpRequest, tournament: Tournament) -> str:
    """Try a stuck background job again now (the standings, a round's emails)."""
    job_id = _job_id(request)
    if services.tournament_job_retry(actor=request.user, tournament=tournament, job_id=job_id):
        return "Tried again now."
    return "That was done already (or someone has just tried it again)."


def _job_id(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("job", ""))
    except ValueError:
        messages.error(request, "Choose the job to try again.")
        raise Refused from None


def _round(tournament: Tournament, number: int) -> Round:
    try:
        return selectors.round_numbered(tournament, number)
    except NotFound:
        raise Http404("no such round") from None


@director_action
def swap(request: HttpRequest, tournament: Tournament, number: int) -> None:
    """Swap two players' places before the round is published; conflicts are shown."""
    round = _round(tournament, number)
    form = SwapForm(selectors.round_players(round), request.POST)
    data = _valid(request, form)
    first, second = data["first"], data["second"]
    conflicts = services.round_swap(actor=request.user, round=round, first=first, second=second)
    messages.success(request, f"{first.name} and {second.name} have swapped places.")
    for conflict in conflicts:
        messages.warning(request, capfirst(conflict.message))
    return None


@director_action
def publish(request: HttpRequest, tournament: Tournament, number: int) -> str:
    """Start every table's game, with its table link, and tell the players."""
    round = _round(tournament, number)
    services.round_publish(actor=request.user, round=round)
    return f"Round {round.number} is published: the tables can play."


@director_action
def unpublish(request: HttpRequest, tournament: Tournament, number: int) -> str:
    """Take back publishing a round that no table has started."""
    round = _round(tournament, number)
    services.round_unpublish(actor=request.user, round=round)
    return (
        f"Round {round.number} is taken back: it is seated but not published; "
        "its table links no longer work."
    )


@director_action
def announce(request: HttpRequest, tournament: Tournament) -> str:
    """A message to every table's page."""
    data = _valid(request, AnnouncementForm(request.POST))
    services.tournament_announce(actor=request.user, tournament=tournament, text=data["text"])
    return "The message is shown at every table."


@director_action
def announce_withdraw(request: HttpRequest, tournament: Tournament) -> str:
    """Take a message to the tables down."""
    raw = request.POST.get("announcement", "")
    if not raw.isdigit():
        messages.error(request, "Choose the message to take down.")
        raise Refused(400)
    services.tournament_announcement_withdraw(
        actor=request.user, tournament=tournament, announcement_id=int(raw)
    )
    return "The message is taken down: the tables no longer show it."


@director_action
def close(request: HttpRequest, tournament: Tournament, number: int) -> str:
    """Close the round; with ``force``, unconfirmed tables end at their current totals."""
    round = _round(tournament, number)
    try:
        services.round_close(
            actor=request.user, round=round, force=request.POST.get("force") == "1"
        )
    except ServiceError as error:
        unconfirmed = (error.details or {}).get("unconfirmed")
        if not unconfirmed:
            raise
        # The page's words for the API's "force".
        messages.error(
            request,
            f"Round {round.number} is not closed: {services.unconfirmed_text(unconfirmed)}. "
            f"“Close round {round.number} now” finishes unconfirmed tables at their totals.",
        )
        raise Refused(error.status) from None
    return f"Round {round.number} is closed."


# --- Seating, standings, table cards (phone or projector) -----------------------------------


def _shown_round(request: HttpRequest, tournament: Tournament, director: bool) -> Round | None:
    """The round asked for (``?round=``), or the latest one that can be shown."""
    asked = request.GET.get("round", "")
    if asked.isascii() and asked.isdigit():
        number = int(asked) if len(asked) < 5 else 0  # no round 0: nothing is shown
        return selectors.shown_round(tournament, director=director, number=number)
    return selectors.shown_round(tournament, director=director, number=None)


def _screen(
    request: HttpRequest, tournament: Tournament, render_page: Callable[[], HttpResponse]
) -> HttpResponse:
    """A page a projector shows and polls (``?projector=1``): answered "not modified"
    while nothing on it moved (a round, a table, a message, the standings rebuilt: see
    ``selectors.screen_version``), else rendered with the ETag to ask with.

    The screen's own asking (htmx, every 5 s) is told with a 204, which htmx leaves alone:
    a 304 reaches it as the browser's cached copy of the page, with its clock as it was
    when that copy was made, swapped in every 5 s."""
    if not _projector(request):
        return render_page()
    etag = selectors.screen_version(tournament)
    if etag_matches(request, etag):
        unchanged = 204 if request.headers.get("HX-Request") == "true" else 304
        return _live(HttpResponse(status=unchanged), etag)
    return _live(render_page(), etag)


@require_GET
def seating(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Who sits where: members, and anyone when the club publishes its results (as the
    standings and "find your table")."""
    tournament = readable_or_sign_in(
        request, lambda: selectors.tournament_results_readable_by(request.user, tournament_id)
    )
    if isinstance(tournament, HttpResponse):
        return tournament
    return _screen(request, tournament, lambda: _seating_page(request, tournament))


def _seating_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    director = can_direct(request.user, tournament.club)
    round = _shown_round(request, tournament, director)
    last = selectors.last_round(tournament)
    return render(
        request,
        "tournaments/seating.html",
        {
            "tournament": tournament,
            "view": round_view(round) if round is not None else None,
            "being_seated": last is not None and last.status == RoundStatus.SEATING,
            "rounds": tournament.rounds.exclude(status=RoundStatus.SEATING).exclude(
                status=RoundStatus.SEATED
            ),
            "projector": _projector(request),
            "clock": selectors.round_clock(round) if round is not None else None,
            "is_member": access.is_member(request.user, tournament.club),
            "announcements": selectors.announcements(tournament)[:2],
        },
    )


def _readable(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament, if the caller may read its results (404 otherwise)."""
    try:
        return selectors.tournament_results_readable_by(request.user, tournament_id)
    except NotFound:
        raise Http404("no such tournament") from None


def _table(table_id: int) -> models.Table:
    try:
        return selectors.table_with_game(table_id)
    except NotFound:
        raise Http404("no such table") from None


@require_GET
def standings(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The standings: members, and anyone when the club publishes its results."""
    tournament = _readable(request, tournament_id)
    return _screen(request, tournament, lambda: _standings_page(request, tournament))


def _standings_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rows = list(selectors.standings(tournament))
    return render(
        request,
        "tournaments/standings.html",
        {
            "tournament": tournament,
            "rows": rows,
            "round_numbers": range(1, max((len(r.round_points) for r in rows), default=0) + 1),
            "is_member": access.is_member(request.user, tournament.club),
            "projector": _projector(request),
            "announcements": selectors.announcements(tournament)[:2],
        },
    )


@never_cache
@login_required
@require_GET
def table_cards(request: HttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """One printable card per table: its number, players, first dealer and the QR code of
    its table link (directors: the links let anyone score the table's game)."""
    tournament = _tournament(request, tournament_id)
    if not can_direct(request.user, tournament.club):
        return _forbidden(request, dashboard_url(tournament))
    round = _round(tournament, number)
    rows = table_rows(round)
    for row in rows:
        game = row.table.game
        link = core_selectors.active_table_link(game) if game is not None else None
        if link is not None:
            row.link = request.build_absolute_uri(
                reverse("table-enter", kwargs={"token": link.token})
            )
            row.qr = qr_svg(row.link)
    return render(
        request,
        "tournaments/cards.html",
        {"tournament": tournament, "round": round, "rows": rows},
    )


# --- Find your table (public when the club publishes its results) ------------------------------


@never_cache
@require_GET
def find_table(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A player finds their table by name, no sign-in needed (public clubs only)."""
    tournament = _readable(request, tournament_id)
    round = selectors.shown_round(tournament, director=False, number=None)
    query = " ".join(request.GET.get("q", "").split())[:60]
    # Each player found, their table (None: a bye) and who sits with them there.
    matches: list[tuple[Player, TableRow | None, str]] = []
    if round is not None and query:
        needle = query.casefold()
        matches = [
            (player, row, _others(player, row))
            for player, row in round_view(round).by_name
            if needle in player.name.casefold()
        ]
    context = {"tournament": tournament, "round": round, "query": query, "matches": matches}
    template = "tournaments/find.html"
    if getattr(request, "htmx", False) and request.headers.get("HX-Target") == "find-results":
        template = "tournaments/_find_results.html"
    return render(request, template, context)


def _others(player: Player, row: TableRow | None) -> str:
    """The names of who sits at ``player``'s table with them ("Ann, Bob and Cy")."""
    names = [seat.player.name for seat in (row.seats if row else []) if seat.player_id != player.pk]
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else "".join(names)


# --- Confirming a table's result (from the game page) -----------------------------------------


def confirm_panel(game: Game, actor: Actor) -> Panel | None:
    """What the game page shows of a tournament table: where it is, its state, "Confirm
    result" once the game is finished (or at the round's deal limit), and for directors
    "Reopen" once it is locked (confirmed, or its round closed)."""
    table = selectors.table_of(game)
    if table is None:
        return None
    table.game = game
    state, _ = selectors.table_state(table)
    round = table.round
    director = can_direct(actor, round.tournament.club)
    playing = round.status == RoundStatus.PLAYING
    closed = round.status == RoundStatus.CLOSED
    needs_name = isinstance(actor, TableGuest) and not actor.name.strip()
    # whoever recorded the last deal does not confirm (a guest is known by the name given,
    # and by the browser: also before giving one)
    recorded_last = state == "finished" and selectors.recorded_last_deal(actor, game)
    return Panel(
        "tournaments/_confirm.html",
        {
            "table": table,
            "round": round,
            "tournament": round.tournament,
            "state": state,
            "can_confirm": (state == "finished" and playing and not recorded_last)
            or (director and closed and state != "confirmed" and game.locked_at is None),
            "recorded_last": recorded_last and playing,
            "can_reopen": director and game.locked_at is not None,
            "needs_name": needs_name,
            "announcements": selectors.announcements(round.tournament)[:2],
            # the round's clock while the table plays (a table done waits for nothing)
            "clock": (
                selectors.round_clock(round, game)
                if playing and state not in ("finished", "confirmed")
                else None
            ),
        },
    )


@require_POST
def table_confirm(request: HttpRequest, table_id: int) -> HttpResponse:
    """A second player at the table confirms its result (not whoever recorded the last deal)."""
    table = _table(table_id)
    assert table.game_id is not None
    game, actor = game_and_actor(request, table.game_id)
    try:
        services.table_confirm(actor=actor, table=table, name=request.POST.get("name", "")[:60])
    except ServiceError as error:
        # the game page again, saying why, answered with the refusal's status
        return game_page_refused(request, game, actor, capfirst(error.message), error.status)
    messages.success(request, f"Table {table.number}'s result is confirmed. Thank you!")
    return redirect("game", game_id=game.pk)


@login_required
@require_POST
def table_reopen(request: HttpRequest, table_id: int) -> HttpResponse:
    """The director reopens a confirmed table (with a reason) so its game can be corrected."""
    table = _table(table_id)
    tournament = _tournament(request, table.round.tournament_id)
    if not can_direct(request.user, tournament.club):
        return _forbidden(request, reverse("game", args=[table.game_id]))
    try:
        services.table_reopen(
            actor=request.user, table=table, reason=request.POST.get("reason", "")
        )
    except ServiceError as error:
        _report(request, error)
    else:
        messages.success(
            request,
            f"Table {table.number} is reopened: its deals can be corrected; "
            "its result counts again once it is confirmed.",
        )
    return redirect("game", game_id=table.game_id)
