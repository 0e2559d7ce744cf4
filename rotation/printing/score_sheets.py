"""Table score sheets: one per table per round, as many to a printed sheet as fit with rows to write in."""

from __future__ import annotations

from dataclasses import dataclass

from models import SEAT_LETTERS, Schedule
from rotation.printing.options import GUIDE_TEXTS, RuleTexts
from rotation.printing.paper import PAGE_HEIGHT_MM, PAGE_WIDTH_MM, note_height
from rotation.printing.typeface import SAFETY, lines_needed, width_em
from rotation.printing.walls import Seat


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
    """'Round 3 · Table 12', and ' · three-handed' at a table of three."""
    return f"Round {round_number} · Table {table}" + (" · three-handed" if three_handed else "")


_SCORE_HEADING_MM, _SCORE_EVENT_MM = 6.0, 3.6  # the heading's bold type, the event's beside or under it


def event_lines(heading: str, event: str) -> int:
    """0 when the event's title and date fit whole beside a score sheet's heading (4 mm apart), else the
    lines they take under it: a title is never cut."""
    beside = width_em(heading, bold=True) * _SCORE_HEADING_MM + 4.0 + width_em(event) * _SCORE_EVENT_MM
    return 0 if beside <= SAFETY * PAGE_WIDTH_MM else lines_needed(event, PAGE_WIDTH_MM, _SCORE_EVENT_MM)


_SCORE_NAME_MM = 4.5  # 12.75 pt: read at the table, not from across the room
_SCORE_NAME_WIDTH = 0.46 * PAGE_WIDTH_MM - 2.0


def _score_height(sheet: ScoreSheet) -> float:
    """Padding, the heading and legend lines, the table's heading row and rows, the rule, the signature."""
    rule = note_height(sheet.rule, 3.6, bold=False) + 1.0 if sheet.rule else 0.0
    scoring = note_height(sheet.scoring, 3.0, bold=False) + 1.0 if sheet.scoring else 0.0
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
