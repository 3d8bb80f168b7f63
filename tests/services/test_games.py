"""Services: starting games, recording, correcting and undoing deals, finishing."""

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from rules_engine import score_record
from scorekeeper import selectors, services
from scorekeeper.errors import (
    Conflict,
    IdempotencyMismatch,
    InvalidInput,
    NotAllowed,
    NotFound,
    StaleVersion,
)
from scorekeeper.models import (
    Deal,
    DealRevision,
    DiscardedGame,
    Game,
    GameStatus,
    Result,
    Role,
    Season,
)
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    SeasonFactory,
    member,
    record_deals,
    start_game,
)

pytestmark = pytest.mark.django_db

ITALIAN = [
    {"first": [5, 2, 2], "second": [1, 4, 4]},  # +4 -2 -2
    {"first": [3, 3, 3], "second": [3, 3, 3]},
    {"first": [6, 2, 1], "second": [0, 4, 5]},  # +6 -2 -4: 10 -4 -6, finished
]


def test_start_game_resolves_options_and_seats(club, scorer):
    season = SeasonFactory(club=club)
    players = [PlayerFactory(club=club) for _ in range(3)]
    game = services.game_start(
        actor=scorer,
        club=club,
        game_type="italian_whist",
        players=players,
        options={"limit": 5},
        first_dealer=2,
    )
    assert game.options == {"limit": 5}
    assert game.season == season  # from the date
    assert [s.player for s in game.seats.order_by("position")] == players
    assert Result.objects.filter(game=game).count() == 3
    assert game.status == GameStatus.IN_PROGRESS


def test_a_game_discarded_is_remembered_with_its_table_link_for_a_while(club, scorer):
    """A game nobody played can be discarded: its id and table link are kept (a phone still
    on its page is sent on or told why), those of games discarded over 30 days ago are not."""
    old = start_game(club, "widow_whist", 3, actor=scorer)
    services.game_discard(actor=scorer, game=old)
    DiscardedGame.objects.filter(game_id=old.pk).update(
        discarded_at=timezone.now() - timedelta(days=31)
    )
    recent = start_game(club, "widow_whist", 3, actor=scorer)
    services.game_discard(actor=scorer, game=recent)
    DiscardedGame.objects.filter(game_id=recent.pk).update(
        discarded_at=timezone.now() - timedelta(days=29)
    )
    game = start_game(club, "widow_whist", 3, actor=scorer)
    link = services.table_link_create(actor=scorer, game=game)
    services.game_discard(actor=scorer, game=game)
    assert not Game.objects.filter(pk=game.pk).exists()
    kept = DiscardedGame.objects.get(game_id=game.pk)
    assert (kept.club_id, kept.link_token) == (club.pk, link.token)
    assert set(DiscardedGame.objects.values_list("game_id", flat=True)) == {recent.pk, game.pk}
    # Its page sends a member on (or says why) for 30 days, then says "not found".
    assert selectors.discarded_game_link(scorer, game.pk) == (link.token, None)  # gone with it
    DiscardedGame.objects.filter(game_id=game.pk).update(
        discarded_at=timezone.now() - timedelta(days=31)
    )
    assert selectors.discarded_game_link(scorer, game.pk) is None


def test_a_game_with_a_deal_is_not_discarded(club, scorer):
    game = start_game(club, "widow_whist", 3, actor=scorer)
    record_deals(game, [{"widow": None, "tricks": [5, 4, 4]}], scorer)
    with pytest.raises(Conflict, match="abandoned, not discarded"):
        services.game_discard(actor=scorer, game=game)
    assert Game.objects.filter(pk=game.pk).exists()
    assert not DiscardedGame.objects.exists()


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"game_type": "bridge"}, "game_type"),
        ({"options": {"limit": 0}}, "options.limit"),
        ({"options": {"trumps": "spades"}}, "options.trumps"),
        ({"first_dealer": 3}, "first_dealer"),
    ],
)
def test_start_game_refuses_bad_setup(club, scorer, kwargs, field):
    players = [PlayerFactory(club=club) for _ in range(3)]
    args = {"game_type": "italian_whist", **kwargs}
    with pytest.raises(InvalidInput) as caught:
        services.game_start(actor=scorer, club=club, players=players, **args)
    assert caught.value.field == field


