"""A confirmed table's result stands: its game is locked in the services (deals,
corrections, undo, finish, abandon all refused) until a director reopens it, which
clears the confirmation, keeps who and why, and recomputes the round and standings."""

from __future__ import annotations

import pytest

from scorekeeper import services as core
from scorekeeper.access import TableGuest
from scorekeeper.errors import Conflict, InvalidInput, NotAllowed
from scorekeeper.models import DealRevision, Game, Role
from tests.factories import member
from tests.tournaments.helpers import EVEN, WIN, Event, guest, play, tables
from tournaments import selectors, services
from tournaments.models import RoundStatus, Standing, Table

pytestmark = pytest.mark.django_db


def _points(t, name: str) -> float:
    return float(Standing.objects.get(tournament=t, player__name=name).points)


def _setup(event: Event, rounds: int = 1):
    t = event.tournament(rounds=rounds)
    event.enter(t, 6)
    round = event.seat(t)
    event.publish(round)
    one, two = tables(round)
    return t, round, one, two


def test_a_confirmed_table_refuses_every_change_to_its_game(event):
    t, round, one, two = _setup(event)
    play(one, [WIN[0], EVEN, EVEN], by="Scorer")
    with event.capture(execute=True):
        services.table_confirm(actor=guest(one, "Checker"), table=one)
    game = one.game
    game.refresh_from_db()
    assert game.locked_at is not None
    assert "confirmed by Checker" in game.locked_reason
    scorer = guest(one, "Scorer")
    staff = member(event.club, Role.SCORER, username="clubscorer")
    for actor in (scorer, staff, event.director):
        with pytest.raises(Conflict, match="locked: the result of table 1 was confirmed"):
            core.deal_undo(actor=actor, game=game)
        with pytest.raises(Conflict, match="only the tournament director can reopen table 1"):
            core.deal_correct(
                actor=actor, game=game, number=2, record=WIN[1], reason="wrong tricks"
            )
        # a finished game is abandoned by a director or admin only (a guest at the table and
        # a scorer are told so); the director is told it is locked
        refused = (
            (Conflict, "locked")
            if actor is event.director
            else (NotAllowed, "only the club's admins and directors can abandon it")
        )
        with pytest.raises(refused[0], match=refused[1]):
            core.game_abandon(actor=actor, game=game)
    revisions = DealRevision.objects.filter(game=game).count()
    game.refresh_from_db()
    assert game.deal_count == 3 and revisions == 3  # nothing was written


def test_only_a_director_reopens_with_a_reason_and_the_result_counts_again(event):
    t, round, one, two = _setup(event)
    play(one, [WIN[0], EVEN, EVEN], by="Scorer")  # seat 0: 4+2+2 = 8
    with event.capture(execute=True):
        services.table_confirm(actor=guest(one, "Checker"), table=one)
    game = one.game
    with pytest.raises(NotAllowed):
        services.table_reopen(actor=guest(one, "Checker"), table=one, reason="typo")
    seated = member(event.club, Role.SCORER, username="scorer2")
    with pytest.raises(NotAllowed):
        services.table_reopen(actor=seated, table=one, reason="typo")
    with pytest.raises(InvalidInput, match="say why"):
        services.table_reopen(actor=event.director, table=one, reason="   ")
    with pytest.raises(Conflict, match="not confirmed"):
        services.table_reopen(actor=event.director, table=two, reason="why not")
    reopened = services.table_reopen(
        actor=event.director, table=one, reason="deal 2 was entered for the wrong seat"
    )
    assert reopened.confirmed_at is None and reopened.confirmed_by_name == ""
    assert reopened.reopened_by == event.director
    assert reopened.reopen_reason == "deal 2 was entered for the wrong seat"
    game.refresh_from_db()
    assert game.locked_at is None
    # The table corrects its game and confirms again.
    core.deal_correct(
        actor=guest(one, "Scorer"), game=game, number=2, record=WIN[1], reason="wrong seat"
    )
    with event.capture(execute=True):
        services.table_confirm(actor=guest(one, "Checker"), table=one)
    game.refresh_from_db()
    assert game.locked_at is not None
    play(two, [EVEN, EVEN, EVEN], by="Scorer")
    with event.capture(execute=True):
        services.table_confirm(actor=guest(two, "Checker"), table=two)
    round.refresh_from_db()
    assert round.status == RoundStatus.CLOSED


def test_reopening_a_closed_round_recomputes_points_and_standings(event):
    t, round, one, two = _setup(event)
    play(one, [WIN[0], WIN[0], EVEN], by="Scorer")  # seat 0 wins clearly
    play(two, [EVEN, EVEN, EVEN], by="Scorer")
    with event.capture(execute=True):
        services.table_confirm(actor=guest(one, "Checker"), table=one)
        services.table_confirm(actor=guest(two, "Checker"), table=two)
    round.refresh_from_db()
    assert round.status == RoundStatus.CLOSED
    winner = one.seats.get(position=0).player.name
    runner = one.seats.get(position=1).player.name
    assert _points(t, winner) == 1.0 and _points(t, runner) < 1.0
    with event.capture(execute=True):
        services.table_reopen(
            actor=event.director, table=one, reason="deals 1 and 2 went to the wrong player"
        )
    game = one.game
    game.refresh_from_db()
    assert game.locked_at is None
    # Players cannot confirm a closed round's table; the director corrects and confirms.
    late_guest = TableGuest(game_id=game.pk, name="Checker")  # its link was revoked anyway
    with pytest.raises(Conflict, match="the director confirms"):
        services.table_confirm(actor=late_guest, table=one)
    for number in (1, 2):
        core.deal_correct(
            actor=event.director, game=game, number=number, record=WIN[1], reason="wrong player"
        )
    with event.capture(execute=True):
        table = services.table_confirm(actor=event.director, table=Table.objects.get(pk=one.pk))
    assert table.confirmed_by == event.director
    game.refresh_from_db()
    assert game.locked_at is not None
    assert _points(t, runner) == 1.0 and _points(t, winner) < 1.0


