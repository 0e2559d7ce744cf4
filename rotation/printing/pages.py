"""The printed pages: wall charts, find-your-table lists, player slips, table score sheets, a summary.

Everything the page needs is worked out here in millimetres and handed to one jinja2 template, so the
template stays a layout and every size that decides what lands on which sheet is measured here, with
the font the page carries and prints in (DejaVu Sans, rotation.printing.typeface), and can be tested without a
browser. Every sheet is one `Sheet`; the page count announced is the number of sheets.
"""

from __future__ import annotations

import base64
import html
import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache

import jinja2
import pyuca
import segno

from models import SEAT_LETTERS, Bound, Metrics, Schedule, SitOutScoring
from models.event import DEFAULT_WINDS
from models.rules import SIT_OUT_RULE, THREE_HANDED_RULE, Rules
from optimizer.constructions.fixed import fixed_rule_of, rule_words
from optimizer.words import counted
from rotation import tool_version
from rotation.files.output import NOT_HERE_WORD, SIT_OUT_WORDS, THREE_HANDED_WORD, metrics_lines
from rotation.printing.typeface import SAFETY, NameLines, font_face_css, lines_needed, width_em

# The printable area of both A4 and Letter with 12 mm margins is at least 186 x 255 mm upright and
# 255 x 186 mm on its side; every sheet is laid out inside a slightly smaller box so either paper prints
# one section per sheet.
PAGE_WIDTH_MM = 184.0
PAGE_HEIGHT_MM = 250.0
PT_MM = 25.4 / 72
MIN_WALL_PT = 14.0  # names on anything pinned to a wall: readable from a few steps
_GAP_MM = 4.0
_TOP_MM = 7.0  # the title and date line on every sheet
_HEAD_MM = 29.0  # "Round 3 of 8 rounds", the seat legend under it, the rule and the gap below
_PART_MM = 8.5  # the line under "Round 3" that says which part of the round a sheet holds
_PART_PT = 7.0  # its size in mm, when it fits the line
_WALL_PT = (36, 32, 28, 26, 24, 22, 21, 20, 19, 18, 17, 16, 15, 14)  # name sizes tried on wall charts, in pt
_WALL_COLUMNS = (1, 2, 3, 4, 5)
_GROW_PT = 0.25  # names grow between the sizes tried, and a long name shrinks alone, by quarter points
_LOOKUP_PT = (24, 20, 18, 16, 14)
_NOTE_PT = 16.0
_RULE_MM = 3.9  # the three-handed and sit-out rules under a round's tables

PARTS = ("walls", "lookup", "slips", "sheets", "summary")
SORTS = ("first", "surname")
LOOKUP_FROM = 25  # players in the room from which the find-your-table pages are on by default
MATRIX_UP_TO = 2000  # players: beyond, the who-meets-whom picture would be millions of squares too small to see


def seat_legend(winds: Sequence[str] = DEFAULT_WINDS) -> str:
    """'Seats: A East (starting dealer) · B North · C West · D South', with the event's wind names."""
    named = [f"{letter} {wind}" for letter, wind in zip(SEAT_LETTERS, winds)]
    return "Seats: " + " · ".join([named[0] + " (starting dealer)", *named[1:]])


SEAT_LEGEND = seat_legend()

SIT_OUT_MARK = {scoring: SIT_OUT_WORDS[scoring.value] for scoring in SitOutScoring}
THREE_MARK = "*"  # after the table number in the find-your-table list


# ---- what goes on a sheet --------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    letter: str
    name: str
    name_mm: float = 0.0  # on a wall chart, a name printed smaller than the sheet's names; 0: the sheet's size


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
    part: str  # "tables 1-12 of 24", "notes", or "" when the round fits one sheet
    tables: tuple[TableCard, ...]
    columns: int
    name_mm: float  # one size for every name on the sheet
    number_mm: float
    notes: tuple[str, ...]  # sit-outs with their scoring rule, and who is not here
    note_mm: float
    three_handed: bool  # a table of three is on this sheet: its rule is spelled out
    sit_out_rule: str = ""  # how a sit-out scores, under the sheet that names who sits out
    landscape: bool = False
    part_mm: float = _PART_PT
    tag_mm: float = 0.0  # the "three-handed" tag on a card


@dataclass(frozen=True)
class LookupEntry:
    name: str
    table: int | None
    seat: str  # the seat letter, or "out" for a sit-out
    shown: str = ""  # the name as listed: "Surname, First names" when sorted by surname
    three_handed: bool = False


@dataclass(frozen=True)
class LookupPage:
    number: int
    part: str
    columns: tuple[tuple[LookupEntry, ...], ...]
    font_mm: float
    rule: str  # the sit-out rule, when someone on the page sits out
    part_mm: float = _PART_PT
    table_em: float = 3.0  # the table and seat columns, in ems of font_mm
    seat_em: float = 2.6
    three_rule: str = ""  # the three-handed rule, when a table of three is on the page
    landscape: bool = False


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
    widths_mm: tuple[float, ...] = ()  # round, table, seat, the four games, total
    note_mm: float = 2.7  # the words in a row without a table ("sits out", "not here")


@dataclass(frozen=True)
class ScoreSheet:
    round: int
    table: int
    seats: tuple[Seat, ...]
    rule: str
    row_mm: float = 12.0
    scoring: str = ""  # the event's rule sheet in one line, when the print has it
    event_lines: int = 0  # lines of the event's title and date under the heading (0: beside it, it fits there)

    @property
    def heading(self) -> str:
        return heading_of(self.round, self.table, bool(self.rule))


