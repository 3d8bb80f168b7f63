"""The game page's chart and scoresheet as plain data (no database): the y axis's ticks,
the lines' markers and end labels."""

from __future__ import annotations

import re
from typing import Any

import pytest

from scorekeeper.pages.game_sheet import (
    MARKERS,
    NICE_STEPS,
    chart,
    marker_path,
    nice_ticks,
    spread_labels,
)


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    [
        (0, 1, (0, 1)),
        (0, 4, (0, 1, 2, 3, 4)),
        (0, 7, (0, 2, 4, 6)),
        (-2, 71, (0, 20, 40, 60)),
        (-10, 6, (-10, -5, 0, 5)),
        (-3, 120, (0, 25, 50, 75, 100)),
        (-17, 23, (-10, 0, 10, 20)),
        (0, 560, (0, 200, 400)),
        (-1234, 987, (-1000, -500, 0, 500)),
    ],
)
def test_ticks_are_a_nice_step_at_most_five(low: int, high: int, ticks: tuple[int, ...]) -> None:
    assert nice_ticks(low, high).values == ticks


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    [(1000, 1188, (1000, 1050, 1100, 1150)), (940, 1040, (950, 975, 1000, 1025))],
)
def test_a_rating_axis_is_anchored_at_1000_not_0(
    low: int, high: int, ticks: tuple[int, ...]
) -> None:
    """A player's ratings from 940 to 1188: labels where the line is, not at 0 and 500."""
    assert nice_ticks(low, high, anchor=1000).values == ticks


@pytest.mark.parametrize("low", [0, -1, -2, -7, -13, -99, -250, -1001])
@pytest.mark.parametrize("high", [0, 1, 3, 9, 11, 18, 47, 71, 100, 499, 1500])
def test_ticks_never_crowd_the_axis(low: int, high: int) -> None:
    found = nice_ticks(low, high)
    assert 1 <= len(found.values) <= 5
    assert 0 in found.values
    assert all(min(low, 0) <= value <= max(high, 0) for value in found.values)
    mantissa = found.step / 10 ** (len(str(found.step)) - 1)
    assert mantissa in NICE_STEPS
    # Labels 10 px high on an axis of 132 px: never closer than 14 px.
    span = max(high - low, 1)
    assert found.step / span * 132 >= 14 or len(found.values) == 1


def test_end_labels_are_spread_apart_in_the_plot() -> None:
    wanted = [50.0, 51.0, 52.0, 120.0, 121.0, 10.0]
    placed = spread_labels(wanted, 12, 138, 11)
    ordered = sorted(placed)
    assert all(b - a >= 11 for a, b in zip(ordered, ordered[1:], strict=False))
    assert all(12 <= y <= 138 for y in placed)
    # Each stays near its line's end, in the same order.
    assert sorted(range(6), key=lambda i: placed[i]) == sorted(range(6), key=lambda i: wanted[i])
    assert spread_labels([40.0, 90.0], 12, 138, 11) == [40.0, 90.0]


def payload(totals: list[list[int]]) -> dict[str, Any]:
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"][: len(totals[0])]
    return {
        "seats": [{"name": name} for name in names],
        "deals": [{"totals": row} for row in totals],
        "totals": totals[-1],
    }


def test_each_line_has_its_own_marker_and_its_name_at_the_end() -> None:
    drawn = chart(payload([[1, 0, 0, -1, 2, 0], [2, 2, 2, 2, 2, 2], [3, 3, 3, 3, 3, 3]]))
    assert drawn is not None
    assert [s.marker for s in drawn.series] == list(MARKERS)
    assert len({s.markers for s in drawn.series}) == 6
    assert [s.label for s in drawn.series] == ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    # All end at 3: the labels are stacked apart, not on top of each other.
    ys = sorted(s.label_y for s in drawn.series)
    assert all(b - a >= 12 for a, b in zip(ys, ys[1:], strict=False))
    assert drawn.label_x >= drawn.plot_right
    assert [label for _, label in drawn.ticks] == ["\u22121", "0", "1", "2", "3"]


def test_a_long_game_marks_at_most_a_dozen_deals_per_line() -> None:
    drawn = chart(payload([[n, -n, 0] for n in range(1, 25)]))
    assert drawn is not None
    for series in drawn.series:
        assert 1 <= len(re.findall("M", series.markers)) <= 12
    assert marker_path("square", 10, 10).startswith("M7.1,7.1")


def test_every_game_of_the_engine_has_one_page_module() -> None:
    import rules_engine
    from scorekeeper.pages.games import PAGES

    assert set(PAGES) == set(rules_engine.GAMES)
    for key, page in PAGES.items():
        assert page.key == key and page.entry.game_type == key
        assert page.__class__.__module__ == f"scorekeeper.pages.games.{key}"
