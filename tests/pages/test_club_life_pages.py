"""Club life on the pages: start a club, invite, join, roles, roster, seasons, my games,
deleting an account, and the sign-in limits (pages and API token). One file, over 500
lines, in the order a club's life runs: the later scenes build on the people of the first."""

from __future__ import annotations

import datetime
import re
from html import unescape
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper import selectors, services
from scorekeeper.errors import NotAllowed
from scorekeeper.models import Club, Invitation, Membership, Player, Role, Season
from tests.factories import ClubFactory, PlayerFactory, UserFactory, member

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_in_process")]


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text_of(response: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def mails(django_capture_on_commit_callbacks: Any) -> Any:
    """Wrap a request: the emails it stored are sent once it commits (as in production)."""
    return django_capture_on_commit_callbacks


@pytest.fixture
def club() -> Club:
    return ClubFactory(name="Kings Arms", slug="kings")


def _sign_up_sam(client: Client, mails: Any, *, follow: bool = False) -> Any:
    """Sam signs up (the verification email sent at once)."""
    with mails(execute=True):
        return client.post(
            reverse("account_signup"),
            {
                "email": "sam@example.org",
                "username": "sam",
                "password1": "a long pass phrase",
                "password2": "a long pass phrase",
            },
            follow=follow,
        )


def test_sign_up_verify_the_address_and_sign_in(client: Client, mails: Any) -> None:
    response = _sign_up_sam(client, mails)
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].body.startswith("Hello from Scorekeeper!")
    assert "Thank you for using Scorekeeper!" in mail.outbox[0].body
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+", mail.outbox[0].body)
    assert link is not None
    # Not signed in until the address is verified.
    assert client.get(reverse("my-games")).status_code == 302
    path = link.group(0).split("testserver", 1)[1]
    assert "Confirm" in text_of(client.get(path))
    client.post(path)
    assert client.get(reverse("my-games")).status_code == 200
    # Later, with the email address instead of the username.
    other = Client()
    response = other.post(
        reverse("account_login"), {"login": "sam@example.org", "password": "a long pass phrase"}
    )
    assert response.status_code == 302
    assert other.get(reverse("my-games")).status_code == 200


def test_the_verification_e_mail_sent_again(client: Client, mails: Any) -> None:
    """Who did not get the verification email asks for it again on the page that says it
    was sent: a new link, once allauth's cooldown (three minutes) is over; the answer is the
    same for an address nobody signed up with."""
    response = _sign_up_sam(client, mails, follow=True)
    page = response.content.decode()
    again = reverse("account-verification-resend")
    assert f'action="{again}"' in page and "Send it again" in page
    assert len(mail.outbox) == 1

    def ask(email: str) -> str:
        with mails(execute=True):
            response = client.post(again, {"email": email}, follow=True)
        assert response.redirect_chain[-1][0] == reverse("account_email_verification_sent")
        return text_of(response)

    said = ask("sam@example.org")  # within the cooldown: nothing more is sent
    assert "If sam@example.org is waiting to be verified, a new link is on its way" in said
    assert len(mail.outbox) == 1
    cache.clear()  # three minutes later
    ask("Sam@Example.org")
    assert [m.to for m in mail.outbox] == [["sam@example.org"]] * 2
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+", mail.outbox[-1].body)
    assert link is not None
    client.post(link.group(0).split("testserver", 1)[1])
    assert client.get(reverse("my-games")).status_code == 200

    other = Client()
    response = other.post(again, {"email": "nobody@example.org"}, follow=True)
    assert "If nobody@example.org is waiting to be verified" in text_of(response)
    assert len(mail.outbox) == 2
    # An expired or wrong link leads to the same place.
    assert f'href="{again}"' in other.get("/accounts/confirm-email/no-such-key/").content.decode()


