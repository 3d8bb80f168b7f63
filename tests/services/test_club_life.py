"""Club life through the services: roles and the last admin, invitations (expiry, use
limit, withdrawal, a second use), the roster (claims, links, merges) and seasons."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from scorekeeper import selectors, services
from scorekeeper.errors import Conflict, InvalidInput, NotAllowed, NotFound
from scorekeeper.models import (
    Invitation,
    Membership,
    OutgoingEmail,
    Player,
    PlayerMerge,
    Rating,
    Result,
    Role,
    SeasonStanding,
    Seat,
)
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    SeasonFactory,
    UserFactory,
    member,
    one_deal_widow_game,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_in_process")]


@pytest.fixture
def club() -> Any:
    return ClubFactory(name="Kings Arms", slug="kings")


# --- Clubs and roles ------------------------------------------------------------------------------


def test_anyone_signed_in_starts_a_club_and_is_its_admin() -> None:
    user = UserFactory()
    club = services.club_create(actor=user, name="Whist Club", slug="Whist-Club")
    assert club.slug == "whist-club"
    assert Membership.objects.get(club=club, user=user).role == Role.ADMIN
    with pytest.raises(InvalidInput) as taken:
        services.club_create(actor=UserFactory(), name="Other", slug="whist-club")
    assert taken.value.field == "slug"
    with pytest.raises(InvalidInput, match="letters, digits") as bad:
        services.club_create(actor=user, name="Other", slug="no spaces!")
    assert bad.value.field == "slug"


def test_the_last_admin_can_be_neither_demoted_nor_removed_nor_leave(club: Any) -> None:
    admin = member(club, Role.ADMIN)
    other = member(club, Role.MEMBER)
    with pytest.raises(Conflict, match="must keep an admin, and .* is the only one"):
        services.membership_set(actor=admin, club=club, user=admin, role=Role.MEMBER)
    with pytest.raises(Conflict, match="last admin"):
        services.membership_remove(actor=admin, club=club, user=admin)
    assert Membership.objects.get(club=club, user=admin).role == Role.ADMIN
    # With a second admin, the first may step down, and then leave.
    services.membership_set(actor=admin, club=club, user=other, role=Role.ADMIN)
    services.membership_set(actor=admin, club=club, user=admin, role=Role.DIRECTOR)
    services.membership_remove(actor=admin, club=club, user=admin)
    assert list(Membership.objects.filter(club=club).values_list("role", flat=True)) == ["admin"]


def test_only_admins_change_roles_and_remove_others(club: Any) -> None:
    member(club, Role.ADMIN)
    director = member(club, Role.DIRECTOR)
    plain = member(club, Role.MEMBER)
    with pytest.raises(NotAllowed):
        services.membership_set(actor=director, club=club, user=plain, role=Role.SCORER)
    with pytest.raises(NotAllowed):
        services.membership_remove(actor=director, club=club, user=plain)
    with pytest.raises(InvalidInput, match="role must be one of"):
        services.membership_set(
            actor=Membership.objects.get(club=club, role=Role.ADMIN).user,
            club=club,
            user=plain,
            role="king",
        )
    services.membership_remove(actor=plain, club=club, user=plain)  # leaving
    assert not Membership.objects.filter(club=club, user=plain).exists()


def test_deleting_an_account_keeps_the_results(club: Any) -> None:
    admin = member(club, Role.ADMIN)
    ann = member(club, Role.MEMBER, username="ann")
    player = PlayerFactory(club=club, name="Ann", user=ann)
    with pytest.raises(Conflict, match="last admin of Kings Arms"):
        services.account_delete(user=admin)
    services.account_delete(user=ann)
    player.refresh_from_db()
    assert player.user is None and player.name == "Ann"
    assert not Membership.objects.filter(user_id=ann.pk).exists()


# --- Invitations ----------------------------------------------------------------------------------


def test_an_invitation_brings_people_in_until_it_is_used_up(club: Any) -> None:
    admin = member(club, Role.ADMIN)
    invitation = services.invitation_create(actor=admin, club=club, role=Role.SCORER, max_uses=2)
    first, second, third = UserFactory(), UserFactory(), UserFactory()
    assert services.invitation_accept(actor=first, token=invitation.token).role == Role.SCORER
    # Opening it again changes nothing and uses nothing.
    services.invitation_accept(actor=first, token=invitation.token)
    services.invitation_accept(actor=second, token=invitation.token)
    invitation.refresh_from_db()
    assert invitation.uses == 2
    with pytest.raises(Conflict, match="used as many times"):
        services.invitation_accept(actor=third, token=invitation.token)
    assert not Membership.objects.filter(user=third).exists()
    # no longer listed as open (the members page and the API list these)
    assert list(selectors.open_invitations(club)) == []


def test_expired_withdrawn_and_wrong_invitations_are_refused(club: Any) -> None:
    admin = member(club, Role.ADMIN)
    user = UserFactory()
    expired = services.invitation_create(actor=admin, club=club)
    Invitation.objects.filter(pk=expired.pk).update(
        expires_at=timezone.now() - datetime.timedelta(minutes=1)
    )
    with pytest.raises(Conflict, match="expired"):
        services.invitation_accept(actor=user, token=expired.token)
    withdrawn = services.invitation_create(actor=admin, club=club)
    services.invitation_revoke(actor=admin, invitation=withdrawn)
    with pytest.raises(Conflict, match="withdrawn"):
        services.invitation_accept(actor=user, token=withdrawn.token)
    with pytest.raises(NotFound):
        services.invitation_accept(actor=user, token="not-a-token")
    assert not Membership.objects.filter(user=user).exists()


def test_who_may_invite_with_which_role(club: Any) -> None:
    director = member(club, Role.DIRECTOR)
    scorer = member(club, Role.SCORER)
    assert services.invitation_create(actor=director, club=club, role=Role.DIRECTOR)
    with pytest.raises(NotAllowed, match="only admins invite admins"):
        services.invitation_create(actor=director, club=club, role=Role.ADMIN)
    with pytest.raises(NotAllowed):
        services.invitation_create(actor=scorer, club=club)
    with pytest.raises(InvalidInput) as days:
        services.invitation_create(actor=director, club=club, days=0)
    assert days.value.field == "days"


def test_a_member_keeps_a_higher_role_when_invited_lower(club: Any) -> None:
    admin = member(club, Role.ADMIN)
    director = member(club, Role.DIRECTOR)
    invitation = services.invitation_create(actor=admin, club=club, role=Role.MEMBER)
    assert services.invitation_accept(actor=director, token=invitation.token).role == Role.DIRECTOR
    invitation.refresh_from_db()
    assert invitation.uses == 0


def test_an_invitation_by_email_is_sent_once_the_request_commits(
    club: Any, django_capture_on_commit_callbacks: Any
) -> None:
    admin = member(club, Role.ADMIN)
    with django_capture_on_commit_callbacks(execute=True):
        invitation = services.invitation_create(
            actor=admin, club=club, email="new@example.org", base_url="https://whist.example/"
        )
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["new@example.org"]
    assert f"https://whist.example/join/{invitation.token}/" in message.body
    stored = OutgoingEmail.objects.get()
    assert stored.sent_at is not None and stored.attempts == 1
    # Sending again (a task run twice) sends nothing more.
    assert services.mail.email_send(email_id=stored.pk) is False
    assert len(mail.outbox) == 1


# --- Roster ---------------------------------------------------------------------------------------


def test_a_claim_waits_for_an_admin_and_a_second_claim_is_refused(club: Any) -> None:
    admin = member(club, Role.ADMIN)
    ann, bob = member(club, username="ann"), member(club, username="bob")
    player = PlayerFactory(club=club, name="Ann")
    services.player_claim(actor=ann, player=player)
    with pytest.raises(Conflict, match="someone else has already claimed Ann"):
        services.player_claim(actor=bob, player=player)
    with pytest.raises(NotAllowed):
        services.player_claim_decide(actor=bob, player=player, accept=True)
    services.player_claim_decide(actor=admin, player=player, accept=True)
    player.refresh_from_db()
    assert player.user == ann and player.claimed_by is None
    with pytest.raises(Conflict, match="already linked"):
        services.player_claim(actor=bob, player=player)


def test_an_admin_links_a_member_once(club: Any) -> None:
    admin = member(club, Role.ADMIN)
    ann = member(club, username="ann")
    first, second = PlayerFactory(club=club, name="Ann"), PlayerFactory(club=club, name="A. N.")
    services.player_link(actor=admin, player=first, user=ann)
    with pytest.raises(Conflict, match="already linked to the player Ann"):
        services.player_link(actor=admin, player=second, user=ann)
    with pytest.raises(InvalidInput, match="not a member"):
        services.player_link(actor=admin, player=second, user=UserFactory())


def test_rename_and_retire(club: Any) -> None:
    scorer = member(club, Role.SCORER)
    ann, bob = PlayerFactory(club=club, name="Ann"), PlayerFactory(club=club, name="Bob")
    services.player_update(actor=scorer, player=ann, name="Annie", active=False)
    ann.refresh_from_db()
    assert (ann.name, ann.active) == ("Annie", False)
    with pytest.raises(InvalidInput, match="already has a player called") as taken:
        services.player_update(actor=scorer, player=bob, name="annie")
    assert taken.value.field == "name"
    with pytest.raises(NotAllowed):
        services.player_update(actor=member(club), player=bob, name="Robert")


def test_merging_moves_every_game_and_recounts_standings_and_ratings(
    club: Any, django_capture_on_commit_callbacks: Any
) -> None:
    admin = member(club, Role.ADMIN)
    season = SeasonFactory(
        club=club, starts_on=datetime.date(2026, 1, 1), ends_on=datetime.date(2026, 12, 31)
    )
    ann, ann2, bob, cy = (PlayerFactory(club=club, name=n) for n in ("Ann", "Ann B", "Bob", "Cy"))
    with django_capture_on_commit_callbacks(execute=True):
        one_deal_widow_game(club, admin, [ann, bob, cy], [7, 3, 3], 0)
        one_deal_widow_game(club, admin, [ann2, bob, cy], [7, 3, 3], 1)
    assert SeasonStanding.objects.get(season=season, player=ann, game_type="").games == 1
    with django_capture_on_commit_callbacks(execute=True):
        merge = services.player_merge(actor=admin, player=ann2, into=ann)
    assert not Player.objects.filter(pk=ann2.pk).exists()
    assert Seat.objects.filter(player=ann).count() == 2
    assert Result.objects.filter(player=ann).count() == 2
    standing = SeasonStanding.objects.get(season=season, player=ann, game_type="")
    assert (standing.games, standing.wins) == (2, 2)
    assert Rating.objects.get(player=ann, game_type="widow_whist").games == 2
    assert merge.merged_name == "Ann B" and merge.moved["scorekeeper.seat"] == 1
    assert PlayerMerge.objects.get().merged_by == admin


def test_merges_that_cannot_be(club: Any) -> None:
    admin = member(club, Role.ADMIN)
    ann, bob, cy = (PlayerFactory(club=club, name=n) for n in ("Ann", "Bob", "Cy"))
    one_deal_widow_game(club, admin, [ann, bob, cy], [7, 3, 3], 0)
    with pytest.raises(InvalidInput, match="into itself"):
        services.player_merge(actor=admin, player=ann, into=ann)
    with pytest.raises(Conflict, match="played at one table"):
        services.player_merge(actor=admin, player=ann, into=bob)
    elsewhere = PlayerFactory(club=ClubFactory(), name="Ann")
    with pytest.raises(InvalidInput, match="different clubs"):
        services.player_merge(actor=admin, player=elsewhere, into=ann)
    with pytest.raises(NotAllowed):
        services.player_merge(actor=member(club, Role.DIRECTOR), player=cy, into=ann)
    assert Player.objects.filter(club=club).count() == 3
    assert not PlayerMerge.objects.exists()


# --- Seasons --------------------------------------------------------------------------------------


def test_seasons_take_their_games_and_close(club: Any) -> None:
    admin = member(club, Role.ADMIN)
    ann, bob, cy = (PlayerFactory(club=club, name=n) for n in ("Ann", "Bob", "Cy"))
    early = one_deal_widow_game(club, admin, [ann, bob, cy], [7, 3, 3], 0)  # 1 March
    late = one_deal_widow_game(club, admin, [ann, bob, cy], [3, 7, 3], 30)  # 31 March
    season = services.season_create(
        actor=admin,
        club=club,
        name="Spring",
        starts_on=datetime.date(2026, 3, 1),
        ends_on=datetime.date(2026, 5, 31),
    )
    early.refresh_from_db()
    assert early.season == season
    assert SeasonStanding.objects.get(season=season, player=ann, game_type="").games == 2
    services.season_close(actor=admin, season=season, on=datetime.date(2026, 3, 15))
    late.refresh_from_db()
    assert late.season is None
    assert SeasonStanding.objects.get(season=season, player=ann, game_type="").games == 1
    with pytest.raises(InvalidInput, match="already ends"):
        services.season_close(actor=admin, season=season, on=datetime.date(2026, 4, 1))
    with pytest.raises(NotAllowed):
        services.season_close(actor=member(club, Role.SCORER), season=season)


def test_the_standings_show_the_season_asked_for_else_todays_else_the_latest_started(
    club: Any,
) -> None:
    day = datetime.date
    spring = SeasonFactory(club=club, starts_on=day(2026, 3, 1), ends_on=day(2026, 5, 31))
    autumn = SeasonFactory(club=club, starts_on=day(2026, 9, 1), ends_on=day(2026, 11, 30))
    later = SeasonFactory(club=club, starts_on=day(2027, 1, 1), ends_on=day(2027, 3, 31))
    elsewhere = SeasonFactory(starts_on=day(2026, 1, 1), ends_on=day(2026, 12, 31))

    shown = selectors.season_shown(club, asked="", today=day(2026, 10, 1))
    assert (shown.current, shown.shown) == (autumn, autumn)
    assert shown.seasons == [autumn, spring]  # those started, latest first
    # a season to come has no standings yet: not offered, nor shown when asked for
    assert selectors.season_shown(club, asked=str(later.pk), today=day(2026, 10, 1)).shown == autumn
    between = selectors.season_shown(club, asked="", today=day(2026, 7, 1))
    assert (between.current, between.shown) == (None, spring)  # the latest started
    asked = selectors.season_shown(club, asked=str(spring.pk), today=day(2026, 10, 1))
    assert (asked.current, asked.shown) == (autumn, spring)
    # another club's season, or no season at all, is not shown for the asking
    other = selectors.season_shown(club, asked=str(elsewhere.pk), today=day(2026, 10, 1))
    assert other.shown == autumn
    assert selectors.season_shown(club, asked="x", today=day(2026, 1, 1)).shown is None


def test_a_season_to_come_is_made_the_current_one(club: Any) -> None:
    admin = member(club, Role.ADMIN)
    today = timezone.localdate()
    day = datetime.timedelta(days=1)
    autumn = services.season_create(
        actor=admin, club=club, name="Autumn", starts_on=today - 30 * day, ends_on=today + 30 * day
    )
    winter = services.season_create(
        actor=admin, club=club, name="Winter", starts_on=today + 31 * day, ends_on=today + 120 * day
    )
    ann, bob, cy = (PlayerFactory(club=club, name=n) for n in ("Ann", "Bob", "Cy"))
    game = services.game_start(
        actor=admin, club=club, game_type="widow_whist", players=[ann, bob, cy], played_on=today
    )
    assert game.season == autumn
    with pytest.raises(NotAllowed):
        services.season_make_current(actor=member(club, Role.SCORER), season=winter)

    services.season_make_current(actor=admin, season=winter)
    autumn.refresh_from_db()
    winter.refresh_from_db()
    game.refresh_from_db()
    assert (autumn.ends_on, winter.starts_on) == (today - day, today)
    assert game.season == winter  # today's game counts in the season now current

    with pytest.raises(Conflict, match="current season already"):
        services.season_make_current(actor=admin, season=winter)
    with pytest.raises(InvalidInput, match="a past season"):
        services.season_make_current(actor=admin, season=autumn)
