"""Wall charts: each round's tables on as few sheets as the room allows, the names as large as they can be.

One layout (orientation, cards a row, name size) serves the whole day, chosen by measuring every card's height
with the font the page prints in (rotation.printing.typeface).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from models import SEAT_LETTERS, Schedule
from rotation.printing.options import GUIDE_TEXTS, RuleTexts
from rotation.printing.paper import (
    GAP_MM,
    MIN_WALL_PT,
    PART_PT,
    PT_MM,
    RULE_MM,
    head_mm,
    note_height,
    page_size,
    part_mm,
)
from rotation.printing.typeface import SAFETY, NameLines, width_em

_WALL_PT = (36, 32, 28, 26, 24, 22, 21, 20, 19, 18, 17, 16, 15, 14)  # name sizes tried on wall charts, in pt
_WALL_COLUMNS = (1, 2, 3, 4, 5)
_GROW_PT = 0.25  # names grow between the sizes tried, and a long name shrinks alone, by quarter points
_NOTE_PT = 16.0  # the notes under a round's tables: who sits out, who is not here


@dataclass(frozen=True)
class Seat:
    """A seat letter and the name in it, on a wall chart's card or a score sheet."""

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
    part_mm: float = PART_PT
    tag_mm: float = 0.0  # the "three-handed" tag on a card


@dataclass(frozen=True)
class WallLayout:
    """One way to lay a day's wall charts out: the sheet's orientation, cards per row and name size."""

    landscape: bool
    columns: int
    pt: float
    widest_number: str = "99"

    @cached_property
    def card_mm(self) -> float:
        return (page_size(self.landscape)[0] - GAP_MM * (self.columns - 1)) / self.columns

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
    return sum(rows) + GAP_MM * (len(rows) - 1)


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
                grown_full, grown_row = full + row + GAP_MM, heights[stop]
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
        need = note_height(line, note_mm, width)
        if line.startswith("Sitting out"):
            need += note_height(rule, RULE_MM, width, False) + 2.0
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
    three = note_height(texts.three_handed, RULE_MM, width, False) + 2.0 if any(c.three_handed for c in cards) else 0
    heights = [_card_height(card, layout, lines) for card in cards]
    split = _split(heights, layout.columns, height - head_mm(False) - three)
    if split is not None and len(split) > 1:  # the sheets need their "tables 1-12 of 24" line
        split = _split(heights, layout.columns, height - head_mm(True) - three)
    if split is None:
        return None
    parted = len(split) > 1
    note_mm = round(_NOTE_PT * PT_MM, 2)
    last = heights[len(heights) - split[-1] :]
    free = height - head_mm(parted) - three - (_sheet_height(last, layout.columns) + 4.0 if cards else 0.0)
    note_sheets = _note_sheets(notes, rule, free, height - head_mm(True) - 4.0, width, bool(cards))

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