def test_sign_up_errors_stand_under_their_own_field(client: Client) -> None:
    """Each error comes right after its field's input, before the next field's label (not
    above its own label, where it reads as the previous field's)."""
    UserFactory(username="sam", email="sam@example.org")
    response = client.post(
        reverse("account_signup"),
        {"email": "new@example.org", "username": "sam", "password1": "short", "password2": "x"},
    )
    html = response.content.decode()
    taken = html.index("A user with that username already exists.")
    too_short = html.index("This password is too short.")
    assert html.index('id="id_email"') < html.index('for="id_username"') < taken
    assert html.index('id="id_username"') < taken < html.index('for="id_password1"')
    assert html.index('id="id_password1"') < too_short < html.index('for="id_password2"')
    assert too_short < html.index("Your password must contain at least 8 characters.")


def test_accounts_made_by_an_admin_sign_in_with_their_username(client: Client) -> None:
    UserFactory(username="scorer", email="")
    response = client.post(reverse("account_login"), {"login": "scorer", "password": "password"})
    assert response.status_code == 302
    assert client.get(reverse("my-games")).status_code == 200


def test_failed_sign_ins_are_limited_per_account(client: Client) -> None:
    UserFactory(username="ann")
    for _ in range(10):
        page = client.post(reverse("account_login"), {"login": "ann", "password": "wrong"})
        assert page.status_code == 200
        assert "not correct" in text_of(page)
    page = client.post(reverse("account_login"), {"login": "ann", "password": "password"})
    assert "Too many failed sign-ins for this account" in text_of(page)
    assert client.get(reverse("my-games")).status_code == 302
    # The API's token endpoint counts on the same keys.
    answer = Client().post(
        reverse("api:auth-token"),
        {"username": "ann", "password": "password"},
        content_type="application/json",
    )
    assert answer.status_code == 429
    assert "too many failed sign-ins" in answer.json()["error"]["message"]
    # Someone else at the same address (a club room's one connection) still signs in.
    UserFactory(username="bob")
    bob = Client()
    response = bob.post(reverse("account_login"), {"login": "bob", "password": "password"})
    assert response.status_code == 302
    assert bob.get(reverse("my-games")).status_code == 200


def test_the_token_endpoint_counts_failures_too() -> None:
    UserFactory(username="bob")
    api = Client()
    for _ in range(10):
        answer = api.post(
            reverse("api:auth-token"),
            {"username": "bob", "password": "wrong"},
            content_type="application/json",
            REMOTE_ADDR=f"10.0.0.{_}",
        )
        assert answer.status_code == 400
    answer = api.post(
        reverse("api:auth-token"),
        {"username": "bob", "password": "password"},
        content_type="application/json",
        REMOTE_ADDR="10.0.1.1",
    )
    assert answer.status_code == 429


def _reset_password(client: Client, mails: Any, email: str, password: str) -> None:
    """Ask for the reset email and set ``password`` with its link."""
    sent = len(mail.outbox)
    with mails(execute=True):
        client.post(reverse("account_reset_password"), {"email": email})
    assert len(mail.outbox) == sent + 1
    link = re.search(r"https?://testserver(/accounts/password/reset/key/\S+)", mail.outbox[-1].body)
    assert link is not None
    form = client.get(link.group(1), follow=True)
    action = form.redirect_chain[-1][0] if form.redirect_chain else link.group(1)
    with mails(execute=True):
        client.post(action, {"password1": password, "password2": password})


def test_password_reset_by_email(client: Client, mails: Any) -> None:
    user = UserFactory(username="cy", email="cy@example.org")
    _reset_password(client, mails, "cy@example.org", "a new pass phrase")
    user.refresh_from_db()
    assert user.check_password("a new pass phrase")


def _verified(username: str) -> Any:
    """An account that signs in with its username or its (verified) email."""
    user = UserFactory(username=username, email=f"{username}@example.org")
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def _sign_in(login: str, password: str, *, address: str = "127.0.0.1") -> Any:
    return Client(REMOTE_ADDR=address).post(
        reverse("account_login"), {"login": login, "password": password}
    )


def _token(username: str, password: str, *, address: str = "127.0.0.1") -> Any:
    return Client(REMOTE_ADDR=address).post(
        reverse("api:auth-token"),
        {"username": username, "password": password},
        content_type="application/json",
    )


