"""Whatever the field, the plan is a valid seating."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.seating.helpers import assert_valid, repeats
from tournaments.seating import SeatingError, next_round, plan


@st.composite
def fields(draw):
    players = draw(st.integers(2, 40))
    k = draw(st.integers(2, min(6, players)))
    rounds = draw(st.integers(1, 8))
    mode = draw(st.sampled_from(["default", "byes", "sizes"]))
    kwargs: dict = {"table_size": k}
    byes = players % k
    sizes = [k] * ((players - byes) // k)
    if mode == "byes":
        extra = draw(st.integers(0, max(0, (players - byes) // k - 1)))
        byes += extra * k
        sizes = [k] * ((players - byes) // k)
        kwargs["byes"] = byes
    elif mode == "sizes" and players >= 4:
        sizes = []
        left = players
        while left >= 2:
            size = draw(st.integers(2, min(6, left)))
            if left - size == 1:
                size = left if left <= 6 else size - 1
            sizes.append(size)
            left -= size
        byes = left
        kwargs = {"sizes": sizes}
    method = draw(st.sampled_from(["new_opponents", "new_opponents", "random", "by_standings"]))
    seed = draw(st.integers(0, 2**31))
    return players, rounds, kwargs, sizes, byes, method, seed


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_every_plan_is_valid(field):
    players, rounds, kwargs, sizes, byes, method, seed = field
    standings = list(reversed(range(players))) if method == "by_standings" else None
    result = plan(
        players,
        rounds,
        method=method,
        standings=standings,
        seed=seed,
        time_limit=0.3,
        **kwargs,
    )
    assert len(result.rounds) == rounds
    assert_valid(result.rounds, range(players), sizes, byes)
    for rnd, out in zip(result.rounds, result.byes, strict=True):
        assert sorted(set(range(players)) - {p for t in rnd for p in t}) == out
    # byes rotate: nobody sits out twice before everyone has once
    counts = [0] * players
    for out in result.byes:
        for p in out:
            counts[p] += 1
        assert max(counts) - min(counts) <= 1
    assert result.repeats == repeats(result.rounds)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(6, 30),
    st.integers(2, 4),
    st.integers(1, 3),
    st.integers(0, 1000),
)
def test_next_round_is_valid_and_fresh_when_sparse(players, k, played, seed):
    history = plan(players, played, table_size=k, seed=seed, time_limit=0.3).rounds
    result = next_round(players, history, table_size=k, seed=seed, time_limit=0.3)
    byes = players % k
    assert_valid(result.rounds, range(players), [k] * ((players - byes) // k), byes)
    # few rounds of many players: everyone can meet only new players
    if (played + 1) * (k - 1) * 3 <= players - byes and k <= 3:
        assert repeats([*history, *result.rounds]) == 0


def test_bad_input_is_a_seating_error_not_a_crash():
    for bad in [None, "ten", 3.5, [1, "a"], True]:
        try:
            plan(bad, 2, table_size=3)  # type: ignore[arg-type]
        except SeatingError as error:
            assert error.field == "players"
        else:
            raise AssertionError(f"accepted players={bad!r}")