def heading_of(round_number: int, table: int, three_handed: bool) -> str:
    return f"Round {round_number} · Table {table}" + (" · three-handed" if three_handed else "")


_SCORE_HEADING_MM, _SCORE_EVENT_MM = 6.0, 3.6  # the heading's bold type, the event's beside or under it


def event_lines(heading: str, event: str) -> int:
    """0 when the event's title and date fit whole beside a score sheet's heading (4 mm apart), else the
    lines they take under it: a title is never cut."""
    beside = width_em(heading, bold=True) * _SCORE_HEADING_MM + 4.0 + width_em(event) * _SCORE_EVENT_MM
    return 0 if beside <= SAFETY * PAGE_WIDTH_MM else lines_needed(event, PAGE_WIDTH_MM, _SCORE_EVENT_MM)


def title_of(options: Options, schedule: Schedule) -> str:
    """The event's title, or what the day seats."""
    return options.title or f"Seating: {len(schedule.players)} players, {counted(len(schedule.rounds), 'round')}"


def event_line(options: Options, schedule: Schedule) -> str:
    """The event's title and date, as every score sheet names the event."""
    return title_of(options, schedule) + (f" · {options.date}" if options.date else "")


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

    @property
    def landscape(self) -> bool:
        return bool(getattr(self.body, "landscape", False))


@dataclass(frozen=True)
class RuleTexts:
    """The three-handed and sit-out rules as the prints say them: the guide's, or the event's own words."""

    three_handed: str = THREE_HANDED_RULE
    sit_out: str = ""  # empty: the words of the schedule's sit-out scoring

    def sit_out_for(self, schedule: Schedule) -> str:
        return self.sit_out or SIT_OUT_RULE[schedule.sit_out_scoring]


GUIDE_TEXTS = RuleTexts()


@dataclass(frozen=True)
class Options:
    title: str = ""
    date: str = ""
    only: tuple[str, ...] = ()  # empty: walls, slips, summary, and lookup for rooms over 24 players
    rounds: tuple[int, int] | None = None  # first and last round to print, 1-based, inclusive
    sort_by: str = "first"  # lookup lists and slips: "first" name or "surname"
    players_url: str = ""  # the desk's page for players: a QR code of it on wall charts and lookup lists
    winds: tuple[str, ...] = DEFAULT_WINDS  # the wind names of seats A-D, as the event calls them
    scoring: str = ""  # the event's scoring rules in one line, at the foot of every score sheet
    rules: tuple[str, ...] = ()  # the event's rule sheet: a page of its own before the score sheets
    texts: RuleTexts = GUIDE_TEXTS  # the three-handed and sit-out rules on every part


def rule_options(rules: Rules, sit_out_scoring: SitOutScoring) -> dict:
    """Options for the event's rules: the rules page (the scoring lines, the three-handed and sit-out
    rules in the event's words) and the line at the foot of each score sheet."""
    sit_out = rules.sit_out or SIT_OUT_RULE[sit_out_scoring]
    texts = RuleTexts(rules.three_handed, rules.sit_out)
    return {"scoring": rules.line(), "rules": (*rules.sheet(), rules.three_handed, sit_out), "texts": texts}


def parts_for(schedule: Schedule, options: Options) -> tuple[str, ...]:
    if options.only:
        return tuple(p for p in PARTS if p in options.only)
    lookup = ("lookup",) if len(schedule.players) >= LOOKUP_FROM else ()
    return ("walls",) + lookup + ("slips", "summary")


def round_indexes(schedule: Schedule, options: Options) -> range:
    first, last = options.rounds or (1, len(schedule.rounds))
    return range(first - 1, min(last, len(schedule.rounds)))


def page_size(landscape: bool) -> tuple[float, float]:
    """(width, height) of a sheet's box in mm."""
    return (PAGE_HEIGHT_MM, PAGE_WIDTH_MM) if landscape else (PAGE_WIDTH_MM, PAGE_HEIGHT_MM)


def part_mm(text: str, width_mm: float) -> float:
    """The size of the line saying which part of a round a sheet holds: 7 mm, or smaller to stay one line."""
    return round(min(_PART_PT, SAFETY * width_mm / max(width_em(text, bold=True), 1.0)), 2)


def _head_mm(parted: bool) -> float:
    return _TOP_MM + _HEAD_MM + (_PART_MM if parted else 0.0)


# ---- wall charts -----------------------------------------------------------------------------