def test_a_password_reset_lifts_the_lock_for_the_username_and_the_email(
    client: Client, mails: Any
) -> None:
    _verified("dee")
    for _ in range(10):
        assert "not correct" in text_of(_sign_in("dee", "wrong"))
    assert "Too many failed sign-ins for this account" in text_of(_sign_in("dee", "password"))
    _reset_password(client, mails, "dee@example.org", "a new pass phrase")
    # At once, whichever spelling is typed, on the pages and for a token.
    assert _token("dee", "a new pass phrase").status_code == 200
    assert _sign_in("dee", "a new pass phrase").status_code == 302
    assert _sign_in("dee@example.org", "a new pass phrase").status_code == 302


def test_the_username_and_the_email_count_on_one_account() -> None:
    _verified("eve")
    for attempt in range(10):
        login = "eve" if attempt % 2 else "EVE@example.org"
        assert "not correct" in text_of(_sign_in(login, "wrong"))
    for login in ("eve", "eve@example.org", "Eve"):
        page = _sign_in(login, "password")
        assert "Too many failed sign-ins for this account" in text_of(page)
    assert _token("eve@example.org", "password").status_code == 429
    # Logins that are no account's are counted each on their own.
    for _ in range(10):
        assert "not correct" in text_of(_sign_in("nobody@example.org", "wrong"))
    assert "Too many failed sign-ins" in text_of(_sign_in("nobody@example.org", "wrong"))
    assert "not correct" in text_of(_sign_in("nobody-else", "wrong"))


def test_a_password_change_lifts_the_lock(client: Client) -> None:
    """Locked by guesses elsewhere, the account changes its password where it is signed
    in: the new password then signs in at once. (A successful sign-in does not clear the
    count: it is not refused its attempt, but the failures before it still count.)"""
    user = _verified("fay")
    for _ in range(10):
        _sign_in("fay", "wrong")
    assert "Too many failed sign-ins for this account" in text_of(_sign_in("fay", "password"))
    changed = signed_in(user).post(
        reverse("account_change_password"),
        {
            "oldpassword": "password",
            "password1": "a new pass phrase",
            "password2": "a new pass phrase",
        },
    )
    assert changed.status_code == 302
    assert _sign_in("fay", "a new pass phrase").status_code == 302
    assert _sign_in("fay@example.org", "a new pass phrase").status_code == 302


@pytest.fixture
def three_per_address(settings: Any) -> None:
    """At most 3 failed sign-ins from one address (10 per account, as in production)."""
    settings.ACCOUNT_RATE_LIMITS = {
        **settings.ACCOUNT_RATE_LIMITS,
        "login_failed": "3/15m/ip,10/15m/key",
    }


@pytest.mark.usefixtures("three_per_address")
def test_failed_sign_ins_are_limited_per_address(mails: Any) -> None:
    for name in ("gil", "hal", "ida", "jo"):
        _verified(name)
    for name in ("gil", "hal", "ida"):
        assert "not correct" in text_of(_sign_in(name, "wrong", address="10.1.1.1"))
    # Every account, with the right password, is refused from that address for a while;
    # the page does not blame the account (nor offer a reset, which would not help).
    for login in ("jo", "gil@example.org"):
        text = text_of(_sign_in(login, "password", address="10.1.1.1"))
        assert "Too many failed sign-ins from this network address" in text
        assert "try again in a quarter of an hour" in text
        assert "for this account" not in text
    answer = _token("jo", "password", address="10.1.1.1")
    assert answer.status_code == 429
    assert "from this network address" in answer.json()["error"]["message"]
    assert answer.json()["error"]["details"]["limit"] == "address"
    # A password reset does not lift it (only time does); another address is not concerned.
    _reset_password(Client(REMOTE_ADDR="10.1.1.1"), mails, "jo@example.org", "a new pass phrase")
    text = text_of(_sign_in("jo", "a new pass phrase", address="10.1.1.1"))
    assert "Too many failed sign-ins from this network address" in text
    assert _sign_in("jo", "a new pass phrase", address="10.1.1.2").status_code == 302


