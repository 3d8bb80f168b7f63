"""The management commands: export_games, import_games, seed_demo. One file, over 500
lines: export and import are checked as a round trip, so their tests share their records."""

from __future__ import annotations

import copy
import datetime
import json
import subprocess
import sys
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db.models import F
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from rules_engine import score_record
from scorekeeper import services
from scorekeeper.models import (
    Club,
    Deal,
    DealRevision,
    Game,
    GameStatus,
    Membership,
    Player,
    Result,
    Role,
    Season,
)
from scorekeeper.records import FORMAT, game_record
from tests.factories import ClubFactory, SeasonFactory, member
from tournaments.models import Round, RoundStatus, Standing, Tournament

pytestmark = pytest.mark.django_db

REPO_ROOT = Path(__file__).resolve().parents[1]
SEASON_START = datetime.date(2025, 1, 1)
SEASON_END = datetime.date(2025, 12, 31)

WIDOW_DEALS = [
    {"widow": 1, "tricks": [3, 5, 5]},
    {"widow": None, "tricks": [4, 4, 5]},
    {"widow": 0, "tricks": [6, 4, 3]},
]
ITALIAN_DEALS = [
    {"first": [4, 3, 2], "second": [2, 3, 4]},
    {"first": [3, 3, 3], "second": [4, 2, 3]},
]
THIRD_HAND_DEALS = [{"bids": ["Q", None], "points": [90, 30], "trump": "H"}]
PREDICTION_DEALS = [
    {"bids": [0, 1, 1], "tricks": [0, 1, 0], "trump": "S"},
    {"bids": [1, 0, 1], "tricks": [1, 0, 0], "trump": "D"},
    {"bids": [0, 0, 0], "tricks": [0, 0, 1], "trump": "C"},
]


# --- Helpers ------------------------------------------------------------------------------