def test_a_game_stored_with_house_rules_a_newer_check_refuses_still_opens_and_scores(
    club, scorer, client
):
    """Third Hand's contract values falling as the bid card rises are refused when a game
    is set up; a game stored with them before (or brought back from a club's records) is
    read and scored as it was set up."""
    falling = {"contract_values": {"A": 40}}
    with pytest.raises(InvalidInput) as refused:
        start_game(club, "third_hand", 2, actor=scorer, options=falling)
    assert refused.value.field == "options.contract_values.A"
    assert not Game.objects.exists()
    game = start_game(
        club, "third_hand", 2, actor=scorer, options=falling, house_rules_accepted=True
    )
    assert game.options["contract_values"]["A"] == 40
    record_deals(game, [{"bids": [None, "A"], "points": [60, 70]}], scorer)
    assert list(game.deals.get().scores) == [60, 80]  # 70 of 40: made
    client.force_login(scorer)
    page = client.get(f"/g/{game.pk}/")
    assert page.status_code == 200 and "Save deal 2" in page.content.decode()


def test_start_game_refuses_wrong_player_count_and_strangers(club, scorer):
    with pytest.raises(InvalidInput) as caught:
        start_game(club, "italian_whist", 4, actor=scorer)
    assert caught.value.field == "players"
    stranger = PlayerFactory()  # another club's
    with pytest.raises(InvalidInput) as caught:
        start_game(
            club,
            "italian_whist",
            [stranger, *[PlayerFactory(club=club) for _ in range(2)]],
            actor=scorer,
        )
    assert "roster" in caught.value.message


def test_non_members_cannot_start_games(club):
    outsider = member(ClubFactory())
    with pytest.raises(NotAllowed):
        start_game(club, "italian_whist", 3, actor=outsider)


def test_recording_a_whole_game_matches_the_engine(club, scorer):
    game = start_game(club, "italian_whist", 3, actor=scorer)
    record_deals(game, ITALIAN, scorer)
    game.refresh_from_db()
    names = [s.player.name for s in game.seats.order_by("position")]
    expected = score_record({"game": "italian_whist", "players": names, "deals": ITALIAN})
    assert game.status == GameStatus.FINISHED and game.ended_at is not None
    assert game.deal_count == 3
    deals = list(game.deals.order_by("number"))
    assert [d.totals for d in deals] == [list(d.totals) for d in expected.deals]
    assert [d.dealer for d in deals] == [d.dealer for d in expected.deals]
    results = list(Result.objects.filter(game=game).order_by("position"))
    assert [r.total for r in results] == list(expected.totals) == [10, -4, -6]
    assert [r.won for r in results] == [True, False, False]
    assert [r.placing for r in results] == [1, 2, 3]
    assert DealRevision.objects.filter(game=game, action="record").count() == 3


def test_bad_deal_names_field_and_writes_nothing(club, scorer):
    game = start_game(club, "widow_whist", 3, actor=scorer)
    with pytest.raises(InvalidInput) as caught:
        services.deal_record(
            actor=scorer, game=game, number=1, record={"widow": 0, "tricks": [5, 6, 1]}
        )
    assert caught.value.field == "tricks" and caught.value.deal == 1
    assert caught.value.message == "tricks add up to 12; a deal of widow whist has 13 tricks"
    assert not Deal.objects.exists() and not DealRevision.objects.exists()


def test_numbers_must_be_the_next_one(club, scorer):
    game = start_game(club, "widow_whist", 3, actor=scorer)
    deal = {"widow": None, "tricks": [5, 4, 4]}
    services.deal_record(actor=scorer, game=game, number=1, record=deal)
    with pytest.raises(Conflict) as caught:
        services.deal_record(actor=scorer, game=game, number=1, record=deal)
    assert caught.value.details["deal"]["number"] == 1
    assert scorer.username in caught.value.message
    with pytest.raises(Conflict) as caught:
        services.deal_record(actor=scorer, game=game, number=3, record=deal)
    assert caught.value.details["next_number"] == 2
    assert Deal.objects.filter(game=game).count() == 1