@pytest.mark.usefixtures("three_per_address")
def test_the_account_limit_is_named_when_the_account_is_locked() -> None:
    _verified("kim")
    for attempt in range(10):
        _sign_in("kim", "wrong", address=f"10.2.0.{attempt}")
    text = text_of(_sign_in("kim", "password", address="10.2.1.1"))
    assert "Too many failed sign-ins for this account" in text
    assert "reset the password" in text


def test_start_a_club_invite_and_join(client: Client) -> None:
    founder = UserFactory(username="founder")
    page = signed_in(founder)
    response = page.post(
        reverse("club-create"), {"name": "Whist Club", "slug": "whist", "results_public": ""}
    )
    assert response["Location"] == reverse("club-members", args=["whist"])
    club = Club.objects.get(slug="whist")
    taken = page.post(reverse("club-create"), {"name": "Again", "slug": "whist"})
    assert taken.status_code == 200
    assert "The address /c/whist/ is taken by another club: choose another" in text_of(taken)
    spaced = page.post(reverse("club-create"), {"name": "Again", "slug": "kings arms"})
    assert "may hold only letters, digits, hyphens and underscores" in text_of(spaced)
    assert "“slug”" not in text_of(spaced)
    page.post(
        reverse("club-members", args=["whist"]),
        {"role": "scorer", "days": "7", "max_uses": "5", "email": ""},
    )
    invitation = Invitation.objects.get(club=club)
    members_page = page.get(reverse("club-members", args=["whist"])).content.decode()
    assert f"http://testserver/join/{invitation.token}/" in members_page
    # A copy button, shown by the script that presses it (without one: select the text).
    assert (
        f'<button type="button" class="copy" data-copy="invite-url-{invitation.pk}" '
        f'aria-describedby="invitation-{invitation.pk}" aria-live="polite" hidden>'
        "Copy the link</button>" in members_page
    )
    assert re.search(r'<script src="/static/js/print\.[0-9a-f]+\.js"', members_page)
    assert "Scorer" in members_page
    # A newcomer opens the link: signs in, joins.
    join = reverse("join", args=[invitation.token])
    assert "Sign up and join" in text_of(client.get(join))
    assert "on Scorekeeper as a scorer." in text_of(client.get(join))
    assert client.post(join)["Location"].startswith(reverse("account_login"))
    newcomer = UserFactory(username="newcomer")
    joined = signed_in(newcomer).post(join)
    assert joined["Location"] == reverse("club", args=["whist"])
    assert Membership.objects.get(club=club, user=newcomer).role == Role.SCORER


def test_an_invitation_survives_verifying_the_email_in_another_browser(
    club: Club, mails: Any
) -> None:
    """Signed up from an invitation, the newcomer opens the verification link where the
    invitation was never opened (the mail app's own browser): signing in there brings them
    back to the invitation, and until they join, home offers it."""
    invitation = services.invitation_create(actor=member(club, Role.ADMIN), club=club)
    join = reverse("join", args=[invitation.token])
    phone = Client()
    assert "Sign up and join" in text_of(phone.get(join))
    # The sign-up and sign-in pages say which club the invitation is to.
    invited = f"Invited to join {club.name} as a member: once you are signed in, the invitation"
    assert invited in text_of(phone.get(reverse("account_signup")))
    assert invited in text_of(phone.get(reverse("account_login")))
    assert "Invited to join" not in text_of(Client().get(reverse("account_signup")))
    with mails(execute=True):
        phone.post(
            reverse("account_signup"),
            {
                "email": "nina@example.org",
                "username": "nina",
                "password1": "another pass phrase",
                "password2": "another pass phrase",
            },
        )
    link = re.search(r"https?://testserver(/accounts/confirm-email/\S+)", mail.outbox[-1].body)
    assert link is not None
    mail_app = Client()
    confirmed = mail_app.post(link.group(1))
    assert confirmed.status_code == 302
    signed = mail_app.post(
        reverse("account_login"), {"login": "nina", "password": "another pass phrase"}
    )
    assert signed["Location"] == join
    # Not joined yet: home offers the invitation (there, and on the phone once signed in).
    home = text_of(mail_app.get(reverse("home")))
    assert f"You signed up from an invitation to {club.name}" in home
    assert f"Join {club.name}" in home
    joined = mail_app.post(join)
    assert joined["Location"] == reverse("club", args=[club.slug])
    assert Membership.objects.get(club=club, user__username="nina").role == Role.MEMBER
    # Answered: home goes to the club, and signing in again goes home.
    assert mail_app.get(reverse("home"))["Location"] == reverse("club", args=[club.slug])
    again = Client().post(
        reverse("account_login"), {"login": "nina", "password": "another pass phrase"}
    )
    assert again["Location"] == reverse("home")


