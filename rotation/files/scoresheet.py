"""The score sheet a spreadsheet user fills in: one line per round, table, game and seated player.

`template_csv` writes it empty from the schedule; `read_scoresheet` reads it back as saved by a
spreadsheet (comma, semicolon or tab separated, quoted fields, a byte-order mark, Excel's `sep=` line,
any line ending) into the tables' cards, checked against the schedule by `scoring.card`. A problem is a
ListError naming the line, in words for people.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from typing import NamedTuple

from models import SEAT_LETTERS, Schedule
from models.event import name_key, normalise_name
from models.scores import GAMES_PER_ROUND, Card
from rotation import scoring
from rotation.files.lists import EXCEL_SEPARATOR_LINE, SEPARATORS, ListError, filled_lines
from rotation.files.output import FORMULA_STARTS, csv_text
from rotation.scoring.cards import table_of

COLUMNS = ("round", "table", "game", "seat", "player", "points")
READ = ("round", "table", "game", "player", "points")  # the seat is for the reader; the player decides


def template_csv(schedule: Schedule, games: int = GAMES_PER_ROUND) -> str:
    """The empty sheet: every round, table, game 1 to `games` and seated player, points left blank."""
    rows: list[list[str | int]] = [list(COLUMNS)]
    for number, round_ in enumerate(schedule.rounds, start=1):
        for table in sorted(round_.tables, key=lambda t: t.table):
            for game in range(1, games + 1):
                rows += [[number, table.table, game, SEAT_LETTERS[s], name, ""] for s, name in enumerate(table.players)]
    return csv_text(rows)


class Scoresheet(NamedTuple):
    """The cards a sheet holds (the tables with any points entered) and what was read differently."""

    cards: tuple[Card, ...]
    notes: tuple[str, ...]


class _Box(NamedTuple):
    line: int
    text: str


def read_scoresheet(schedule: Schedule, text: str, games: int = GAMES_PER_ROUND) -> Scoresheet:
    """The cards of a filled-in sheet. A table whose points are all blank is not entered yet; a later
    line with points for the same round, table, game and player is a correction: it replaces the
    earlier one (a note says so), it is never added to it."""
    header, rows = sheet_rows(text, READ, most_lines(schedule, games * len(SEAT_LETTERS)))
    on_schedule = place_check(schedule)
    boxes: dict[tuple[int, int], dict[str, dict[int, _Box]]] = {}
    spelling: dict[str, str] = {}
    notes: list[str] = []
    for line, cells in rows:
        where, name, points = _line(cells, header, line, games)
        on_schedule(where, line)
        spelling.setdefault(name_key(name), name)
        player = boxes.setdefault(where[:2], {}).setdefault(name_key(name), {})
        earlier = player.get(where[2])
        if earlier is not None and earlier.text and not points:
            continue  # a blank line below a filled one changes nothing
        if earlier is not None and earlier.text and points != earlier.text:
            notes.append(
                f"line {line} corrects line {earlier.line} (round {where[0]}, table {where[1]}, game {where[2]}, "
                f"{name}: {earlier.text} -> {points})"
            )
        player[where[2]] = _Box(line, points)
    # Read down the sheet, so the first problem reported is the first one a reader meets.
    entered = sorted((_first_line(played), key, played) for key, played in boxes.items() if _entered(played))
    cards = sorted(
        (_card(schedule, key, table, spelling, games) for _, key, table in entered), key=lambda c: (c.round, c.table)
    )
    return Scoresheet(tuple(cards), tuple(notes))


def _first_line(games: dict[str, dict[int, _Box]]) -> int:
    return min(box.line for boxes in games.values() for box in boxes.values())


def _entered(games: dict[str, dict[int, _Box]]) -> bool:
    return any(box.text for player in games.values() for box in player.values())


def _card(
    schedule: Schedule, key: tuple[int, int], games: dict[str, dict[int, _Box]], spelling: dict[str, str], count: int
):
    entries = {
        spelling[player]: [boxes[g].text if g in boxes else None for g in range(1, count + 1)]
        for player, boxes in games.items()
    }
    try:
        return scoring.card(schedule, key[0], key[1], entries, count)
    except scoring.CardRefused as refused:
        problem = refused.problems[0]
        player = games.get(name_key(problem.player or ""), {})
        if problem.game is not None:  # the box's line, or none: a missing game's line is not there
            lines: tuple[int, ...] = (player[problem.game].line,) if problem.game in player else ()
        else:
            lines = tuple(box.line for box in player.values()) or (_first_line(games),)
        raise ListError(str(refused), *lines) from None


def sheet_kind(text: str) -> str:
    """'games' for a games file (its header names `how`), 'points' for a score sheet, read as `sheet_rows` does."""
    try:
        header, _ = sheet_rows(text, ("how",))
    except ListError:
        return "points"
    return "games" if "how" in header else "points"


def sheet_rows(
    text: str, required: tuple[str, ...], most_lines: int | None = None
) -> tuple[dict[str, int], Iterator[tuple[int, list[str]]]]:
    """The header (column -> index) and (line, cells) of every line below it that is not blank, read one
    by one as they are asked for (a problem on line 2 is found without reading the rest); the header is
    the first line (after Excel's `sep=` line) and must name the `required` columns. A text of more than
    `most_lines` lines is refused before any of it is read."""
    text = text.removeprefix("\ufeff")
    breaks = max(text.count("\n"), text.count("\r"))  # every line ends in a break of one kind, but the last
    found = breaks + (not text.endswith(("\n", "\r")))  # as an editor counts them: a last break opens none
    if most_lines is not None and found > most_lines:
        raise ListError(
            f"the sheet has {found} lines, more than this day's tables can fill ({most_lines} at most: every "
            "line of every table twice over)"
        )
    lines = filled_lines(text[:HEAD])  # the header is on the first or second line that is not blank
    if not lines:
        raise ListError("the sheet is empty")
    declared = EXCEL_SEPARATOR_LINE.fullmatch(lines[0][1])
    header_at, first = lines[1] if declared and len(lines) > 1 else lines[0]
    separator = _separator(first, declared[1] if declared else None, header_at, required)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator, skipinitialspace=True, strict=True)
    header: dict[str, int] = {}
    start = 1
    try:
        for cells in reader:
            line, start = start, reader.line_num + 1
            if line >= header_at and any(cell.strip() for cell in cells):
                header = {_unformula(normalise_name(c)).casefold(): i for i, c in enumerate(cells)}
                break
    except csv.Error:
        raise ListError("a double quote is not closed, or a quoted field is followed by more text", start) from None
    return header, _rows_below(reader, start)


HEAD = 64 * 1024  # where a sheet's header is looked for: its first lines


def _rows_below(reader, start: int) -> Iterator[tuple[int, list[str]]]:
    try:
        for cells in reader:
            line, start = start, reader.line_num + 1
            if any(cell.strip() for cell in cells):
                yield line, cells
    except csv.Error:
        raise ListError("a double quote is not closed, or a quoted field is followed by more text", start) from None


def most_lines(schedule: Schedule, per_table: int) -> int:
    """The longest sheet a day can fill: `per_table` lines for each table of each round, every one of them
    written twice over (corrections), and a thousand lines more (blank lines, notes)."""
    return 3 * per_table * sum(len(round_.tables) for round_ in schedule.rounds) + 1000


def place_check(schedule: Schedule) -> Callable[[tuple[int, int, int], int], None]:
    """A check of each line's round and table against the schedule as the line is read: ListError at that
    line for a round or table the day does not have (the rest of the sheet is not read)."""
    places = {(number, table.table) for number, round_ in enumerate(schedule.rounds, 1) for table in round_.tables}

    def check(where: tuple[int, int, int], line: int) -> None:
        if where[:2] not in places:
            try:
                table_of(schedule, where[0], where[1])
            except scoring.CardRefused as refused:
                raise ListError(str(refused), line) from None

    return check


MAX_NUMBER_DIGITS = 6  # no day has a million rounds, tables or games


def sheet_number(text: str, column: str, line: int) -> int:
    """A round, table or game as typed: ASCII digits, at most `MAX_NUMBER_DIGITS` of them."""
    if not (text.isdecimal() and text.isascii()):
        raise ListError(f"the {column} is {_shortened(text)!r}, not a number", line)
    if len(text) > MAX_NUMBER_DIGITS:
        raise ListError(f"the {column} is a number of {len(text)} digits: no day has that many", line)
    return int(text)


def _shortened(text: str) -> str:
    return text if len(text) <= 40 else text[:40] + "..."


def _separator(line: str, only: str | None, number: int, required: tuple[str, ...]) -> str:
    """The separator that makes the sheet's columns of its first line."""
    for separator in [only] if only else SEPARATORS:
        cells = next(csv.reader([line], delimiter=separator, skipinitialspace=True), [])
        if set(required) <= {normalise_name(cell).casefold() for cell in cells}:
            return separator
    columns = ", ".join(required)
    raise ListError(f"the first line must name the columns {columns} (as the template writes them)", number)


def _line(cells: list[str], header: dict[str, int], line: int, games: int) -> tuple[tuple[int, int, int], str, str]:
    """((round, table, game), player, points as typed) of one line of the sheet."""
    cell = {column: normalise_name(cells[header[column]]) if header[column] < len(cells) else "" for column in READ}
    numbers = [sheet_number(cell[column], column, line) for column in ("round", "table", "game")]
    if not 1 <= numbers[2] <= games:
        raise ListError(f"game {numbers[2]}: a round has games 1 to {games}", line)
    name = _unformula(cell["player"])
    if not name:
        raise ListError("the player is empty", line)
    return (numbers[0], numbers[1], numbers[2]), name, cell["points"]


def _unformula(cell: str) -> str:
    """A name as written before spreadsheet_cell made it text ("'=Bo" is "=Bo")."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell
