"""Reading what the director gives us, turning every problem into one clear line."""

from __future__ import annotations

import codecs
import functools
import json
import os
import stat
import sys
from pathlib import Path

import click
from pydantic import ValidationError

from models import Event, OddPolicy, Schedule, SitOutScoring
from models.event import MAX_PLAYERS, name_key, normalise_name
from models.rules import Rules
from rotation.files import lists
from rotation.files.lists import GroupLine, ListError, NamesTable, StayLine, lines_text, read_names_table
from rotation.files.platform_paths import too_long_path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

MAX_RULES_BYTES = 64 * 1024  # a rule sheet is a few hundred bytes


class BadInput(ValueError):
    """A problem with the director's input, said in one line. A plain ValueError, so the library and the
    desk catch it without the command line; the command line says it on stderr with exit status 2
    (rotation.commands.program, the one place it becomes click's error)."""


def one_line_error(error: ValueError) -> str:
    return one_line(error) if isinstance(error, ValidationError) else str(error)


def one_line(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    message = _IN_JSON_WORDS.get(first["type"]) or first["msg"].removeprefix("Value error, ")
    if first["type"] in _IN_JSON_WORDS:
        message += f", not {_json_kind(first['input'])}"
    return f"{where}: {message}" if where else message


# Pydantic's words for a wrong shape name Python types ("a valid dictionary or instance of Schedule",
# "a valid tuple"); a director's file is JSON.
_IN_JSON_WORDS = {
    "model_type": "should be a JSON object {...}",
    "dict_type": "should be a JSON object {...}",
    "tuple_type": "should be a JSON list [...]",
    "list_type": "should be a JSON list [...]",
}


def _json_kind(value) -> str:
    kinds = ((bool, "true or false"), (str, "text"), ((int, float), "a number"), (list, "a list"), (dict, "an object"))
    return "null" if value is None else next((kind for types, kind in kinds if isinstance(value, types)), "that")


MAX_INPUT_BYTES = 10 * 2**20  # far beyond any names list or request file; /dev/zero is refused, not read
# Every schedule file the tool writes: a room at the limits (a million player-rounds) takes about
# 36 bytes a seat plus the name, 40 MB with the default names, and fits with names of up to 25
# characters on average. A longer file is not written (rotation.files.output.schedule_json), so every file
# the tool writes, it reads.
MAX_SCHEDULE_BYTES = 64 * 2**20


def read_text(path: str, what: str, limit: int = MAX_INPUT_BYTES) -> str:
    text = decoded(read_bytes(path, what, limit), f"{what} file {path!r}")
    if not text.strip():
        raise BadInput(f"{what} file {path!r} is empty")
    return text


def read_bytes(path: str, what: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The file's bytes, looked at before it is read (a folder, a device such as /dev/zero, a pipe or a
    file over `limit` is refused) and read with the limit as a cap (a file that grows meanwhile)."""
    too_large = f"{what} file {path!r} is larger than {size_words(limit)}"
    try:
        status = os.stat(path)
        if stat.S_ISDIR(status.st_mode):
            raise BadInput(f"{what} file {path!r} is a folder")
        if not stat.S_ISREG(status.st_mode):
            raise BadInput(f"{what} file {path!r} is not a regular file")
        if status.st_size > limit:
            raise BadInput(too_large)
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except BadInput:
        raise  # a ValueError of our own, said as it is
    except FileNotFoundError:
        raise BadInput(f"{what} file {path!r} {too_long_path(path) or 'does not exist'}") from None
    except NotADirectoryError:
        raise BadInput(f"{what} file {path!r}: {file_in_path(path)!r} is not a folder") from None
    except (OSError, ValueError) as error:
        raise BadInput(f"cannot read {what} file {path!r}: {getattr(error, 'strerror', None) or error}") from None
    if len(data) > limit:
        raise BadInput(too_large)
    return data


def size_words(size: int) -> str:
    """A size in bytes as a person says it: 64 KB, 10 MB."""
    return f"{size // 2**20} MB" if size >= 2**20 else f"{size // 1024} KB"


# UTF-32's little-endian mark starts with UTF-16's: it is looked for first.
_UTF32_MARKS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)
_UTF16_MARKS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def decoded(data: bytes, what: str) -> str:
    """UTF-8, with or without the byte-order mark spreadsheets write; UTF-16 when it starts with its
    byte-order mark (Excel's 'Unicode Text'). UTF-32, and UTF-16 without its mark, are named as such
    rather than read as broken UTF-8."""
    if data.startswith(_UTF32_MARKS):
        raise BadInput(f"{what} is UTF-32 text; save it as UTF-8")
    try:
        if data.startswith(_UTF16_MARKS):
            return data.decode("utf-16")
        if len(data) >= 2 and data.count(0) * 3 >= len(data):  # every other byte zero
            raise BadInput(f"{what} looks like UTF-16 text without its byte-order mark; save it as UTF-8")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadInput(f"{what} is not UTF-8 text (a spreadsheet saves it as 'CSV UTF-8')") from None


def file_in_path(path: str) -> str:
    """The first part of a path that exists but is not a folder."""
    parts = Path(path).parts
    for end in range(1, len(parts)):
        part = Path(*parts[:end])
        if part.exists() and not part.is_dir():
            return str(part)
    return str(Path(path).parent)


def read_names(path: str) -> NamesTable:
    """A names file: one name per line, or a table with a 'name' column (see rotation.files.lists)."""
    try:
        return read_names_table(read_text(path, "names"))
    except ListError as error:
        raise _in_file(error, "names", path) from None


def _in_file(error: ListError, what: str, path: str) -> BadInput:
    where = f", {error.where}" if error.lines else ""
    return BadInput(f"{what} file {path!r}{where}: {error.reason}")


def json_of(text: str):
    """A file's JSON as every reader of the program takes it: a key named twice in one object, NaN or
    Infinity, a number of more digits than any count needs, and nesting deeper than Python's stack are
    refused as ValueError, in words (json alone keeps the last key, takes NaN and says "use
    sys.set_int_max_str_digits()")."""
    try:
        return json.loads(text, object_pairs_hook=_object, parse_constant=_not_json, parse_int=_whole_number)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def read_schedule(path: str) -> Schedule:
    text = read_text(path, "schedule", MAX_SCHEDULE_BYTES)
    try:
        data = json_of(text)
    except ValueError as error:
        raise BadInput(f"{path}: Invalid JSON: {str(error).splitlines()[0]}") from None
    if not isinstance(data, dict):
        raise BadInput(f"{path}: not a schedule: the file holds {_json_kind(data)}, not an object {{...}}")
    try:
        schedule = Schedule.model_validate(_normalise_schedule_names(data))
    except ValidationError as error:
        raise BadInput(f"{path}: {one_line(error)}") from None
    except (ValueError, TypeError, RecursionError) as error:
        raise BadInput(f"{path}: {str(error).splitlines()[0]}") from None
    seen: dict[str, str] = {}
    for name in schedule.players:
        key = name_key(name)
        if key in seen and seen[key] != name:
            raise BadInput(f"{path}: players {seen[key]!r} and {name!r} are the same name")
        seen[key] = name
    return schedule


def read_rules(path: str) -> Rules:
    """The event's rules from a JSON or TOML file (read as JSON when it starts with `{`, else as TOML);
    keys as `models.rules.Rules` names them, any left out keeping its common value."""
    text = read_text(path, "rules", MAX_RULES_BYTES)
    kind = "JSON" if text.lstrip().startswith(("{", "[")) else "TOML"
    try:
        if kind == "JSON":
            data = json_of(text)
        else:
            data = tomllib.loads(text)
    except (ValueError, RecursionError) as error:  # tomllib.TOMLDecodeError is a ValueError
        raise BadInput(f"rules file {path!r}: not valid {kind}: {_first_line(error)}") from None
    if not isinstance(data, dict):
        raise BadInput(f"rules file {path!r}: holds {_json_kind(data)}, not the rules' names and values")
    try:
        return Rules.model_validate(data)
    except ValidationError as error:
        raise BadInput(f"rules file {path!r}: {one_line(error)}") from None


def _first_line(error: Exception) -> str:
    """A parser's message in one line; Python's for a number past its digits' limit in words."""
    text = str(error).splitlines()[0] if str(error) else "nested too deeply"
    return "a number with thousands of digits; none needs more than a few" if "int_max_str_digits" in text else text


def _object(pairs: list[tuple[str, object]]) -> dict:
    """A JSON object, refused when it names a key twice (json would keep the last silently)."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise ValueError(f"the key {key!r} appears twice in one object")
        seen.add(key)
    return dict(pairs)


def _not_json(constant: str):
    raise ValueError(f"{constant} is not a number in JSON")


MAX_DIGITS = 18  # no count in a schedule or a rule comes near; Python would say "use sys.set_int_max_str_digits()"


def _whole_number(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number with {len(digits.lstrip('-'))} digits; none needs more than {MAX_DIGITS}")
    return int(digits)


def _normalise_schedule_names(data):
    """The names in a schedule file, spelled as every other input spells them (see normalise_name)."""
    if not isinstance(data, dict):
        return data
    spelled = functools.cache(normalise_name)  # each name is seated every round: spelled once
    names = lambda value: [spelled(n) if isinstance(n, str) else n for n in value] if isinstance(value, list) else value
    keyed = lambda value: {spelled(k): v for k, v in value.items()} if isinstance(value, dict) else value
    groups = lambda value: [names(g) for g in value] if isinstance(value, list) else value
    data = dict(data)
    for key in ("players",):
        if key in data:
            data[key] = names(data[key])
    for key in ("apart", "spread"):
        if key in data:
            data[key] = groups(data[key])
    for key in ("stay", "arrivals", "departures"):
        if key in data:
            data[key] = keyed(data[key])
    if isinstance(data.get("rounds"), list):
        rounds = []
        for round_ in data["rounds"]:
            if isinstance(round_, dict):
                round_ = dict(round_)
                for key in ("sit_outs", "absent"):
                    if key in round_:
                        round_[key] = names(round_[key])
                if isinstance(round_.get("tables"), list):
                    round_["tables"] = [
                        {**t, "players": names(t["players"])} if isinstance(t, dict) and "players" in t else t
                        for t in round_["tables"]
                    ]
            rounds.append(round_)
        data["rounds"] = rounds
    if isinstance(data.get("corrections"), list):
        data["corrections"] = [
            {**c, "players": names(c["players"])} if isinstance(c, dict) and "players" in c else c
            for c in data["corrections"]
        ]
    return data


def read_groups(path: str | None, what: str) -> tuple[GroupLine, ...]:
    """One group per line, names separated by commas (CSV: quote a name that has a comma)."""
    if path is None:
        return ()
    try:
        return lists.read_groups(read_text(path, what))
    except ListError as error:
        raise _in_file(error, what, path) from None


def read_stay(path: str | None) -> tuple[StayLine, ...]:
    """One player per line: name, table (CSV: quote a name that has a comma)."""
    if path is None:
        return ()
    try:
        return lists.read_stays(read_text(path, "stay"))
    except ListError as error:
        raise _in_file(error, "stay", path) from None


def _canonical(names, players) -> dict:
    """Request names spelled as the player list spells them ('ann' for 'Ann'); unknown names unchanged."""
    by_key = {name_key(p): p for p in players}
    return {name: by_key.get(name_key(name), name) for name in names}


def make_event(
    players: int | None, names: str | None, rounds: int, odd: str, scoring: str, apart=None, stay=None, spread=None
) -> Event:
    """The room and the requests from the command line's options; notes on the names file go to stderr."""
    if (players is None) == (names is None):
        raise BadInput("give either --players N or --names FILE")
    apart_lines, spread_lines, stay_lines = read_groups(apart, "apart"), read_groups(spread, "spread"), read_stay(stay)
    table = read_names(names) if names is not None else None
    clubs = table.club_groups if table is not None else ()
    if clubs and spread is not None:
        raise BadInput(f"names file {names!r} has a club column: give the clubs there or with --spread, not both")
    try:
        roster = table.names if table is not None else _numbered(players, rounds, odd, scoring)
        requested = [n for g in apart_lines + spread_lines for n in g.names] + [s.name for s in stay_lines]
        spelled = _canonical(requested, roster)
        event = Event(
            players=roster,
            rounds=rounds,
            odd=OddPolicy(odd),
            sit_out_scoring=SitOutScoring(scoring),
            apart=tuple(tuple(spelled[n] for n in g.names) for g in apart_lines),
            spread=tuple(tuple(spelled[n] for n in g.names) for g in spread_lines) or clubs,
            stay={spelled[s.name]: s.table for s in stay_lines},
            ids=table.ids if table is not None else {},
        )
    except ValueError as error:
        files = {"apart": (apart, apart_lines), "spread": (spread, spread_lines), "stay": (stay, stay_lines)}
        raise BadInput(_located(error, files)) from None
    for note in table.notes if table is not None else ():
        click.echo(f"rotation: names file {names!r}: {note}", err=True)
    return event


def _numbered(players: int | None, rounds: int, odd: str, scoring: str) -> tuple[str, ...]:
    assert players is not None  # exactly one of --players and --names, checked first
    return Event.with_count(players, rounds, odd=OddPolicy(odd), sit_out_scoring=SitOutScoring(scoring)).players


def _located(error: ValueError, files: dict) -> str:
    """The message, led by the file and lines of the requests it refuses (stay file 's.txt', line 2)."""
    refused = lists.refusal(error)
    if refused is None:
        return one_line_error(error)
    listed = {kind: lines for kind, (path, lines) in files.items() if path is not None}
    where = "; ".join(
        f"{kind} file {files[kind][0]!r}, {lines_text(numbers)}"
        for kind, numbers in lists.refused_lines(refused, **listed).items()
    )
    return f"{where}: {refused}" if where else str(refused)


def parse_sizes(text: str, option: str, minimum: int, maximum: int = MAX_PLAYERS) -> list[int]:
    """'16-64' (every count), '16-64/4' (every fourth) or '17,20,23', or a mix: '8,16-24/4'."""
    sizes: list[int] = []
    try:
        for part in text.split(","):
            span, _, step = part.strip().partition("/")
            low, _, high = span.partition("-")
            first, last = int(low), int(high or low)
            stride = int(step or 1)
            if stride < 1 or last < first:
                raise ValueError
            if last > maximum:
                raise BadInput(f"{option}: sizes must be at most {maximum}, got {last}")
            sizes.extend(range(first, last + 1, stride))
    except BadInput:
        raise  # a ValueError of our own, said as it is
    except ValueError:
        raise BadInput(f"{option}: cannot read {text!r}; write 16-64, 16-64/4 or 17,20,23") from None
    if min(sizes) < minimum:
        raise BadInput(f"{option}: sizes must be at least {minimum}, got {min(sizes)}")
    return sizes