def test_an_invitation_withdrawn_before_signing_in_is_not_offered(club: Club) -> None:
    admin = member(club, Role.ADMIN)
    invitation = services.invitation_create(actor=admin, club=club)
    newcomer = _verified("ola")
    services.invitation_remember(user=newcomer, token=invitation.token)
    assert selectors.invitation_to_join(newcomer) == invitation
    browser = Client()
    browser.get(reverse("join", args=[invitation.token]))
    assert "Invited to join" in text_of(browser.get(reverse("account_login")))
    services.invitation_revoke(actor=admin, invitation=invitation)
    assert "Invited to join" not in text_of(browser.get(reverse("account_login")))
    assert selectors.invitation_to_join(newcomer) is None
    assert "You signed up from an invitation" not in text_of(signed_in(newcomer).get("/"))
    # A member already in the club with the invited role or higher is not asked again.
    second = services.invitation_create(actor=admin, club=club, role=Role.SCORER)
    services.invitation_remember(user=admin, token=second.token)
    assert selectors.invitation_to_join(admin) is None
    services.invitation_remember(user=newcomer, token="no-such-token")
    assert newcomer.invitations_opened.count() == 1  # the withdrawn one only


def test_a_used_up_invitation_says_so(club: Club) -> None:
    admin = member(club, Role.ADMIN)
    invitation = services.invitation_create(actor=admin, club=club)
    Invitation.objects.filter(pk=invitation.pk).update(uses=1)
    page = signed_in(UserFactory()).get(reverse("join", args=[invitation.token]))
    assert page.status_code == 410
    assert "used as many times as the club allowed" in text_of(page)
    assert signed_in(UserFactory()).get(reverse("join", args=["nope"])).status_code == 404


def test_roles_and_the_last_admin_on_the_members_page(club: Club) -> None:
    admin = member(club, Role.ADMIN, username="admin")
    ann = member(club, Role.MEMBER, username="ann")
    page = signed_in(admin)
    page.post(reverse("member-role", args=["kings", ann.pk]), {"role": "director"})
    assert Membership.objects.get(user=ann).role == Role.DIRECTOR
    demoted = page.post(
        reverse("member-role", args=["kings", admin.pk]), {"role": "member"}, follow=True
    )
    # The username as it is written (a message is capitalised: it does not start with it).
    assert (
        "The club must keep an admin, and admin is the only one: make someone else admin first"
        in text_of(demoted)
    )
    assert Membership.objects.get(user=admin).role == Role.ADMIN
    # A member of another club, or of none, sees nothing of it.
    outsider = signed_in(member(ClubFactory()))
    assert outsider.get(reverse("club-members", args=["kings"])).status_code == 404
    assert (
        outsider.post(reverse("member-role", args=["kings", ann.pk]), {"role": "admin"}).status_code
        == 404
    )
    # A plain member sees the members but cannot invite.
    plain = signed_in(member(club))
    text = text_of(plain.get(reverse("club-members", args=["kings"])))
    assert "admin" in text and "Make an invitation link" not in text
    refused = plain.post(reverse("club-members", args=["kings"]), {"role": "member"})
    assert refused.status_code == 403  # a member sees the page: told why, not "not found"
    assert "Only the club's admins and directors invite people." in unescape(text_of(refused))
    refused = plain.post(
        reverse("club-seasons", args=["kings"]),
        {"name": "Mine", "starts_on": "2026-01-01", "ends_on": "2026-12-31"},
    )
    assert refused.status_code == 403
    assert "Only the club's admins and directors make its seasons." in unescape(text_of(refused))
    assert not Season.objects.filter(name="Mine").exists()


def test_roster_claim_confirm_merge(club: Club) -> None:
    admin = member(club, Role.ADMIN, username="admin")
    ann = member(club, Role.MEMBER, username="ann")
    player = PlayerFactory(club=club, name="Ann")
    twin = PlayerFactory(club=club, name="Ann B.")
    signed_in(ann).post(reverse("player-change", args=["kings", player.pk]), {"action": "claim"})
    roster = text_of(signed_in(admin).get(reverse("club-roster", args=["kings"])))
    assert "ann says they are Ann" in roster
    signed_in(admin).post(
        reverse("player-change", args=["kings", player.pk]), {"action": "confirm"}
    )
    player.refresh_from_db()
    assert player.user == ann
    merged = signed_in(admin).post(
        reverse("club-roster", args=["kings"]),
        {"action": "merge", "player": twin.pk, "other": player.pk},
    )
    assert merged.status_code == 302
    assert not Player.objects.filter(pk=twin.pk).exists()
    itself = signed_in(admin).post(
        reverse("club-roster", args=["kings"]),
        {"action": "merge", "player": player.pk, "other": player.pk},
    )
    assert itself.status_code == 400 and "cannot be merged into itself" in text_of(itself)


def test_a_refused_form_low_on_the_page_takes_the_focus(club: Club) -> None:
    """The roster's forms are below the players: the first field with an error (or the
    form's first field, for an error about the whole form) gets ``autofocus``, so the
    browser brings it and its error into view, with JavaScript off too."""
    admin = member(club, Role.ADMIN, username="admin")
    ann = PlayerFactory(club=club, name="Ann")
    for _ in range(20):
        PlayerFactory(club=club)
    roster = reverse("club-roster", args=["kings"])
    page = signed_in(admin).post(roster, {"action": "add", "name": "Ann"})
    html = page.content.decode()
    assert page.status_code == 400 and html.count("autofocus") == 1
    field = re.search(r'<input[^>]*id="id_name"[^>]*>', html)
    assert field is not None and "autofocus" in field.group(0)
    assert html.index(field.group(0)) < html.index("already has a player called")
    assert "autofocus" not in signed_in(admin).get(roster).content.decode()
    # An error about the whole form: its first field.
    html = (
        signed_in(admin)
        .post(roster, {"action": "merge", "player": ann.pk, "other": ann.pk})
        .content.decode()
    )
    assert html.count("autofocus") == 1
    assert re.search(r'<select name="player"[^>]*autofocus', html)
    # The link and merge forms have the same fields, each with its own id for its label.
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert sorted(ids) == sorted(set(ids))
    assert 'for="merge_player"' in html and 'for="link_player"' in html


def test_seasons_page(club: Club) -> None:
    director = member(club, Role.DIRECTOR)
    page = signed_in(director)
    today = timezone.localdate()
    made = page.post(
        reverse("club-seasons", args=["kings"]),
        {
            "name": "This year",
            "starts_on": today.replace(month=1, day=1).isoformat(),
            "ends_on": today.replace(month=12, day=31).isoformat(),
        },
    )
    assert made.status_code == 302
    season = Season.objects.get(club=club)
    listed = text_of(page.get(reverse("club-seasons", args=["kings"])))
    assert "This year" in listed and "current" in listed
    bad = page.post(
        reverse("club-seasons", args=["kings"]),
        {"name": "Backwards", "starts_on": "2026-05-01", "ends_on": "2026-04-01"},
    )
    assert bad.status_code == 400 and "cannot end before it starts" in text_of(bad)
    if today > season.starts_on:
        page.post(reverse("season-close", args=["kings", season.pk]))
        season.refresh_from_db()
        assert season.ends_on == today
        listed = text_of(page.get(reverse("club-seasons", args=["kings"])))
        assert "ends today: games after today fall outside it" in listed
    # only a season to come is offered to be made the current one
    Season.objects.create(
        club=club,
        name="Next year",
        starts_on=today.replace(year=today.year + 1, month=1, day=1),
        ends_on=today.replace(year=today.year + 1, month=12, day=31),
    )
    listed = text_of(page.get(reverse("club-seasons", args=["kings"])))
    assert listed.count("Make it the current season") == 1
    assert "Make Next year current from today" in listed
    assert "Make This year current" not in listed
    plain = signed_in(member(club))
    assert "New season" not in text_of(plain.get(reverse("club-seasons", args=["kings"])))