def test_idempotency_key_replays_and_refuses_reuse(club, scorer):
    game = start_game(club, "widow_whist", 3, actor=scorer)
    deal = {"widow": None, "tricks": [5, 4, 4]}
    first = services.deal_record(
        actor=scorer, game=game, number=1, record=deal, idempotency_key="k1"
    )
    again = services.deal_record(
        actor=scorer, game=game, number=1, record=deal, idempotency_key="k1"
    )
    assert not first.replayed and again.replayed
    assert again.payload == first.payload
    assert Deal.objects.filter(game=game).count() == 1
    other = {"widow": None, "tricks": [4, 4, 5]}
    with pytest.raises(IdempotencyMismatch):
        services.deal_record(actor=scorer, game=game, number=1, record=other, idempotency_key="k1")


def test_finished_game_takes_no_more_deals(club, scorer):
    game = start_game(club, "italian_whist", 3, actor=scorer)
    record_deals(game, ITALIAN, scorer)
    with pytest.raises(Conflict):
        services.deal_record(actor=scorer, game=game, number=4, record=ITALIAN[1])


def test_correction_rescores_later_deals_and_keeps_history(club, scorer):
    game = start_game(club, "third_hand", 2, actor=scorer)
    deals = [
        {"bids": [None, None], "points": [50, 70]},  # seat 1 deals next
        {"bids": [None, None], "points": [60, 60]},  # tie: non-dealer (0) next
        {"bids": [None, None], "points": [40, 80]},
    ]
    record_deals(game, deals, scorer)
    assert [d.dealer for d in game.deals.order_by("number")] == [0, 1, 0]
    corrected = services.deal_correct(
        actor=scorer,
        game=game,
        number=1,
        record={"bids": [None, None], "points": [70, 50]},
        reason="points swapped",
        expected_version=1,
    )
    assert corrected.version == 2
    # Seat 0 now scored more in deal 1 and deals deal 2; the tie then gives seat 1 deal 3.
    assert [d.dealer for d in game.deals.order_by("number")] == [0, 0, 1]
    assert [r.total for r in Result.objects.filter(game=game).order_by("position")] == [170, 190]
    history = DealRevision.objects.filter(game=game, number=1).order_by("id")
    assert [(h.version, h.action, h.reason) for h in history] == [
        (1, "record", ""),
        (2, "correct", "points swapped"),
    ]
    with pytest.raises(StaleVersion):
        services.deal_correct(
            actor=scorer, game=game, number=1, record=deals[0], reason="again", expected_version=1
        )
    with pytest.raises(InvalidInput) as caught:
        services.deal_correct(actor=scorer, game=game, number=1, record=deals[0], reason=" ")
    assert caught.value.field == "reason"
    with pytest.raises(NotFound):
        services.deal_correct(actor=scorer, game=game, number=9, record=deals[0], reason="x")


def test_correction_that_makes_a_later_deal_impossible_is_refused(club, scorer):
    game = start_game(club, "italian_whist", 3, actor=scorer)
    record_deals(game, ITALIAN[1:], scorer)  # deal 2 takes the total to +6
    # Deal 1 as +4 would end the game at deal 2 (+10), leaving no room for deal 3.
    record_deals(game, [{"first": [3, 3, 3], "second": [3, 3, 3]}], scorer)
    with pytest.raises(InvalidInput) as caught:
        services.deal_correct(
            actor=scorer, game=game, number=1, record=ITALIAN[0], reason="misread"
        )
    assert caught.value.deal == 3 and "deal 3 impossible" in caught.value.message
    assert game.deals.get(number=1).version == 1  # nothing written


def test_correction_can_reopen_and_finish_games(club, scorer):
    game = start_game(club, "italian_whist", 3, actor=scorer)
    record_deals(game, ITALIAN, scorer)
    services.deal_correct(actor=scorer, game=game, number=3, record=ITALIAN[1], reason="typo")
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS and game.ended_at is None
    assert not Result.objects.filter(game=game, won=True).exists()


