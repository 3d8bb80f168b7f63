"""What the game page shows of a game: the next deal's header, the scoresheet, the chart,
and the preview of a deal being entered. Plain data for the templates; no writes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules_engine import ScoredDeal

from .game_forms import DealEntry
from .games import page_for

MINUS = "\u2212"
#: Line colours of the chart (each at least 4.5:1 on white) and dash patterns, per seat.
SERIES_STYLES = (
    ("#14532d", ""),
    ("#0b57d0", "7 4"),
    ("#b3261e", "2 3"),
    ("#6b3fa0", "10 3 2 3"),
    ("#8a4b00", "4 2"),
    ("#0f5f5c", "1 2 6 2"),
)


def signed(value: object) -> str:
    """+3, −2, 0: a deal's score as a score pad writes it (a number, or one as text)."""
    text = number(value)
    return f"+{text}" if text[:1].isdigit() and text.strip("0.") else text


def number(value: object) -> str:
    """A total: −2 with a real minus sign (read as "minus" and as wide as a digit); also a
    number as text (e.g. after ``floatformat``)."""
    text = str(value)
    return f"{MINUS}{text[1:]}" if text.startswith("-") else text


def short_names(names: Sequence[str]) -> list[str]:
    """Column headings that fit six players on a 360 px screen: first names, cut short,
    with a last-name initial where two would read the same."""
    limit = {2: 12, 3: 9, 4: 7, 5: 5, 6: 4}.get(len(names), 4)

    def cut(text: str) -> str:
        return text if len(text) <= limit else text[: limit - 1] + "."

    firsts = [cut(name.split()[0]) if name.split() else name for name in names]
    shorts = []
    for name, first in zip(names, firsts, strict=True):
        if firsts.count(first) > 1 and len(name.split()) > 1:
            shorts.append(cut(f"{name.split()[0][: max(limit - 1, 1)]}{name.split()[-1][0]}"))
        else:
            shorts.append(first)
    # Still the same (e.g. two "Alexandra"s)? Fall back to a seat number.
    return [
        short if shorts.count(short) == 1 else f"{short[: max(limit - 1, 1)]}{seat + 1}"
        for seat, short in enumerate(shorts)
    ]


def deal_header(
    game_type: str,
    context: Mapping[str, Any],
    players: Sequence[str],
    options: Mapping[str, Any],
    scheduled: int | None,
) -> str:
    """ "Deal 7 of 21 · Bob deals · 5 cards · trumps turned", and the like for each game."""
    tail = deal_header_tail(game_type, context, players, options)
    return deal_header_with(context["number"], scheduled, tail)


def deal_header_with(number: int, last: int | None, tail: str) -> str:
    """ "Deal 7 of 21 · <tail>" (without "of" when the game's length is open)."""
    first = f"Deal {number} of {last}" if last else f"Deal {number}"
    return " · ".join(part for part in (first, tail) if part)


def deal_header_tail(
    game_type: str,
    context: Mapping[str, Any],
    players: Sequence[str],
    options: Mapping[str, Any],
    totals: Sequence[int] = (),
) -> str:
    """The header past the deal's number: "Bob deals · 5 cards · trumps turned", and a
    word on the ``totals`` before it where the game has one ("tied at 512: play on")."""
    page = page_for(game_type)
    parts = [f"{players[context['dealer']]} deals", *page.header(context, players, options)]
    standing = page.standing(totals, options) if totals else ""
    return " · ".join([*parts, standing] if standing else parts)


def game_end_text(game_type: str, options: Mapping[str, Any], scheduled: int | None) -> str:
    """How the game ends, in a few words."""
    return page_for(game_type).end_text(options, scheduled)


@dataclass
class Cell:
    score: str
    total: str
    dealt: bool = False
    figure: str = ""


@dataclass
class Row:
    number: int
    cells: list[Cell]
    note: str = ""
    #: The deal's figures in a line (per player, they are in the cells), shown on request.
    figure_line: str = ""


@dataclass
class Head:
    short: str
    name: str
    leader: bool
    total: str


@dataclass
class Sheet:
    heads: list[Head]
    rows: list[Row]
    totals: list[str]
    finished: bool
    #: What the figures under each score are ("" for a game without any).
    figures_key: str = ""


def scoresheet(payload: Mapping[str, Any]) -> Sheet:
    names = [seat["name"] for seat in payload["seats"]]
    page = page_for(payload["game_type"])
    rows = [
        Row(
            number=deal["number"],
            cells=[
                Cell(score=signed(score), total=number(total), dealt=seat == deal["dealer"])
                for seat, (score, total) in enumerate(
                    zip(deal["scores"], deal["totals"], strict=True)
                )
            ],
            note=page.note(deal, names),
        )
        for deal in payload["deals"]
    ]
    for row, deal in zip(rows, payload["deals"], strict=True):
        figures = page.figures(deal, names)
        if figures is not None:
            row.figure_line = figures.line
            for cell, figure in zip(row.cells, figures.cells, strict=False):
                cell.figure = figure
    totals = payload["totals"]
    if payload["finished"]:
        leaders = set(payload["winners"])
    elif payload["deals"] and payload["status"] != "abandoned":  # an abandoned game has no leader
        top = max(totals)
        leaders = {seat for seat, total in enumerate(totals) if total == top}
        if len(leaders) == len(totals):
            leaders = set()
    else:
        leaders = set()
    return Sheet(
        heads=[
            Head(short=short, name=name, leader=seat in leaders, total=number(totals[seat]))
            for seat, (short, name) in enumerate(zip(short_names(names), names, strict=True))
        ],
        rows=rows,
        totals=[number(total) for total in totals],
        finished=bool(payload["finished"]),
        figures_key=page.figures_key,
    )


