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

import re
import sqlite3
from typing import IO, Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from rotation.desk.data.rows import EventRows, first_problem
from rotation.desk.events.service import DeskError, load_event
from rotation.desk.room.service import new_public_id
from rotation.desk.storage import EVENT_TABLES, SCHEMA_VERSION, Store, now
from rotation.desk.storage.whole import AlreadyHere

FORMAT = "rotation-desk-event"
FORMAT_VERSION = 1
_VALUE: TypeAdapter[Any] = TypeAdapter(Any)  # a row's columns, serialized as EventFile's dict values are


class EventFile(BaseModel):
    """The exported file's envelope; `rows` maps each table to the event's rows in it."""

    format: str
    format_version: int
    schema_version: int
    exported: str
    title: str
    rows: dict[str, list[dict]]


def write_event(store: Store, event_id: int, out: IO[bytes]) -> str:
    """The event whole, written to `out` row by row from one read transaction (a consistent snapshot
    while the desk goes on changing), so an event of any size is never held whole; returns the file's
    name. The bytes are EventFile's `model_dump_json(indent=1)`: each value is serialized by the same
    serializer and indented to its depth (JSON escapes line breaks inside strings, so every line break
    is the layout's)."""
    with store.reading():
        title = load_event(store, event_id).settings.title
        head = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "schema_version": SCHEMA_VERSION,
            "exported": now(),
            "title": title,
        }
        out.write(_json(head, 0).removesuffix(b"\n}") + b',\n "rows": {')
        for number, table in enumerate(("events", *EVENT_TABLES)):
            out.write((b"," if number else b"") + b"\n  " + _json(table, 2) + b": [")
            count = 0
            for count, row in enumerate(store.table_rows(table, event_id), start=1):
                out.write((b"," if count > 1 else b"") + b"\n   " + _json(row, 3))
            out.write(b"\n  ]" if count else b"]")
        out.write(b"\n }\n}")
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:40]
    return f"event-{event_id}{'-' + slug if slug else ''}.rotation.json"


def _json(value: object, depth: int) -> bytes:
    """`value` as pydantic writes it with indent=1 when it stands `depth` levels deep."""
    return _VALUE.dump_json(value, indent=1).replace(b"\n", b"\n" + b" " * depth)


def import_event(store: Store, data: bytes, copy: bool = False) -> int:
    """An exported event as a new event of this desk, checked whole first (every column through its
    type, `rows.EventRows`), stored in one transaction. An event this desk has already (its room's
    public id is here) is refused naming it, unless `copy`: then it is stored again with a new public id."""
    try:
        exported = EventFile.model_validate_json(data)
    except ValidationError:
        raise DeskError("this is not an event exported by the desk (a .rotation.json file)", status=422) from None
    if exported.format != FORMAT or exported.format_version > FORMAT_VERSION:
        raise DeskError("this file was exported by a newer desk, or is not an exported event", status=422)
    checked = _checked(exported.rows)
    try:
        return store.add_event_rows(checked, new_public_id, copy=copy)
    except sqlite3.IntegrityError as error:  # a row the checks let through and the schema does not (rolled back)
        raise DeskError(f"the file is damaged, nothing was imported: {error}", status=422) from None
    except AlreadyHere as here:
        title = load_event(store, here.event_id).settings.title or f"Event {here.event_id}"
        raise DeskError(
            f"this desk has this event already: event {here.event_id}, {title!r} (same public id); nothing was "
            "imported. Open that one, or import the file again as a copy",
            field="as_copy",
        ) from None


def _checked(given: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """The file's rows, each column as its type stores it, or DeskError naming the first bad field."""
    try:
        rows = EventRows.model_validate({table: given.get(table, []) for table in ("events", *EVENT_TABLES)})
        ids = {version.id for version in rows.versions}
        for version in rows.versions:
            if version.parent is not None and version.parent not in ids:
                raise ValueError(f"version {version.id} names a version the file does not hold")
        if rows.events[0].current_version not in ids | {None}:
            raise ValueError("the current schedule is not in the file")
        for run in rows.runs:
            if run.version_id not in ids | {None}:
                raise ValueError(f"run {run.id} names a version the file does not hold")
    except ValidationError as error:
        raise DeskError(f"the file is damaged, nothing was imported: {first_problem(error)}", status=422) from None
    except ValueError as error:
        raise DeskError(f"the file is damaged, nothing was imported: {error}", status=422) from None
    return {table: [row.model_dump(mode="json") for row in getattr(rows, table)] for table in ("events", *EVENT_TABLES)}
