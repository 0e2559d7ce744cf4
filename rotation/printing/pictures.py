"""The summary pictures as SVG: who meets whom (a square for each pair of players) and the repeats round by
round. The template templates/pictures.svg.j2 draws them; this module only places them: the scales, the
ticks, and the room the labels take.

SVG, not a raster: the desk shows it as an image, the print puts it inline (its text in the page's own font),
and nothing beyond Jinja2 is needed to draw it (matplotlib stays out of the app's install).
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass

import jinja2
import numpy as np

from models import Metrics, Schedule
from optimizer.checking import meetings as tallies
from rotation.printing.environment import environment

# Never met, met once, met twice, three times or more: white is "never", red draws the eye to repeats.
MEETING_COLOURS = ("#ffffff", "#9ecae1", "#fd8d3c", "#a50f15")
MEETING_WORDS = ("never", "once", "twice", "3+")
NAMED_UP_TO = 32  # players labelled by name on the matrix; bigger rooms get list numbers instead
LABEL_CHARS = 28  # characters of a name on the matrix's axes
MATRIX_SQUARES = 150  # squares a side at most: in bigger rooms a square stands for several players
SIDE = 480.0  # the matrix's side, in the picture's units (CSS pixels at its natural size)
TEXT = 11.0  # the font size of titles and axis words
SMALL = 10.0  # the font size of ticks


def meetings(schedule: Schedule, per_square: int = 1) -> np.ndarray:
    """How many rounds each pair of players shares a table, indexed in the schedule's player order; with
    `per_square` players to a square (big rooms), the most meetings of any pair of the two squares.
    Counted from the pairs that met (optimizer.checking.meetings), never a players x players array of the room."""
    day = tallies.seated(schedule)
    met, n = tallies.pairs(day), day.player_count
    first, second = np.divmod(met.codes, n)
    squares = -(-n // per_square)
    counts = np.zeros((squares, squares), dtype=np.int64)
    for a, b in ((first, second), (second, first)):
        np.maximum.at(counts, (a // per_square, b // per_square), met.counts)
    return counts


def label(name: str) -> str:
    """A name as the picture's axis shows it: cut to LABEL_CHARS (with an ellipsis), so one long name
    cannot make the picture huge; the order of the list tells two cut names apart."""
    return name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1] + "\u2026"


def players_per_square(players: int) -> int:
    """Players drawn as one square of the matrix: one each up to MATRIX_SQUARES, then as many as keep the
    picture at most MATRIX_SQUARES squares a side (what a page can show)."""
    return max(1, -(-players // MATRIX_SQUARES))


def text_width(text: str, size: float) -> float:
    """A generous estimate of the width `text` takes at font `size`: 0.62 em a character (wider than the
    average Latin letter in a sans-serif), a whole em for the wide East Asian ones. The picture only
    needs it to leave room for its labels, never to fit them tightly."""
    return size * sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.62 for c in text)


@dataclass(frozen=True)
class Tick:
    at: float  # along the axis, from its start
    text: str


@dataclass(frozen=True)
class Matrix:
    """Who meets whom, placed: `cells` are (x, y, width, colour) runs of equal squares along a row."""

    width: float
    height: float
    left: float
    top: float
    side: float
    square: float
    title: str
    note: str
    ticks: tuple[Tick, ...]
    tick_size: float
    upright: bool  # the x axis's tick labels stand up (names, four-digit numbers)
    axis_words: str
    grid: bool
    cells: tuple[tuple[float, float, float, str], ...]
    legend: tuple[tuple[str, str], ...] = tuple(zip(MEETING_COLOURS, MEETING_WORDS))
    kind: str = "matrix"


@dataclass(frozen=True)
class Bars:
    """Repeats per round, placed: `bars` are (x, y, height, value) with a common width."""

    width: float
    height: float
    left: float
    top: float
    plot_width: float
    plot_height: float
    title: str
    bar_width: float
    bars: tuple[tuple[float, float, float, int], ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    values: bool  # each bar's count written above it (rooms of few rounds)
    empty: bool
    kind: str = "bars"


def matrix(schedule: Schedule) -> Matrix:
    """The matrix of who meets whom: names on the axes up to NAMED_UP_TO players, list numbers beyond."""
    players = len(schedule.players)
    per_square = players_per_square(players)
    counts = np.minimum(meetings(schedule, per_square), len(MEETING_COLOURS) - 1)
    square = SIDE / max(1, counts.shape[0])
    unit = SIDE / max(1, counts.shape[0] * per_square)  # one player along an axis
    if players <= NAMED_UP_TO:
        size = min(SMALL, 0.8 * square)
        texts = [label(name) for name in schedule.players]
        ticks = tuple(Tick((i + 0.5) * unit, text) for i, text in enumerate(texts))
        upright, words = True, ""
    else:
        size, step = SMALL, nice_step(players, 12)
        every = [0] + [t - 1 for t in range(step, players + 1, step)]
        ticks = tuple(Tick((i + 0.5) * unit, str(i + 1)) for i in dict.fromkeys(every))
        upright, words = players >= 1000, "player, numbered in list order"
    widest = max((text_width(t.text, size) for t in ticks), default=0.0)
    room = (widest if upright else size) + 6  # under the matrix: standing labels take their length
    axis = 2 * TEXT if words else 0.0
    note = "" if per_square == 1 else f"{per_square} players a square: the most meetings of any pair"
    top = TEXT + 10 + (SMALL + 4 if note else 0)
    left = widest + 6 + axis
    legend = 16 + 14 + 6 + max(text_width(w, SMALL) for w in MEETING_WORDS)
    return Matrix(
        width=left + SIDE + legend + 4,
        height=top + SIDE + room + axis + 4,
        left=left,
        top=top,
        side=SIDE,
        square=square,
        title="Who meets whom",
        note=note,
        ticks=ticks,
        tick_size=size,
        upright=upright,
        axis_words=words,
        grid=players <= NAMED_UP_TO,
        cells=_runs(counts, square),
    )


def nice_step(span: int, most: int) -> int:
    """The smallest step of 1, 2 or 5 times a power of ten that cuts `span` into at most `most` steps: where
    an axis writes its numbers."""
    return next(s * 10**e for e in range(19) for s in (1, 2, 5) if span <= most * s * 10**e)


def _runs(counts: np.ndarray, square: float) -> tuple[tuple[float, float, float, str], ...]:
    """Each row's squares merged into runs of one colour, "never" left out (the background is white):
    a room of many players draws thousands of rectangles, not its squares' millions."""
    runs = []
    for row, values in enumerate(counts.tolist()):
        start = 0
        for column in range(1, len(values) + 1):
            if column == len(values) or values[column] != values[start]:
                if values[start]:
                    width = (column - start) * square
                    runs.append((start * square, row * square, width, MEETING_COLOURS[values[start]]))
                start = column
    return tuple(runs)


