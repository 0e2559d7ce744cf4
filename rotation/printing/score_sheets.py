"""Table score sheets: one per table per round, as many to a printed sheet as fit with rows to write in.

A sheet records what the event's score page takes (`Options.results`): for game results, one row per game
with the games file's columns (rotation.files.gamesheet: winner, value, how, discarder, exposures,
jokerless, dead, Mah Jongg in error), seat letters and the choices printed in their boxes to be circled;
for points, each seat's points per game and the round's total. The games in a round are the event's
(`Rules.games_per_round`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from models import SEAT_LETTERS, Schedule
from models.games import GAME_COLUMNS, How
from models.rules import Rules
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
    games: int = 4  # games in a round: a row each (game results) or a column each (points)
    results: str = "points"  # what the score page takes: "games" (a row per game) or "points"
    hint: str = ""  # game results: how to fill the boxes, by the event's rules

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
# The player's column: 46% of the sheet beside the points boxes, 40% in the seats' two columns of game results.
_NAME_WIDTH = {"points": 0.46 * PAGE_WIDTH_MM - 2.0, "games": 0.40 * PAGE_WIDTH_MM - 2.0}
_MIN_ROW_MM = {"points": 12.0, "games": 7.5}  # a points row is written in; a seats row only names who sits there
GAMES_HEAD_MM = 8.5  # the games' heading row: two lines of 3.2 mm heads ('MJ in' / 'error')
GAME_ROW_MM = 10.0  # a game's row: two lines of choices to circle, and room to write a value
HINT_MM = 3.0  # the line under the games saying how to fill them in

# The games file's result columns as the sheet heads them, in its order (rotation.files.gamesheet).
RESULT_HEADS = dict(
    zip(
        GAME_COLUMNS[3:],
        ("Winner", "Value", "How", "Discarder", "Exposures", "Jokerless", "Dead", "MJ in error"),
        strict=True,
    )
)
HOW_CHOICES = tuple(how.value for how in How)
COMMON_RULES = Rules()  # printed in the How box, to circle one


def game_hint(rules: Rules) -> str:
    """How a game-result row is filled in, by the event's rules (its values and whether two may win)."""
    winner = "winner, or two on one discard" if rules.two_winners else "winner"
    return (
        f"Circle the seat letters ({winner}; discarder of the winning tile; dead hands; Mah Jongg in error) and "
        f"how the game ended. Value: the hand's, {rules.lowest_value} to {rules.highest_value}. Exposures: the "
        "winner's, 0 to 4. Jokerless: yes or no."
    )


def _score_height(sheet: ScoreSheet) -> float:
    """Padding, the heading and legend lines, the seats, the rule, the scoring line, the signature. Points:
    the table's heading row and a row per seat. Game results: the seats two to a row, then the games'
    heading row, a row per game and the hint."""
    rule = note_height(sheet.rule, 3.6, bold=False) + 1.0 if sheet.rule else 0.0
    scoring = note_height(sheet.scoring, 3.0, bold=False) + 1.0 if sheet.scoring else 0.0
    event = sheet.event_lines * 1.3 * _SCORE_EVENT_MM + (1.0 if sheet.event_lines else 0.0)
    if sheet.results == "games":
        hint = note_height(sheet.hint, HINT_MM, bold=False)
        seats = math.ceil(len(sheet.seats) / 2) * sheet.row_mm + 2.0 + GAMES_HEAD_MM + sheet.games * GAME_ROW_MM + hint
    else:
        seats = 5.0 + len(sheet.seats) * sheet.row_mm
    return 5.0 + 8.2 + event + 5.5 + seats + rule + scoring + 7.5


def score_sheets(
    schedule: Schedule,
    indexes: range,
    scoring: str = "",
    texts: RuleTexts = GUIDE_TEXTS,
    event: str = "",
    results: str = "points",
    rules: Rules = COMMON_RULES,
) -> list[tuple[ScoreSheet, ...]]:
    """One score sheet per table per round, as many to a printed sheet as fit (rows tall enough to write);
    `scoring`, the event's rules in a line, at the foot of each; each names the event (`event`) whole.
    `results` is what the score page takes ("games": a row per game, "points"), `rules` the event's."""
    sheets = []
    width, least = _NAME_WIDTH[results], _MIN_ROW_MM[results]
    hint = game_hint(rules) if results == "games" else ""
    for r in indexes:
        for t in sorted(schedule.rounds[r].tables, key=lambda t: t.table):
            names = max(lines_needed(n, width, _SCORE_NAME_MM, bold=True) for n in t.players)
            sheets.append(
                ScoreSheet(
                    r + 1,
                    t.table,
                    tuple(Seat(SEAT_LETTERS[s], n) for s, n in enumerate(t.players)),
                    texts.three_handed if len(t.players) == 3 else "",
                    round(max(least, names * 1.2 * _SCORE_NAME_MM + 1.5), 2),
                    scoring,
                    event_lines(heading_of(r + 1, t.table, len(t.players) == 3), event),
                    rules.games_per_round,
                    results,
                    hint,
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
