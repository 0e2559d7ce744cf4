"""Find your table: a round's players in alphabetical order with their table and seat, in columns."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import pyuca

from models import Schedule
from rotation.printing.options import GUIDE_TEXTS, RuleTexts
from rotation.printing.paper import GAP_MM, PART_PT, PT_MM, RULE_MM, head_mm, note_height, page_size, part_mm
from rotation.printing.typeface import SAFETY, NameLines, width_em

_LOOKUP_PT = (24, 20, 18, 16, 14)
THREE_MARK = "*"  # after the table number in the find-your-table list


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
    part_mm: float = PART_PT
    table_em: float = 3.0  # the table and seat columns, in ems of font_mm
    seat_em: float = 2.6
    three_rule: str = ""  # the three-handed rule, when a table of three is on the page
    landscape: bool = False


@lru_cache(maxsize=1)
def _collator() -> pyuca.Collator:
    return pyuca.Collator()  # the Unicode Collation Algorithm's default table: Ł with L, é with e


def shown_name(name: str, sort_by: str = "first") -> str:
    """The name as a list sorted by surname shows it: "Kierkegaard, Mei-Ling"."""
    words = name.split()
    return f"{words[-1]}, {' '.join(words[:-1])}" if sort_by == "surname" and len(words) > 1 else name


def sort_key(name: str, sort_by: str = "first") -> tuple:
    """Alphabetical as a reader expects (the Unicode collation: accents, case and Ł do not move a name)."""
    collate = _collator().sort_key
    return (collate(shown_name(name, sort_by)), name)


def lookup_entries(schedule: Schedule, index: int, sort_by: str = "first") -> list[LookupEntry]:
    """A round's players with their table and seat (or "out"), in the reader's alphabetical order; the
    projector's find-your-table list on the desk is the same."""
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
        column = (page_size(self.landscape)[0] - GAP_MM * (self.columns - 1)) / self.columns
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
        height = page_size(layout.landscape)[1] - head_mm(True) - rules_mm  # the head says "find your table"
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
    rules = (note_height("out = sits out this round. " + rule, RULE_MM, bold=False) + 2.0 if rule else 0.0) + (
        note_height(three, RULE_MM, bold=False) + 2.0 if three else 0.0
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