def bars(metrics: Metrics) -> Bars:
    """The repeats of each round as bars, the y axis in whole numbers from zero."""
    values = list(metrics.repeats_by_round)
    rounds = max(1, len(values))
    most = max(1, max(values, default=0))
    step = nice_step(most, 5)
    ceiling = step * math.ceil(most / step)
    left, top, plot_width, plot_height = 3 * TEXT + text_width(str(ceiling), SMALL), TEXT + 22, 560.0, 180.0
    slot = plot_width / rounds
    scale = plot_height / ceiling
    drawn = tuple(((r + 0.15) * slot, plot_height - v * scale, v * scale, v) for r, v in enumerate(values))
    every = nice_step(rounds, 24)
    x_ticks = tuple(Tick((r + 0.5) * slot, str(r + 1)) for r in range(rounds) if (r + 1) % every == 0 or r == 0)
    y_ticks = tuple(Tick(plot_height - v * scale, str(v)) for v in range(0, ceiling + 1, step))
    return Bars(
        width=left + plot_width + 8,
        height=top + plot_height + SMALL + 2 * TEXT + 10,
        left=left,
        top=top,
        plot_width=plot_width,
        plot_height=plot_height,
        title=f"Repeats per round (total {metrics.repeats})",
        bar_width=0.7 * slot,
        bars=drawn,
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        values=rounds <= 24,
        empty=not metrics.repeats,
    )


def meetings_svg(schedule: Schedule) -> str:
    """The matrix alone: the summary page's and the desk's Compare page's."""
    return _svg([matrix(schedule)], "Who meets whom: a square for each pair of players")


def repeats_svg(metrics: Metrics) -> str:
    """The bars alone, wide and low, under the matrix on the summary page."""
    return _svg([bars(metrics)], "Repeats per round")


def summary_svg(schedule: Schedule, metrics: Metrics) -> str:
    """The matrix beside the bars, one picture (`rotation print --svg`)."""
    return _svg([matrix(schedule), bars(metrics)], "Who meets whom, and the repeats per round")


def _svg(parts: list[Matrix | Bars], words: str) -> str:
    gap = 24.0
    width = sum(p.width for p in parts) + gap * (len(parts) - 1)
    height = max(p.height for p in parts)
    placed, x = [], 0.0
    for part in parts:
        placed.append((x, (height - part.height) / 2, part))
        x += part.width + gap
    return _template().render(width=width, height=height, parts=placed, words=words)


def _template() -> jinja2.Template:
    return environment().get_template("pictures.svg.j2")