@dataclass(frozen=True)
class WallLayout:
    """One way to lay a day's wall charts out: the sheet's orientation, cards per row and name size."""

    landscape: bool
    columns: int
    pt: float
    widest_number: str = "99"

    @cached_property
    def card_mm(self) -> float:
        return (page_size(self.landscape)[0] - _GAP_MM * (self.columns - 1)) / self.columns

    @cached_property
    def name_mm(self) -> float:
        return self.pt * PT_MM

    @cached_property
    def column_mm(self) -> float:
        """The name column of a card: 0.6 mm border and 3 mm padding each side, the seat letter 1.6 em."""
        return self.card_mm - 7.2 - 1.6 * self.name_mm

    @cached_property
    def room_em(self) -> float:
        """The name column in ems of the sheet's names."""
        return SAFETY * self.column_mm / self.name_mm

    def own_pt(self, longest_em: float) -> float:
        """The size of a name whose widest piece is `longest_em`: the sheet's, or, when that piece is wider
        than the column, the largest quarter point at which it fits (never under 14 pt): a long name
        shrinks alone rather than every name with it."""
        if longest_em <= self.room_em:
            return self.pt
        fits = SAFETY * self.column_mm / longest_em / PT_MM
        return max(MIN_WALL_PT, math.floor(fits / _GROW_PT) * _GROW_PT)

    def holds(self, longest_em: float) -> bool:
        """Whether a piece `longest_em` wide fits the column whole at 14 pt or more."""
        return longest_em * MIN_WALL_PT * PT_MM <= SAFETY * self.column_mm

    @cached_property
    def number_mm(self) -> float:
        """ "Table 12" as big as twice the names, within the card's width."""
        head_em = 0.3 * width_em("Table ") + width_em(self.widest_number, bold=True)
        return round(min(2.2 * self.name_mm, 24.0, SAFETY * (self.card_mm - 7.2) / head_em), 2)

    @cached_property
    def tag_mm(self) -> float:
        """The "three-handed" tag under the number, within the card's width (0.3 em padding each side)."""
        tag_em = width_em("three-handed", bold=True) + 0.6
        return round(min(0.42 * self.number_mm, SAFETY * (self.card_mm - 8.0) / tag_em), 2)


def _card_height(card: TableCard, layout: WallLayout, lines: NameLines) -> float:
    # 0.6 mm border and 1.5 mm padding above and below, the number's line, 1 mm, the names at 1.25 lines.
    # A smaller name's first line sits on its seat letter's line (their baselines aligned), so it takes
    # that line's height; its further lines, its own.
    names = 0.0
    for seat in card.seats:
        widest = lines.widest(seat.name)
        if widest <= layout.room_em:  # most names: at the sheet's size
            names += 1.25 * layout.name_mm * lines(seat.name, layout.room_em)
            continue
        own = layout.own_pt(widest) * PT_MM
        names += 1.25 * (layout.name_mm + (lines(seat.name, SAFETY * layout.column_mm / own) - 1) * own)
    tag = 1.6 * layout.tag_mm + 1.0 if card.three_handed else 0.0
    return 4.2 + layout.number_mm + tag + 1.0 + names + 1.0


def _sheet_height(heights: Sequence[float], columns: int) -> float:
    rows = [max(heights[i : i + columns]) for i in range(0, len(heights), columns)]
    return sum(rows) + _GAP_MM * (len(rows) - 1)


