"""The director's lists read from text: the names (a list, or a table saved from a spreadsheet), the
keep-apart and club groups, and the players who stay. Every front end (the command line's files, the
desk's pasted text and uploads) reads them here; a problem is a ListError that says which line and
why, in words for people, for the front end to place ("names file x.csv, line 3: ..." or beside a form).
"""

from __future__ import annotations

import csv
import io
import re
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from models.event import RequestRefused, name_key, normalise_name
from models.text import checked_name

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # only these end a line: U+2028 inside a name is white space
SEPARATORS = {",": "a comma", ";": "a semicolon", "\t": "a tab"}  # as spreadsheets save a table as text
_EXAMPLE_HEADER = {",": "name,club", ";": "name;club", "\t": "name<tab>club"}
NAME_COLUMN, CLUB_COLUMN, ID_COLUMN = "name", "club", "id"
READ_COLUMNS = (NAME_COLUMN, CLUB_COLUMN, ID_COLUMN)
MAX_ID_CHARACTERS = 40  # a member number, however an association writes it
# 'Surname, First names': one comma and a space after it, as a person writes a name surname first; a
# spreadsheet's row of two columns ('Ann Katz,Hadassah') has no space there and is still refused.
LAST_FIRST = re.compile(r"[^,;\t\"]*[^,;\t\"\s], [^,;\t\"]+")
EXCEL_SEPARATOR_LINE = re.compile(r"\s*sep=(.)\s*", re.IGNORECASE)  # Excel's "sep=;" first line


class ListError(ValueError):
    """A list that cannot be read: `reason` in words for people and the `lines` (counted from 1) it
    is about, none when it is about the whole list."""

    def __init__(self, reason: str, *lines: int):
        self.reason, self.lines = reason, lines
        super().__init__(f"{self.where}: {reason}" if lines else reason)

    @property
    def where(self) -> str:
        """'line 3', 'lines 3 and 5', or '' for the whole list."""
        return lines_text(self.lines)


def lines_text(lines) -> str:
    lines = sorted(set(lines))
    if not lines:
        return ""
    if len(lines) == 1:
        return f"line {lines[0]}"
    return f"lines {', '.join(map(str, lines[:-1]))} and {lines[-1]}"


class NamesTable(BaseModel):
    """The players, in the order listed, with their clubs when the list has a club column."""

    model_config = ConfigDict(frozen=True)

    names: tuple[str, ...]
    clubs: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="Club (as first spelled) -> its players, in the order listed."
    )
    notes: tuple[str, ...] = Field(default=(), description="What was read differently from what was written.")
    ids: dict[str, str] = Field(
        default_factory=dict, description="Name -> member number, from an 'id' column (for sanctioning and records)."
    )

    @property
    def club_groups(self) -> tuple[tuple[str, ...], ...]:
        """The clubs of two or more players: the groups the club spread keeps apart where it can."""
        return tuple(players for players in self.clubs.values() if len(players) > 1)


def filled_lines(text: str) -> list[tuple[int, str]]:
    """The lines that are not blank, numbered from 1 as a spreadsheet counts them."""
    return [(number, line) for number, line in enumerate(_LINE_BREAK.split(text), start=1) if line.strip()]


def read_names_table(text: str) -> NamesTable:
    """One name per line, or a table whose first line names its columns: 'name' (required) and
    'club' (optional) are read, other columns are ignored with a note. The separator (comma,
    semicolon or tab) is the one that makes a 'name' column of the header; fields may be quoted, and
    Excel's 'sep=;' first line and byte-order mark are understood. A list whose lines are split by a
    separator but that has no such header is refused, with a hint."""
    text = text.removeprefix("\ufeff")
    lines = filled_lines(text)
    if not lines:
        raise ListError("the list has no names")
    number, first = lines[0]
    declared = EXCEL_SEPARATOR_LINE.fullmatch(first)
    if declared:
        if len(lines) < 2 or _header_separator(lines[1][1], declared[1]) is None:
            raise ListError(f"after {first.strip()!r}, the next line must name the columns, one of them 'name'", number)
        return _table(text, lines[1][0], declared[1])
    separator = _header_separator(first)
    return _table(text, number, separator) if separator is not None else _plain_list(lines)


def _cells(line: str, separator: str) -> list[str]:
    try:
        return next(csv.reader([line], delimiter=separator, skipinitialspace=True, strict=True), [])
    except csv.Error:
        return []


def _header_separator(line: str, only: str | None = None) -> str | None:
    """The separator that makes a 'name' column of this line, if any: the one giving most columns,
    a comma when the header is 'name' alone (so an unquoted comma below it is a name split in two)."""
    found = []
    for order, separator in enumerate([only] if only else SEPARATORS):
        columns = [_column(cell) for cell in _cells(line, separator)]
        if NAME_COLUMN in columns:
            found.append((len(columns), -order, separator))
    return max(found)[2] if found else None


def _column(cell: str) -> str:
    return normalise_name(cell).casefold()


