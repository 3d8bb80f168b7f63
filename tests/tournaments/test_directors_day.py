"""A director's day: settings changed before the start, a tournament deleted before any
round is played, a round published by mistake taken back, messages to every table, a
timed round's clock, and a swap that names one player twice."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper import services as core
from scorekeeper.errors import Conflict, InvalidInput, NotAllowed
from scorekeeper.models import Game, Role, TableLink
from tests.factories import ClubFactory, PlayerFactory, member
from tests.tournaments.helpers import WIN, Event, guest, play, tables
from tournaments import selectors, services
from tournaments.models import Announcement, Round, RoundStatus, Tournament
from tournaments.pages.forms import SwapForm

pytestmark = pytest.mark.django_db

SETTINGS = {"rounds": 3, "round_kind": "deals", "round_deals": 3}


def test_settings_change_until_round_one_is_seated(event: Event) -> None:
    cup = event.tournament(name="Autumn open")
    services.tournament_update(
        actor=event.director,
        tournament=cup,
        name="Autumn cup",
        rounds=4,
        round_kind="time",
        round_minutes=40,
        grace_minutes=5,
    )
    cup.refresh_from_db()
    assert (cup.name, cup.rounds_planned, cup.round_kind, cup.round_minutes) == (
        "Autumn cup",
        4,
        "time",
        40,
    )
    assert cup.round_deals is None and cup.grace_minutes == 5

    with pytest.raises(InvalidInput) as bad:
        services.tournament_update(actor=event.director, tournament=cup, name="", **SETTINGS)
    assert bad.value.field == "name"

    event.enter(cup)
    event.seat(cup)
    with pytest.raises(Conflict, match="has started"):
        services.tournament_update(actor=event.director, tournament=cup, name="X", **SETTINGS)
    cup.refresh_from_db()
    assert cup.name == "Autumn cup"


def test_a_member_on_a_game_whose_tournament_went_since_is_told_not_found(
    event: Event,
) -> None:
    """Published, taken back, then the tournament deleted: the old game's address has
    nothing to explain, so the member sees "not found", not a table link's page."""
    cup = event.tournament()
    event.enter(cup)
    round = event.publish(event.seat(cup))
    old_game = reverse("game", args=[tables(round)[0].game_id])
    services.round_unpublish(actor=event.director, round=round)
    services.tournament_delete(actor=event.director, tournament=cup)
    follower = Client()
    follower.force_login(event.director)
    gone = follower.get(old_game)
    assert gone.status_code == 404
    text = gone.content.decode()
    assert "replaced or revoked" not in text and "a round its director took back" in text


def test_only_a_director_changes_the_settings(event: Event) -> None:
    cup = event.tournament()
    scorer = member(event.club, Role.SCORER)
    with pytest.raises(NotAllowed):
        services.tournament_update(actor=scorer, tournament=cup, name="Mine", **SETTINGS)


def test_a_tournament_is_deleted_only_before_a_round_is_played(event: Event) -> None:
    seated = event.tournament(name="Seated only")
    event.enter(seated)
    event.seat(seated)
    services.tournament_delete(actor=event.director, tournament=seated)
    assert not Tournament.objects.filter(name="Seated only").exists()
    assert all(player.pk for player in event.players)  # the roster stays

    played = event.tournament(name="Played")
    event.enter(played)
    event.publish(event.seat(played))
    with pytest.raises(Conflict, match="round 1 was published: .*take the round's publishing back"):
        services.tournament_delete(actor=event.director, tournament=played)
    assert Tournament.objects.filter(name="Played").exists()