def test_a_season_is_renamed_and_one_made_by_mistake_deleted(club: Club) -> None:
    """A typo in a season's name is put right; a season made by mistake (no game in it)
    is deleted; one with games is not (it is ended early instead)."""
    director = member(club, Role.DIRECTOR)
    page = signed_in(director)
    seasons = reverse("club-seasons", args=["kings"])
    played = Season.objects.create(
        club=club,
        name="Sring 2026",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 6, 30),
    )
    players = [PlayerFactory(club=club, name=n) for n in ("Ann", "Bob", "Cy")]
    services.game_start(
        actor=director,
        club=club,
        game_type="widow_whist",
        players=players,
        played_on=datetime.date(2026, 2, 1),
    )
    mistake = Season.objects.create(
        club=club,
        name="Spring 2062",
        starts_on=datetime.date(2062, 1, 1),
        ends_on=datetime.date(2062, 6, 30),
    )
    listed = text_of(page.get(seasons))
    assert listed.count("Rename…") == 2
    assert listed.count("Delete…") == 1 and "Delete Spring 2062" in listed
    assert (
        "1 game is in it (finished, under way or abandoned): it is kept." in listed
    )  # (a past season: no advice)
    renamed = page.post(
        reverse("season-rename", args=["kings", played.pk]), {"name": "Spring 2026"}, follow=True
    )
    assert "Sring 2026 is now called Spring 2026." in text_of(renamed)
    taken = page.post(
        reverse("season-rename", args=["kings", mistake.pk]), {"name": "Spring 2026"}, follow=True
    )
    assert "The club already has a season called &quot;Spring 2026&quot;" in text_of(taken)
    kept = page.post(reverse("season-delete", args=["kings", played.pk]), follow=True)
    assert "1 game was played in Spring 2026" in text_of(kept)
    deleted = page.post(reverse("season-delete", args=["kings", mistake.pk]), follow=True)
    assert "Spring 2062 is deleted." in text_of(deleted)
    assert list(Season.objects.filter(club=club).values_list("name", flat=True)) == ["Spring 2026"]
    # a plain member is offered neither, and a form sent by hand changes nothing
    plain = signed_in(member(club))
    assert "Rename…" not in text_of(plain.get(seasons))
    # a name differing only in case is the same name
    same = page.post(
        reverse("season-rename", args=["kings", played.pk]), {"name": "SPRING 2026"}, follow=True
    )
    assert "Spring 2026 is now called SPRING 2026." in text_of(same)  # its own name: fine
    Season.objects.create(
        club=club,
        name="Autumn",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 11, 30),
    )
    clash = page.post(
        reverse("season-rename", args=["kings", played.pk]), {"name": "autumn"}, follow=True
    )
    assert "The club already has a season called &quot;autumn&quot;" in text_of(clash)
    # a season deleted in another tab: said, not "not found"
    gone = page.post(reverse("season-delete", args=["kings", mistake.pk]), follow=True)
    assert gone.status_code == 200
    assert "That season no longer exists: it was deleted." in text_of(gone)
    plain.post(reverse("season-rename", args=["kings", played.pk]), {"name": "Mine"})
    played.refresh_from_db()
    assert played.name == "SPRING 2026"


