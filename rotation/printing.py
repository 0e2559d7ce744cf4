"""The printed pages: wall charts, find-your-table lists, player slips, table score sheets, a summary.

Everything the page needs is worked out here in millimetres and handed to one jinja2 template, so the
template stays a layout and every size that decides what lands on which sheet is measured here, with
the font the page prints in (DejaVu Sans), and can be tested without a browser. Every sheet is one
`Sheet`; the page count announced is the number of sheets.
"""

from __future__ import annotations

import base64
import math
import re
import unicodedata
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import jinja2
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath

from models import SEAT_LETTERS, Bound, Metrics, Schedule, SitOutScoring
from optimizer.words import counted
from rotation.output import NOT_HERE_WORD, SIT_OUT_WORDS, THREE_HANDED_WORD, metrics_lines

# The printable area of both A4 and Letter with 12 mm margins is at least 186 x 255 mm; every sheet is
# laid out inside a slightly smaller box so either paper prints one section per sheet.
PAGE_WIDTH_MM = 184.0
PAGE_HEIGHT_MM = 250.0
PT_MM = 25.4 / 72
MIN_WALL_PT = 14.0  # names on anything pinned to a wall: readable from a few steps
_GAP_MM = 4.0
_TOP_MM = 7.0  # the title and date line on every sheet
_HEAD_MM = 29.0  # "Round 3", what part of the round, and the seat legend under it
_WALL_PT = (36, 30, 26, 22, 20, 18, 16, 14)  # name sizes tried on wall charts, biggest first
_LOOKUP_PT = (24, 20, 18, 16, 14)
_NOTE_PT = 16.0
_RULE_MM = 3.9  # the three-handed rule under a round's tables
_SAFETY = 0.96  # browsers and matplotlib round glyph widths differently; measure lines a little short

PARTS = ("walls", "lookup", "slips", "sheets", "summary")
LOOKUP_FROM = 25  # players in the room from which the find-your-table pages are on by default

SEAT_WINDS = {"A": "East", "B": "North", "C": "West", "D": "South"}
SEAT_LEGEND = "Seats: A East (starting dealer) · B North · C West · D South"

SIT_OUT_MARK = {scoring: SIT_OUT_WORDS[scoring.value] for scoring in SitOutScoring}
SIT_OUT_RULE = {
    SitOutScoring.ZERO: "A player who sits out a round scores zero for that round.",
    SitOutScoring.AVERAGE: (
        "A player who sits out a round scores the round's average: the total of all scores at the tables "
        "that round divided by the number of players who played it, rounded as the event rounds scores."
    ),
}
# The guide's rule for a table of three (MJMP items 3.1 and 5.3).
THREE_HANDED_RULE = (
    "Three-handed table: seats A, B and C only, no D. No Charleston; for the fourth game all three "
    "roll the dice again to decide East."
)


# ---- what goes on a sheet --------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    letter: str
    name: str


@dataclass(frozen=True)
class TableCard:
    number: int
    seats: tuple[Seat, ...]

    @property
    def three_handed(self) -> bool:
        return len(self.seats) == 3


@dataclass(frozen=True)
class WallChart:
    """One sheet of one round's tables; a round spreads over as many as it needs."""

    number: int  # the round
    part: str  # "tables 1-12 of 24", "sitting out", or "" when the round fits one sheet
    tables: tuple[TableCard, ...]
    columns: int
    name_mm: float  # one size for every name on the sheet
    number_mm: float
    notes: tuple[str, ...]  # sit-outs with their scoring rule, and who is not here
    note_mm: float
    three_handed: bool  # a table of three is on this sheet: its rule is spelled out
    sit_out_rule: str = ""  # how a sit-out scores, under the sheet that names who sits out


@dataclass(frozen=True)
class LookupEntry:
    name: str
    table: int | None
    seat: str  # the seat letter, or "out" for a sit-out


@dataclass(frozen=True)
class LookupPage:
    number: int
    part: str
    columns: tuple[tuple[LookupEntry, ...], ...]
    font_mm: float
    rule: str  # the sit-out rule, when someone on the page sits out


@dataclass(frozen=True)
class SlipLine:
    round: int
    table: int | None  # None when the player is not at a table this round
    seat: str
    note: str  # "three-handed", the sit-out mark, or "not here"

    @property
    def three_handed(self) -> bool:
        return self.note == "three-handed"