def run(command: str, *args: str) -> str:
    out = StringIO()
    call_command(command, *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def export(club: Club, *args: str) -> dict[str, Any]:
    return json.loads(run("export_games", "--club", club.slug, *args))


def write(tmp_path: Path, data: Any, name: str = "games.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Club, Player, Season, Game, Deal, DealRevision, Result, Membership, User)
    }


def play(
    club: Club,
    actor: User,
    game_type: str,
    names: list[str],
    deals: list[dict[str, Any]],
    *,
    played_on: datetime.date,
    **kwargs: Any,
) -> Game:
    players = []
    for name in names:
        player = Player.objects.filter(club=club, name=name).first()
        players.append(player or services.player_create(actor=actor, club=club, name=name))
    game = services.game_start(
        actor=actor,
        club=club,
        game_type=game_type,
        players=players,
        played_on=played_on,
        **kwargs,
    )
    for number, record in enumerate(deals, start=1):
        services.deal_record(actor=actor, game=game, number=number, record=record)
    game.refresh_from_db()
    return game


@pytest.fixture
def source() -> Club:
    """A club with a season and games of every type and state."""
    club = ClubFactory(slug="source")
    admin = member(club, Role.ADMIN, username="source-admin")
    season = SeasonFactory(club=club, name="2025", starts_on=SEASON_START, ends_on=SEASON_END)
    trio = ["Ann", "Bob", "Cy"]
    day = datetime.date(2025, 3, 1)
    play(
        club,
        admin,
        "widow_whist",
        trio,
        WIDOW_DEALS,
        played_on=day,
        options={"finish": {"deals": 3}},
    )
    play(
        club,
        admin,
        "italian_whist",
        ["Cy", "Ann", "Dee"],
        ITALIAN_DEALS,
        played_on=day,
        first_dealer=2,
    )
    by_hand = play(
        club,
        admin,
        "widow_whist",
        trio,
        WIDOW_DEALS[:2],
        played_on=day + datetime.timedelta(days=1),
    )
    services.game_finish(actor=admin, game=by_hand)
    abandoned = play(
        club,
        admin,
        "third_hand",
        ["Bob", "Dee"],
        THIRD_HAND_DEALS,
        played_on=day + datetime.timedelta(days=2),
    )
    services.game_abandon(actor=admin, game=abandoned)
    play(
        club,
        admin,
        "prediction_whist",
        ["Ann", "Bob", "Eve"],
        PREDICTION_DEALS,
        played_on=day + datetime.timedelta(days=3),
        options={"hook": False},
    )
    # A game outside the season (no season covers it).
    play(club, admin, "italian_whist", trio, ITALIAN_DEALS[:1], played_on=datetime.date(2024, 6, 1))
    assert season.games.count() == 5
    return club


@pytest.fixture
def target() -> Club:
    club = ClubFactory(slug="target")
    member(club, Role.ADMIN, username="target-admin")
    return club


# --- Export -------------------------------------------------------------------------------


def test_export_writes_rules_md_records_with_metadata(source: Club) -> None:
    data = export(source)
    assert data["format"] == FORMAT
    assert data["club"] == {"name": source.name, "slug": "source"}
    assert data["season"] is None
    games = data["games"]
    assert [game["played_on"] for game in games] == sorted(game["played_on"] for game in games)
    assert {game["status"] for game in games} == {"in_progress", "finished", "abandoned"}
    for game in games:
        assert set(game) == {
            "game",
            "players",
            "first_dealer",
            "options",
            "deals",
            "played_on",
            "status",
            "ended_by_hand",
            "ended_at",
            "ended_by",
            "season",
        }
    first = games[1]  # the oldest game is the 2024 one, outside any season
    assert games[0]["season"] is None and first["season"] == "2025"
    assert first["game"] == "widow_whist" and first["players"] == ["Ann", "Bob", "Cy"]
    assert first["deals"] == WIDOW_DEALS
    assert first["status"] == "finished" and first["ended_by_hand"] is False
    assert first["ended_at"] is not None and first["ended_by"] is None  # its rules ended it
    by_hand = next(game for game in games if game["ended_by_hand"])
    assert by_hand["status"] == "finished" and len(by_hand["deals"]) == 2
    abandoned = next(game for game in games if game["status"] == "abandoned")
    assert by_hand["ended_by"] == abandoned["ended_by"] == "source-admin"
    ended = Game.objects.get(club=source, status="abandoned").ended_at
    assert abandoned["ended_at"] == ended.isoformat()
    assert games[0]["status"] == "in_progress" and games[0]["ended_at"] is None


def test_exported_records_are_scored_by_the_engine_command_line(source: Club) -> None:
    for record in export(source)["games"]:
        done = subprocess.run(
            [sys.executable, "-m", "rules_engine", "score", "-"],
            input=json.dumps(record),
            capture_output=True,
            text=True,
            cwd=REPO_ROOT,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stdout
        scored = json.loads(done.stdout)
        game = Game.objects.get(
            club=source, played_on=record["played_on"], game_type=record["game"]
        )
        assert scored["totals"] == [result.total for result in game.results.order_by("position")]
        assert scored["deals"][-1]["totals"] == game.deals.order_by("number").last().totals


def test_export_one_season_to_a_file(source: Club, tmp_path: Path) -> None:
    path = tmp_path / "season.json"
    out = run("export_games", "--club", "source", "--season", "2025", "--output", str(path))
    assert out == ""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["season"] == {"name": "2025", "starts_on": "2025-01-01", "ends_on": "2025-12-31"}
    assert len(data["games"]) == 5
    assert {game["season"] for game in data["games"]} == {"2025"}


def test_export_refuses_unknown_club_or_season(source: Club) -> None:
    with pytest.raises(CommandError, match="no club"):
        run("export_games", "--club", "nowhere")
    with pytest.raises(CommandError, match='no season called "1999"'):
        run("export_games", "--club", "source", "--season", "1999")


# --- Import -------------------------------------------------------------------------------


def test_round_trip_export_import_export(source: Club, target: Club, tmp_path: Path) -> None:
    SeasonFactory(club=target, name="2025", starts_on=SEASON_START, ends_on=SEASON_END)
    first = export(source)
    out = run("import_games", write(tmp_path, first), "--club", "target")
    deals = sum(len(game["deals"]) for game in first["games"])
    assert out.strip() == f"Imported 6 games, {deals} deals, 5 new players."
    again = export(target)
    assert again["games"] == first["games"]
    # The games' states came through the services, results included.
    for old, new in zip(
        Game.objects.filter(club=source).order_by("played_on", "id"),
        Game.objects.filter(club=target).order_by("played_on", "id"),
        strict=True,
    ):
        assert (new.status, new.ended_by_hand, new.deal_count) == (
            old.status,
            old.ended_by_hand,
            old.deal_count,
        )
        assert list(new.results.order_by("position").values_list("total", "placing", "won")) == (
            list(old.results.order_by("position").values_list("total", "placing", "won"))
        )
        assert new.created_by is not None and new.created_by.username == "target-admin"
        # When and by whom it ended, as the file says, not the import's time and importer.
        assert (new.ended_at, new.ended_by_name) == (old.ended_at, old.ended_by_name)
    abandoned = Game.objects.get(club=target, status=GameStatus.ABANDONED)
    assert abandoned.ended_by is None  # the name only: the account is the other club's
    page = Client()
    page.force_login(User.objects.get(username="target-admin"))
    html = page.get(reverse("game", args=[abandoned.pk])).content.decode()
    when = timezone.localtime(abandoned.ended_at).strftime("%-d %b %Y, %H:%M")
    assert f"Abandoned by source-admin ({when})." in html


def test_import_brings_back_house_rules_a_newer_set_up_check_refuses(
    source: Club, target: Club, tmp_path: Path
) -> None:
    """A Third Hand game kept with contract values that fall as the bid card rises (a
    new game is refused them) is brought back as it was kept, and scores as it did."""
    data = export(source)
    names = data["games"][0]["players"][:2]
    falling = {"contract_values": {"9": 50, "10": 60, "J": 70, "Q": 80, "K": 90, "A": 40}}
    kept = {
        **{key: value for key, value in data["games"][0].items() if key != "deals"},
        "game": "third_hand",
        "players": names,
        "options": {**falling, "target": 500},
        "first_dealer": 0,
        "status": "in_progress",
        "deals": [{"bids": [None, "A"], "points": [60, 70]}],
    }
    kept.pop("ending", None)
    kept.pop("ended_by_hand", None)
    run("import_games", write(tmp_path, {**data, "games": [kept]}), "--club", "target")
    game = Game.objects.get(club=target, game_type="third_hand")
    assert game.options["contract_values"]["A"] == 40
    assert list(game.deals.get().scores) == [60, 80]  # 70 of 40: made


def test_import_season_by_name_else_by_date(source: Club, target: Club, tmp_path: Path) -> None:
    # The target club has no season "2025" but one covering March 2025 by date.
    by_date = SeasonFactory(
        club=target,
        name="Spring",
        starts_on=datetime.date(2025, 3, 1),
        ends_on=datetime.date(2025, 3, 2),
    )
    run("import_games", write(tmp_path, export(source)), "--club", "target")
    seasons = dict(Game.objects.filter(club=target).values_list("played_on", "season"))
    assert seasons[datetime.date(2025, 3, 1)] == by_date.pk
    assert seasons[datetime.date(2025, 3, 4)] is None


def test_bad_record_writes_nothing_and_names_game_and_deal(
    source: Club, target: Club, tmp_path: Path
) -> None:
    data = export(source)
    bad = copy.deepcopy(data)
    bad["games"][2]["deals"][1]["first"] = [4, 4, 2]  # the Italian whist game's deal 2
    before = counts()
    with pytest.raises(CommandError) as caught:
        run("import_games", write(tmp_path, bad), "--club", "target")
    message = str(caught.value)
    assert "game at index 2 (italian_whist, 2025-03-01)" in message
    assert "deal 2, field first: tricks of the first hand add up to 10" in message
    assert counts() == before


def test_refusal_by_a_service_rolls_back_earlier_games(
    source: Club, target: Club, tmp_path: Path
) -> None:
    data = export(source)
    # Game 3 is fine for the engine but refused by the services (no deals to finish on),
    # after games 0..2 and their new players were written.
    data["games"][3]["deals"] = []
    before = counts()
    with pytest.raises(CommandError) as caught:
        run("import_games", write(tmp_path, data), "--club", "target")
    assert "game at index 3 (widow_whist, 2025-03-02)" in str(caught.value)
    assert "a game with no deals cannot be finished" in str(caught.value)
    assert caught.value.returncode == 1
    assert counts() == before


def test_inconsistent_status_is_refused(source: Club, target: Club, tmp_path: Path) -> None:
    data = export(source)
    data["games"][2]["status"] = "finished"  # the Italian whist game has not ended
    with pytest.raises(CommandError, match="index 2.*marked finished but its deals do not end"):
        run("import_games", write(tmp_path, data), "--club", "target")


def test_an_ending_in_another_time_zone_or_by_nobody_imports_as_the_file_says(
    source: Club, target: Club, tmp_path: Path
) -> None:
    data = export(source)
    abandoned = next(game for game in data["games"] if game["status"] == "abandoned")
    abandoned.update(ended_at="2025-03-03T22:15:00+01:00", ended_by=None)
    run("import_games", write(tmp_path, data), "--club", "target")
    game = Game.objects.get(club=target, status=GameStatus.ABANDONED)
    assert game.ended_at == datetime.datetime(2025, 3, 3, 21, 15, tzinfo=datetime.UTC)
    assert game.ended_by is None and game.ended_by_name == ""  # not the importer's name
    page = Client()
    page.force_login(User.objects.get(username="target-admin"))
    assert "Abandoned by" not in page.get(reverse("game", args=[game.pk])).content.decode()


@pytest.mark.parametrize(
    ("index", "change", "message"),
    [
        (1, {"ended_by": "Ann"}, "field ended_by: only a game ended by hand or abandoned"),
        (0, {"ended_at": "2025-03-01T22:15:00+00:00"}, "field ended_at: the game is in progress"),
        (3, {"ended_at": "2025-03-02 22:15"}, "field ended_at: a date and time with its offset"),
        (3, {"ended_at": 5}, "field ended_at: a date and time with its offset"),
        (3, {"ended_by": "  "}, "field ended_by: a name or null"),
        (3, {"ended_by": "x" * 201}, "field ended_by: at most 200 characters"),
        (3, {"ended_at": "2025-03-01T22:15:00+00:00"}, "field ended_at: a game played on"),
        (3, {"ended_at": "2999-03-02T22:15:00+00:00"}, "field ended_at: a game cannot have"),
    ],
)
def test_a_bad_ending_is_refused_naming_the_game_and_field(
    source: Club, target: Club, tmp_path: Path, index: int, change: dict[str, Any], message: str
) -> None:
    data = export(source)
    data["games"][index].update(change)
    before = counts()
    with pytest.raises(CommandError, match=f"game at index {index} .*{message}"):
        run("import_games", write(tmp_path, data), "--club", "target")
    assert counts() == before


def test_dry_run_writes_nothing(source: Club, target: Club, tmp_path: Path) -> None:
    path = write(tmp_path, export(source))
    before = counts()
    out = run("import_games", path, "--club", "target", "--dry-run")
    assert out.startswith("Dry run: the file is valid (6 games, ")
    assert "5 new players); nothing was written." in out
    assert counts() == before


def test_import_bare_list_of_rules_md_records(target: Club, tmp_path: Path) -> None:
    season = SeasonFactory(
        club=target,
        name="Now",
        starts_on=timezone.localdate() - datetime.timedelta(days=1),
        ends_on=timezone.localdate() + datetime.timedelta(days=1),
    )
    records = [
        {
            "game": "widow_whist",
            "players": ["Ann", "Bob", "Cy"],
            "first_dealer": 0,
            "options": {"finish": {"deals": 1}},
            "deals": [{"widow": 1, "tricks": [3, 5, 5]}],
        },
        {"game": "italian_whist", "players": ["Cy", "Dee", "Ann"], "deals": ITALIAN_DEALS},
    ]
    out = run("import_games", write(tmp_path, records), "--club", "target")
    assert out.strip() == "Imported 2 games, 3 deals, 4 new players."
    widow, italian = Game.objects.filter(club=target).order_by("id")
    assert widow.status == GameStatus.FINISHED and not widow.ended_by_hand
    assert italian.status == GameStatus.IN_PROGRESS and italian.deal_count == 2
    assert widow.played_on == timezone.localdate() and widow.season == season
    assert widow.options == {
        "targets": {"widow": 4, "other": 3},
        "must_trump_when_void": False,
        "finish": {"deals": 1},
    }
    assert [seat.player.name for seat in italian.seats.order_by("position")] == ["Cy", "Dee", "Ann"]


def test_import_single_record_as_a_scorer(target: Club, tmp_path: Path) -> None:
    scorer = member(target, Role.SCORER, username="sam")
    record = {"game": "third_hand", "players": ["Ann", "Bob"], "deals": THIRD_HAND_DEALS}
    run("import_games", write(tmp_path, record), "--club", "target", "--as", "sam")
    deal = Deal.objects.get(game__club=target)
    assert deal.entered_by == scorer and deal.record == THIRD_HAND_DEALS[0]


def test_import_acting_user_must_be_staff(target: Club, tmp_path: Path) -> None:
    member(target, Role.MEMBER, username="mo")
    path = write(tmp_path, {"game": "third_hand", "players": ["Ann", "Bob"], "deals": []})
    with pytest.raises(CommandError, match="mo is not on the staff of target"):
        run("import_games", path, "--club", "target", "--as", "mo")
    with pytest.raises(CommandError, match='no user "ghost"'):
        run("import_games", path, "--club", "target", "--as", "ghost")
    clubless = ClubFactory(slug="clubless")
    with pytest.raises(CommandError, match="has no admin"):
        run("import_games", path, "--club", clubless.slug)


def test_import_refuses_unknown_format_and_bad_json(target: Club, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="unknown file format"):
        run("import_games", write(tmp_path, {"format": "other/2", "games": []}), "--club", "target")
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="is not valid JSON"):
        run("import_games", str(path), "--club", "target")


# --- seed_demo ----------------------------------------------------------------------------


def test_seed_demo_creates_demo_data_once() -> None:
    out = run("seed_demo")
    assert "Sign in at http://127.0.0.1:8000/ as demo / demo" in out
    assert "/api/docs/" in out
    club = Club.objects.get(slug="riverside")
    assert club.name == "Riverside Card Club" and club.results_public
    demo = User.objects.get(username="demo")
    assert demo.is_superuser and demo.is_staff and demo.check_password("demo")
    roles = dict(Membership.objects.filter(club=club).values_list("user__username", "role"))
    assert roles == {"demo": Role.ADMIN, "director": Role.DIRECTOR, "scorer": Role.SCORER}
    players = Player.objects.filter(club=club)
    assert players.count() == 8
    assert set(players.exclude(user=None).values_list("user__username", flat=True)) == set(roles)
    today = timezone.localdate()
    season = Season.objects.get(club=club, starts_on__lte=today, ends_on__gte=today)

    games = Game.objects.filter(club=club, tournament_table__isnull=True)
    finished = games.filter(status=GameStatus.FINISHED)
    assert set(finished.values_list("game_type", flat=True)) == {
        "widow_whist",
        "third_hand",
        "italian_whist",
        "prediction_whist",
    }
    (playing,) = games.filter(status=GameStatus.IN_PROGRESS)
    assert playing.game_type == "prediction_whist" and 5 <= playing.deal_count <= 16
    assert set(games.values_list("season", flat=True)) == {season.pk}
    assert all(game.deal_count == game.deals.count() > 0 for game in games)

    # The demo tournament: round 1 played and confirmed, round 2 under way.
    tournament = Tournament.objects.get(club=club)
    first, second = tournament.rounds.order_by("number")
    assert first.status == RoundStatus.CLOSED and second.status == RoundStatus.PLAYING
    assert all(t.confirmed_at is not None for t in first.tables.all())
    assert first.players.filter(table__isnull=True).count() == 2  # 8 players, tables of 3
    assert Standing.objects.filter(tournament=tournament).count() == 8

    before = counts()
    again = run("seed_demo")
    assert "nothing changed" in again
    assert counts() == before
    assert Tournament.objects.count() == 1 and Round.objects.count() == 2


def test_the_demo_people_still_sign_in_after_opening_their_account_page() -> None:
    run("seed_demo")
    client = Client()
    assert client.login(username="demo", password="demo")
    assert client.get(reverse("account_email")).status_code == 200
    client.logout()
    response = client.post(reverse("account_login"), {"login": "demo", "password": "demo"})
    assert response.status_code == 302
    assert response["Location"] != reverse("account_email_verification_sent")
    assert client.get(reverse("my-games")).status_code == 200


def test_seed_demo_totals_match_the_engine() -> None:
    run("seed_demo")
    games = Game.objects.filter(club__slug="riverside")
    assert games.count() >= 5
    for game in games:
        sheet = score_record(game_record(game))
        results = list(game.results.order_by("position"))
        assert list(sheet.totals) == [result.total for result in results]
        assert sheet.finished == (game.status == GameStatus.FINISHED and not game.ended_by_hand)
        if sheet.finished:
            assert list(sheet.winners) == [r.position for r in results if r.won]
        deals = list(game.deals.order_by("number"))
        assert [list(d.totals) for d in sheet.deals] == [d.totals for d in deals]


# --- scores_check -----------------------------------------------------------------------------


def test_scores_check_finds_every_demo_score_as_the_engine_makes_it() -> None:
    run("seed_demo")
    out = run("scores_check")
    games = Game.objects.count()
    assert games > 5
    assert out.strip() == f"{games} games checked: every stored score matches a replay."


def test_scores_check_reports_a_wrong_stored_score_and_fix_mends_it() -> None:
    from django.core.management.base import CommandError

    run("seed_demo")
    game = Game.objects.filter(status=GameStatus.FINISHED).order_by("pk").first()
    assert game is not None
    deal = game.deals.get(number=2)
    right_scores, right_totals = list(deal.scores), list(deal.totals)
    deal.scores = [score + 1 for score in deal.scores]
    deal.save(update_fields=["scores"])
    result = game.results.get(position=0)
    result.total += 5
    result.save(update_fields=["total"])

    with pytest.raises(CommandError, match="2 differences"):
        run("scores_check")
    fixed = run("scores_check", "--fix")
    assert f"game {game.pk}: deal 2 scores stored" in fixed
    assert f"game {game.pk}: result of seat 0 stored" in fixed
    assert "2 differences mended" in fixed
    deal.refresh_from_db()
    result.refresh_from_db()
    assert (deal.scores, deal.totals) == (right_scores, right_totals)
    assert result.total == right_totals[0] + sum(
        d.scores[0] for d in game.deals.filter(number__gt=2)
    )
    assert "every stored score matches" in run("scores_check")


def test_scores_check_fix_leaves_an_abandoned_game_abandoned() -> None:
    """A finished game abandoned (played by mistake) whose stored scores are wrong: the
    fix rescores its deals; it stays abandoned, by whoever abandoned it, and wins nothing."""
    run("seed_demo")
    game = Game.objects.filter(status=GameStatus.FINISHED).order_by("pk").first()
    assert game is not None
    admin = member(game.club, Role.ADMIN, username="fixer")
    services.game_abandon(actor=admin, game=game)
    deal = game.deals.get(number=1)
    right = list(deal.scores)
    deal.scores = [score + 1 for score in deal.scores]
    deal.save(update_fields=["scores"])
    assert "differences mended" in run("scores_check", "--fix")
    game.refresh_from_db()
    deal.refresh_from_db()
    assert deal.scores == right
    assert game.status == GameStatus.ABANDONED and game.ended_by_name == "fixer"
    assert not game.results.filter(won=True).exists()


@pytest.mark.django_db(transaction=True)
def test_scores_check_in_two_processes_finds_and_mends_what_one_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import multiprocessing

    from scorekeeper.services import consistency
    from scorekeeper.services.consistency import BATCH, scores_check

    pools: list[int] = []
    fork = multiprocessing.get_context("fork")

    class Context:
        def Pool(self, processes: int) -> Any:  # noqa: N802 (multiprocessing's name)
            pools.append(processes)
            return fork.Pool(processes)

    monkeypatch.setattr(consistency.multiprocessing, "get_context", lambda method: Context())

    run("seed_demo")
    games = list(Game.objects.order_by("pk"))
    assert len(games) < BATCH  # one batch: make more, so both processes get some
    club = games[0].club
    players = [seat.player for seat in games[0].seats.order_by("position")]
    owner = Membership.objects.filter(club=club, role=Role.ADMIN).get().user
    for _ in range(BATCH + 1 - len(games)):
        services.game_start(actor=owner, club=club, game_type=games[0].game_type, players=players)
    last = Game.objects.order_by("pk").last()
    assert last is not None and last.pk != games[0].pk
    for game in (games[0], last):
        Result.objects.filter(game=game, position=0).update(total=F("total") + 3)

    one = [str(d) for d in scores_check()]
    two = [str(d) for d in scores_check(workers=2)]
    assert len(one) == 2 and two == one
    assert pools == [2]  # the second check ran in a pool of two processes
    with pytest.raises(CommandError, match="--jobs: at least 1"):
        run("scores_check", "--jobs", "0")
    assert "2 differences mended" in run("scores_check", "--jobs", "2", "--fix")
    assert "every stored score matches" in run("scores_check", "--jobs", "2")
