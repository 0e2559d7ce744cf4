"""What a director reads and what a spreadsheet opens: text, CSV and JSON, written atomically."""

from __future__ import annotations

import csv
import io
import os
import tempfile
from pathlib import Path

import click

from models import SEAT_LETTERS, Metrics, Schedule
from rotation.inputs import BadInput


def seating_text(schedule: Schedule) -> str:
    lines = []
    scoring = schedule.sit_out_scoring.value
    for number, round_ in enumerate(schedule.rounds, start=1):
        lines.append(f"Round {number}")
        for table in round_.tables:
            seats = "  ".join(f"{SEAT_LETTERS[s]} {name}" for s, name in enumerate(table.players))
            mark = "  (three-handed)" if len(table.players) == 3 else ""
            lines.append(f"  Table {table.table:>3}  {seats}{mark}")
        if round_.sit_outs:
            lines.append(f"  Sitting out (scores {scoring}): {', '.join(round_.sit_outs)}")
        if round_.absent:
            lines.append(f"  Not here: {', '.join(round_.absent)}")
    return "\n".join(lines)


def metrics_text(metrics: Metrics, spread: bool = False) -> str:
    three = [p.three_handed_rounds for p in metrics.players]
    out = [p.sit_out_rounds for p in metrics.players]
    lines = [
        f"Repeats (E): {metrics.repeats}   most meetings of one pair: {metrics.max_meetings}",
        f"Distinct opponents per player: min {metrics.opponents_min}, mean {metrics.opponents_mean:g}",
        f"Worst-off player's repeats: {metrics.worst_player_repeats}",
    ]
    if any(three):
        lines.append(f"Three-handed rounds per player: {min(three)}-{max(three)}" + _fair(metrics.three_handed_fair))
    if any(out):
        lines.append(f"Sat-out rounds per player: {min(out)}-{max(out)}" + _fair(metrics.sit_outs_fair))
    if spread:
        lines.append(f"Club-mates sharing a table (spread request): {metrics.club_meetings} times")
    return "\n".join(lines)


def _fair(fair: bool) -> str:
    return " (shared in turn)" if fair else " (not shared in turn)"


def schedule_csv(schedule: Schedule) -> str:
    """One row per player, one column per round: table and seat like '3A', or the sit-out mark."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["player"] + [f"round {r}" for r in range(1, len(schedule.rounds) + 1)])
    seats = [schedule.seat_of(r) for r in range(len(schedule.rounds))]
    scoring = schedule.sit_out_scoring.value
    for name in schedule.players:
        writer.writerow([name] + [_cell(name, seats[r], schedule.rounds[r], scoring) for r in range(len(seats))])
    return buffer.getvalue()


def _cell(name: str, seat_of: dict[str, tuple[int, str]], round_, scoring: str) -> str:
    if name in seat_of:
        table, letter = seat_of[name]
        return f"{table}{letter}"
    return f"sit out (scores {scoring})" if name in round_.sit_outs else "not here"


def schedule_json(schedule: Schedule) -> str:
    return schedule.model_dump_json(indent=2) + "\n"


class StdoutLost(Exception):
    """The report could not be printed (a closed pipe, a full disk); the files were already written."""

    def __init__(self, error: OSError):
        super().__init__(error.strerror or str(error))
        self.error = error


def say(text: str = "") -> None:
    """Print the report on standard output; a closed or full stdout becomes StdoutLost, not a traceback."""
    try:
        click.echo(text)
    except OSError as error:
        raise StdoutLost(error) from None


def write_outputs(files: list[tuple[str, str | bytes]]) -> None:
    """Write a set of outputs all or nothing: each to a temporary file in its target folder, then
    every one renamed into place. On any failure every temporary (and any output already renamed)
    is removed, so no output of the set is left, and BadInput says why in one line. Then one line
    `wrote FILE` per output on stderr, after it is written."""
    temporaries: list[str] = []
    renamed: list[str] = []
    current = ""
    try:
        for path, content in files:
            current = path
            folder = os.path.dirname(path) or "."
            fd, temporary = tempfile.mkstemp(dir=folder, prefix=".rotation-", suffix=".tmp")
            temporaries.append(temporary)
            mode = "wb" if isinstance(content, bytes) else "w"
            with os.fdopen(fd, mode, **({} if mode == "wb" else {"encoding": "utf-8", "newline": ""})) as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())  # a full disk shows here at the latest, not after the rename
            os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes files private; outputs are for sharing
        for (path, _), temporary in zip(files, temporaries):
            current = path
            os.replace(temporary, path)
            renamed.append(path)
    except BaseException as error:
        for leftover in temporaries + renamed:
            try:
                os.unlink(leftover)
            except OSError:
                pass
        if isinstance(error, (OSError, UnicodeError)):
            reason = getattr(error, "strerror", None) or str(error)
            raise BadInput(f"cannot write {current!r}: {reason}; no output written") from None
        raise
    for path, _ in files:
        try:
            click.echo(f"wrote {path}", err=True)
        except OSError:
            pass  # stderr closed: the files are written all the same


def write_atomically(path: Path, text: str | bytes) -> None:
    """One output alone: see write_outputs."""
    write_outputs([(str(path), text)])


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
