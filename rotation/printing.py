"""The printed pages: a wall chart per round, player slips to cut out, and a summary page.

Everything the page needs is worked out here in millimetres and handed to one jinja2 template, so the
template stays a layout and every size that decides the page count can be tested without a browser.
"""

from __future__ import annotations

import base64
import math
import re
import warnings
from dataclasses import dataclass
from functools import lru_cache

import jinja2
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath

import optimizer
from models import SEAT_LETTERS, Bound, Event, Metrics, Schedule, SitOutScoring
from rotation.output import metrics_text
from rotation.pictures import meetings_png, repeats_png

# The printable area of both A4 and Letter with 12 mm margins is at least 186 x 255 mm; every page is
# laid out inside a slightly smaller box so either paper prints one section per sheet.
PAGE_WIDTH_MM = 184.0
PAGE_HEIGHT_MM = 250.0
_GAP_MM = 4.0
_HEADING_MM = 30.0  # "Round 3" and the rule under it
_NOTES_MM = 30.0  # sit-outs and absences under the tables

SIT_OUT_MARK = {
    SitOutScoring.ZERO: "sits out - scores zero",
    SitOutScoring.AVERAGE: "sits out - scores the round's average",
}

# (most rounds, columns, rows): slips per sheet, fewer and taller as the day gets longer.
_SLIP_GRIDS = ((8, 2, 4), (18, 2, 2), (40, 2, 1), (math.inf, 1, 1))


@dataclass(frozen=True)
class Seat:
    letter: str
    name: str


@dataclass(frozen=True)
class TableCard:
    number: int
    seats: tuple[Seat, ...]
    number_mm: float  # font size of the table number, to be read across the room
    name_mm: float  # font size of the names, shrunk so the longest fits on one line

    @property
    def three_handed(self) -> bool:
        return len(self.seats) == 3


@dataclass(frozen=True)
class WallChart:
    number: int
    tables: tuple[TableCard, ...]
    columns: int
    row_mm: float
    notes: tuple[str, ...]  # sit-outs with their scoring, and who is not here
    notes_mm: float


@dataclass(frozen=True)
class SlipLine:
    round: int
    table: int | None  # None when the player is not at a table this round
    seat: str
    note: str  # "three-handed", the sit-out mark, or "not here"


@dataclass(frozen=True)
class Slip:
    name: str
    name_mm: float
    lines: tuple[SlipLine, ...]


@dataclass(frozen=True)
class SlipSheet:
    slips: tuple[Slip, ...]
    columns: int
    rows: int
    line_mm: float


@dataclass(frozen=True)
class Comparison:
    """The fixed MJMP rule and the lower bound on the same room, or why they do not apply."""

    fixed_repeats: int | None
    bound: Bound | None
    skipped: str = ""


# ---- measuring names -------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def width_em(text: str, bold: bool = False) -> float:
    """Width of `text` in DejaVu Sans, in ems: the widest common print font, so others fit too."""
    font = FontProperties(family="DejaVu Sans", size=1, weight="bold" if bold else "normal")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a glyph DejaVu lacks still gets a width; the browser falls back
        width, _, _ = TextToPath().get_text_width_height_descent(text, font, ismath=False)
    return max(width, 0.5)


def fit_mm(texts, room_mm: float, largest_mm: float, bold: bool = False, extra_em: float = 0.0) -> float:
    """The biggest font size, up to `largest_mm`, at which every text fits `room_mm` on one line.

    `extra_em` is what shares the line (a seat letter's column); 5% is left spare because browsers
    round glyph widths differently from matplotlib.
    """
    widest = max((width_em(t, bold) for t in texts), default=1.0) + extra_em
    return round(min(largest_mm, 0.95 * room_mm / widest), 2)


# ---- wall charts -----------------------------------------------------------------------------


