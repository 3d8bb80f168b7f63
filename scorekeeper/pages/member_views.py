"""Club life from the pages: starting a club, its members and invitations, its roster and
seasons, "my games", and deleting one's account.

Every write goes through :mod:`scorekeeper.services` (which check the caller's rights and
the club's rules); a refusal comes back beside the field it is about, or as a message. Each
form posts and redirects, so Back and reload never send it twice; all of it works with
JavaScript off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from allauth.account.internal.flows.email_verification import (
    send_verification_email_to_address,
)
from allauth.account.models import EmailAddress
from allauth.core.ratelimit import consume_or_429
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import capfirst
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper import access, selectors, services
from scorekeeper.accounts import JOIN_TOKEN
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.models import Club, Role
from scorekeeper.services.members import can_invite, invitation_problem

from .doors import forbidden, found, member_club
from .member_forms import (
    ClubForm,
    ClubSettingsForm,
    DeleteAccountForm,
    InvitationForm,
    PlayerChoiceForm,
    PlayerForm,
    RoleForm,
    SeasonForm,
    VerificationResendForm,
)
from .sharing import qr_svg


@contextmanager
def _attempt(request: HttpRequest, done: str) -> Iterator[None]:
    """Around a write: say ``done`` when it worked, or the service's reason when refused."""
    try:
        yield
    except ServiceError as error:
        messages.error(request, capfirst(error.message))
    else:
        messages.success(request, done)


