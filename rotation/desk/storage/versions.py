"""The versions of each event's schedule: every change a new row made from the one before (`parent`)."""

from __future__ import annotations

import json
import sqlite3

import optimizer
from models import Schedule
from rotation.desk.storage.base import Connection
from rotation.desk.storage.records import Figures, HowMade, VersionKind, VersionRow, now, parsed

_VERSION_COLUMNS = "*, coalesce(json_extract(schedule, '$.played'), 0) AS played"


class Versions(Connection):
    def add_version(
        self,
        db: sqlite3.Connection,
        event_id: int,
        schedule: Schedule,
        *,
        kind: VersionKind,
        note: str,
        figures: HowMade,
        parent: int | None,
        current: bool = True,
    ) -> int:
        """Inside a `change`: check the schedule, store it as a version of the event (its current one
        unless `current` is False: a proposal). Nothing the checker refuses is stored (InvalidSchedule
        goes up and the transaction rolls back)."""
        metrics = optimizer.check(schedule)
        # The keys its maker set (a plan's `changes` is stored as null), then the checker's metrics.
        made = figures.model_dump(mode="json")
        stored = {key: made[key] for key in figures.model_fields_set} | {"metrics": metrics.model_dump(mode="json")}
        cursor = db.execute(
            "INSERT INTO versions (event_id, parent, kind, note, schedule, figures, created) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (event_id, parent, kind.value, note, schedule.model_dump_json(), json.dumps(stored), now()),
        )
        assert cursor.lastrowid is not None
        if current:
            db.execute("UPDATE events SET current_version = ? WHERE id = ?", (cursor.lastrowid, event_id))
        return cursor.lastrowid

    def version(self, version_id: int) -> VersionRow | None:
        row = self.db.execute(f"SELECT {_VERSION_COLUMNS} FROM versions WHERE id = ?", (version_id,)).fetchone()
        return None if row is None else _version(row)

    def versions(self, event_id: int) -> list[VersionRow]:
        """Every version of the event, newest first, without their schedules' text parsed."""
        rows = self.db.execute(
            f"SELECT {_VERSION_COLUMNS} FROM versions WHERE event_id = ? ORDER BY id DESC", (event_id,)
        )
        return [_version(row) for row in rows]


def _version(row: sqlite3.Row) -> VersionRow:
    fields = {key: row[key] for key in row.keys() if key != "schedule"}
    figures = parsed(Figures, row["figures"], f"version {row['id']}'s figures")
    return VersionRow(**{**fields, "figures": figures, "schedule_json": row["schedule"]})