def wall_chart(schedule: Schedule, index: int) -> WallChart:
    round_ = schedule.rounds[index]
    tables = sorted(round_.tables, key=lambda t: t.table)
    columns = _columns(len(tables))
    rows = math.ceil(len(tables) / columns) if tables else 1
    notes = _notes(schedule, index, SIT_OUT_MARK[schedule.sit_out_scoring])
    area_mm = PAGE_HEIGHT_MM - _HEADING_MM - (_NOTES_MM + _GAP_MM if notes else 0.0)
    row_mm = round((area_mm - _GAP_MM * (rows - 1)) / rows, 2)
    card_mm = (PAGE_WIDTH_MM - _GAP_MM * (columns - 1)) / columns
    cards = tuple(_card(table, card_mm, row_mm) for table in tables)
    return WallChart(index + 1, cards, columns, row_mm, notes, _notes_mm(notes))


def _notes(schedule: Schedule, index: int, mark: str) -> tuple[str, ...]:
    """The lines under the tables: each sit-out with its scoring, then who is not here."""
    lines = tuple(f"{name} {mark}" for name in schedule.rounds[index].sit_outs)
    here = set(schedule.expected(index))
    away = [name for name in schedule.players if name not in here]
    if away:
        lines += (f"Not here this round: {', '.join(away)}",)
    return lines


def _notes_mm(lines: tuple[str, ...]) -> float:
    """Big enough to read from a few steps away, small enough that a long list stays on the sheet."""
    size = 7.0
    while size > 2.5:
        wrapped = sum(math.ceil(0.95 * width_em(line, bold=True) * size / PAGE_WIDTH_MM) for line in lines)
        if wrapped * size * 1.35 <= _NOTES_MM - 3.0:
            break
        size -= 0.25
    return size


def _columns(tables: int) -> int:
    """Few tables get wide cards with huge numbers; a big room still fits on one sheet."""
    for most, columns in ((2, 1), (6, 2), (12, 3), (20, 4), (30, 5)):
        if tables <= most:
            return columns
    return 6


def _card(table, width_mm: float, height_mm: float) -> TableCard:
    seats = tuple(Seat(SEAT_LETTERS[s], name) for s, name in enumerate(table.players))
    # The number takes about a third of the card; four seat lines (line height 1.45) share the rest.
    number_mm = round(min(0.30 * height_mm, 0.35 * width_mm), 2)
    by_height = (height_mm - 5.0 - 1.05 * number_mm) / (4 * 1.45)
    # 7 mm of padding and border; the seat letter's column is 1.6 em wide.
    name_mm = fit_mm([s.name for s in seats], width_mm - 7.0, by_height, extra_em=1.6)
    return TableCard(table.table, seats, number_mm, name_mm)


# ---- slips -----------------------------------------------------------------------------------


def slip_grid(rounds: int) -> tuple[int, int]:
    """(columns, rows) of slips on one sheet for a day of `rounds` rounds."""
    for most, columns, rows in _SLIP_GRIDS:
        if rounds <= most:
            return columns, rows
    raise AssertionError("unreachable: the last grid takes any number of rounds")


def slips_per_sheet(rounds: int) -> int:
    columns, rows = slip_grid(rounds)
    return columns * rows


def slip_sheets(schedule: Schedule) -> list[SlipSheet]:
    columns, rows = slip_grid(len(schedule.rounds))
    width_mm = PAGE_WIDTH_MM / columns - 8.5  # less the slip's padding and cut line
    height_mm = PAGE_HEIGHT_MM / rows - 8.0 - 14.0  # less padding and the name line
    slips = [_slip(schedule, name, width_mm) for name in schedule.players]
    # A table row is about 1.6 em tall; the heading is one more row, and a sit-out mark may wrap to two.
    rows_needed = len(schedule.rounds) + 1 + max(sum(line.table is None for line in s.lines) for s in slips)
    line_mm = round(min(5.0, height_mm / rows_needed / 1.6), 2)
    per = columns * rows
    return [SlipSheet(tuple(slips[i : i + per]), columns, rows, line_mm) for i in range(0, len(slips), per)]


