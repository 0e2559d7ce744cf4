"""Pictures for the summary page: who meets whom, and repeats round by round, as PNG bytes.

Figures are built on matplotlib's Agg canvas directly (no pyplot), so nothing global changes and no
display is needed on a director's laptop or in CI.
"""

from __future__ import annotations

import io
import math

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import BoundaryNorm, ListedColormap
from matplotlib.figure import Figure

from models import Metrics, Schedule
from optimizer import meetings as tallies

# Never met, met once, met twice, three times or more: white is "never", red draws the eye to repeats.
_MEETING_COLOURS = ["#ffffff", "#9ecae1", "#fd8d3c", "#a50f15"]
NAMED_UP_TO = 32  # players labelled by name on the matrix; bigger rooms get list numbers instead
LABEL_CHARS = 28  # characters of a name on the matrix's axes
MATRIX_PLAYERS = 2000  # squares a side at most: in bigger rooms a square stands for several players


def meetings(schedule: Schedule, per_square: int = 1) -> np.ndarray:
    """How many rounds each pair of players shares a table, indexed in the schedule's player order; with
    `per_square` players to a square (big rooms), the most meetings of any pair of the two squares.
    Counted from the pairs that met (optimizer.meetings), never a players x players array of the room."""
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
    cannot make the picture huge or slow; the order of the list tells two cut names apart."""
    return name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1] + "\u2026"


def players_per_square(players: int) -> int:
    """Players drawn as one square of the matrix: one each up to MATRIX_PLAYERS, then as many as keep
    the picture at most MATRIX_PLAYERS squares a side (what a page can show)."""
    return max(1, -(-players // MATRIX_PLAYERS))


def summary_png(schedule: Schedule, metrics: Metrics) -> bytes:
    """The meetings matrix beside the repeats-per-round bars, as one PNG (`--png`)."""
    figure = Figure(figsize=(10, 5.2), dpi=150, layout="constrained")
    matrix_axes, bars_axes = figure.subplots(1, 2, width_ratios=[1.25, 1])
    _draw_meetings(matrix_axes, schedule)
    _draw_repeats(bars_axes, metrics)
    return _png(figure)


def meetings_png(schedule: Schedule) -> bytes:
    """The matrix alone, nearly square, for the summary page where it gets most of a sheet."""
    figure = Figure(figsize=(6.4, 5.6), dpi=150, layout="constrained")
    _draw_meetings(figure.subplots(), schedule)
    return _png(figure)


def repeats_png(metrics: Metrics) -> bytes:
    """The bars alone, wide and low, to sit under the matrix on the summary page."""
    figure = Figure(figsize=(8, 2.2), dpi=150, layout="constrained")
    _draw_repeats(figure.subplots(), metrics)
    return _png(figure)


def _draw_meetings(axes, schedule: Schedule) -> None:
    players = len(schedule.players)
    per_square = players_per_square(players)
    counts = meetings(schedule, per_square)
    top = len(_MEETING_COLOURS) - 1
    colours = ListedColormap(_MEETING_COLOURS)
    norm = BoundaryNorm(np.arange(-0.5, top + 1), colours.N)
    # In player units whatever the squares: the ticks below name players, not squares.
    edge = counts.shape[0] * per_square - 0.5
    image = axes.imshow(
        np.minimum(counts, top), cmap=colours, norm=norm, interpolation="nearest", extent=(-0.5, edge, edge, -0.5)
    )
    bar = axes.figure.colorbar(image, ax=axes, ticks=range(top + 1), shrink=0.8)
    bar.ax.set_yticklabels(["never", "once", "twice", f"{top}+"])
    if players <= NAMED_UP_TO:
        labels = [label(name) for name in schedule.players]
        ticks = range(players)
        size = max(5.0, min(9.0, 200 / max(players, 1)))
        # parse_math=False: a name with two '$' must print as typed, not as a formula.
        axes.set_xticks(ticks, labels, rotation=90, fontsize=size, parse_math=False)
        axes.set_yticks(ticks, labels, fontsize=size, parse_math=False)
    else:
        # Names this small cannot be read: number the players in list order, every few.
        step = next((s for s in (5, 10, 20, 25, 50, 100) if players / s <= 20), 100 * math.ceil(players / 2000))
        every = [t - 1 for t in range(step, players + 1, step)]
        upright = 90 if players >= 1000 else 0  # four digits and more touch their neighbours lying down
        axes.set_xticks([0] + every, [1] + [t + 1 for t in every], fontsize=8, rotation=upright)
        axes.set_yticks([0] + every, [1] + [t + 1 for t in every], fontsize=8)
        axes.set_xlabel("player, numbered in list order")
        axes.set_ylabel("player, numbered in list order")
    axes.set_title(
        "Who meets whom" if per_square == 1 else f"Who meets whom ({per_square} players a square: the most of any pair)"
    )


def _draw_repeats(axes, metrics: Metrics) -> None:
    rounds = np.arange(1, len(metrics.repeats_by_round) + 1)
    axes.bar(rounds, metrics.repeats_by_round, color="#a50f15")
    if not metrics.repeats:
        axes.text(0.5, 0.5, "no repeats in any round", transform=axes.transAxes, ha="center", va="center")
    axes.set_xticks(rounds)
    axes.set_xlabel("round")
    axes.set_ylabel("pairs who had met before")
    axes.set_title(f"Repeats per round (total {metrics.repeats})")
    # Whole numbers only; a round with no repeats still shows an axis from zero to one.
    axes.set_ylim(0, max(1, max(metrics.repeats_by_round, default=0)) * 1.15)
    axes.yaxis.get_major_locator().set_params(integer=True)


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    FigureCanvasAgg(figure)  # Agg, whatever backend the user's matplotlib is configured for
    # A tight box keeps the rotated names under the matrix from being cut at the bottom edge.
    figure.savefig(buffer, format="png", bbox_inches="tight", pad_inches=0.08)
    return buffer.getvalue()