def _plain_list(lines: list[tuple[int, str]]) -> NamesTable:
    names: list[str] = []
    first_line: dict[str, tuple[int, str]] = {}
    for number, line in lines:
        if LAST_FIRST.fullmatch(line.strip()):  # 'Katz, Ann': one name, written surname first
            names.append(_new_name(normalise_name(line), number, first_line))
            continue
        for separator, word in SEPARATORS.items():
            if sum(bool(cell.strip()) for cell in _cells(line, separator)) > 1:
                raise ListError(
                    f"{_shown(line)} is split by {word}; for a table, start with a line naming the columns, "
                    f"one of them 'name' (e.g. {_EXAMPLE_HEADER[separator]}); a name with {word} goes in double quotes",
                    number,
                )
        cells = [cell for cell in _cells(line, ",") if cell.strip()] if '"' in line or "," in line else [line]
        if not cells:
            raise ListError(f"{_shown(line)}: double quotes must enclose the whole name", number)
        names.append(_new_name(normalise_name(cells[0]), number, first_line))
    return NamesTable(names=tuple(names))


def _shown(line: str, longest: int = 60) -> str:
    line = line.strip()
    return repr(line if len(line) <= longest else line[: longest - 3] + "...")


def _new_name(name: str, number: int, first_line: dict[str, tuple[int, str]]) -> str:
    """The name, refused when too long (models.text.checked_name) or when an earlier line has it (in
    any spelling that is one name)."""
    try:
        name = checked_name(name)
    except ValueError as error:
        raise ListError(str(error), number) from None
    key = name_key(name)
    if key in first_line:
        other, spelling = first_line[key]
        spellings = "" if spelling == name else f" (as {spelling!r} and {name!r})"
        raise ListError(f"the name {name!r} appears twice{spellings}", other, number)
    first_line[key] = (number, name)
    return name


class _Header(NamedTuple):
    width: int
    name: int
    club: int | None
    id: int | None
    ignored: dict[int, str]  # column index -> header, as written


def _header(cells: list[str], number: int) -> _Header:
    columns = [_column(cell) for cell in cells]
    for column in READ_COLUMNS:
        if columns.count(column) > 1:
            raise ListError(f"the header has two {column!r} columns", number)
    club = columns.index(CLUB_COLUMN) if CLUB_COLUMN in columns else None
    member = columns.index(ID_COLUMN) if ID_COLUMN in columns else None
    ignored = {i: normalise_name(cell) for i, cell in enumerate(cells) if columns[i] not in READ_COLUMNS}
    return _Header(len(cells), columns.index(NAME_COLUMN), club, member, ignored)


def _table(text: str, header_line: int, separator: str) -> NamesTable:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator, skipinitialspace=True, strict=True)
    header: _Header | None = None
    names: list[str] = []
    first_line: dict[str, tuple[int, str]] = {}
    clubs: dict[str, tuple[str, list[str]]] = {}  # club key -> (spelling, players)
    ids: dict[str, str] = {}
    id_lines: dict[str, tuple[int, str]] = {}  # member number -> (line, name): each number once
    filled: set[int] = set()  # ignored columns with something in them
    start = 1
    for cells in _rows(reader):
        number, start = start, reader.line_num + 1
        if number < header_line or not any(cell.strip() for cell in cells):
            continue
        if header is None:
            header = _header(cells, number)
            continue
        cells = [normalise_name(cell) for cell in cells]
        _fits(cells, header, separator, number)
        filled |= {i for i in header.ignored if i < len(cells) and cells[i]}
        name = cells[header.name] if header.name < len(cells) else ""
        if not name:
            raise ListError(f"the {NAME_COLUMN!r} column is empty", number)
        names.append(_new_name(name, number, first_line))
        club = cells[header.club] if header.club is not None and header.club < len(cells) else ""
        if club:
            clubs.setdefault(name_key(club), (club, []))[1].append(name)
        member = cells[header.id] if header.id is not None and header.id < len(cells) else ""
        if member:
            _new_id(member, name, number, id_lines)
            ids[name] = member
    if not names:
        raise ListError("the table has no names below its header", header_line)
    assert header is not None  # a name was read below it
    return NamesTable(
        names=tuple(names),
        clubs={spelling: tuple(players) for spelling, players in clubs.values()},
        notes=_ignored_note(header, filled),
        ids=ids,
    )


def _new_id(member: str, name: str, number: int, seen: dict[str, tuple[int, str]]) -> None:
    """A member number belongs to one player and is short enough to be one."""
    if len(member) > MAX_ID_CHARACTERS:
        raise ListError(
            f"{name}'s id {member[:MAX_ID_CHARACTERS]!r}... is longer than {MAX_ID_CHARACTERS} characters", number
        )
    if member in seen:
        line, other = seen[member]
        raise ListError(f"the id {member!r} is given to {other!r} and {name!r}", line, number)
    seen[member] = (number, name)