# --- The chart of running totals ----------------------------------------------------------

#: At most this many labelled values on the y axis (they never overlap: see ``nice_ticks``).
MAX_TICKS = 5
#: Steps of the y axis: 1, 2, 2.5 or 5 times a power of ten (whole numbers only).
NICE_STEPS = (1, 2, 2.5, 5)
#: Marker shapes, per seat, so that lines are told apart without colour or dashes.
MARKERS = ("circle", "square", "triangle", "diamond", "triangle-down", "ring")
#: Markers on at most this many deals of a line (every deal of a short game).
MAX_MARKED = 12
LABEL_HEIGHT = 12.5  # between two end labels: 10 px type takes 12
CHAR_WIDTH = 6.2  # px per character of 10 px type, generously


@dataclass(frozen=True)
class Ticks:
    step: int
    values: tuple[int, ...]


def nice_ticks(low: int, high: int, most: int = MAX_TICKS, anchor: int = 0) -> Ticks:
    """The labelled values of a y axis from ``low`` to ``high`` (``anchor`` among them: 0
    for running totals, 1000 for ratings): the multiples of a "nice" step (1, 2, 2.5 or 5
    times a power of ten) in that range, at most ``most`` of them, so their labels are at
    least 1/``most`` of the axis apart."""
    low, high = min(low, anchor), max(high, anchor)
    magnitude = 1
    while True:
        for factor in NICE_STEPS:
            step = factor * magnitude
            if step != int(step):
                continue
            step = int(step)
            first = -(-low // step) * step  # the lowest multiple of step at or above low
            values = tuple(range(first, high + 1, step))
            if len(values) <= most:
                return Ticks(step, values)
        magnitude *= 10


#: Polygon markers: their corners, relative to the centre, in units of the marker's size.
_CORNERS = {
    "square": ((-0.9, -0.9), (0.9, -0.9), (0.9, 0.9), (-0.9, 0.9)),
    "triangle": ((0, -1.3), (1.2, 1), (-1.2, 1)),
    "triangle-down": ((0, 1.3), (1.2, -1), (-1.2, -1)),
    "diamond": ((0, -1.35), (1.35, 0), (0, 1.35), (-1.35, 0)),
}


def marker_path(shape: str, x: float, y: float, size: float = 3.2) -> str:
    """An SVG path of one marker centred on (x, y)."""
    if shape not in _CORNERS:  # circle, ring
        arc = f"a{size},{size} 0 1,0"
        return f"M{x - size:.1f},{y:.1f}{arc} {2 * size},0{arc} {-2 * size},0Z"
    corners = [f"{x + dx * size:.1f},{y + dy * size:.1f}" for dx, dy in _CORNERS[shape]]
    return "M" + "L".join(corners) + "Z"


def spread_labels(wanted: Sequence[float], top: float, bottom: float, gap: float) -> list[float]:
    """Label positions as near ``wanted`` as can be, at least ``gap`` apart, within
    [top, bottom] (when they all fit), in the order of ``wanted``."""
    order = sorted(range(len(wanted)), key=lambda i: (wanted[i], i))
    placed = [float(wanted[i]) for i in order]
    for k in range(len(placed)):  # push down
        floor = top if k == 0 else placed[k - 1] + gap
        placed[k] = max(placed[k], floor)
    for k in reversed(range(len(placed))):  # then back up from the bottom
        ceiling = bottom if k == len(placed) - 1 else placed[k + 1] - gap
        placed[k] = min(placed[k], ceiling)
    for k in range(len(placed)):  # too many to fit: the lowest run past the bottom
        placed[k] = max(placed[k], top if k == 0 else placed[k - 1] + gap)
    result = [0.0] * len(wanted)
    for k, i in enumerate(order):
        result[i] = round(placed[k], 1)
    return result


@dataclass
class Series:
    name: str
    colour: str
    dash: str
    points: str
    end_x: float
    end_y: float
    total: str
    marker: str = "circle"
    markers: str = ""  # one path: a marker on each marked deal
    legend_marker: str = ""
    label: str = ""
    label_y: float = 0.0

    @property
    def marker_fill(self) -> str:
        return "#ffffff" if self.marker == "ring" else self.colour


@dataclass
class Chart:
    width: int
    height: int
    left: int
    right: int
    series: list[Series]
    ticks: list[tuple[float, str]]
    zero_y: float
    x_labels: list[tuple[float, str]]
    description: str
    bottom: float = 0.0
    label_x: float = 0.0
    plot_right: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def chart(payload: Mapping[str, Any]) -> Chart | None:
    """Running totals as lines, from 0 before the first deal to the last deal."""
    deals = payload["deals"]
    if not deals:
        return None
    names = [seat["name"] for seat in payload["seats"]]
    runs = [[0] + [int(deal["totals"][seat]) for deal in deals] for seat in range(len(names))]
    standing = ", ".join(
        f"{name} {number(total)}" for name, total in zip(names, payload["totals"], strict=True)
    )
    low = min(0, *(min(run) for run in runs))
    high = max(0, *(max(run) for run in runs))
    description = (
        f"Running totals over {len(deals)} deal{'s' if len(deals) != 1 else ''}, "
        f"from {number(low)} to {number(high)}. After deal {len(deals)}: {standing}."
    )
    return line_chart(names, runs, description=description)


def line_chart(
    names: Sequence[str],
    runs: Sequence[Sequence[int]],
    *,
    description: str,
    baseline: int = 0,
    signed_ticks: bool = True,
) -> Chart:
    """Lines from a start value (index 0) to each run's end: a marker shape per line,
    its name at the line's end, a y axis of nice steps, and an axis line at ``baseline``
    (the game page: running totals from 0; the player page: ratings from 1000)."""
    label_of = number if signed_ticks else str
    labels = short_names(names)
    width, height = 320, 160
    left, top, bottom = 34, 8, 20
    right = int(10 + CHAR_WIDTH * max(len(label) for label in labels))
    steps = max(len(run) for run in runs) - 1 or 1
    low = min(baseline, *(min(run) for run in runs))
    high = max(baseline, *(max(run) for run in runs))
    if high == low:
        high = low + 1
    axis = nice_ticks(low, high, anchor=baseline)
    # Room on the left for the longest tick label (e.g. "1150" on a rating chart).
    left = max(left, int(8 + CHAR_WIDTH * max(len(label_of(v)) for v in axis.values)))
    span_x = (width - left - right) / steps
    span_y = (height - top - bottom) / (high - low)

    def x(i: int) -> float:
        return round(left + i * span_x, 1)

    def y(value: int) -> float:
        return round(top + (high - value) * span_y, 1)

    every = -(-steps // MAX_MARKED)
    label_ys = spread_labels(
        [y(run[-1]) for run in runs], top + 4, height - bottom - 2, LABEL_HEIGHT
    )
    series = []
    for seat, run in enumerate(runs):
        colour, dash = SERIES_STYLES[seat % len(SERIES_STYLES)]
        shape = MARKERS[seat % len(MARKERS)]
        last = len(run) - 1
        marked = sorted({*range(every, last + 1, every), last} - {0}) or [last]
        series.append(
            Series(
                name=names[seat],
                colour=colour,
                dash=dash,
                points=" ".join(f"{x(i)},{y(v)}" for i, v in enumerate(run)),
                end_x=x(last),
                end_y=y(run[-1]),
                total=label_of(run[-1]),
                marker=shape,
                markers="".join(marker_path(shape, x(i), y(run[i])) for i in marked),
                legend_marker=marker_path(shape, 15, 6, 3.6),
                label=labels[seat],
                label_y=label_ys[seat],
            )
        )
    ticks = [(y(value), label_of(value)) for value in axis.values]
    x_labels = [(x(1), "1")] if steps > 1 else []
    x_labels.append((x(steps), str(steps)))
    return Chart(
        width=width,
        height=height,
        left=left,
        right=right,
        series=series,
        ticks=ticks,
        zero_y=y(baseline),
        x_labels=x_labels,
        description=description,
        bottom=height - bottom,
        label_x=round(width - right + 5, 1),
        plot_right=width - right,
    )


# --- The preview of a deal being entered --------------------------------------------------


@dataclass
class PreviewLine:
    name: str
    score: str
    total: str


@dataclass
class Preview:
    lines: list[PreviewLine] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    message: str = ""
    error: str = ""


def preview_of(entry: DealEntry, scored: ScoredDeal) -> Preview:
    lines = [
        PreviewLine(name=name, score=signed(score), total=number(total))
        for name, score, total in zip(entry.players, scored.scores, scored.totals, strict=True)
    ]
    notes = []
    for name in sorted(entry.filled):
        seat = int(name.rsplit("-", 1)[1])
        notes.append(f"{entry.players[seat]}: {entry.values[name]} filled in from what is left.")
    notes[:0] = page_for(entry.game_type).preview_notes(entry, scored.context, scored.record)
    return Preview(lines=lines, notes=notes)


# --- A past deal, in words ----------------------------------------------------------------


def record_summary(game_type: str, record: Mapping[str, Any], players: Sequence[str]) -> list[str]:
    """A deal record as a few lines a player reads at the table."""
    return page_for(game_type).summary(record, players)