def test_my_games_in_progress_first(club: Club) -> None:
    ann = member(club, username="ann")
    me = PlayerFactory(club=club, name="Ann", user=ann)
    others = [PlayerFactory(club=club, name=n) for n in ("Bob", "Cy")]
    finished = services.game_start(
        actor=ann,
        club=club,
        game_type="widow_whist",
        players=[me, *others],
        options={"finish": {"deals": 1}},
        played_on=datetime.date(2026, 1, 5),
    )
    services.deal_record(
        actor=ann, game=finished, number=1, record={"widow": None, "tricks": [7, 3, 3]}
    )
    playing = services.game_start(
        actor=ann,
        club=club,
        game_type="widow_whist",
        players=[me, *others],
        played_on=datetime.date(2026, 1, 1),
    )
    services.game_start(
        actor=ann,
        club=club,
        game_type="widow_whist",
        players=others + [PlayerFactory(club=club, name="Dee")],
    )
    page = signed_in(ann).get(reverse("my-games"))
    links = re.findall(r'href="/g/(\d+)/"', page.content.decode())
    assert links == [str(playing.pk), str(finished.pk)]


def test_delete_my_account(club: Club) -> None:
    member(club, Role.ADMIN)
    ann = member(club, username="ann")
    ann.set_password("my pass phrase")
    ann.save()
    player = PlayerFactory(club=club, name="Ann", user=ann)
    page = signed_in(ann)
    wrong = page.post(reverse("account-delete"), {"password": "nope"})
    assert wrong.status_code == 200 and "not your password" in text_of(wrong)
    page.post(reverse("account-delete"), {"password": "my pass phrase"})
    player.refresh_from_db()
    assert player.user is None and Player.objects.filter(name="Ann").exists()
    assert not Membership.objects.filter(user_id=ann.pk).exists()


def test_a_page_not_found_offers_a_way_on(client: Client) -> None:
    page = client.get("/no-such-page/")
    assert page.status_code == 404
    text = text_of(page)
    assert "Not found" in text and "Sign in" in text and "Home" in text
    # Signed out (a session that ran out): signing in first, coming back here after.
    assert "Not found, or sign in to see it" in text
    assert 'href="/accounts/login/?next=/no-such-page/"' in page.content.decode()
    UserFactory(username="ann")
    client.login(username="ann", password="password")
    assert "My games" in text_of(client.get("/join/no-such-invitation/"))


def test_an_admin_changes_the_clubs_name_and_makes_its_results_public(club: Club) -> None:
    admin = member(club, Role.ADMIN, username="admin")
    page = signed_in(admin)
    members = text_of(page.get(reverse("club-members", args=[club.slug])))
    assert "Club settings" in members and "who sees its results (now members only)" in members
    url = reverse("club-settings", args=[club.slug])
    form = page.get(url)
    assert form.status_code == 200 and f'value="{club.name}"' in form.content.decode()
    refused = page.post(url, {"name": "  ", "results_public": "on"})
    assert refused.status_code == 400 and "This field is required" in text_of(refused)
    done = page.post(url, {"name": "The Kings Head", "results_public": "on"}, follow=True)
    assert "The club&#x27;s settings are saved." in text_of(done)
    club.refresh_from_db()
    assert club.name == "The Kings Head" and club.results_public
    assert Client().get(reverse("club-standings", args=[club.slug])).status_code == 200
    page.post(url, {"name": "The Kings Head"})  # unticked: members only again
    club.refresh_from_db()
    assert not club.results_public
    # Other members do not see it, nor may they change it.
    director = signed_in(member(club, Role.DIRECTOR))
    assert "Club settings" not in text_of(director.get(reverse("club-members", args=[club.slug])))
    refused = director.post(url, {"name": "Mine", "results_public": "on"})
    assert refused.status_code == 403
    assert "Only the club&#x27;s admins change its settings." in text_of(refused)
    with pytest.raises(NotAllowed):
        services.club_update(
            actor=member(club, Role.DIRECTOR), club=club, name="Mine", results_public=True
        )
    club.refresh_from_db()
    assert club.name == "The Kings Head" and not club.results_public