@dataclass(frozen=True)
class Slip:
    name: str
    lines: tuple[SlipLine, ...]
    rules: tuple[str, ...]


@dataclass(frozen=True)
class SlipSheet:
    slips: tuple[Slip, ...]
    columns: int
    rows: int
    row_mm: float


@dataclass(frozen=True)
class ScoreSheet:
    round: int
    table: int
    seats: tuple[Seat, ...]
    rule: str


@dataclass(frozen=True)
class Comparison:
    """The fixed MJMP rule and the lower bound on the same room, or why they do not apply."""

    fixed_repeats: int | None
    bound: Bound | None
    skipped: str = ""
    fixed_fair: bool = True  # False: the fixed rule does not share three-handed tables in turn


@dataclass(frozen=True)
class Sheet:
    kind: str  # "wall", "lookup", "slips", "scores" or "summary"
    body: object = None
    extra: tuple = field(default=())


@dataclass(frozen=True)
class Options:
    title: str = ""
    date: str = ""
    only: tuple[str, ...] = ()  # empty: walls, slips, summary, and lookup for rooms over 24 players
    rounds: tuple[int, int] | None = None  # first and last round to print, 1-based, inclusive


def parts_for(schedule: Schedule, options: Options) -> tuple[str, ...]:
    if options.only:
        return tuple(p for p in PARTS if p in options.only)
    lookup = ("lookup",) if len(schedule.players) >= LOOKUP_FROM else ()
    return ("walls",) + lookup + ("slips", "summary")


def round_indexes(schedule: Schedule, options: Options) -> range:
    first, last = options.rounds or (1, len(schedule.rounds))
    return range(first - 1, min(last, len(schedule.rounds)))


# ---- measuring text --------------------------------------------------------------------------


@lru_cache(maxsize=16384)
def width_em(text: str, bold: bool = False) -> float:
    """Width of `text` in DejaVu Sans, in ems: the font the page asks for first."""
    font = FontProperties(family="DejaVu Sans", size=1, weight="bold" if bold else "normal")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a glyph DejaVu lacks still gets a width; the browser falls back
        width, _, _ = TextToPath().get_text_width_height_descent(text, font, ismath=False)
    return max(width, 0.3 * len(text))


def lines_needed(text: str, room_mm: float, size_mm: float, bold: bool = False) -> int:
    """Lines `text` takes when the browser wraps it: at spaces, after hyphens, inside an overlong word.

    A greedy fill, as browsers do, against a line a little shorter than the real one.
    """
    room_em = _SAFETY * room_mm / size_mm
    space = width_em(" ", bold)
    lines, used = 1, 0.0
    for word in text.split():
        for i, piece in enumerate(re.findall(r"[^-]*-|[^-]+", word)):
            gap = space if used and i == 0 else 0.0
            w = width_em(piece, bold)
            if used and used + gap + w <= room_em:
                used += gap + w
                continue
            if used:
                lines += 1
            # A piece longer than a line is broken anywhere: it fills whole lines and starts the next.
            whole = math.ceil(w / room_em) - 1
            lines += whole
            used = w - whole * room_em
    return lines


# ---- wall charts -----------------------------------------------------------------------------


def _card_height(card: TableCard, width_mm: float, name_mm: float, number_mm: float) -> float:
    # 0.6 mm border, 1.5 mm padding above and below, 3 mm each side; the letter column is 1.6 em.
    room = width_mm - 7.2 - 1.6 * name_mm
    lines = sum(lines_needed(s.name, room, name_mm) for s in card.seats)
    tag = 1.6 * 0.42 * number_mm if card.three_handed else 0.0
    return 4.2 + number_mm + tag + 1.0 + lines * 1.25 * name_mm + 1.0


def _number_mm(name_mm: float, width_mm: float) -> float:
    return round(min(2.2 * name_mm, 0.3 * width_mm, 24.0), 2)