def test_publishing_is_taken_back_while_no_table_has_played(event: Event) -> None:
    cup = event.tournament()
    event.enter(cup)
    round = event.publish(event.seat(cup))
    games = [table.game_id for table in tables(round)]
    assert len(games) == 3 and TableLink.objects.filter(game_id__in=games).count() == 3
    printed = {t.number: TableLink.objects.get(game_id=t.game_id).token for t in tables(round)}
    phone = Client()  # at table 1 when the round is taken back
    phone.post(reverse("table-enter", args=[printed[1]]), {"name": "Ann"})
    first_game = reverse("game", args=[tables(round)[0].game_id])
    assert phone.get(first_game).status_code == 200

    services.round_unpublish(actor=event.director, round=round)
    round.refresh_from_db()
    assert round.status == RoundStatus.SEATED and round.published_at is None
    assert all(table.game_id is None for table in tables(round))
    assert not Game.objects.filter(pk__in=games).exists()
    guest = Client()
    card = guest.get(reverse("table-enter", args=[printed[1]]))
    assert card.status_code == 404  # the card, and the phone at the table, say why
    for page in (card, phone.get(first_game)):
        said = page.content.decode()
        assert page.status_code == 404 and "Round 1 is not published" in said
        assert f"Table 1 of {cup.name} is not in play" in said and "works again" in said
        assert "replaced or revoked" not in said
    # A member following the game's old address (the dashboard's link) is told why too;
    # someone from another club sees only "not found".
    follower = Client()
    follower.force_login(event.director)
    gone = follower.get(first_game)
    assert gone.status_code == 404
    assert f"Table 1 of {cup.name} is not in play" in gone.content.decode()
    stranger = Client()
    stranger.force_login(member(ClubFactory(), Role.DIRECTOR))
    hidden = stranger.get(first_game)
    assert hidden.status_code == 404 and cup.name not in hidden.content.decode()

    # Published again: the table cards already printed work again, each for its table.
    round = event.publish(round)
    again = {t.number: TableLink.objects.get(game_id=t.game_id).token for t in tables(round)}
    assert again == printed
    assert guest.get(reverse("table-enter", args=[printed[1]])).status_code == 200
    # the phone still on the first game's page is sent to the table's new game, and so is
    # the member on it
    assert phone.get(first_game).url == reverse("table-enter", args=[printed[1]])
    assert follower.get(first_game).url == reverse("game", args=[tables(round)[0].game_id])
    # Once a table has played the round can no longer be taken back.
    play(tables(round)[1], [WIN[0]])
    with pytest.raises(Conflict, match="table 2 has started playing round 1"):
        services.round_unpublish(actor=event.director, round=round)
    round.refresh_from_db()
    assert round.status == RoundStatus.PLAYING
    assert all(table.game_id is not None for table in tables(round))


def test_a_table_that_kept_its_bids_has_started_and_the_round_stays_published(
    event: Event,
) -> None:
    """Prediction whist: the bids are tapped before the deal is played. A table that kept
    them has dealt its cards: the round is not offered for taking back, nor taken back."""
    cup = event.tournament(game_type="prediction_whist", table_size=4)
    event.enter(cup, 8)
    round = event.publish(event.seat(cup))
    dashboard = reverse("tournament", args=[cup.pk])
    director = Client()
    director.force_login(event.director)
    assert "Take back publishing round 1" in director.get(dashboard).content.decode()
    second = tables(round)[1]
    core.deal_draft_save(
        actor=guest(second, "Scorer"), game=second.game, number=1, data={"bids": [1, 0, None, 1]}
    )
    assert "Take back publishing round 1" not in director.get(dashboard).content.decode()
    with pytest.raises(Conflict, match="table 2 has started playing round 1"):
        services.round_unpublish(actor=event.director, round=round)
    round.refresh_from_db()
    assert round.status == RoundStatus.PLAYING


def test_a_message_reaches_every_table_and_their_phones_follow(event: Event) -> None:
    cup = event.tournament()
    event.enter(cup)
    round = event.publish(event.seat(cup))
    before = dict(Game.objects.values_list("pk", "revision"))
    services.tournament_announce(
        actor=event.director, tournament=cup, text="  Last round   starts at 21:30 "
    )
    assert [a.text for a in selectors.announcements(cup)] == ["Last round starts at 21:30"]
    after = dict(Game.objects.values_list("pk", "revision"))
    assert all(after[pk] == before[pk] + 1 for pk in before)  # every table page reloads

    with pytest.raises(InvalidInput, match="write the message"):
        services.tournament_announce(actor=event.director, tournament=cup, text="   ")
    with pytest.raises(InvalidInput, match="control characters"):
        services.tournament_announce(actor=event.director, tournament=cup, text="a\x07b")
    with pytest.raises(InvalidInput, match="at most 300"):
        services.tournament_announce(actor=event.director, tournament=cup, text="x" * 301)
    assert Announcement.objects.count() == 1

    # On a table's game page, for whoever is at the table.
    table = tables(round)[0]
    director = Client()
    director.force_login(event.director)
    page = director.get(reverse("game", args=[table.game_id]))
    assert "Last round starts at 21:30" in page.content.decode()