def _split(heights: Sequence[float], columns: int, area_mm: float) -> list[int] | None:
    """Tables per sheet, in table order: the fewest sheets, shared out evenly when the heights allow.

    A greedy fill gives the fewest sheets of consecutive tables; then the tables are shared as evenly
    as can be over that many sheets (10 as 5 + 5, not 6 + 4), if every sheet still fits.
    """
    if not heights:
        return [0]
    if max(heights) > area_mm:
        return None
    greedy = _capped(heights, columns, area_mm, len(heights))
    k, n = len(greedy), len(heights)
    even = [n // k + (1 if i < n % k else 0) for i in range(k)]
    bounds = [sum(even[:i]) for i in range(k + 1)]
    if all(_sheet_height(heights[bounds[i] : bounds[i + 1]], columns) <= area_mm for i in range(k)):
        return even
    for cap in range(-(-n // k) + 1, max(greedy)):  # else the fewest tables a sheet that still keeps k sheets
        capped = _capped(heights, columns, area_mm, cap)
        if len(capped) == k:
            return capped
    return greedy


def _capped(heights: Sequence[float], columns: int, area_mm: float, cap: int) -> list[int]:
    """A greedy fill of consecutive tables, at most `cap` to a sheet; the sheet's height kept as it
    grows (its full rows with their gaps, and the row being filled), so linear in tables."""
    sizes, start = [], 0
    while start < len(heights):
        stop, full, row = start + 1, 0.0, heights[start]
        while stop - start < cap and stop < len(heights):
            if (stop - start) % columns:
                grown_full, grown_row = full, max(row, heights[stop])
            else:
                grown_full, grown_row = full + row + _GAP_MM, heights[stop]
            if grown_full + grown_row > area_mm:
                break
            full, row, stop = grown_full, grown_row, stop + 1
        sizes.append(stop - start)
        start = stop
    return sizes


def _cards(schedule: Schedule, index: int) -> list[TableCard]:
    return [
        TableCard(t.table, tuple(Seat(SEAT_LETTERS[s], n) for s, n in enumerate(t.players)))
        for t in sorted(schedule.rounds[index].tables, key=lambda t: t.table)
    ]


def _not_here(schedule: Schedule, index: int) -> list[str]:
    """Players missing this round who are still on the day's list: absent or not yet arrived, not gone."""
    number, here = index + 1, set(schedule.expected(index))
    return [n for n in schedule.players if n not in here and schedule.departures.get(n, number + 1) > number]


def _notes(schedule: Schedule, index: int) -> tuple[str, ...]:
    """The lines under the tables: who sits out and how they score, then who is not here."""
    round_ = schedule.rounds[index]
    lines: tuple[str, ...] = ()
    if round_.sit_outs:
        lines += (f"Sitting out: {', '.join(round_.sit_outs)}.",)
    away = _not_here(schedule, index)
    # A long list is cut into lines of a few names, so the notes can continue on a following sheet.
    for start in range(0, len(away), 12):
        lines += (f"Not here this round: {', '.join(away[start : start + 12])}.",)
    return lines


def _rule(lines, rule: str) -> str:
    return rule if any(line.startswith("Sitting out") for line in lines) else ""


def _note_height(line: str, size_mm: float, width_mm: float = PAGE_WIDTH_MM, bold: bool = True) -> float:
    return lines_needed(line, width_mm, size_mm, bold=bold) * 1.3 * size_mm + 1.0


def wall_layouts(schedule: Schedule, indexes: Sequence[int]) -> list[WallLayout]:
    """Every layout tried: each name size, upright and on its side, one to five cards a row."""
    widest = str(max((t.table for i in indexes for t in schedule.rounds[i].tables), default=1))
    return [
        WallLayout(landscape, columns, pt, widest)
        for pt in _WALL_PT
        for landscape in (False, True)
        for columns in _WALL_COLUMNS
    ]


def day_wall_charts(
    schedule: Schedule, indexes: Sequence[int], texts: RuleTexts = GUIDE_TEXTS
) -> dict[int, list[WallChart]]:
    """Every printed round's sheets in one layout: the fewest sheets, then the biggest names.

    Only layouts where the longest word of every name fits its card at 14 pt or more are tried while
    there is one, so a name breaks only at a space or after a hyphen; a name whose longest word is wider
    than its card at the sheet's size prints smaller alone (`WallLayout.own_pt`). Each arrangement
    (orientation and cards a row) that prints the fewest sheets takes the largest size tried that still
    does, then grows its names a quarter point at a time below the next size while the sheets stay as
    few and no further name shrinks; of those, the names largest on average win. The same layout
    serves every round, so a re-planned day's sheets look alike.
    """
    lines = NameLines()
    cards = {i: _cards(schedule, i) for i in indexes}
    names = [s.name for i in indexes for c in cards[i] for s in c.seats]
    widest = sorted(map(lines.widest, names), reverse=True)
    layouts = wall_layouts(schedule, indexes)
    whole = [layout for layout in layouts if layout.holds(widest[0] if widest else 0.0)] or layouts

    def lay_out(layout: WallLayout) -> _Day | None:
        laid = {i: _lay_out_round(schedule, i, cards[i], layout, lines, texts) for i in indexes}
        if any(one is None for one in laid.values()):
            return None
        shrunk = [layout.own_pt(em) for em in itertools.takewhile(lambda em: em > layout.room_em, widest)]
        mean = layout.pt - sum(layout.pt - pt for pt in shrunk) / max(len(names), 1)
        sheets = sum(one[0] for one in laid.values() if one)
        uneven = sum(one[1] for one in laid.values() if one)
        return _Day(layout, sheets, len(shrunk), mean, {i: one[2] for i, one in laid.items() if one}, uneven)

    steps: dict[tuple[bool, int], list[WallLayout]] = {}  # each arrangement's sizes, the largest first
    for layout in whole:
        steps.setdefault((layout.landscape, layout.columns), []).append(layout)
    smallest = {arrangement: lay_out(sizes[-1]) for arrangement, sizes in steps.items()}
    fewest = min((day.sheets for day in smallest.values() if day), default=None)
    if fewest is None:
        name = max(names, key=len)
        raise ValueError(
            f"the name {name[:40]!r}... ({len(name)} characters) is too long for a wall chart: its table does "
            f"not fit a sheet even at {MIN_WALL_PT:g} pt; shorten it in the names file"
        )
    grown = [
        _grown(day, lay_out)
        for arrangement, sizes in steps.items()
        if (at := smallest[arrangement]) and at.sheets == fewest and (day := _largest(sizes, fewest, lay_out))
    ]
    best = min(grown, key=_Day.order)
    return {i: charts() for i, charts in best.rounds.items()}


@dataclass(frozen=True)
class _Day:
    """The day's wall charts in one layout: how many sheets, how many names shrink alone, the names'
    mean size in pt, each round's sheets to make, and how unevenly the rounds' tables are shared over
    their sheets (the most on a sheet less the fewest, summed over the rounds)."""

    layout: WallLayout
    sheets: int
    shrunk: int
    mean_pt: float
    rounds: dict
    uneven: int = 0

    def order(self) -> tuple:
        return (-self.mean_pt, -self.layout.pt, self.layout.landscape, self.layout.columns)


def _largest(sizes: list[WallLayout], fewest: int, lay_out: Callable[[WallLayout], _Day | None]) -> _Day | None:
    """Of an arrangement's sizes (largest first), the one printing `fewest` sheets with the names
    largest on average. A size's mean is at most the size itself, so the scan stops at a size no larger
    than the best mean found. Not a bisection: a larger size can take fewer sheets (a last sheet holding
    fewer tables has room for the notes under them)."""
    best = None
    for size in sizes:
        if best is not None and size.pt <= best.mean_pt:
            break
        day = lay_out(size)
        if day is not None and day.sheets == fewest and (best is None or day.order() < best.order()):
            best = day
    return best


def _grown(day: _Day, lay_out: Callable[[WallLayout], _Day | None]) -> _Day:
    """The day with its names grown below the next size tried while the sheets stay as few, no further
    name shrinks and the tables stay as evenly shared over the sheets (a bisection: cards and shrunk
    names only grow with the size)."""
    larger = [pt for pt in _WALL_PT if pt > day.layout.pt]
    low, high = 0, round(((larger[-1] if larger else day.layout.pt) - day.layout.pt) / _GROW_PT)
    start = day
    while high - low > 1:
        middle = (low + high) // 2
        grown = lay_out(replace(start.layout, pt=start.layout.pt + middle * _GROW_PT))
        if (
            grown is not None
            and (grown.sheets, grown.shrunk) == (start.sheets, start.shrunk)
            and grown.uneven <= start.uneven
        ):
            low, day = middle, grown
        else:
            high = middle
    return day


def wall_charts(schedule: Schedule, index: int) -> list[WallChart]:
    """One round's sheets, laid out as that round alone would be."""
    return day_wall_charts(schedule, [index])[index]


def _note_sheets(notes, rule: str, free: float, fresh: float, width: float, under_tables: bool) -> list[list[str]]:
    """The notes under the last sheet's tables while they fit (`free` mm), then on sheets of their own
    (`fresh` mm each) after it."""
    note_mm = round(_NOTE_PT * PT_MM, 2)
    out: list[list[str]] = [[]]
    for line in notes:
        need = _note_height(line, note_mm, width)
        if line.startswith("Sitting out"):
            need += _note_height(rule, _RULE_MM, width, False) + 2.0
        if need > free and (out[-1] or under_tables):
            out.append([])
            free = fresh
        out[-1].append(line)
        free -= need
    return out


def _lay_out_round(
    schedule: Schedule, index: int, cards: list[TableCard], layout: WallLayout, lines: NameLines, texts: RuleTexts
) -> tuple[int, int, Callable[[], list[WallChart]]] | None:
    """The round's sheets in one layout: how many, how unevenly its tables are shared over them (the
    most on a sheet less the fewest), and how to make them (for the layout chosen alone); None when a
    card cannot fit a sheet."""
    width, height = page_size(layout.landscape)
    notes, rule = _notes(schedule, index), texts.sit_out_for(schedule)
    three = _note_height(texts.three_handed, _RULE_MM, width, False) + 2.0 if any(c.three_handed for c in cards) else 0
    heights = [_card_height(card, layout, lines) for card in cards]
    split = _split(heights, layout.columns, height - _head_mm(False) - three)
    if split is not None and len(split) > 1:  # the sheets need their "tables 1-12 of 24" line
        split = _split(heights, layout.columns, height - _head_mm(True) - three)
    if split is None:
        return None
    parted = len(split) > 1
    note_mm = round(_NOTE_PT * PT_MM, 2)
    last = heights[len(heights) - split[-1] :]
    free = height - _head_mm(parted) - three - (_sheet_height(last, layout.columns) + 4.0 if cards else 0.0)
    note_sheets = _note_sheets(notes, rule, free, height - _head_mm(True) - 4.0, width, bool(cards))

    def chart(part, tables, notes_):
        three_ = any(c.three_handed for c in tables)
        return WallChart(
            index + 1,
            part,
            tables,
            layout.columns,
            round(layout.name_mm, 2),
            layout.number_mm,
            notes_,
            note_mm,
            three_,
            _rule(notes_, rule),
            layout.landscape,
            part_mm(part, width),
            layout.tag_mm,
        )

    def sized(card: TableCard) -> TableCard:  # a long name's own size, when it prints smaller
        own = [layout.own_pt(lines.widest(seat.name)) for seat in card.seats]
        seats = (replace(s, name_mm=round(pt * PT_MM, 2)) if pt < layout.pt else s for s, pt in zip(card.seats, own))
        return replace(card, seats=tuple(seats))

    def charts() -> list[WallChart]:
        out, first = [], 0
        for i, size in enumerate(split):
            tables = tuple(sized(card) for card in cards[first : first + size])
            part = f"tables {first + 1}-{first + size} of {len(cards)}" if parted else ""
            first += size
            out.append(chart(part, tables, tuple(note_sheets[0]) if i == len(split) - 1 else ()))
        for more in note_sheets[1:]:
            out.append(chart("notes", (), tuple(more)))
        return out

    return len(split) + len(note_sheets) - 1, max(split) - min(split), charts


# ---- find your table -------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _collator() -> pyuca.Collator:
    return pyuca.Collator()  # the Unicode Collation Algorithm's default table: Ł with L, é with e


def surname(name: str) -> str:
    """The last word of a name: what a surname-sorted list files it under."""
    words = name.split()
    return words[-1] if words else name


def shown_name(name: str, sort_by: str = "first") -> str:
    """The name as a list sorted by surname shows it: "Kierkegaard, Mei-Ling"."""
    words = name.split()
    return f"{words[-1]}, {' '.join(words[:-1])}" if sort_by == "surname" and len(words) > 1 else name


def sort_key(name: str, sort_by: str = "first") -> tuple:
    """Alphabetical as a reader expects (the Unicode collation: accents, case and Ł do not move a name)."""
    collate = _collator().sort_key
    return (collate(shown_name(name, sort_by)), name)


def lookup_entries(schedule: Schedule, index: int, sort_by: str = "first") -> list[LookupEntry]:
    round_ = schedule.rounds[index]
    three = {n for t in round_.tables if len(t.players) == 3 for n in t.players}
    seats = schedule.seat_of(index)
    names = [n for n in schedule.players if n in seats or n in round_.sit_outs]
    return [
        LookupEntry(n, seats[n][0], seats[n][1], shown_name(n, sort_by), n in three)
        if n in seats
        else LookupEntry(n, None, "out", shown_name(n, sort_by))
        for n in sorted(names, key=lambda n: sort_key(n, sort_by))
    ]


@dataclass(frozen=True)
class _LookupLayout:
    columns: int
    pt: float
    table_em: float
    seat_em: float
    landscape: bool = False

    @property
    def size_mm(self) -> float:
        return self.pt * PT_MM

    @cached_property
    def room_em(self) -> float:
        """The name column: the column less the table and seat columns and 2 mm before them."""
        column = (page_size(self.landscape)[0] - _GAP_MM * (self.columns - 1)) / self.columns
        return SAFETY * (column - 2.0) / self.size_mm - self.table_em - self.seat_em


def _fill_columns(entries, layout: _LookupLayout, height_mm: float, lines: NameLines) -> list[list[list]]:
    pages: list[list[list[LookupEntry]]] = []
    page: list[list[LookupEntry]] = []
    column: list[LookupEntry] = []
    size = layout.size_mm
    used = 1.5 * 0.6 * size * 1.2 + 1.0  # each column starts with its header line
    for entry in entries:
        h = lines(entry.shown, layout.room_em) * 1.2 * size + 1.0  # 0.8 mm padding and a 0.2 mm rule
        if column and used + h > height_mm:
            page.append(column)
            column, used = [], 1.5 * 0.6 * size * 1.2 + 1.0
            if len(page) == layout.columns:
                pages.append(page)
                page = []
        column.append(entry)
        used += h
    page.append(column)
    pages.append(page)
    return pages


def _short(name: str) -> str:
    first = name.split()[0].rstrip(",") if name.split() else name
    return first if len(first) <= 14 else first[:13] + "…"


def _lookup_layout(entries, table_em: float, seat_em: float, rules_mm: float) -> tuple[_LookupLayout, list]:
    """The layout of the fewest pages, then the biggest type, among those breaking no name mid-word."""
    lines = NameLines()
    longest = lines.longest(e.shown for e in entries)
    layouts = [
        _LookupLayout(c, pt, table_em, seat_em, landscape)
        for pt in _LOOKUP_PT
        for c in (1, 2, 3)
        for landscape in (False, True)
    ]
    whole = [layout for layout in layouts if layout.room_em >= longest] or layouts
    best: tuple[tuple, _LookupLayout, list] | None = None
    for layout in whole:
        height = page_size(layout.landscape)[1] - _head_mm(True) - rules_mm  # the head says "find your table"
        pages = _fill_columns(entries, layout, height, lines)
        key = (len(pages), -layout.pt, layout.landscape, layout.columns)
        if best is None or key < best[0]:
            best = (key, layout, pages)
    assert best is not None  # _LOOKUP_PT is not empty
    return best[1], best[2]


def lookup_pages(
    schedule: Schedule, index: int, sort_by: str = "first", texts: RuleTexts = GUIDE_TEXTS
) -> list[LookupPage]:
    """A round's players in alphabetical order with table and seat, in columns: the fewest pages, then
    the biggest type, with no name broken mid-word where a layout allows it."""
    entries = lookup_entries(schedule, index, sort_by)
    rule = texts.sit_out_for(schedule) if schedule.rounds[index].sit_outs else ""
    three = f"{THREE_MARK} {texts.three_handed}" if any(e.three_handed for e in entries) else ""
    # Measured on the narrower sheet, so the rules fit either way up; 2 mm above each.
    rules = (_note_height("out = sits out this round. " + rule, _RULE_MM, bold=False) + 2.0 if rule else 0.0) + (
        _note_height(three, _RULE_MM, bold=False) + 2.0 if three else 0.0
    )
    widest = max((f"{e.table}{THREE_MARK if e.three_handed else ''}" for e in entries), key=width_em, default="")
    table_em = max(width_em(widest, bold=True), 0.6 * width_em("Table")) + 0.6
    seat_em = max(width_em("out", bold=True), 0.6 * width_em("Seat")) + 0.6
    layout, pages = _lookup_layout(entries, table_em, seat_em, rules)
    out = []
    for page in pages:
        names = [e for column in page for e in column]
        part = "find your table"
        if len(pages) > 1 and names:
            part += f" - {_short(names[0].shown)} to {_short(names[-1].shown)}"
        out.append(
            LookupPage(
                index + 1,
                part,
                tuple(tuple(c) for c in page),
                round(layout.size_mm, 2),
                rule,
                part_mm(part, page_size(layout.landscape)[0]),
                round(table_em, 2),
                round(seat_em, 2),
                three if any(e.three_handed for e in names) else "",
                layout.landscape,
            )
        )
    return out


# ---- slips and score sheets ------------------------------------------------------------------


def _slip_line(schedule: Schedule, index: int, name: str, seats: dict, three: set) -> SlipLine | None:
    """The player's row for a round (`seats`: the round's seat of each player, `three`: its tables of
    three), or None for a round after they left."""
    round_ = schedule.rounds[index]
    if name in seats:
        table, letter = seats[name]
        return SlipLine(index + 1, table, letter, THREE_HANDED_WORD if table in three else "")
    if name in round_.sit_outs:
        return SlipLine(index + 1, None, "", SIT_OUT_MARK[schedule.sit_out_scoring])
    if schedule.departures.get(name, index + 2) <= index + 1:
        return None
    return SlipLine(index + 1, None, "", NOT_HERE_WORD)


_SLIP_COLUMNS = 2
_SLIP_PT = 3.4  # the slip's text in mm; the headings 0.8 of it
_SLIP_WIDTH = PAGE_WIDTH_MM / _SLIP_COLUMNS - 8.0  # inside its 4 mm padding


def _slip_widths(rounds: Sequence[int]) -> tuple[float, ...]:
    """Round, table, seat, four games and the total, in mm: each label column as wide as its heading."""
    head = 0.8 * _SLIP_PT
    labels = [
        max(head * width_em(word), _SLIP_PT * width_em(widest, bold=True)) + 1.5
        for word, widest in (("Round", str(max(rounds, default=1))), ("Table", "888"), ("Seat", "D"))
    ]
    total = max(head * width_em("Total") + 1.5, 13.0)
    game = (_SLIP_WIDTH - sum(labels) - total) / 4
    return tuple(round(w, 2) for w in (*labels, game, game, game, game, total))


def _slip_fixed_mm(slip: Slip, legend: str = SEAT_LEGEND) -> float:
    """A slip's height less its rows: padding, title line, name, the two heading rows, the rules."""
    name = lines_needed(slip.name, _SLIP_WIDTH, 4.2, bold=True) * 1.2 * 4.2 + 1.3
    rules = lines_needed(" ".join((legend + ".", *slip.rules)), _SLIP_WIDTH, 2.5) * 1.25 * 2.5 + 1.0
    return 8.0 + 3.2 + name + 2 * 3.6 + rules + 2.0


def slip_layout(rounds: int, fixed_mm: float = 42.0, most: int = 5) -> tuple[int, float]:
    """(slips down a sheet, row height in mm) for slips of `rounds` rounds: rows tall enough to write in."""
    for down in range(most, 0, -1):
        row = (PAGE_HEIGHT_MM / down - fixed_mm) / (rounds + 1)
        if row >= 7.0:
            return down, round(min(row, 9.0), 2)
    return 1, round(max(3.5, (PAGE_HEIGHT_MM - fixed_mm) / (rounds + 1)), 2)


def slip_sheets(
    schedule: Schedule,
    indexes: range,
    sort_by: str = "first",
    winds: Sequence[str] = DEFAULT_WINDS,
    texts: RuleTexts = GUIDE_TEXTS,
) -> list[SlipSheet]:
    """One slip per player who plays a printed round, in the find-your-table order; a fixed rotation's
    slips say its rule, with the event's wind names."""
    fixed = fixed_rule_of(schedule)
    moves = (rule_words(fixed, tuple(winds)),) if fixed is not None else ()
    slips = []
    seats = {r: schedule.seat_of(r) for r in indexes}
    three = {r: {t.table for t in schedule.rounds[r].tables if len(t.players) == 3} for r in indexes}
    for name in sorted(schedule.players, key=lambda n: sort_key(n, sort_by)):
        lines = tuple(line for r in indexes if (line := _slip_line(schedule, r, name, seats[r], three[r])) is not None)
        if not lines:
            continue
        rules: tuple[str, ...] = moves
        if any(line.three_handed for line in lines):
            rules += ("Shaded: three-handed table. " + texts.three_handed,)
        if any(line.note.startswith("sits out") for line in lines):
            rules += (texts.sit_out_for(schedule),)
        slips.append(Slip(name, lines, rules))
    if not slips:
        return []
    widths = _slip_widths([r + 1 for r in indexes])
    words = [line.note for s in slips for line in s.lines if line.table is None]
    room = sum(widths[1:7]) - 1.0
    note_mm = round(min([0.8 * _SLIP_PT, *(SAFETY * room / width_em(w, bold=True) for w in words)]), 2)
    heights = [_slip_fixed_mm(s, seat_legend(winds)) for s in slips]
    # Each sheet takes as many slips as their own content leaves room for: a sheet of short names and
    # no rules holds more than one of long names and both rules.
    out: list[SlipSheet] = []
    start = 0
    while start < len(slips):
        down = 5
        while True:
            stop = start + _SLIP_COLUMNS * down
            group = slips[start:stop]
            fits, row_mm = slip_layout(max(len(s.lines) for s in group), max(heights[start:stop]), down)
            if fits == down:
                break
            down = fits
        out.append(SlipSheet(tuple(group), _SLIP_COLUMNS, down, row_mm, widths, note_mm))
        start += len(group)
    return out


_SCORE_NAME_MM = 4.5  # 12.75 pt: read at the table, not from across the room
_SCORE_NAME_WIDTH = 0.46 * PAGE_WIDTH_MM - 2.0


def _score_height(sheet: ScoreSheet) -> float:
    """Padding, the heading and legend lines, the table's heading row and rows, the rule, the signature."""
    rule = _note_height(sheet.rule, 3.6, bold=False) + 1.0 if sheet.rule else 0.0
    scoring = _note_height(sheet.scoring, 3.0, bold=False) + 1.0 if sheet.scoring else 0.0
    event = sheet.event_lines * 1.3 * _SCORE_EVENT_MM + (1.0 if sheet.event_lines else 0.0)
    return 5.0 + 8.2 + event + 5.5 + 5.0 + len(sheet.seats) * sheet.row_mm + rule + scoring + 7.5


def score_sheets(
    schedule: Schedule, indexes: range, scoring: str = "", texts: RuleTexts = GUIDE_TEXTS, event: str = ""
) -> list[tuple[ScoreSheet, ...]]:
    """One score sheet per table per round, as many to a printed sheet as fit (rows tall enough to write);
    `scoring`, the event's rules in a line, at the foot of each; each names the event (`event`) whole."""
    sheets = []
    for r in indexes:
        for t in sorted(schedule.rounds[r].tables, key=lambda t: t.table):
            names = max(lines_needed(n, _SCORE_NAME_WIDTH, _SCORE_NAME_MM, bold=True) for n in t.players)
            sheets.append(
                ScoreSheet(
                    r + 1,
                    t.table,
                    tuple(Seat(SEAT_LETTERS[s], n) for s, n in enumerate(t.players)),
                    texts.three_handed if len(t.players) == 3 else "",
                    round(max(12.0, names * 1.2 * _SCORE_NAME_MM + 1.5), 2),
                    scoring,
                    event_lines(heading_of(r + 1, t.table, len(t.players) == 3), event),
                )
            )
    pages: list[list[ScoreSheet]] = []
    used = PAGE_HEIGHT_MM
    for sheet in sheets:
        height = _score_height(sheet)
        if used + height > PAGE_HEIGHT_MM:
            pages.append([])
            used = 0.0
        pages[-1].append(sheet)
        used += height
    return [tuple(page) for page in pages]


# ---- the whole print -------------------------------------------------------------------------


def sheets(schedule: Schedule, options: Options = Options()) -> list[Sheet]:
    parts, indexes = parts_for(schedule, options), round_indexes(schedule, options)
    walls = day_wall_charts(schedule, indexes, options.texts) if "walls" in parts else {}
    out: list[Sheet] = []
    for r in indexes:
        out += [Sheet("wall", chart) for chart in walls.get(r, ())]
        if "lookup" in parts:
            out += [Sheet("lookup", page) for page in lookup_pages(schedule, r, options.sort_by, options.texts)]
    if "slips" in parts:
        slips = slip_sheets(schedule, indexes, options.sort_by, options.winds, options.texts)
        out += [Sheet("slips", sheet) for sheet in slips]
    if "sheets" in parts:
        out += [Sheet("rules", options.rules)] if options.rules else []
        event = event_line(options, schedule)
        out += [
            Sheet("scores", group) for group in score_sheets(schedule, indexes, options.scoring, options.texts, event)
        ]
    if "summary" in parts:
        out.append(Sheet("summary"))
    return out


def expected_pages(schedule: Schedule, options: Options = Options()) -> int:
    return len(sheets(schedule, options))


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    # autoescape=True for every template: names come from the director's file and must never be markup.
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("rotation.printing", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.globals["tool_version"] = tool_version()  # in the page's head: which version printed it
    return environment


def _lines(metrics: Metrics) -> list[str]:
    """The checker's report, one figure per bullet; total repeats are in the table above them."""
    return metrics_lines(metrics)[1:]


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


_FONTS_HERE = "/* fonts: cut to the characters below */"


def qr_svg(url: str) -> str:
    """The QR code of `url` as inline SVG (no text from the director in it: the URL is in the squares)."""
    return segno.make(url, micro=False).svg_inline(omitsize=True, border=0) if url else ""


def render_page(
    schedule: Schedule,
    metrics: Metrics,
    comparison: Comparison,
    options: Options = Options(),
    pages: list[Sheet] | None = None,
) -> str:
    """The whole printable page as one self-contained HTML document, its font inside it; `pages` are
    `sheets(schedule, options)` when the caller has them already."""
    from rotation.printing.pictures import meetings_png, repeats_png  # matplotlib's pyplot-free figures

    pages = sheets(schedule, options) if pages is None else pages
    summary = any(p.kind == "summary" for p in pages)
    matrix = len(schedule.players) <= MATRIX_UP_TO
    heading, event = title_of(options, schedule), event_line(options, schedule)
    page = (
        _environment()
        .get_template("print.html.j2")
        .render(
            title=heading,
            event=event,
            date=options.date,
            schedule=schedule,
            pages=pages,
            page_count=len(pages),
            round_count=len(schedule.rounds),
            legend=seat_legend(options.winds),
            winds=dict(zip(SEAT_LETTERS, options.winds)),
            three_handed_rule=options.texts.three_handed,
            sit_out_rule=options.texts.sit_out_for(schedule),
            metrics=metrics,
            metrics_lines=_lines(metrics),
            comparison=comparison,
            meetings_picture=_data_uri(meetings_png(schedule)) if summary and matrix else "",
            repeats_picture=_data_uri(repeats_png(metrics)) if summary and metrics.repeats else "",
            page_width=PAGE_WIDTH_MM,
            page_height=PAGE_HEIGHT_MM,
            fonts=_FONTS_HERE,
            qr=qr_svg(options.players_url),
        )
    )
    # The font is cut to the characters the page prints, so it is known only once the page is written.
    body = html.unescape(re.sub(r"<[^>]*>", " ", page.split("<body>", 1)[1]))
    return page.replace(_FONTS_HERE, font_face_css(set(body)), 1)
