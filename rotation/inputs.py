"""Reading what the director gives us, turning every problem into one clear line."""

from __future__ import annotations

import os
from pathlib import Path

import click
from pydantic import ValidationError

from models import Event, OddPolicy, Schedule, SitOutScoring


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


def read_text(path: str, what: str) -> str:
    try:
        text = Path(path).read_text(encoding="utf-8-sig")  # spreadsheet exports often start with a BOM
    except FileNotFoundError:
        raise BadInput(f"{what} file {path!r} does not exist") from None
    except IsADirectoryError:
        raise BadInput(f"{what} file {path!r} is a folder") from None
    except UnicodeDecodeError:
        raise BadInput(f"{what} file {path!r} is not UTF-8 text") from None
    except OSError as error:
        raise BadInput(f"cannot read {what} file {path!r}: {error.strerror}") from None
    if not text.strip():
        raise BadInput(f"{what} file {path!r} is empty")
    return text


def read_names(path: str) -> list[str]:
    """One name per line; blank lines are skipped."""
    return [line.strip() for line in read_text(path, "names").splitlines() if line.strip()]


def read_schedule(path: str) -> Schedule:
    text = read_text(path, "schedule")
    try:
        return Schedule.model_validate_json(text)
    except ValidationError as error:
        raise BadInput(f"{path}: {one_line(error)}") from None


def read_groups(path: str | None, what: str) -> tuple[tuple[str, ...], ...]:
    """One group per line, names separated by commas."""
    if path is None:
        return ()
    lines = [line for line in read_text(path, what).splitlines() if line.strip()]
    groups = tuple(tuple(name.strip() for name in line.split(",") if name.strip()) for line in lines)
    for number, group in enumerate(groups, start=1):
        if len(group) < 2:
            raise BadInput(f"{what} file {path!r}, line {number}: a group needs at least two names")
    return groups


def read_stay(path: str | None) -> dict[str, int]:
    """One player per line: name, table."""
    if path is None:
        return {}
    stay = {}
    for number, line in enumerate(read_text(path, "stay").splitlines(), start=1):
        if not line.strip():
            continue
        name, _, table = line.rpartition(",")
        if not name.strip() or not table.strip().isdigit():
            raise BadInput(f"stay file {path!r}, line {number}: write 'name, table', got {line.strip()!r}")
        stay[name.strip()] = int(table)
    return stay


def make_event(
    players: int | None, names: str | None, rounds: int, odd: str, scoring: str, apart=None, stay=None, spread=None
) -> Event:
    if (players is None) == (names is None):
        raise BadInput("give either --players N or --names FILE")
    settings = {
        "odd": OddPolicy(odd),
        "sit_out_scoring": SitOutScoring(scoring),
        "apart": read_groups(apart, "apart"),
        "spread": read_groups(spread, "spread"),
        "stay": read_stay(stay),
    }
    try:
        if names is not None:
            return Event(players=tuple(read_names(names)), rounds=rounds, **settings)
        return Event.with_count(players, rounds, **settings)
    except ValueError as error:
        raise BadInput(one_line_error(error)) from None


def writable(path: str | None) -> str | None:
    """Refuse an output path before any work is done, not after a long solve."""
    if path is None:
        return None
    folder = Path(path).parent
    if not folder.is_dir():
        raise BadInput(f"cannot write {path!r}: folder {str(folder)!r} does not exist")
    if Path(path).is_dir():
        raise BadInput(f"cannot write {path!r}: it is a folder")
    if not os.access(folder, os.W_OK):
        raise BadInput(f"cannot write {path!r}: folder is not writable")
    return path


def parse_sizes(text: str, option: str, minimum: int) -> list[int]:
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
            sizes.extend(range(first, last + 1, stride))
    except ValueError:
        raise BadInput(f"{option}: cannot read {text!r}; write 16-64, 16-64/4 or 17,20,23") from None
    if min(sizes) < minimum:
        raise BadInput(f"{option}: sizes must be at least {minimum}, got {min(sizes)}")
    return sizes
