"""An event moved to another computer: exported to one file with everything, imported whole.

The file is JSON: every row the event has in the desk's tables (settings, every schedule version with
its figures, the planning runs whose proposals are open, the room with its public id and timer, the
rounds released and every score card with its corrections), each row as its columns. An import
checks every part before it stores anything (each schedule by the independent checker, each card and
released seating by its model) and then stores the event in one transaction, with new numbers; the
room keeps its public id, so the QR codes already printed still reach the players' page, unless the
other desk has an event with that id already.
"""

from __future__ import annotations

import json
import re

from pydantic import BaseModel, ValidationError

import optimizer
from models import Round, Schedule
from models.scores import Card
from rotation.desk.events.service import DeskError, load_event
from rotation.desk.events.settings import EventSettings
from rotation.desk.room.service import new_public_id
from rotation.desk.storage import (
    EVENT_TABLES,
    SCHEMA_VERSION,
    Figures,
    RunKind,
    RunProgress,
    Store,
    VersionKind,
    now,
    run_request,
)

FORMAT = "rotation-desk-event"
FORMAT_VERSION = 1


class EventFile(BaseModel):
    """The exported file's envelope; `rows` maps each table to the event's rows in it."""

    format: str
    format_version: int
    schema_version: int
    exported: str
    title: str
    rows: dict[str, list[dict]]


def export_event(store: Store, event_id: int) -> bytes:
    """The event whole, as the file's bytes."""
    event = load_event(store, event_id)
    exported = EventFile(
        format=FORMAT,
        format_version=FORMAT_VERSION,
        schema_version=SCHEMA_VERSION,
        exported=now(),
        title=event.settings.title,
        rows=store.event_rows(event_id),
    )
    return exported.model_dump_json(indent=1).encode()


def file_name(store: Store, event_id: int) -> str:
    """event-3-spring-open.rotation.json: the event's number and title, safe on every system."""
    title = load_event(store, event_id).settings.title
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:40]
    return f"event-{event_id}{'-' + slug if slug else ''}.rotation.json"


def import_event(store: Store, data: bytes) -> int:
    """An exported event as a new event of this desk, checked whole first, stored in one transaction."""
    try:
        exported = EventFile.model_validate_json(data)
    except ValidationError:
        raise DeskError("this is not an event exported by the desk (a .rotation.json file)", status=422) from None
    if exported.format != FORMAT or exported.format_version > FORMAT_VERSION:
        raise DeskError("this file was exported by a newer desk, or is not an exported event", status=422)
    rows = {table: exported.rows.get(table, []) for table in ("events", *EVENT_TABLES)}
    _check(rows)
    return store.add_event_rows(rows, new_public_id)


def _check(rows: dict[str, list[dict]]) -> None:
    """Refuse the file, in one line, unless every part of it is what the desk stores."""
    if len(rows["events"]) != 1:
        raise DeskError("the file holds no event", status=422)
    try:
        EventSettings.model_validate(json.loads(rows["events"][0]["settings"]))
        ids = {row["id"] for row in rows["versions"]}
        for row in rows["versions"]:
            optimizer.check(Schedule.model_validate_json(row["schedule"]))
            Figures.model_validate_json(row["figures"])
            VersionKind(row["kind"])
            if row["parent"] is not None and row["parent"] not in ids:
                raise ValueError(f"version {row['id']} names a version the file does not hold")
        current = rows["events"][0].get("current_version")
        if current is not None and current not in ids:
            raise ValueError("the current schedule is not in the file")
        for row in rows["runs"]:
            run_request(row["id"], RunKind(row["kind"]), row["request"])
            RunProgress.model_validate_json(row["progress"])
        for row in rows["releases"]:
            Round.model_validate_json(row["seating"])
        for row in rows["cards"]:
            Card.model_validate_json(row["card"])
    except (KeyError, TypeError, ValueError, ValidationError, optimizer.InvalidSchedule) as error:
        first = str(error).splitlines()[0]
        raise DeskError(f"the file is damaged, nothing was imported: {first}", status=422) from None
