"""Reading what the director gives us, turning every problem into one clear line."""

from __future__ import annotations

import csv
import json
import os
import re
import stat
import tempfile
from pathlib import Path

import click
from pydantic import ValidationError

from models import Event, OddPolicy, Schedule, SitOutScoring
from models.event import MAX_PLAYERS, name_key, normalise_name


class BadInput(click.ClickException):
    """A problem with the director's input: one line on stderr, exit status 2."""

    exit_code = 2


def one_line_error(error: ValueError) -> str:
    return one_line(error) if isinstance(error, ValidationError) else str(error)


def one_line(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    message = first["msg"].removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


MAX_INPUT_BYTES = 10 * 1024 * 1024  # far beyond any names list or schedule; /dev/zero is refused, not read
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # only these end a line: U+2028 inside a name is white space


def read_text(path: str, what: str) -> str:
    try:
        status = os.stat(path)
        if stat.S_ISDIR(status.st_mode):
            raise BadInput(f"{what} file {path!r} is a folder")
        if not stat.S_ISREG(status.st_mode):
            raise BadInput(f"{what} file {path!r} is not a regular file")
        if status.st_size > MAX_INPUT_BYTES:
            raise BadInput(f"{what} file {path!r} is larger than {MAX_INPUT_BYTES // 2**20} MB")
        with open(path, "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
        if len(data) > MAX_INPUT_BYTES:
            raise BadInput(f"{what} file {path!r} is larger than {MAX_INPUT_BYTES // 2**20} MB")
        text = data.decode("utf-8-sig")  # spreadsheet exports often start with a BOM
    except FileNotFoundError:
        raise BadInput(f"{what} file {path!r} does not exist") from None
    except NotADirectoryError:
        raise BadInput(f"{what} file {path!r}: {_file_in_path(path)!r} is not a folder") from None
    except UnicodeDecodeError:
        raise BadInput(f"{what} file {path!r} is not UTF-8 text") from None
    except (OSError, ValueError) as error:
        raise BadInput(f"cannot read {what} file {path!r}: {getattr(error, 'strerror', None) or error}") from None
    if not text.strip():
        raise BadInput(f"{what} file {path!r} is empty")
    return text


def _file_in_path(path: str) -> str:
    """The first part of a path that exists but is not a folder."""
    parts = Path(path).parts
    for end in range(1, len(parts)):
        part = Path(*parts[:end])
        if part.exists() and not part.is_dir():
            return str(part)
    return str(Path(path).parent)


def numbered_lines(text: str) -> list[tuple[int, str]]:
    return list(enumerate(_LINE_BREAK.split(text), start=1))


def read_names(path: str) -> list[str]:
    """One name per line, normalised; blank lines are skipped; two spellings of one name are refused."""
    names: list[str] = []
    first_line: dict[str, tuple[int, str]] = {}
    for number, line in numbered_lines(read_text(path, "names")):
        name = normalise_name(line)
        if not name:
            continue
        key = name_key(name)
        if key in first_line:
            other, spelling = first_line[key]
            spellings = "" if spelling == name else f" (as {spelling!r} and {name!r})"
            raise BadInput(
                f"names file {path!r}, lines {other} and {number}: the name {name!r} appears twice{spellings}"
            )
        first_line[key] = (number, name)
        names.append(name)
    return names


def _fields(line: str, path: str, what: str, number: int) -> list[str]:
    """A line as CSV: names separated by commas; a name with a comma in it is written in double quotes."""
    try:
        rows = list(csv.reader([line], skipinitialspace=True, strict=True))
    except csv.Error as error:
        raise BadInput(f"{what} file {path!r}, line {number}: {error}") from None
    return [normalise_name(field) for field in (rows[0] if rows else [])]


def read_schedule(path: str) -> Schedule:
    text = read_text(path, "schedule")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise BadInput(f"{path}: Invalid JSON: {str(error).splitlines()[0]}") from None
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


def _normalise_schedule_names(data):
    """The names in a schedule file, spelled as every other input spells them (see normalise_name)."""
    if not isinstance(data, dict):
        return data
    names = lambda value: (
        [normalise_name(n) if isinstance(n, str) else n for n in value] if isinstance(value, list) else value
    )
    keyed = lambda value: {normalise_name(k): v for k, v in value.items()} if isinstance(value, dict) else value
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


def read_groups(path: str | None, what: str) -> tuple[tuple[str, ...], ...]:
    """One group per line, names separated by commas (CSV: quote a name that has a comma)."""
    if path is None:
        return ()
    groups = []
    for number, line in numbered_lines(read_text(path, what)):
        if not line.strip():
            continue
        group = tuple(name for name in _fields(line, path, what, number) if name)
        if len(group) < 2:
            raise BadInput(f"{what} file {path!r}, line {number}: a group needs at least two names")
        keys = [name_key(name) for name in group]
        twice = [name for name, key in zip(group, keys) if keys.count(key) > 1]
        if twice:
            raise BadInput(f"{what} file {path!r}, line {number}: {twice[0]!r} is named twice in one group")
        groups.append(group)
    return tuple(groups)


def read_stay(path: str | None) -> dict[str, int]:
    """One player per line: name, table (CSV: quote a name that has a comma)."""
    if path is None:
        return {}
    stay: dict[str, int] = {}
    line_of: dict[str, int] = {}
    for number, line in numbered_lines(read_text(path, "stay")):
        if not line.strip():
            continue
        fields = _fields(line, path, "stay", number)
        if len(fields) != 2 or not fields[0] or not re.fullmatch(r"[0-9]{1,6}", fields[1]):
            raise BadInput(
                f"stay file {path!r}, line {number}: write 'name, table' (quote a name that has a comma), "
                f"got {normalise_name(line)!r}"
            )
        name, key = fields[0], name_key(fields[0])
        if key in line_of:
            raise BadInput(f"stay file {path!r}, line {number}: {name!r} already has a table on line {line_of[key]}")
        line_of[key] = number
        stay[name] = int(fields[1])
    return stay


def _canonical(names, players) -> dict:
    """Request names spelled as the player list spells them ('ann' for 'Ann'); unknown names unchanged."""
    by_key = {name_key(p): p for p in players}
    return {name: by_key.get(name_key(name), name) for name in names}


def make_event(
    players: int | None, names: str | None, rounds: int, odd: str, scoring: str, apart=None, stay=None, spread=None
) -> Event:
    if (players is None) == (names is None):
        raise BadInput("give either --players N or --names FILE")
    apart_groups, spread_groups, stay_tables = (
        read_groups(apart, "apart"),
        read_groups(spread, "spread"),
        read_stay(stay),
    )
    try:
        roster = tuple(read_names(names)) if names is not None else None
        if roster is None:
            assert players is not None  # exactly one of players and names, checked above
            event = Event.with_count(players, rounds, odd=OddPolicy(odd), sit_out_scoring=SitOutScoring(scoring))
            roster = event.players
        spelled = _canonical([n for g in apart_groups + spread_groups for n in g] + list(stay_tables), roster)
        return Event(
            players=roster,
            rounds=rounds,
            odd=OddPolicy(odd),
            sit_out_scoring=SitOutScoring(scoring),
            apart=tuple(tuple(spelled[n] for n in g) for g in apart_groups),
            spread=tuple(tuple(spelled[n] for n in g) for g in spread_groups),
            stay={spelled[n]: t for n, t in stay_tables.items()},
        )
    except ValueError as error:
        raise BadInput(one_line_error(error)) from None


def check_outputs(outputs: dict[str, str | None], inputs: dict[str, str | None]) -> list[tuple[str, str]]:
    """Refuse, before any work, an output that cannot be written or that is an input or another output.

    `outputs` and `inputs` map what the path is ('--json', 'schedule file') to the path. Returns the
    (option, path) pairs to write."""
    chosen = [(what, path) for what, path in outputs.items() if path is not None]
    for what, path in chosen:
        _writable(what, path)
    named = [(what, path) for what, path in inputs.items() if path is not None] + chosen
    for i, (what, path) in enumerate(chosen):
        for other_what, other in named[: len(named) - len(chosen) + i]:
            if _same_file(path, other):
                raise BadInput(f"{what} {path!r} is the same file as the {other_what} {other!r}; choose another name")
    return chosen


def _same_file(a: str, b: str) -> bool:
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)  # hard links
    except OSError:
        return False


def _writable(what: str, path: str) -> None:
    where = f"cannot write {what} {path!r}"
    if not path or path.endswith(("/", os.sep)):
        raise BadInput(f"{where}: not a file name")
    folder = os.path.dirname(path) or "."
    if not os.path.exists(folder):
        raise BadInput(f"{where}: folder {folder!r} does not exist")
    if not os.path.isdir(folder):
        raise BadInput(f"{where}: {_file_in_path(path)!r} is not a folder")
    if os.path.isdir(path):
        raise BadInput(f"{where}: it is a folder")
    if os.path.exists(path) and not os.path.isfile(path):
        raise BadInput(f"{where}: it exists and is not a regular file")
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        longest = 255
    if len(os.path.basename(path).encode("utf-8", "surrogateescape")) > longest:
        raise BadInput(f"{where}: the file name is longer than {longest} bytes")
    try:  # the folder may look writable and still refuse files (/proc, a read-only disk)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".rotation-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as error:
        raise BadInput(f"{where}: {error.strerror or error}") from None


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
    except ValueError:
        raise BadInput(f"{option}: cannot read {text!r}; write 16-64, 16-64/4 or 17,20,23") from None
    if min(sizes) < minimum:
        raise BadInput(f"{option}: sizes must be at least {minimum}, got {min(sizes)}")
    return sizes