# --- Starting a club -------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_create(actor=request.user, **form.cleaned_data)
        except ServiceError as error:
            form.refused(error)
        else:
            messages.success(request, f"{club.name} is open. Invite its members next.")
            return redirect("club-members", slug=club.slug)
    return render(request, "pages/club/create.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def club_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's name and whether its results are public: for its admins."""
    club = member_club(request, slug)
    if not access.can_administer(request.user, club):
        return forbidden(
            request,
            "Only the club's admins change its settings.",
            reverse("club-members", args=[club.slug]),
        )
    initial = {"name": club.name, "results_public": club.results_public}
    form = ClubSettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.club_update(actor=request.user, club=club, **form.cleaned_data)
        except ServiceError as error:
            form.refused(error)
        else:
            messages.success(request, "The club's settings are saved.")
            return redirect("club-members", slug=club.slug)
    status = 400 if form.errors else 200
    return render(request, "pages/club/settings.html", {"club": club, "form": form}, status=status)


# --- Members and invitations -----------------------------------------------------------------


def _invitation_roles(request: HttpRequest, club: Club) -> list[tuple[str, str]]:
    return [(role, label) for role, label in Role.choices if can_invite(request.user, club, role)]


@login_required
@require_http_methods(["GET", "POST"])
def club_members(request: HttpRequest, slug: str) -> HttpResponse:
    """Who is in the club with which role; admins change roles and remove members; admins
    and directors make invitation links."""
    club = member_club(request, slug)
    roles = _invitation_roles(request, club)
    form = InvitationForm(request.POST or None, roles=roles)
    if request.method == "POST":
        if not roles:
            return forbidden(
                request,
                "Only the club's admins and directors invite people.",
                reverse("club-members", args=[club.slug]),
            )
        if form.is_valid():
            try:
                invitation = services.invitation_create(
                    actor=request.user,
                    club=club,
                    base_url=request.build_absolute_uri("/"),
                    **form.cleaned_data,
                )
            except ServiceError as error:
                form.refused(error)
            else:
                sent = f" and sent to {invitation.email}" if invitation.email else ""
                messages.success(request, f"Invitation made{sent}.")
                return redirect("club-members", slug=club.slug)
    invitations = (
        [
            {
                "invitation": invitation,
                "url": request.build_absolute_uri(reverse("join", args=[invitation.token])),
            }
            for invitation in selectors.open_invitations(club)
        ]
        if roles
        else []
    )
    for item in invitations:
        item["qr"] = qr_svg(str(item["url"]))
    context = {
        "club": club,
        "members": selectors.club_members(club),
        "is_admin": access.can_administer(request.user, club),
        "roles": Role.choices,
        "form": form,
        "can_invite": bool(roles),
        "invitations": invitations,
    }
    return render(request, "pages/club/members.html", context)


def _club_member(request: HttpRequest, slug: str, user_id: int) -> tuple[Club, User]:
    """The caller's club and one of its members (404 for anything else)."""
    club = member_club(request, slug)
    return club, found(lambda: selectors.member_of(club, user_id))


@login_required
@require_POST
def member_role(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    club, user = _club_member(request, slug, user_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, "role must be one of " + ", ".join(Role.values))
    else:
        role = form.cleaned_data["role"]
        with _attempt(request, f"{user.get_username()} is now {Role(role).label.lower()}."):
            services.membership_set(actor=request.user, club=club, user=user, role=role)
    return redirect("club-members", slug=club.slug)


@login_required
@require_POST
def member_remove(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    club, user = _club_member(request, slug, user_id)
    leaving = user.pk == request.user.pk
    done = f"You have left {club.name}." if leaving else f"{user.get_username()} was removed."
    with _attempt(request, done):
        services.membership_remove(actor=request.user, club=club, user=user)
        if leaving:
            return redirect("home")
    return redirect("club-members", slug=club.slug)


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    club = member_club(request, slug)
    invitation = found(lambda: selectors.club_invitation(club, invitation_id))
    with _attempt(request, "The invitation was withdrawn: its link no longer works."):
        services.invitation_revoke(actor=request.user, invitation=invitation)
    return redirect("club-members", slug=club.slug)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation's link: who invites, with which role; sign up or sign in, then join."""
    invitation = found(lambda: selectors.invitation_by_token(token))
    problem = invitation_problem(invitation)
    if problem is None and not request.user.is_authenticated:
        # Signing up (with the email's verification) or in comes back here.
        request.session[JOIN_TOKEN] = token
    if request.method == "POST" and problem is None:
        if not request.user.is_authenticated:
            return redirect(f"{reverse('account_login')}?next={request.path}")
        try:
            services.invitation_accept(actor=request.user, token=token)
        except ServiceError as error:
            problem = error.message
        else:
            request.session.pop(JOIN_TOKEN, None)
            messages.success(request, f"Welcome to {invitation.club.name}.")
            return redirect("club", slug=invitation.club.slug)
    context = {
        "invitation": invitation,
        "club": invitation.club,
        "problem": problem,
        "member_role": access.role_in(request.user, invitation.club),
    }
    return render(request, "pages/club/join.html", context, status=410 if problem else 200)


# --- Roster ------------------------------------------------------------------------------------


def _roster_forms(request: HttpRequest, club: Club, data: Any = None) -> dict[str, Any]:
    players = [(p.pk, p.name) for p in selectors.roster(club)]
    members = [(m.user_id, m.user.get_username()) for m in selectors.club_members(club)]

    def posted(action: str) -> Any:
        """The posted data for this form's action; None (an unbound form) for another."""
        return data if data and data.get("action") == action else None

    def choice_form(action: str, others: list[tuple[int, str]], label: str) -> PlayerChoiceForm:
        # Each form's own ids (auto_id): the link and merge forms have the same fields, and
        # each label must name its own form's list.
        return PlayerChoiceForm(
            posted(action),
            auto_id=f"{action}_%s",
            players=players,
            others=others,
            other_label=label,
        )

    return {
        "add_form": PlayerForm(posted("add")),
        "merge_form": choice_form("merge", players, "is the same person as (kept)"),
        "link_form": choice_form("link", members, "is the member"),
    }


def _roster_writes(request: HttpRequest, club: Club) -> dict[str, Callable[[Any], str]]:
    """The roster page's forms' writes, by action: each takes its form's cleaned data and
    says what it did (a refusal is the service's ServiceError)."""

    def add(cleaned: Any) -> str:
        player = services.player_create(actor=request.user, club=club, name=cleaned["name"])
        return f"{player.name} is on the roster."

    def merge(cleaned: Any) -> str:
        player = selectors.club_player(club, cleaned["player"])
        into = selectors.club_player(club, cleaned["other"])
        merged = services.player_merge(actor=request.user, player=player, into=into)
        return f"{merged.merged_name} was merged into {merged.player.name}."

    def link(cleaned: Any) -> str:
        player = selectors.club_player(club, cleaned["player"])
        user = selectors.member_of(club, cleaned["other"])
        services.player_link(actor=request.user, player=player, user=user)
        return f"{player.name} is linked to {user.get_username()}."

    return {"add": add, "merge": merge, "link": link}


@login_required
@require_http_methods(["GET", "POST"])
def club_roster(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's players: add, rename, retire; link to members; confirm claims; merge."""
    club = member_club(request, slug)
    data = request.POST if request.method == "POST" else None
    forms = _roster_forms(request, club, data)
    action = data.get("action") if data else None
    writes = _roster_writes(request, club)
    if action in writes:
        form = forms[f"{action}_form"]
        if form.is_valid():
            try:
                done = writes[action](form.cleaned_data)
            except ServiceError as error:
                form.refused(error)
            else:
                messages.success(request, done)
                return redirect("club-roster", slug=club.slug)
    elif action is not None:
        messages.error(request, "unknown action")
    roster = list(selectors.roster(club).select_related("user", "claimed_by"))
    context = {
        "club": club,
        "roster": roster,
        "claims": [p for p in roster if p.claimed_by_id],
        "mine": next((p for p in roster if p.user_id == request.user.pk), None),
        "can_manage": access.can_manage_roster(request.user, club),
        "is_admin": access.can_administer(request.user, club),
        **forms,
    }
    return render(
        request, "pages/club/roster.html", context, status=400 if data and action else 200
    )


@login_required
@require_POST
def player_change(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """One player: rename, retire or bring back, claim ("that's me"), confirm a claim."""
    club = member_club(request, slug)
    player = found(lambda: selectors.club_player(club, player_id))
    action = request.POST.get("action")
    actor = request.user
    if action == "rename":
        form = PlayerForm(request.POST)
        if not form.is_valid():
            messages.error(request, "A player's name has 1 to 100 characters.")
        else:
            new = form.cleaned_data["name"]
            with _attempt(request, f"{player.name} is now {new}."):
                services.player_update(actor=actor, player=player, name=new)
    elif action in ("retire", "restore"):
        with _attempt(
            request,
            f"{player.name} is {'retired' if action == 'retire' else 'back on the roster'}.",
        ):
            services.player_update(actor=actor, player=player, active=action == "restore")
    elif action == "claim":
        with _attempt(request, f"You claimed {player.name}: an admin will confirm it."):
            services.player_claim(actor=actor, player=player)
    elif action in ("confirm", "decline"):
        outcome = "confirmed" if action == "confirm" else "turned down"
        with _attempt(request, f"The claim on {player.name} was {outcome}."):
            services.player_claim_decide(actor=actor, player=player, accept=action == "confirm")
    elif action == "unlink":
        with _attempt(request, f"{player.name} is no longer linked to an account."):
            services.player_link(actor=actor, player=player, user=None)
    else:
        messages.error(request, "unknown action")
    return redirect("club-roster", slug=club.slug)


# --- Seasons ---------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def club_seasons(request: HttpRequest, slug: str) -> HttpResponse:
    club = member_club(request, slug)
    can_manage = access.can_manage_seasons(request.user, club)
    form = SeasonForm(request.POST or None)
    if request.method == "POST":
        if not can_manage:
            return forbidden(
                request,
                "Only the club's admins and directors make its seasons.",
                reverse("club-seasons", args=[club.slug]),
            )
        if form.is_valid():
            try:
                season = services.season_create(actor=request.user, club=club, **form.cleaned_data)
            except ServiceError as error:
                form.refused(error)
            else:
                messages.success(request, f"Season {season.name} made.")
                return redirect("club-seasons", slug=club.slug)
    today = timezone.localdate()
    current = selectors.season_for_date(club, today)
    context = {
        "club": club,
        "seasons": selectors.seasons_with_game_counts(club),
        "current": current,
        "today": today.isoformat(),  # as the template compares the seasons' dates
        "can_manage": can_manage,
        "form": form,
    }
    return render(request, "pages/club/seasons.html", context, status=400 if form.errors else 200)


#: what each change says once done (the season's name, and the fields posted), its
#: service, and the fields of the form it takes
SEASON_CHANGES: dict[str, tuple[str, Callable[..., Any], tuple[str, ...]]] = {
    "close": ("{} ends today.", services.season_close, ()),
    "current": ("{} is the current season from today.", services.season_make_current, ()),
    "rename": ("{} is now called {name}.", services.season_rename, ("name",)),
    "delete": ("{} is deleted.", services.season_delete, ()),
}


@login_required
@require_POST
def season_change(request: HttpRequest, slug: str, season_id: int, change: str) -> HttpResponse:
    """End a season today (``close``), make it the current one from today (``current``),
    rename it, or delete one made by mistake."""
    club = member_club(request, slug)
    try:
        season = selectors.club_season(club, season_id)
    except NotFound:  # deleted meanwhile (in another tab, by someone else)
        messages.error(request, "That season no longer exists: it was deleted.")
        return redirect("club-seasons", slug=club.slug)
    done, service, names = SEASON_CHANGES[change]
    was = season.name
    try:
        changed = service(
            actor=request.user,
            season=season,
            **{name: request.POST.get(name, "") for name in names},
        )
    except ServiceError as error:
        messages.error(request, capfirst(error.message))
    else:
        messages.success(request, done.format(was, name=getattr(changed, "name", "")))
    return redirect("club-seasons", slug=club.slug)


# --- Me ------------------------------------------------------------------------------------------


@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    assert isinstance(request.user, User)
    games = list(selectors.games_of_user(request.user)[:100])
    return render(request, "pages/my_games.html", {"games": games})


@login_required
@require_http_methods(["GET", "POST"])
def account_delete(request: HttpRequest) -> HttpResponse:
    form = DeleteAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = request.user
        assert isinstance(user, User)
        if not user.check_password(form.cleaned_data["password"]):
            form.add_error("password", "that is not your password")
        else:
            try:
                services.account_delete(user=user)
            except ServiceError as error:
                form.add_error(None, error.message)
            else:
                logout(request)
                messages.success(
                    request, "Your account is deleted. Your results stay with your clubs."
                )
                return redirect("home")
    return render(request, "account/delete.html", {"form": form})


@require_http_methods(["GET", "POST"])
def verification_resend(request: HttpRequest) -> HttpResponse:
    """The verification email again, for whoever did not get it (signed in or not): to an
    address waiting to be verified, at most one every few minutes (allauth's cooldown, which
    the first email started too). The answer is the same whether or not the address is
    known, so it tells nobody which addresses have accounts."""
    form = VerificationResendForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        too_many: HttpResponse | None = consume_or_429(request, action="verification_resend")
        if too_many is not None:
            return too_many
        email = form.cleaned_data["email"]
        address = EmailAddress.objects.filter(email__iexact=email, verified=False).first()
        if address is not None:
            send_verification_email_to_address(request, address)
        messages.success(
            request,
            f"If {email} is waiting to be verified, a new link is on its way: it can take a "
            "few minutes, and one is sent every three minutes at most.",
        )
        return redirect("account_email_verification_sent")
    return render(request, "account/verification_resend.html", {"form": form})
