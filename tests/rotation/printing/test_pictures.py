"""The summary pictures (rotation.printing.pictures): the who-meets-whom counts against a count from names, and
the SVG read back as XML: its squares rebuild those counts, its bars are the repeats of each round, its labels
name every player (or number them), a name is text and never markup, and no matplotlib is needed."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import optimizer
from models import Event
from rotation.printing.pictures import (
    LABEL_CHARS,
    MATRIX_SQUARES,
    MEETING_COLOURS,
    label,
    meetings,
    meetings_svg,
    nice_step,
    players_per_square,
    repeats_svg,
    summary_svg,
)
from seatings import schedules

SVG = "{http://www.w3.org/2000/svg}"
NUMBER = r"-?[0-9.]+"


def named_counts(schedule) -> np.ndarray:
    index = {name: i for i, name in enumerate(schedule.players)}
    counts = np.zeros((len(index), len(index)), dtype=np.int64)
    for round_ in schedule.rounds:
        for table in round_.tables:
            for a, b in combinations(table.players, 2):
                counts[index[a], index[b]] += 1
                counts[index[b], index[a]] += 1
    return counts


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def drawn_matrix(svg: str) -> np.ndarray:
    """The matrix as the picture colours it, read back from its rectangles (white where none is drawn)."""
    plot = parsed(svg).find(f".//{SVG}rect[@class='plot']")
    group = next(g for g in parsed(svg).iter(f"{SVG}g") if g.find(f"{SVG}rect[@class='plot']") is not None)
    side = float(plot.get("width"))
    cells = [r for r in group.findall(f"{SVG}rect") if r.get("fill") in MEETING_COLOURS[1:]]
    square = float(cells[0].get("height")) if cells else side
    n = round(side / square)
    shown = np.zeros((n, n), dtype=np.int64)
    for cell in cells:
        row, column = round(float(cell.get("y")) / square), round(float(cell.get("x")) / square)
        shown[row, column : column + round(float(cell.get("width")) / square)] = MEETING_COLOURS.index(cell.get("fill"))
    return shown


def texts(svg: str, kind: str) -> list[str]:
    return [t.text or "" for t in parsed(svg).iter(f"{SVG}text") if t.get("class") == kind]


@given(schedules(), st.integers(1, 7))
def test_a_square_shows_the_most_meetings_of_any_pair_in_it(schedule, per_square):
    counts = named_counts(schedule)
    squares = -(-len(counts) // per_square)
    padded = np.zeros((squares * per_square,) * 2, dtype=np.int64)
    padded[: len(counts), : len(counts)] = counts
    most = padded.reshape(squares, per_square, squares, per_square).max(axis=(1, 3))
    assert (meetings(schedule, per_square) == most).all()
    assert (meetings(schedule) == counts).all()


@settings(max_examples=40, deadline=None)
@given(schedules())
def test_the_pictures_squares_are_the_meetings_of_each_pair(schedule):
    shown = drawn_matrix(meetings_svg(schedule))
    counts = np.minimum(named_counts(schedule), len(MEETING_COLOURS) - 1)
    if counts.any():
        assert (shown == counts).all()


def test_squares_stand_for_several_players_only_past_the_matrix_size():
    assert players_per_square(MATRIX_SQUARES) == 1
    assert players_per_square(MATRIX_SQUARES + 1) == 2
    assert -(-20_000 // players_per_square(20_000)) <= MATRIX_SQUARES


def test_a_room_past_the_matrix_size_is_drawn_a_square_for_several_players():
    schedule = optimizer.fixed_schedule(Event.with_count(MATRIX_SQUARES * 3 + 40, 2))
    svg = summary_svg(schedule, optimizer.check(schedule))
    per_square = players_per_square(len(schedule.players))
    assert per_square == 4 and f"{per_square} players a square" in " ".join(texts(svg, "note"))
    assert (drawn_matrix(svg) == np.minimum(meetings(schedule, per_square), 3)).all()
    assert len(svg) < 400_000  # runs of one colour, not a rectangle a square


def test_every_player_is_named_on_both_axes_up_to_32_and_numbered_beyond():
    small = optimizer.fixed_schedule(Event.with_count(12, 4))
    svg = meetings_svg(small)
    assert texts(svg, "tick y") == texts(svg, "tick x") == list(small.players)
    big = optimizer.fixed_schedule(Event.with_count(200, 3))
    numbers = texts(meetings_svg(big), "tick x")
    assert numbers == ["1"] + [str(n) for n in range(20, 201, 20)]
    assert texts(meetings_svg(big), "axis y") == ["player, numbered in list order"]


def test_a_name_is_text_on_the_picture_never_markup():
    hostile = "<script>alert(1)</script>&Co"
    day = optimizer.fixed_schedule(Event(players=(hostile, *[f"P{i}" for i in range(7)]), rounds=2))
    svg = meetings_svg(day)
    assert "<script" not in svg and parsed(svg).find(f".//{SVG}script") is None
    assert hostile in texts(svg, "tick y")
    long = "A" * 40
    day = optimizer.fixed_schedule(Event(players=(long, *[f"P{i}" for i in range(7)]), rounds=2))
    assert label(long) in texts(meetings_svg(day), "tick x") and len(label(long)) == LABEL_CHARS


def test_a_long_name_widens_the_margin_so_it_stays_inside_the_picture():
    short = optimizer.fixed_schedule(Event(players=tuple(f"P{i}" for i in range(8)), rounds=2))
    long = optimizer.fixed_schedule(Event(players=("W" * 28, *[f"P{i}" for i in range(7)]), rounds=2))
    width = [float(parsed(meetings_svg(day)).get("width")) for day in (short, long)]
    assert width[1] - width[0] > 28 * 5  # at least half an em a letter more for the longest label


def test_the_bars_are_the_repeats_of_each_round():
    schedule = optimizer.fixed_schedule(Event.with_count(12, 6))
    metrics = optimizer.check(schedule)
    svg = repeats_svg(metrics)
    bars = [r for r in parsed(svg).iter(f"{SVG}rect") if r.get("fill") == "#a50f15"]
    assert len(bars) == len(metrics.repeats_by_round) and metrics.repeats > 0
    heights = [float(r.get("height")) for r in bars]
    most = max(metrics.repeats_by_round)
    for height, value in zip(heights, metrics.repeats_by_round):
        assert abs(height / max(heights) - value / most) < 0.01
    assert texts(svg, "value") == [str(v) for v in metrics.repeats_by_round if v]
    assert texts(svg, "tick x") == [str(r) for r in range(1, 7)]
    assert f"(total {metrics.repeats})" in texts(svg, "title")[0]
    ticks = [int(t) for t in texts(svg, "tick y")]
    assert ticks[0] == 0 and ticks[-1] >= most and len(ticks) <= 6
    # Each bar's top stands where the y axis writes its value.
    at = {int(t.text): float(t.get("y")) for t in parsed(svg).iter(f"{SVG}text") if t.get("class") == "tick y"}
    per_pair = (at[0] - at[ticks[-1]]) / ticks[-1]
    for bar, value in zip(bars, metrics.repeats_by_round):
        assert abs(float(bar.get("y")) + float(bar.get("height")) - at[0]) < 0.01
        assert abs(float(bar.get("height")) - value * per_pair) < 0.01


def test_no_repeats_says_so_on_the_bars():
    schedule = optimizer.fixed_schedule(Event.with_count(16, 1))
    svg = repeats_svg(optimizer.check(schedule))
    assert texts(svg, "empty") == ["no repeats in any round"] and texts(svg, "tick y") == ["0", "1"]


def test_axis_numbers_are_one_two_or_five_times_a_power_of_ten():
    assert [nice_step(n, 12) for n in (12, 13, 33, 200, 2400, 20_000)] == [1, 2, 5, 20, 200, 2000]
    assert [nice_step(n, 5) for n in (1, 5, 6, 18, 30)] == [1, 1, 2, 5, 10]


def test_the_numbers_in_the_svg_are_short():
    schedule = optimizer.fixed_schedule(Event.with_count(24, 5))
    svg = summary_svg(schedule, optimizer.check(schedule))
    assert not re.search(r"[0-9]\.[0-9]{3}", svg)  # two decimals at most: the file stays small


@pytest.mark.subprocess
def test_the_pictures_need_no_matplotlib():
    """In a fresh interpreter where matplotlib cannot be imported, the pictures and the printed page draw."""
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "import optimizer; from models import Event\n"
        "from rotation.printing.pages import render_page\n"
        "s = optimizer.fixed_schedule(Event.with_count(12, 4))\n"
        "page = render_page(s, optimizer.check(s), optimizer.compare(s))\n"
        "assert page.count('<svg') >= 2 and 'Who meets whom' in page\n"
        "assert not any(m.startswith('matplotlib') for m in sys.modules if sys.modules[m] is not None)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