def _pack(cards, columns: int, name_mm: float, area_mm: float, cap: int | None = None):
    """Tables in order into sheets of whole rows; a sheet takes rows while they fit its height."""
    width = (PAGE_WIDTH_MM - _GAP_MM * (columns - 1)) / columns
    number = _number_mm(name_mm, width)
    rows = [cards[i : i + columns] for i in range(0, len(cards), columns)]
    heights = [max(_card_height(c, width, name_mm, number) for c in row) for row in rows]
    if max(heights, default=0) > area_mm:
        return None
    sheets: list[tuple[list[Sequence[TableCard]], float]] = []
    current: list[Sequence[TableCard]] = []
    used = -_GAP_MM
    for row, height in zip(rows, heights):
        full = cap is not None and len(current) * columns >= cap
        if current and (used + _GAP_MM + height > area_mm or full):
            sheets.append((current, used))
            current, used = [], -_GAP_MM
        current.append(row)
        used += _GAP_MM + height
    sheets.append((current, used))
    return sheets, number


def _notes(schedule: Schedule, index: int) -> tuple[str, ...]:
    """The lines under the tables: who sits out and how they score, then who is not here."""
    round_ = schedule.rounds[index]
    lines: tuple[str, ...] = ()
    if round_.sit_outs:
        lines += (f"Sitting out: {', '.join(round_.sit_outs)}.",)
    here = set(schedule.expected(index))
    away = [name for name in schedule.players if name not in here]
    # A long list is cut into lines of a few names, so the notes can continue on a following sheet.
    for start in range(0, len(away), 12):
        lines += (f"Not here this round: {', '.join(away[start : start + 12])}.",)
    return lines


def _rule(lines, rule: str) -> str:
    return rule if any(line.startswith("Sitting out") for line in lines) else ""


def _note_height(line: str, size_mm: float) -> float:
    return lines_needed(line, PAGE_WIDTH_MM, size_mm, bold=True) * 1.3 * size_mm + 1.0


def wall_charts(schedule: Schedule, index: int) -> list[WallChart]:
    """A round's sheets: the biggest names that keep the fewest sheets, notes included."""
    round_ = schedule.rounds[index]
    cards = [
        TableCard(t.table, tuple(Seat(SEAT_LETTERS[s], n) for s, n in enumerate(t.players)))
        for t in sorted(round_.tables, key=lambda t: t.table)
    ]
    notes = _notes(schedule, index)
    rule = SIT_OUT_RULE[schedule.sit_out_scoring]
    best = None
    for pt in _WALL_PT:
        for columns in (1, 2, 3, 4):
            if columns > max(len(cards), 1):
                continue
            charts = _lay_out_round(index + 1, cards, notes, rule, columns, pt)
            if charts is not None and (best is None or len(charts) < len(best)):
                best = charts
        if best is not None and len(best) == 1:
            break
    if best is None:
        raise ValueError(f"round {index + 1}: a table card does not fit a sheet even at {MIN_WALL_PT:g} pt")
    return best


def _lay_out_round(number: int, cards, notes, rule: str, columns: int, pt: float) -> list[WallChart] | None:
    """The round's sheets at one name size and column count, or None when a card cannot fit a sheet."""
    three_rule_mm = _note_height(THREE_HANDED_RULE, _RULE_MM) + 2.0 if any(c.three_handed for c in cards) else 0.0
    area = PAGE_HEIGHT_MM - _TOP_MM - _HEAD_MM - three_rule_mm
    name_mm = pt * PT_MM
    packed = _pack(cards, columns, name_mm, area)
    if packed is None:
        return None
    sheets, number_mm = packed
    if len(sheets) > 1:  # share the tables out evenly rather than leave a last sheet nearly empty
        per = math.ceil(len(cards) / len(sheets) / columns) * columns
        even = _pack(cards, columns, name_mm, area, cap=per)
        if even and len(even[0]) == len(sheets):
            sheets = even[0]
    note_mm = round(_NOTE_PT * PT_MM, 2)
    # Notes go under the last sheet's tables if they fit, else on sheets of their own after it.
    note_sheets: list[list[str]] = [[]]
    free = area - sheets[-1][1] - 4.0 if cards else area
    for line in notes:
        height = _note_height(line, note_mm)
        if line.startswith("Sitting out"):
            height += _note_height(rule, _RULE_MM)
        if height > free and (note_sheets[-1] or cards):
            note_sheets.append([])
            free = PAGE_HEIGHT_MM - _TOP_MM - _HEAD_MM - 4.0
        note_sheets[-1].append(line)
        free -= height
    out, first, name_mm = [], 1, round(name_mm, 2)
    for i, (rows, _) in enumerate(sheets):
        tables = tuple(card for row in rows for card in row)
        last = first + len(tables) - 1
        part = f"tables {first}-{last} of {len(cards)}" if len(sheets) > 1 else ""
        first = last + 1
        lines = tuple(note_sheets[0]) if i == len(sheets) - 1 else ()
        three = any(c.three_handed for c in tables)
        out.append(
            WallChart(number, part, tables, columns, name_mm, number_mm, lines, note_mm, three, _rule(lines, rule))
        )
    for more in note_sheets[1:]:
        out.append(
            WallChart(number, "notes", (), columns, name_mm, number_mm, tuple(more), note_mm, False, _rule(more, rule))
        )
    return out