def _rows(reader):
    """The rows of a table, a csv error turned into one line for people."""
    try:
        yield from reader
    except csv.Error as error:
        line = reader.line_num
        if "end of data" in str(error) or "EOF" in str(error):
            raise ListError("a double quote is not closed", line) from None
        raise ListError(f"a quoted field is followed by more text ({error})", line) from None


def _fits(cells: list[str], header: _Header, separator: str, number: int) -> None:
    """A row with more fields than the header has columns (empty ones apart) is a name split in two."""
    extra = [cell for cell in cells[header.width :] if cell]
    if extra:
        word = SEPARATORS[separator] if separator in SEPARATORS else repr(separator)
        raise ListError(
            f"{len(cells)} fields but the header names {header.width} column{'' if header.width == 1 else 's'}; "
            f"a name or club with {word} in it goes in double quotes",
            number,
        )


def _ignored_note(header: _Header, filled: set[int]) -> tuple[str, ...]:
    shown = [
        repr(title) if title else f"column {i + 1} (no header)"
        for i, title in header.ignored.items()
        if title or i in filled
    ]
    if not shown:
        return ()
    columns = "column" if len(shown) == 1 else "columns"
    return (f"ignored {columns} {', '.join(shown)}: only '{NAME_COLUMN}', '{CLUB_COLUMN}' and '{ID_COLUMN}' are read",)


class GroupLine(NamedTuple):
    """A group of names (apart or club-mates) and the line it was on."""

    line: int
    names: tuple[str, ...]


class StayLine(NamedTuple):
    """A player who keeps one table all day, and the line it was on."""

    line: int
    name: str
    table: int


def read_groups(text: str) -> tuple[GroupLine, ...]:
    """One group per line, names separated by commas (quote a name that has a comma)."""
    groups = []
    for number, line in enumerate(_LINE_BREAK.split(text), start=1):
        if not line.strip():
            continue
        group = tuple(name for name in _fields(line, number) if name)
        if len(group) < 2:
            raise ListError("a group needs at least two names", number)
        keys = [name_key(name) for name in group]
        twice = [name for name, key in zip(group, keys) if keys.count(key) > 1]
        if twice:
            raise ListError(f"{twice[0]!r} is named twice in one group", number)
        groups.append(GroupLine(number, group))
    return tuple(groups)


def read_stays(text: str) -> tuple[StayLine, ...]:
    """One player per line: name, table (quote a name that has a comma)."""
    stays: list[StayLine] = []
    line_of: dict[str, int] = {}
    for number, line in enumerate(_LINE_BREAK.split(text), start=1):
        if not line.strip():
            continue
        fields = _fields(line, number)
        if len(fields) != 2 or not fields[0] or not re.fullmatch(r"[0-9]{1,6}", fields[1]):
            raise ListError(
                f"write 'name, table' (quote a name that has a comma), got {normalise_name(line)!r}", number
            )
        name, key = fields[0], name_key(fields[0])
        if key in line_of:
            raise ListError(f"{name!r} already has a table on line {line_of[key]}", number)
        line_of[key] = number
        stays.append(StayLine(number, name, int(fields[1])))
    return tuple(stays)


def _fields(line: str, number: int) -> list[str]:
    """A line as CSV: names separated by commas; a name with a comma in it is written in double quotes."""
    try:
        rows = list(csv.reader([line], skipinitialspace=True, strict=True))
    except csv.Error as error:
        raise ListError(str(error), number) from None
    return [normalise_name(field) for field in (rows[0] if rows else [])]


def refusal(error: ValueError) -> RequestRefused | None:
    """The request refusal behind an error building an Event (pydantic wraps it), if it is one."""
    cause = error.errors()[0].get("ctx", {}).get("error") if isinstance(error, ValidationError) else error
    return cause if isinstance(cause, RequestRefused) else None


def refused_lines(
    refused: RequestRefused,
    apart: tuple[GroupLine, ...] = (),
    spread: tuple[GroupLine, ...] = (),
    stay: tuple[StayLine, ...] = (),
) -> dict[str, tuple[int, ...]]:
    """The lines of each list ('apart', 'spread', 'stay') holding the requests a refusal names, for the
    lists the Event was built from in order; a list not given (clubs from a names table) is left out."""
    listed: dict[str, tuple[GroupLine, ...] | tuple[StayLine, ...]] = {"apart": apart, "spread": spread, "stay": stay}
    lines: dict[str, list[int]] = {}
    for kind, position in refused.requests:
        if position < len(listed[kind]):
            lines.setdefault(kind, []).append(listed[kind][position].line)
    return {kind: tuple(numbers) for kind, numbers in lines.items()}


def read_winds(text: str) -> tuple[str, ...]:
    """'East, North, West, South': the wind names of seats A to D as the event calls them."""
    winds = tuple(word.strip() for word in text.split(","))
    if len(winds) != 4 or not all(0 < len(wind) <= 12 for wind in winds):
        raise ListError(f"give four names for seats A, B, C and D separated by commas, not {text.strip()!r}")
    return winds
