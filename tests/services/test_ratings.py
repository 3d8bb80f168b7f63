"""Ratings: openskill's own numbers for hand-made games, ties, two players, the order of
play, and a recomputation after corrections that equals rating everything from scratch."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorekeeper import services
from scorekeeper.models import (
    GameStatus,
    JobStatus,
    Rating,
    RatingChange,
    RatingJob,
    Role,
    SeasonStanding,
)
from scorekeeper.services.ratings import ratings_rebuild, ratings_recompute, shown
from scorekeeper.services.standings import standings_rebuild
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    SeasonFactory,
    member,
    one_deal_widow_game,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_in_process")]
DAY = datetime.date(2026, 3, 1)


@pytest.fixture
def table(django_capture_on_commit_callbacks: Any) -> Any:
    club = ClubFactory()
    scorer = member(club, Role.SCORER)
    players = [PlayerFactory(club=club, name=name) for name in ("Ann", "Bob", "Cy", "Dee")]
    return club, scorer, players


def run(capture: Any, action: Any) -> Any:
    """Do ``action`` and run what it asked for on commit (the ratings job, in-process)."""
    with capture(execute=True):
        return action()


def test_a_finished_game_is_rated_as_openskill_rates_it(
    table: Any, django_capture_on_commit_callbacks: Any
) -> None:
    club, scorer, players = table
    run(
        django_capture_on_commit_callbacks,
        lambda: one_deal_widow_game(club, scorer, players[:3], [6, 4, 3]),
    )
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()], [model.rating()]], ranks=[1, 2, 3])
    ratings = {r.player_id: r for r in Rating.objects.filter(game_type="widow_whist")}
    for player, team in zip(players[:3], expected, strict=True):
        rating = ratings[player.pk]
        assert rating.mu == pytest.approx(team[0].mu)
        assert rating.sigma == pytest.approx(team[0].sigma)
        assert rating.shown == shown(team[0].mu, team[0].sigma)
        assert rating.games == 1
    # The winner gained on the 1000 a new player starts at, the last lost.
    assert ratings[players[0].pk].shown > ratings[players[2].pk].shown
    assert RatingJob.objects.get().status == JobStatus.DONE


def test_equal_totals_share_a_rank(table: Any, django_capture_on_commit_callbacks: Any) -> None:
    club, scorer, players = table
    # Widow whist, nobody took the widow: 5, 4, 4 tricks score +2, +1, +1.
    run(
        django_capture_on_commit_callbacks,
        lambda: one_deal_widow_game(club, scorer, players[:3], [5, 4, 4]),
    )
    ratings = {r.player_id: r for r in Rating.objects.all()}
    assert ratings[players[1].pk].mu == pytest.approx(ratings[players[2].pk].mu)
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 2, 2])
    assert ratings[players[1].pk].mu == pytest.approx(expected[1][0].mu)


def test_third_hand_is_a_two_player_match(
    table: Any, django_capture_on_commit_callbacks: Any
) -> None:
    club, scorer, players = table

    def play() -> Any:
        game = services.game_start(
            actor=scorer, club=club, game_type="third_hand", players=players[:2]
        )
        services.deal_record(
            actor=scorer, game=game, number=1, record={"bids": [None, None], "points": [60, 60]}
        )
        return services.game_finish(actor=scorer, game=game)

    run(django_capture_on_commit_callbacks, play)
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[1, 1])
    rating = Rating.objects.get(player=players[0], game_type="third_hand")
    assert rating.mu == pytest.approx(expected[0][0].mu)


def test_games_are_rated_in_the_order_played(
    table: Any, django_capture_on_commit_callbacks: Any
) -> None:
    club, scorer, players = table
    # Recorded out of order: the later day first.
    run(
        django_capture_on_commit_callbacks,
        lambda: one_deal_widow_game(club, scorer, players[:3], [6, 4, 3], day=5),
    )
    run(
        django_capture_on_commit_callbacks,
        lambda: one_deal_widow_game(club, scorer, players[:3], [3, 4, 6], day=1),
    )
    model = PlackettLuce()
    teams = [[model.rating()] for _ in range(3)]
    teams = model.rate(teams, ranks=[3, 2, 1])  # day 1
    teams = model.rate(teams, ranks=[1, 2, 3])  # day 5
    rating = Rating.objects.get(player=players[0])
    assert rating.mu == pytest.approx(teams[0][0].mu)
    assert rating.games == 2
    assert list(
        RatingChange.objects.filter(player=players[0]).values_list("placing", flat=True)
    ) == [3, 1]


def test_a_correction_an_abandon_and_unrated_games(
    table: Any, django_capture_on_commit_callbacks: Any
) -> None:
    club, scorer, players = table
    first = run(
        django_capture_on_commit_callbacks,
        lambda: one_deal_widow_game(club, scorer, players[:3], [6, 4, 3]),
    )
    second = run(
        django_capture_on_commit_callbacks,
        lambda: one_deal_widow_game(club, scorer, players[1:], [6, 4, 3], day=1),
    )
    run(
        django_capture_on_commit_callbacks,
        lambda: services.deal_correct(
            actor=scorer,
            game=first,
            number=1,
            record={"widow": None, "tricks": [3, 4, 6]},
            reason="misread",
            expected_version=1,
        ),
    )
    incremental = {
        (r.player_id, r.game_type): (r.mu, r.sigma, r.games) for r in Rating.objects.all()
    }
    ratings_rebuild(club=club, game_type="widow_whist")
    rebuilt = {(r.player_id, r.game_type): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert incremental.keys() == rebuilt.keys()
    for key, value in incremental.items():
        assert value == pytest.approx(rebuilt[key])
    # Abandoning the second game (the club's director) takes it out of everyone's ratings.
    director = member(club, Role.DIRECTOR)
    run(
        django_capture_on_commit_callbacks,
        lambda: services.game_abandon(actor=director, game=second),
    )
    assert not RatingChange.objects.filter(game=second).exists()
    assert not Rating.objects.filter(player=players[3]).exists()  # Dee played only that one

    # A game that is not rated (a tournament may say so) changes nothing.
    def unrated() -> None:
        game = services.game_start(
            actor=scorer,
            club=club,
            game_type="widow_whist",
            players=players[:3],
            options={"finish": {"deals": 1}},
            played_on=DAY,
            rated=False,
        )
        services.deal_record(
            actor=scorer, game=game, number=1, record={"widow": None, "tricks": [6, 4, 3]}
        )

    before = list(Rating.objects.values_list("player_id", "mu"))
    run(django_capture_on_commit_callbacks, unrated)
    assert list(Rating.objects.values_list("player_id", "mu")) == before


def test_a_job_run_twice_or_resumed_gives_the_same_ratings(
    table: Any, django_capture_on_commit_callbacks: Any
) -> None:
    club, scorer, players = table
    for day in range(4):
        tricks = [[6, 4, 3], [3, 6, 4], [4, 3, 6], [5, 5, 3]][day]
        one_deal_widow_game(club, scorer, players[:3], tricks, day=day)  # jobs queued, not run
    jobs = list(RatingJob.objects.filter(status=JobStatus.QUEUED))
    assert len(jobs) == 1  # one queued job per club and game type, its start the earliest
    ratings_recompute(job_id=jobs[0].pk)
    once = list(Rating.objects.order_by("player_id").values_list("mu", "sigma", "games"))
    # As if a worker died half-way: the last game's changes lost, the job run again.
    RatingChange.objects.filter(key=RatingChange.objects.order_by("-key").first().key).delete()
    RatingJob.objects.filter(pk=jobs[0].pk).update(status=JobStatus.RUNNING)
    ratings_recompute(job_id=jobs[0].pk)
    again = list(Rating.objects.order_by("player_id").values_list("mu", "sigma", "games"))
    assert again == once
    assert ratings_recompute(job_id=jobs[0].pk).status == JobStatus.DONE  # done: left alone


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    games=st.lists(
        st.tuples(
            st.integers(0, 3),  # which three of the four players (the one left out)
            st.permutations([6, 4, 3]),
            st.integers(0, 5),  # the day
        ),
        min_size=2,
        max_size=6,
    ),
    corrections=st.lists(st.tuples(st.integers(0, 5), st.permutations([6, 4, 3])), max_size=3),
)
def test_recomputing_after_random_corrections_equals_rating_from_scratch(
    games: list[tuple[int, list[int], int]], corrections: list[tuple[int, list[int]]]
) -> None:
    from django.db import transaction

    with transaction.atomic():
        club = ClubFactory()
        SeasonFactory(club=club, starts_on=DAY, ends_on=DAY + datetime.timedelta(days=3))
        scorer = member(club, Role.SCORER)
        players = [PlayerFactory(club=club) for _ in range(4)]
        made = []
        for out, tricks, day in games:
            seated = [p for i, p in enumerate(players) if i != out]
            made.append(one_deal_widow_game(club, scorer, seated, list(tricks), day=day))
            _drain()
        for index, tricks in corrections:
            game = made[index % len(made)]
            game.refresh_from_db()
            record = {"widow": None, "tricks": list(tricks)}
            if game.deals.get().record == record:
                continue  # no correction: a deal is not corrected into what it is
            services.deal_correct(
                actor=scorer,
                game=game,
                number=1,
                expected_version=None,
                record=record,
                reason="fix",
            )
            _drain()
        incremental = _ratings(club)
        kept = _standings(club)
        ratings_rebuild(club=club, game_type="widow_whist")
        rebuilt = _ratings(club)
        assert incremental.keys() == rebuilt.keys()
        for key, value in incremental.items():
            assert value == pytest.approx(rebuilt[key])
        # The season's standings rows, kept game by game, are what adding up gives.
        for season in club.seasons.all():
            standings_rebuild(season=season)
        assert _standings(club) == kept
        transaction.set_rollback(True)


def _drain() -> None:
    for job in RatingJob.objects.filter(status=JobStatus.QUEUED):
        ratings_recompute(job_id=job.pk)


def _standings(club: Any) -> dict[tuple[int, int, str], tuple[Any, ...]]:
    return {
        (row.season_id, row.player_id, row.game_type): (
            row.games,
            row.wins,
            row.total,
            row.deals,
            row.placing_sum,
            row.rating,
            row.rating_change,
        )
        for row in SeasonStanding.objects.filter(season__club=club)
    }


def _ratings(club: Any) -> dict[int, tuple[float, float, int]]:
    return {r.player_id: (r.mu, r.sigma, r.games) for r in Rating.objects.filter(club=club)}


def test_finished_only(table: Any) -> None:
    club, scorer, players = table
    game = services.game_start(
        actor=scorer, club=club, game_type="widow_whist", players=players[:3], options={}
    )
    assert game.status == GameStatus.IN_PROGRESS
    assert not RatingJob.objects.exists()


def test_the_command_runs_waiting_jobs_and_rebuilds_a_club(table: Any) -> None:
    from io import StringIO

    from django.core.management import call_command

    club, scorer, players = table
    one_deal_widow_game(club, scorer, players[:3], [6, 4, 3])  # its job waits (no commit here)
    out = StringIO()
    call_command("ratings_recompute", stdout=out)
    assert "1 ratings job run" in out.getvalue()
    assert Rating.objects.filter(club=club).count() == 3
    before = list(Rating.objects.order_by("player_id").values_list("mu", flat=True))
    Rating.objects.all().delete()
    call_command("ratings_recompute", "--club", club.slug, "--game-type", "widow_whist", stdout=out)
    assert list(Rating.objects.order_by("player_id").values_list("mu", flat=True)) == before