def test_a_correction_that_ends_a_game_by_its_rules_says_no_one_ended_it(club, scorer):
    game = start_game(club, "italian_whist", 3, actor=scorer)
    record_deals(game, ITALIAN[:2], scorer)
    services.game_finish(actor=scorer, game=game)
    game.refresh_from_db()
    assert game.ended_by_hand and game.ended_by == scorer
    # deal 2 was the game's last: its limit is reached, the rules end it
    services.deal_correct(actor=scorer, game=game, number=2, record=ITALIAN[2], reason="typo")
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and not game.ended_by_hand
    assert game.ended_by is None and game.ended_by_name == ""


def test_undo_reopens_and_keeps_history(club, scorer):
    game = start_game(club, "italian_whist", 3, actor=scorer)
    record_deals(game, ITALIAN, scorer)
    assert services.deal_undo(actor=scorer, game=game, reason="wrong table") == 3
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS and game.deal_count == 2
    assert DealRevision.objects.filter(game=game, number=3, action="undo").exists()
    assert [r.total for r in Result.objects.filter(game=game).order_by("position")] == [4, -2, -2]
    services.deal_record(actor=scorer, game=game, number=3, record=ITALIAN[2])
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED


def test_finish_by_hand_and_abandon(club, scorer):
    game = start_game(club, "widow_whist", 3, actor=scorer)
    with pytest.raises(Conflict):
        services.game_finish(actor=scorer, game=game)  # no deals yet
    record_deals(game, [{"widow": None, "tricks": [5, 5, 3]}], scorer)
    services.game_finish(actor=scorer, game=game)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.ended_by_hand
    assert game.ended_by == scorer and game.ended_by_name == scorer.get_username()
    assert [r.won for r in Result.objects.filter(game=game).order_by("position")] == [
        True,
        True,
        False,
    ]
    # a correction of a game finished by hand keeps who finished it
    services.deal_correct(
        actor=scorer, game=game, number=1, record={"widow": None, "tricks": [4, 5, 4]}, reason="x"
    )
    game.refresh_from_db()
    assert game.ended_by_hand and game.ended_by_name == scorer.get_username()
    with pytest.raises(Conflict):
        services.deal_record(
            actor=scorer, game=game, number=2, record={"widow": None, "tricks": [5, 5, 3]}
        )
    other = start_game(club, "widow_whist", 3, actor=scorer)
    services.game_abandon(actor=scorer, game=other)
    other.refresh_from_db()
    assert other.status == GameStatus.ABANDONED
    assert other.ended_by == scorer and other.ended_by_name == scorer.get_username()
    with pytest.raises(Conflict):
        services.deal_record(
            actor=scorer, game=other, number=1, record={"widow": None, "tricks": [5, 5, 3]}
        )


def test_an_imported_game_keeps_when_and_by_whom_it_ended_and_nobody_else_rewrites_it(club, scorer):
    """``game_ending_restore``: the end a file of games records, for a game its actor
    entered (as an import does), not an ending anyone else could rewrite."""
    game = start_game(club, "widow_whist", 3, actor=scorer, played_on=timezone.localdate())
    record_deals(game, [{"widow": None, "tricks": [5, 5, 3]}], scorer)
    with pytest.raises(Conflict, match="still being played"):
        services.game_ending_restore(actor=scorer, game=game, ended_at=None, ended_by="Ann")
    services.game_abandon(actor=scorer, game=game)
    when = timezone.now() - timedelta(minutes=5)
    services.game_ending_restore(actor=scorer, game=game, ended_at=when, ended_by="Mia")
    game.refresh_from_db()
    assert (game.ended_at, game.ended_by, game.ended_by_name) == (when, None, "Mia")
    # a file that names nobody: the importer is not named instead
    services.game_ending_restore(actor=scorer, game=game, ended_at=None, ended_by=None)
    game.refresh_from_db()
    assert (game.ended_at, game.ended_by_name) == (when, "")
    for ended_at, message in (
        (when.replace(tzinfo=None), "offset from UTC"),
        (timezone.now() + timedelta(hours=1), "in the future"),
        (when - timedelta(days=2), "did not end before it"),
    ):
        with pytest.raises(InvalidInput, match=message) as refused:
            services.game_ending_restore(actor=scorer, game=game, ended_at=ended_at, ended_by=None)
        assert refused.value.field == "ended_at"
    # not someone who did not enter it, of the staff or not
    for other in (member(club, Role.SCORER), member(club, Role.ADMIN), member(club)):
        with pytest.raises(NotAllowed):
            services.game_ending_restore(actor=other, game=game, ended_at=when, ended_by="Eve")
    # a game its rules ended was ended by no one
    ruled = start_game(club, "widow_whist", 3, actor=scorer, options={"finish": {"deals": 1}})
    record_deals(ruled, [{"widow": None, "tricks": [5, 5, 3]}], scorer)
    with pytest.raises(InvalidInput, match="its rules ended this one"):
        services.game_ending_restore(actor=scorer, game=ruled, ended_at=None, ended_by="Ann")
    services.game_lock(actor=scorer, game=ruled, reason="the result was confirmed")
    with pytest.raises(Conflict, match="locked"):
        services.game_ending_restore(actor=scorer, game=ruled, ended_at=when, ended_by=None)
    game.refresh_from_db()
    assert game.ended_by_name == "" and game.ended_at == when


def test_time_up_finishes_a_game_with_a_deal_and_abandons_one_without(club, scorer):
    # read before its first deal came in: the locked read sees the deal, and finishes it
    played = start_game(club, "widow_whist", 3, actor=scorer)
    stale = Game.objects.get(pk=played.pk)
    record_deals(played, [{"widow": None, "tricks": [5, 5, 3]}], scorer)
    services.game_end_unfinished(game=stale, by="tournament clock")
    played.refresh_from_db()
    assert played.status == GameStatus.FINISHED and played.ended_by_hand
    assert played.deal_count == 1
    assert played.ended_by is None and played.ended_by_name == "tournament clock"
    unplayed = start_game(club, "widow_whist", 3, actor=scorer)
    services.game_end_unfinished(game=unplayed, by="tournament clock")
    unplayed.refresh_from_db()
    assert unplayed.status == GameStatus.ABANDONED and unplayed.ended_at is not None
    assert unplayed.ended_by_name == "tournament clock"
    # a game already ended is left as it is
    services.game_end_unfinished(game=played, by="tournament clock")
    played.refresh_from_db()
    assert played.status == GameStatus.FINISHED


def _start_game(club: Any, actor: Any) -> Any:
    players = [PlayerFactory(club=club) for _ in range(3)]
    return services.game_start(actor=actor, club=club, game_type="widow_whist", players=players)


def _start_tournament(club: Any, actor: Any) -> Any:
    from tournaments import services as tournament_services

    return tournament_services.tournament_create(
        actor=actor,
        club=club,
        name="Open",
        game_type="widow_whist",
        rounds=3,
        round_kind="deals",
        round_deals=3,
    )


def _club_in_season_today() -> tuple[Any, Any, Season]:
    """A club, its admin and its season of today, for the races of a season's deletion:
    PostgreSQL's row locks (SQLite runs one write transaction at a time, so nothing there
    interleaves: skipped)."""
    if connection.vendor != "postgresql":
        pytest.skip(
            "the deletion's row lock is PostgreSQL's: SQLite runs one write transaction at "
            "a time, so the two cannot interleave"
        )
    club = ClubFactory()
    today = timezone.localdate()
    season = SeasonFactory(
        club=club, starts_on=today - timedelta(days=1), ends_on=today + timedelta(days=30)
    )
    return club, member(club, Role.ADMIN), season


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("start", [_start_game, _start_tournament], ids=["game", "tournament"])
def test_what_starts_while_its_season_is_deleted_counts_in_none(start: Any) -> None:
    """The season made by mistake is deleted while a phone starts the day's first game (or
    a director a tournament): the start waits for the deletion, then counts in no season
    (not a write refused by the database)."""
    club, admin, season = _club_in_season_today()
    holding = threading.Event()

    def delete() -> None:
        try:
            with transaction.atomic():
                services.season_delete(actor=admin, season=season)
                holding.set()
                time.sleep(2)  # the deletion holds the season while the start comes
        finally:
            connection.close()

    deleting = threading.Thread(target=delete)
    deleting.start()
    assert holding.wait(10)
    started = start(club, admin)
    deleting.join(10)
    assert started.season is None
    assert not Season.objects.filter(pk=season.pk).exists()
    assert type(started).objects.get(pk=started.pk).season_id is None


