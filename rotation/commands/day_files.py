"""A day's file read only once the checker passes it, and a schedule written only once it is checked."""

from __future__ import annotations

import optimizer
from models import Metrics, Schedule
from rotation.commands.options import ScheduleOutputs
from rotation.files.inputs import BadInput, read_schedule
from rotation.files.output import (
    EXCEL_BOM,
    metrics_text,
    schedule_csv,
    schedule_csv_long,
    schedule_json,
    seating_text,
    with_provenance,
)
from rotation.files.writing import say, write_outputs


def read_checked(path: str) -> Schedule:
    """A schedule file that passes the checker, or BadInput saying what is wrong."""
    schedule = read_schedule(path)
    try:
        optimizer.check(schedule)
    except optimizer.InvalidSchedule as error:
        raise BadInput(f"{path}: invalid schedule: {error}") from None
    return schedule


def emit(
    schedule: Schedule,
    files: list[tuple[str, str]],
    output: ScheduleOutputs | None = None,
    *,
    provenance: dict | None = None,
    figures: bool = True,
    checked: Metrics | None = None,
) -> None:
    """Check, write every output (all or nothing), then print. Nothing reaches the director unchecked,
    and a closed or full stdout cannot lose the files: they are written before the report. The seating
    is printed only when nothing is written and --quiet is not given (`output` None: a certificate, written
    only); the figures unless `figures` is False. `checked`: the checker's metrics of this very schedule
    (a plan's result, checked before it was kept), so that it is not checked twice (a second at the room
    limits, after a stop too)."""
    metrics = checked if checked is not None else optimizer.check(schedule)
    stamped = with_provenance(schedule, metrics, **provenance) if provenance is not None else schedule
    bom = EXCEL_BOM if output is not None and output.excel else ""
    render = {
        "--json": lambda: schedule_json(stamped),
        "--csv": lambda: bom + schedule_csv(schedule),
        "--csv-long": lambda: bom + schedule_csv_long(schedule),
    }
    write_outputs([(path, render[what]()) for what, path in files])
    if output is not None and not output.quiet and not files:
        say(seating_text(schedule))
        say()
    if figures:
        say(metrics_text(metrics, schedule))