def test_closing_a_round_locks_unconfirmed_tables_too(event):
    t, round, one, two = _setup(event)
    play(one, [WIN[0]], by="Scorer")
    with event.capture(execute=True):
        services.round_close(actor=event.director, round=round, force=True)
    for table in tables(round):
        assert table.game.locked_at is not None
        assert "round 1 is closed" in table.game.locked_reason
    with pytest.raises(Conflict, match="locked"):
        core.deal_correct(
            actor=event.director, game=one.game, number=1, record=EVEN, reason="late fix"
        )
    services.table_reopen(actor=event.director, table=one, reason="late fix")
    one.game.refresh_from_db()
    core.deal_correct(actor=event.director, game=one.game, number=1, record=EVEN, reason="fix")


def test_every_change_moves_the_game_revision_on(event):
    t, round, one, two = _setup(event)
    game = one.game
    game.refresh_from_db()
    seen = [game.revision]

    def moved() -> None:
        game.refresh_from_db()
        assert game.revision > seen[-1]
        seen.append(game.revision)

    play(one, [WIN[0]], by="Scorer")
    moved()
    core.deal_correct(actor=guest(one, "Scorer"), game=game, number=1, record=EVEN, reason="typo")
    moved()
    core.deal_undo(actor=guest(one, "Scorer"), game=game)
    moved()
    play(one, [WIN[0], EVEN, EVEN], by="Scorer")
    moved()
    with event.capture(execute=True):
        services.table_confirm(actor=guest(one, "Checker"), table=one)
    moved()
    services.table_reopen(actor=event.director, table=one, reason="check")
    moved()


def test_a_director_scores_the_tables_games_only_while_a_director(event):
    """The director who published a round started its tables' games in that role: made a
    plain member, they score and abandon none of them (someone who starts a game of their
    own keeps its score, seated or not)."""
    t, round, one, two = _setup(event)
    game = one.game
    assert game.created_by == event.director and not game.kept_by_starter
    core.deal_record(actor=event.director, game=game, number=1, record=WIN[0])
    membership = event.director.memberships.get(club=event.club)
    membership.role = Role.MEMBER
    membership.save(update_fields=["role"])
    with pytest.raises(NotAllowed):
        core.deal_record(actor=event.director, game=game, number=2, record=EVEN)
    with pytest.raises(NotAllowed):
        core.game_abandon(actor=event.director, game=game)
    game.refresh_from_db()
    assert game.deal_count == 1 and game.status == "in_progress"


def test_tables_started_before_the_change_are_told_apart_by_the_migration(event):
    """Games of tables started before games knew whether their starter keeps their score:
    the data migration marks the tables' games, and no other."""
    from importlib import import_module

    from django.apps import apps

    t, round, one, two = _setup(event)
    own = core.game_start(
        actor=event.director, club=event.club, game_type="widow_whist", players=event.players[:3]
    )
    Game.objects.update(kept_by_starter=True)  # as every game was before the migration
    migration = import_module("tournaments.migrations.0007_tables_games_not_kept_by_starter")
    migration.tables_games(apps, None)
    marked = dict(Game.objects.values_list("pk", "kept_by_starter"))
    assert marked == {one.game_id: False, two.game_id: False, own.pk: True}


def test_a_closed_rounds_table_played_back_after_reopening_is_confirmed_by_the_director(event):
    """Reopened after its round closed, a table's game is put back in play (its last deal
    undone): no finish rule stands in the director's way, whose confirmation ends it."""
    t, round, one, two = _setup(event)
    play(one, [WIN[0], WIN[0], EVEN], by="Scorer")
    play(two, [EVEN, EVEN, EVEN], by="Scorer")
    with event.capture(execute=True):
        services.table_confirm(actor=guest(one, "Checker"), table=one)
        services.table_confirm(actor=guest(two, "Checker"), table=two)
        services.table_reopen(actor=event.director, table=one, reason="deal 3 was not played")
    game = Game.objects.get(pk=one.game_id)
    core.deal_undo(actor=event.director, game=game)
    game.refresh_from_db()
    assert game.status == "in_progress" and game.deal_count == 2
    assert selectors.finish_refusal(game) is None
    with event.capture(execute=True):
        table = services.table_confirm(actor=event.director, table=Table.objects.get(pk=one.pk))
    assert table.confirmed_by == event.director
    game.refresh_from_db()
    assert game.status == "finished" and game.deal_count == 2