def test_a_wrong_or_stale_message_is_taken_down_from_every_screen(event: Event) -> None:
    """The director takes a message down on the dashboard: it leaves the tables' pages
    (which follow at once) and the projector, the one after it stays; nobody else can."""
    cup = event.tournament()
    event.enter(cup)
    round = event.publish(event.seat(cup))
    wrong = services.tournament_announce(
        actor=event.director, tournament=cup, text="Round 2 starts at 21:30"
    )
    services.tournament_announce(actor=event.director, tournament=cup, text="Break: 10 min")
    director = Client()
    director.force_login(event.director)
    projector_url = reverse("tournament-standings", args=[cup.pk]) + "?projector=1"
    etag = director.get(projector_url)["ETag"]
    dashboard = director.get(reverse("tournament", args=[cup.pk])).content.decode()
    assert dashboard.count(">Take down<") == 2
    withdraw = reverse("tournament-announce-withdraw", args=[cup.pk])
    # not a member of the staff, nor another club's director
    elsewhere = member(ClubFactory(), Role.DIRECTOR)
    for someone in (member(event.club, Role.MEMBER), elsewhere):
        other = Client()
        other.force_login(someone)
        assert other.post(withdraw, {"announcement": wrong.pk}).status_code in (403, 404)
    with pytest.raises(NotAllowed):
        services.tournament_announcement_withdraw(
            actor=member(event.club, Role.SCORER), tournament=cup, announcement_id=wrong.pk
        )
    before = dict(Game.objects.values_list("pk", "revision"))
    done = director.post(withdraw, {"announcement": wrong.pk}, follow=True)
    assert "The message is taken down" in done.content.decode()
    assert [a.text for a in selectors.announcements(cup)] == ["Break: 10 min"]
    after = dict(Game.objects.values_list("pk", "revision"))
    assert all(after[pk] == before[pk] + 1 for pk in before)  # every table page follows
    table_page = director.get(reverse("game", args=[tables(round)[0].game_id])).content
    assert b"Round 2 starts at 21:30" not in table_page and b"Break: 10 min" in table_page
    moved = director.get(projector_url, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and b"Round 2 starts at 21:30" not in moved.content
    # taken down twice (two directors at once), or a form sent by hand: said so, not a 500
    again = director.post(withdraw, {"announcement": wrong.pk}, follow=True)
    assert again.status_code == 404 and "taken down already" in again.content.decode()
    assert director.post(withdraw, {"announcement": "x"}).status_code == 400


@pytest.mark.parametrize("screen", ["tournament-seating", "tournament-standings"])
def test_the_projector_asks_often_and_is_told_not_modified_until_a_message(
    event: Event, screen: str
) -> None:
    """Seated before any round is played (no game moves): a message alone changes what
    the projector's screen shows, and it is answered at its next ask."""
    cup = event.tournament()
    event.enter(cup)
    event.seat(cup)
    projector = Client()
    projector.force_login(event.director)
    url = reverse(screen, args=[cup.pk]) + "?projector=1"
    first = projector.get(url)
    etag = first["ETag"]
    assert first.status_code == 200 and 'hx-trigger="every 5s"' in first.content.decode()
    assert projector.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # The screen's own asking (htmx) is told with a 204: htmx swaps nothing in (a 304 would
    # reach it as the browser's cached copy, its clock as it was then).
    asked = projector.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_HX_REQUEST="true")
    assert asked.status_code == 204 and asked.content == b""
    services.tournament_announce(actor=event.director, tournament=cup, text="Break: 10 min")
    moved = projector.get(url, HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag
    assert "Break: 10 min" in moved.content.decode()
    # The standings rebuilt (a job that may finish after its round closed) move it too.
    assert services.standings_recompute(tournament_id=cup.pk) > 0
    rebuilt = projector.get(url, HTTP_IF_NONE_MATCH=moved["ETag"])
    assert rebuilt.status_code == 200 and rebuilt["ETag"] != moved["ETag"]


def test_a_timed_rounds_clock_and_the_tables_pace(event: Event) -> None:
    cup = event.tournament(round_kind="time", round_minutes=60)
    event.enter(cup)
    round = event.publish(event.seat(cup))
    # Twenty minutes in, a table that played two deals has forty minutes left: four deals.
    Round.objects.filter(pk=round.pk).update(
        published_at=timezone.now() - timedelta(minutes=20),
        time_called_at=timezone.now() + timedelta(minutes=40),
    )
    round.refresh_from_db()
    table = tables(round)[0]
    play(table, [WIN[0], WIN[1]])
    clock = selectors.round_clock(round, table.game)
    assert clock is not None and not clock.called
    assert clock.deals == 2 and clock.deals_left == 4

    director = Client()
    director.force_login(event.director)
    html = director.get(reverse("game", args=[table.game_id])).content.decode()
    assert "data-clock-end=" in html and "about 4 more deals at this table" in html
    assert "js/clock" in html

    # Time called now, after the two deals: the third, in progress, is the table's last.
    Round.objects.filter(pk=round.pk).update(time_called_at=timezone.now())
    round.refresh_from_db()
    called = selectors.round_clock(round, table.game)
    assert called is not None and called.called
    html = director.get(reverse("game", args=[table.game_id])).content.decode()
    assert "finish the deal in progress" in html
    # The deal in progress then recorded, the table is done: its page shows no clock.
    play(table, [WIN[0]])
    table.refresh_from_db()
    assert selectors.table_state(table) == ("finished", None)
    html = director.get(reverse("game", args=[table.game_id])).content.decode()
    assert "data-clock-end=" not in html and "finish the deal in progress" not in html

    deals_round = event.tournament(name="Of deals")
    event.enter(deals_round)
    assert selectors.round_clock(event.publish(event.seat(deals_round))) is None


def test_a_tables_game_is_not_ended_by_hand_before_its_rounds_last_deal(event: Event) -> None:
    """At a timed round's table, "End the game now" would cut the table's game short with
    the round's time still running: refused (the director closes a round early) until the
    table's last deal is played; then confirming its result ends it."""
    cup = event.tournament(round_kind="time", round_minutes=60)
    event.enter(cup)
    round = event.publish(event.seat(cup))
    table = tables(round)[0]
    play(table, [WIN[0]])
    assert table.game is not None
    with pytest.raises(Conflict, match="played until the deal in progress when time is called"):
        core.game_finish(actor=guest(table, "Scorer"), game=table.game)
    # Nor through the API (the director's session), with the one error format.
    director = Client()
    director.force_login(event.director)
    refused = director.post(
        f"/api/v1/games/{table.game_id}/finish/", {}, content_type="application/json"
    )
    assert refused.status_code == 409, refused.content
    assert "played until the deal in progress" in refused.json()["error"]["message"]
    phone = Client()
    link = TableLink.objects.get(game=table.game, revoked_at__isnull=True)
    phone.post(reverse("table-enter", args=[link.token]), {"name": "Scorer"})
    game_url = reverse("game", args=[table.game_id])
    page = phone.get(game_url).content.decode()
    assert "Save deal 2" in page and "End the game now" not in page
    # Time is called after deal 1: deal 2, in progress, is the table's last.
    Round.objects.filter(pk=round.pk).update(time_called_at=timezone.now())
    play(table, [WIN[1]])
    page = phone.get(game_url).content.decode()
    assert "No more deals at this table" in page and "End the game now" not in page
    services.table_confirm(actor=guest(table, "Bea"), table=table)
    table.refresh_from_db()
    assert table.confirmed_at is not None
    game = Game.objects.get(pk=table.game_id)
    assert game.status == "finished" and game.deal_count == 2


def test_a_swap_naming_one_player_twice_is_refused_by_the_form(event: Event) -> None:
    cup = event.tournament()
    event.enter(cup)
    round = event.seat(cup)
    ann = event.players[0]
    form = SwapForm(selectors.round_players(round), {"first": ann.pk, "second": ann.pk})
    assert not form.is_valid()
    # said beside the second choice, the one to change
    assert form.errors == {"second": ["Ann is chosen twice; choose two different players to swap."]}

    director = Client()
    director.force_login(event.director)
    response = director.post(
        reverse("tournament-swap", args=[cup.pk, round.number]),
        {"first": ann.pk, "second": ann.pk},
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert (
        '<p class="field-error" id="swap-second_error">'
        "Ann is chosen twice; choose two different players to swap.</p>"
    ) in page
    assert 'aria-invalid="true" aria-describedby="swap-second_error"' in page
    # both choices stay as they were made, to be put right
    assert page.count(f'<option value="{ann.pk}" selected>') == 2


def test_the_dashboard_offers_what_the_moment_allows(event: Event) -> None:
    cup = event.tournament()
    director = Client()
    director.force_login(event.director)
    url = reverse("tournament", args=[cup.pk])
    page = director.get(url).content.decode()
    assert "Edit settings" in page and "Delete this tournament" in page

    edit = director.get(reverse("tournament-edit", args=[cup.pk])).content.decode()
    assert 'value="Autumn open"' in edit and "Save the settings" in edit
    # What the browser sends back: the form as shown (the house rules as chosen), changed.
    shown = dict(re.findall(r'<input[^>]* name="(opt-[^"]+)"[^>]* value="([^"]*)"', edit))
    form = {
        **shown,
        "name": "Autumn cup",
        "rounds": "5",
        "round_kind": "deals",
        "round_deals": "4",
        "seating_method": "new_opponents",
        "points_system": "opponents",
        "table_size": "3",
        "rated": "on",
    }
    posted = director.post(reverse("tournament-edit", args=[cup.pk]), form)
    assert posted.status_code == 302, re.findall(
        r"field-error[^>]*>([^<]*)", posted.content.decode()
    )
    cup.refresh_from_db()
    assert (cup.name, cup.rounds_planned, cup.round_deals) == ("Autumn cup", 5, 4)

    event.enter(cup)
    round = event.publish(event.seat(cup))
    page = director.get(url).content.decode()
    assert "Edit settings" not in page and "Delete this tournament" not in page
    assert "Take back publishing round 1" in page and "Message to every table" in page
    # The settings page, opened from a bookmark or the Back button, sends the director to
    # the dashboard; a form posted from a page left open is refused with 409.
    edit = director.get(reverse("tournament-edit", args=[cup.pk]), follow=True)
    assert edit.redirect_chain == [(url, 302)]
    assert "can be changed only before round 1 is seated" in edit.content.decode()
    late = director.post(reverse("tournament-edit", args=[cup.pk]), {**form, "name": "Late"})
    assert late.status_code == 409
    assert "its settings can no longer change" in late.content.decode()
    # A form with a mistake is answered 400, the error beside its field.
    typo = director.post(reverse("tournament-new", args=[event.club.slug, "widow_whist"]), {})
    assert typo.status_code == 400 and "field-error" in typo.content.decode()
    director.post(reverse("tournament-unpublish", args=[cup.pk, round.number]))
    round.refresh_from_db()
    assert round.status == RoundStatus.SEATED

    outsider = Client()
    outsider.force_login(member(event.club, Role.MEMBER))
    refused = outsider.post(reverse("tournament-delete", args=[cup.pk]))
    assert refused.status_code == 403 and Tournament.objects.filter(pk=cup.pk).exists()


def test_a_late_arrival_sits_with_the_byes_of_a_seated_round(event: Event) -> None:
    """Eight players in threes: two byes; a ninth arriving after the round was seated
    makes a table with them, even once the round is being played."""
    cup = event.tournament()
    event.enter(cup, 8)
    round = event.publish(event.seat(cup))
    assert len(selectors.round_byes(round)) == 2
    ida = event.players[8]
    with event.capture(execute=True):
        services.register(actor=event.director, tournament=cup, players=[ida], check_in=True)
    table = tables(round)[-1]
    assert table.number == 3 and table.game is not None
    seated = [place.player for place in table.seats.order_by("position")]
    assert seated[-1] == ida and len(seated) == 3
    assert selectors.round_byes(round) == []
    assert table.game.seats.count() == 3  # its game started, with its table link
    assert cup.registrations.get(player=ida).present_for(round.number)


def test_a_late_arrival_joins_a_small_table_of_prediction_whist(event: Event) -> None:
    cup = event.tournament(
        game_type="prediction_whist", table_size=4, mixed_sizes=True, round_kind="game"
    )
    event.enter(cup, 7)  # tables of 4 and 3
    round = event.seat(cup)
    assert sorted(t.size for t in tables(round)) == [3, 4]
    ida = event.players[8]
    with event.capture(execute=True):
        services.register(actor=event.director, tournament=cup, players=[ida], check_in=True)
    assert sorted(t.size for t in tables(round)) == [4, 4]
    assert round.players.filter(player=ida, table__isnull=False).exists()


def test_a_late_arrival_joins_a_table_of_a_round_in_play_that_has_not_started(
    event: Event,
) -> None:
    """Prediction whist, published: the smallest table that has not started (no deal, no
    bids) takes the late arrival; its game starts again with them, on its printed link."""
    cup = event.tournament(
        game_type="prediction_whist", table_size=4, mixed_sizes=True, round_kind="game"
    )
    event.enter(cup, 6)  # two tables of 3
    round = event.publish(event.seat(cup))
    first, second = tables(round)
    core.deal_draft_save(
        actor=guest(first, "Scorer"), game=first.game, number=1, data={"bids": [1, 0, None]}
    )
    # the dashboard says so: table 1 is bidding its first deal (the cards are dealt)
    states = [selectors.table_state(table) for table in selectors.round_tables(round)]
    assert states == [("playing", 1), ("not_started", None)]
    assert selectors.table_state(tables(round)[0]) == ("playing", 1)  # read alone, too
    token = TableLink.objects.get(game_id=second.game_id).token
    old_game = second.game_id
    ida, jo = event.players[6], event.players[7]
    with event.capture(execute=True):
        services.register(actor=event.director, tournament=cup, players=[ida], check_in=True)
    first, second = tables(round)
    assert (first.size, second.size) == (3, 4)  # table 1 had started: bids kept
    assert [seat.player for seat in second.game.seats.order_by("position")][-1] == ida
    assert TableLink.objects.get(game_id=second.game_id, revoked_at__isnull=True).token == token
    # A member with the table's first game open is sent on to the one with Ida in it.
    at_table = Client()
    at_table.force_login(member(event.club, Role.MEMBER))
    assert at_table.get(reverse("game", args=[old_game])).url == reverse(
        "game", args=[second.game_id]
    )
    # Once table 2 has played a deal too, the next one waits for the next round.
    core.deal_draft_save(
        actor=guest(second, "Scorer"), game=second.game, number=1, data={"bids": [0, 0, 1, None]}
    )
    with event.capture(execute=True):
        services.register(actor=event.director, tournament=cup, players=[jo], check_in=True)
    assert [t.size for t in tables(round)] == [3, 4]
    assert not round.players.filter(player=jo).exists()
    # also once the round is closed and the table's link with it: a member may see its game
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round, force=True)
    assert not TableLink.objects.filter(game_id=second.game_id, revoked_at__isnull=True).exists()
    assert at_table.get(reverse("game", args=[old_game])).url == reverse(
        "game", args=[second.game_id]
    )


def test_a_late_arrival_who_cannot_sit_waits_for_the_next_round(event: Event) -> None:
    cup = event.tournament()
    event.enter(cup, 6)  # two full tables of widow whist, no bye
    round = event.publish(event.seat(cup))
    gus = event.players[6]
    with event.capture(execute=True):
        services.register(actor=event.director, tournament=cup, players=[gus], check_in=True)
    assert not round.players.filter(player=gus).exists()
    registration = cup.registrations.get(player=gus)
    assert not registration.present_for(1) and registration.present_for(2)


def test_in_the_last_round_a_late_arrival_sits_where_there_is_room_or_is_refused(
    event: Event,
) -> None:
    """There is no round after the last: a check-in then seats the player in it where
    the seating allows (the byes' table), else is refused, by either form, writing nothing."""
    cup = event.tournament(rounds=1)
    event.enter(cup, 8)  # two tables of widow whist and two byes
    round = event.publish(event.seat(cup))
    ida = event.players[8]
    with event.capture(execute=True):
        services.register(actor=event.director, tournament=cup, players=[ida], check_in=True)
    assert round.players.filter(player=ida, table__isnull=False).exists()
    with pytest.raises(Conflict, match="round 1 has no place for Pat Quinn"):
        services.register_new(actor=event.director, tournament=cup, name="Pat Quinn", check_in=True)
    assert not event.club.players.filter(name="Pat Quinn").exists()  # nothing written
    rex = services.register_new(actor=event.director, tournament=cup, name="Rex").player
    with pytest.raises(Conflict, match="round 1 has no place for Rex"):
        services.check_in(actor=event.director, tournament=cup, players=[rex])
    assert not cup.registrations.get(player=rex).present_for(2)
    # The dashboard counts who is checked in without naming a round that does not exist.
    director = Client()
    director.force_login(event.director)
    page = director.get(reverse("tournament", args=[cup.pk])).content.decode()
    assert "9 checked in" in page and "checked in for round 2" not in page
    assert "Check them in (round 1, where it has room)" in page


def test_the_director_is_told_where_a_late_arrival_sits(event: Event) -> None:
    cup = event.tournament()
    event.enter(cup, 8)
    round = event.publish(event.seat(cup))
    byes = sorted(p.player.name for p in round.players.filter(table__isnull=True))
    assert len(byes) == 2
    director = Client()
    director.force_login(event.director)
    with event.capture(execute=True):
        page = director.post(
            reverse("tournament-register-new", args=[cup.pk]),
            {"name": "Zed", "check_in": "on"},
            follow=True,
        )
    text = page.content.decode()
    assert (
        f"Zed arrived late and sits at table 3 of round 1, with {byes[0]} and {byes[1]}, "
        "who had a bye." in text.replace("&#x27;", "'")
    )
    assert text.count("arrived late") == 1  # the players who had a bye did not arrive late
    assert "Zed is registered and checked in for round 1." in text
    # While round 1 is under way the players are counted as checked in, with no round named
    # (a check-in now sits in round 1 where it has room, else waits for round 2).
    assert "9 checked in)" in text and "checked in for round 2)" not in text
    assert "Check them in (round 1, where it has room, else from round 2)" in text
    with event.capture(execute=True):  # no bye left: the next one waits for round 2
        page = director.post(
            reverse("tournament-register-new", args=[cup.pk]),
            {"name": "Yan", "check_in": "on"},
            follow=True,
        )
    assert "Yan is registered and checked in for round 2." in page.content.decode()


def test_checking_in_late_arrivals_says_who_plays_now_and_who_from_the_next_round(
    event: Event,
) -> None:
    """Round 1 seated with two byes (eight players of widow whist: two tables of three). Of
    two who check in late, the first fills a table with the byes in round 1 and the second
    waits for round 2, and the message says so rather than "2 checked in for round 2"."""
    cup = event.tournament()
    event.enter(cup, 8)
    round = event.seat(cup)
    assert round.players.filter(table__isnull=True).count() == 2
    late = [event.players[8], PlayerFactory(club=event.club, name="Jo")]
    event.enter(cup, late, check_in=False)
    director = Client()
    director.force_login(event.director)
    with event.capture(execute=True):
        page = director.post(
            reverse("tournament-check-in", args=[cup.pk]),
            {"players": [player.pk for player in late]},
            follow=True,
        )
    text = page.content.decode().replace("&#x27;", "'")
    assert [r.checked_in_round for r in cup.registrations.filter(player__in=late)] in (
        [1, 2],
        [2, 1],
    )
    assert "2 checked in: 1 plays in round 1 as a late arrival, 1 from round 2 on" in text
    assert text.count("arrived late and sits at table 3 of round 1") == 1


def test_checking_everyone_in_again_after_a_round_says_the_next_round(event: Event) -> None:
    """Those already present (checked in for round 1, and so for round 2) checked in again
    once round 1 is closed: nobody arrived late, the message says round 2."""
    cup = event.tournament()
    event.enter(cup, 6)
    round = event.publish(event.seat(cup))
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round, force=True)
    director = Client()
    director.force_login(event.director)
    page = director.post(
        reverse("tournament-check-in", args=[cup.pk]), {"everyone": "1"}, follow=True
    )
    text = page.content.decode()
    assert "6 checked in for round 2; they stay checked in" in text
    assert "as a late arrival" not in text and "arrived late" not in text