@pytest.mark.django_db(transaction=True)
def test_a_season_is_not_deleted_under_a_game_being_started() -> None:
    """The other way round: a game being started holds its season; the deletion waits,
    then finds the game and refuses (409). Games started at once do not wait for each
    other."""
    club, admin, season = _club_in_season_today()
    holding = threading.Event()

    def start() -> None:
        try:
            with transaction.atomic():
                _start_game(club, admin)
                holding.set()
                time.sleep(1)  # the game's transaction is still open
        finally:
            connection.close()

    starting = threading.Thread(target=start)
    starting.start()
    assert holding.wait(10)
    other = _start_game(club, admin)  # not held up by the first
    assert other.season_id == season.pk
    with pytest.raises(Conflict, match="were played in"):
        services.season_delete(actor=admin, season=season)
    starting.join(10)
    assert Game.objects.filter(season=season).count() == 2


def test_who_may_record(club):
    scorer = member(club, Role.SCORER)
    plain = member(club)
    seated_user = member(club)
    seated = PlayerFactory(club=club, user=seated_user)
    game = start_game(
        club,
        "widow_whist",
        [seated, PlayerFactory(club=club), PlayerFactory(club=club)],
        actor=scorer,
    )
    deal = {"widow": None, "tricks": [5, 4, 4]}
    with pytest.raises(NotAllowed):
        services.deal_record(actor=plain, game=game, number=1, record=deal)
    with pytest.raises(NotAllowed):
        services.deal_record(
            actor=member(ClubFactory(), Role.ADMIN), game=game, number=1, record=deal
        )
    services.deal_record(actor=seated_user, game=game, number=1, record=deal)
    assert game.deals.count() == 1


def test_undo_of_a_deal_that_is_no_longer_last_is_refused(club, scorer):
    game = start_game(club, "italian_whist", 3, actor=scorer)
    record_deals(game, ITALIAN[:2], scorer)
    with pytest.raises(Conflict) as caught:
        services.deal_undo(actor=scorer, game=game, expected_number=1)
    assert "not the last deal" in caught.value.message
    assert game.deals.count() == 2
    assert services.deal_undo(actor=scorer, game=game, expected_number=2) == 2


def test_a_locked_game_takes_no_change_until_it_is_unlocked(club, scorer):
    game = start_game(club, "italian_whist", 3, actor=scorer)
    record_deals(game, ITALIAN[:1], scorer)
    game.refresh_from_db()
    before = game.revision
    with pytest.raises(InvalidInput, match="say why"):
        services.game_lock(actor=scorer, game=game, reason="  ")
    services.game_lock(actor=scorer, game=game, reason="the result was confirmed")
    game.refresh_from_db()
    assert game.locked_at is not None and game.revision == before + 1
    refusals = [
        lambda: services.deal_record(actor=scorer, game=game, number=2, record=ITALIAN[1]),
        lambda: services.deal_correct(
            actor=scorer, game=game, number=1, record=ITALIAN[1], reason="typo"
        ),
        lambda: services.deal_undo(actor=scorer, game=game),
        lambda: services.game_finish(actor=scorer, game=game),
        lambda: services.game_abandon(actor=scorer, game=game),
        lambda: services.deal_draft_save(actor=scorer, game=game, number=2, data={}),
    ]
    for refused in refusals:
        with pytest.raises(Conflict, match="the game is locked: the result was confirmed"):
            refused()
    game.refresh_from_db()
    assert game.deal_count == 1 and game.status == GameStatus.IN_PROGRESS
    assert DealRevision.objects.filter(game=game).count() == 1
    outsider = member(ClubFactory(), Role.ADMIN)
    with pytest.raises(NotAllowed):
        services.game_unlock(actor=outsider, game=game)
    services.game_unlock(actor=scorer, game=game)
    with pytest.raises(Conflict, match="not locked"):
        services.game_unlock(actor=scorer, game=game)
    services.deal_record(actor=scorer, game=game, number=2, record=ITALIAN[1])
    game.refresh_from_db()
    assert game.deal_count == 2 and game.revision == before + 3