def _slip(schedule: Schedule, name: str, width_mm: float) -> Slip:
    lines = tuple(_slip_line(schedule, r, name) for r in range(len(schedule.rounds)))
    return Slip(name, _slip_name_mm(name, width_mm), lines)


def _slip_name_mm(name: str, width_mm: float) -> float:
    """One line up to 7 mm; a name too long for 4.5 mm gets two lines instead of shrinking away."""
    one_line = fit_mm([name], width_mm, 7.0, bold=True)
    if one_line >= 4.5:
        return one_line
    # Two lines break at spaces, not at the exact middle, so count on 80% of the double width.
    return max(2.5, fit_mm([name], 1.6 * width_mm, 4.5, bold=True))


def _slip_line(schedule: Schedule, index: int, name: str) -> SlipLine:
    round_ = schedule.rounds[index]
    for table in round_.tables:
        if name in table.players:
            note = "three-handed" if len(table.players) == 3 else ""
            return SlipLine(index + 1, table.table, SEAT_LETTERS[table.players.index(name)], note)
    if name in round_.sit_outs:
        return SlipLine(index + 1, None, "", SIT_OUT_MARK[schedule.sit_out_scoring])
    return SlipLine(index + 1, None, "", "not here")


# ---- summary ---------------------------------------------------------------------------------


def compare(schedule: Schedule) -> Comparison:
    """Repeats of the fixed rule on the same room, and the lower bound, for the summary page."""
    if schedule.arrivals or schedule.departures or any(round_.absent for round_ in schedule.rounds):
        # A re-planned day has a different room each round; neither figure is about that day.
        return Comparison(None, None, "players came and went during the day, so the full room's "
                          "fixed rotation and lower bound do not describe this schedule")
    try:
        event = Event(players=schedule.players, rounds=len(schedule.rounds), odd=schedule.odd,
                      sit_out_scoring=schedule.sit_out_scoring)
        fixed = optimizer.check(optimizer.fixed_schedule(event))
    except (ValueError, optimizer.InvalidSchedule) as error:
        return Comparison(None, None, f"the fixed rule cannot seat this room: {error}")
    return Comparison(fixed.repeats, optimizer.lower_bound(event))


def expected_pages(schedule: Schedule) -> int:
    """Printed sheets: one per round, the slips, and one summary page."""
    return len(schedule.rounds) + math.ceil(len(schedule.players) / slips_per_sheet(len(schedule.rounds))) + 1


# ---- the page --------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    # autoescape=True for every template: names come from the director's file and must never be markup.
    return jinja2.Environment(
        loader=jinja2.PackageLoader("rotation", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _lines(metrics: Metrics) -> list[str]:
    """The checker's report, one figure per bullet (the text report separates some by spaces).

    Total repeats are left out: the table at the top of the summary already gives them.
    """
    parts = [part.strip() for part in re.split(r"\n| {3,}", metrics_text(metrics))]
    return [part[0].upper() + part[1:] for part in parts if part and not part.startswith("Repeats (E)")]


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def render_page(schedule: Schedule, metrics: Metrics, comparison: Comparison) -> str:
    """The whole printable page as one self-contained HTML document."""
    return _environment().get_template("print.html.j2").render(
        title=f"Seating: {len(schedule.players)} players, {len(schedule.rounds)} rounds",
        schedule=schedule,
        rounds=[wall_chart(schedule, r) for r in range(len(schedule.rounds))],
        round_count=len(schedule.rounds),
        sheets=slip_sheets(schedule),
        metrics=metrics,
        metrics_lines=_lines(metrics),
        comparison=comparison,
        meetings_picture=_data_uri(meetings_png(schedule)),
        repeats_picture=_data_uri(repeats_png(metrics)),
        page_width=PAGE_WIDTH_MM,
        page_height=PAGE_HEIGHT_MM,
    )