# ---- find your table -------------------------------------------------------------------------


def sort_key(name: str) -> tuple[str, str]:
    """Alphabetical as a reader expects: accents and case do not move a name."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return plain.casefold(), name


def lookup_entries(schedule: Schedule, index: int) -> list[LookupEntry]:
    seats = schedule.seat_of(index)
    out = schedule.rounds[index].sit_outs
    names = [n for n in schedule.players if n in seats or n in out]
    return [
        LookupEntry(n, seats[n][0], seats[n][1]) if n in seats else LookupEntry(n, None, "out")
        for n in sorted(names, key=sort_key)
    ]


def _entry_height(entry: LookupEntry, column_mm: float, size_mm: float) -> float:
    # The name shares its line with the table (3 em) and the seat (2.6 em); 0.8 mm between entries.
    return lines_needed(entry.name, column_mm - 5.6 * size_mm - 2.0, size_mm) * 1.2 * size_mm + 1.2


def _fill_columns(entries, columns: int, size_mm: float, height_mm: float) -> list[list[list[LookupEntry]]]:
    width = (PAGE_WIDTH_MM - _GAP_MM * (columns - 1)) / columns
    pages: list[list[list[LookupEntry]]] = []
    page: list[list[LookupEntry]] = []
    column: list[LookupEntry] = []
    used = 1.5 * size_mm  # each column starts with its header line
    for entry in entries:
        h = _entry_height(entry, width, size_mm)
        if column and used + h > height_mm:
            page.append(column)
            column, used = [], 1.5 * size_mm
            if len(page) == columns:
                pages.append(page)
                page = []
        column.append(entry)
        used += h
    page.append(column)
    pages.append(page)
    return pages


def _short(name: str) -> str:
    first = name.split()[0] if name.split() else name
    return first if len(first) <= 14 else first[:13] + "…"


def lookup_pages(schedule: Schedule, index: int) -> list[LookupPage]:
    entries = lookup_entries(schedule, index)
    rule = SIT_OUT_RULE[schedule.sit_out_scoring] if schedule.rounds[index].sit_outs else ""
    height = PAGE_HEIGHT_MM - _TOP_MM - _HEAD_MM - (_note_height(rule, 4.0) if rule else 0.0)
    best: tuple[tuple[int, int], int, list[list[list[LookupEntry]]]] | None = None
    for pt in _LOOKUP_PT:
        for columns in (1, 2, 3):
            pages = _fill_columns(entries, columns, pt * PT_MM, height)
            key = (len(pages), -pt)
            if best is None or key < best[0]:
                best = (key, pt, pages)
    assert best is not None  # _LOOKUP_PT is not empty
    _, pt, pages = best
    out = []
    for page in pages:
        names = [e for column in page for e in column]
        part = f"{_short(names[0].name)} to {_short(names[-1].name)}" if len(pages) > 1 and names else ""
        out.append(LookupPage(index + 1, part, tuple(tuple(c) for c in page), round(pt * PT_MM, 2), rule))
    return out


# ---- slips and score sheets ------------------------------------------------------------------


def _slip_line(schedule: Schedule, index: int, name: str) -> SlipLine:
    round_ = schedule.rounds[index]
    for table in round_.tables:
        if name in table.players:
            note = THREE_HANDED_WORD if len(table.players) == 3 else ""
            return SlipLine(index + 1, table.table, SEAT_LETTERS[table.players.index(name)], note)
    if name in round_.sit_outs:
        return SlipLine(index + 1, None, "", SIT_OUT_MARK[schedule.sit_out_scoring])
    return SlipLine(index + 1, None, "", NOT_HERE_WORD)


def slip_layout(rounds: int) -> tuple[int, float]:
    """(slips down a sheet, row height in mm) for slips of `rounds` rounds: rows tall enough to write in."""
    # 8 mm padding, the title line, a name of up to three lines, the header row, a row per round, the
    # total, and up to five lines of rules.
    fixed = 8.0 + 4.0 + 16.0 + 6.0 + 18.0
    for down in (4, 3, 2, 1):
        row = (PAGE_HEIGHT_MM / down - fixed) / (rounds + 1)
        if row >= 7.0:
            return down, round(min(row, 9.0), 2)
    return 1, round(max(3.5, (PAGE_HEIGHT_MM - fixed) / (rounds + 1)), 2)


def slip_sheets(schedule: Schedule, indexes: range) -> list[SlipSheet]:
    down, row_mm = slip_layout(len(indexes))
    slips = []
    for name in schedule.players:
        lines = tuple(_slip_line(schedule, r, name) for r in indexes)
        rules: tuple[str, ...] = ()
        if any(line.three_handed for line in lines):
            rules += ("Shaded: three-handed table. " + THREE_HANDED_RULE,)
        if any(line.note.startswith("sits out") for line in lines):
            rules += (SIT_OUT_RULE[schedule.sit_out_scoring],)
        slips.append(Slip(name, lines, rules))
    per = 2 * down
    return [SlipSheet(tuple(slips[i : i + per]), 2, down, row_mm) for i in range(0, len(slips), per)]


def score_sheets(schedule: Schedule, indexes: range) -> list[tuple[ScoreSheet, ...]]:
    """One score sheet per table per round, two to a printed sheet."""
    sheets = [
        ScoreSheet(
            r + 1,
            t.table,
            tuple(Seat(SEAT_LETTERS[s], n) for s, n in enumerate(t.players)),
            THREE_HANDED_RULE if len(t.players) == 3 else "",
        )
        for r in indexes
        for t in sorted(schedule.rounds[r].tables, key=lambda t: t.table)
    ]
    return [tuple(sheets[i : i + 2]) for i in range(0, len(sheets), 2)]


# ---- the whole print -------------------------------------------------------------------------


def sheets(schedule: Schedule, options: Options = Options()) -> list[Sheet]:
    parts, indexes = parts_for(schedule, options), round_indexes(schedule, options)
    out: list[Sheet] = []
    for r in indexes:
        if "walls" in parts:
            out += [Sheet("wall", chart) for chart in wall_charts(schedule, r)]
        if "lookup" in parts:
            out += [Sheet("lookup", page) for page in lookup_pages(schedule, r)]
    if "slips" in parts:
        out += [Sheet("slips", sheet) for sheet in slip_sheets(schedule, indexes)]
    if "sheets" in parts:
        out += [Sheet("scores", pair) for pair in score_sheets(schedule, indexes)]
    if "summary" in parts:
        out.append(Sheet("summary"))
    return out


def expected_pages(schedule: Schedule, options: Options = Options()) -> int:
    return len(sheets(schedule, options))


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
    """The checker's report, one figure per bullet; total repeats are in the table above them."""
    return metrics_lines(metrics)[1:]


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def render_page(schedule: Schedule, metrics: Metrics, comparison: Comparison, options: Options = Options()) -> str:
    """The whole printable page as one self-contained HTML document."""
    from rotation.pictures import meetings_png, repeats_png  # matplotlib's pyplot-free figures

    pages = sheets(schedule, options)
    summary = any(p.kind == "summary" for p in pages)
    heading = options.title or f"Seating: {len(schedule.players)} players, {counted(len(schedule.rounds), 'round')}"
    return (
        _environment()
        .get_template("print.html.j2")
        .render(
            title=heading,
            date=options.date,
            schedule=schedule,
            pages=pages,
            page_count=len(pages),
            round_count=len(schedule.rounds),
            legend=SEAT_LEGEND,
            winds=SEAT_WINDS,
            three_handed_rule=THREE_HANDED_RULE,
            sit_out_rule=SIT_OUT_RULE[schedule.sit_out_scoring],
            metrics=metrics,
            metrics_lines=_lines(metrics),
            comparison=comparison,
            meetings_picture=_data_uri(meetings_png(schedule)) if summary else "",
            repeats_picture=_data_uri(repeats_png(metrics)) if summary and metrics.repeats else "",
            page_width=PAGE_WIDTH_MM,
            page_height=PAGE_HEIGHT_MM,
        )
    )
