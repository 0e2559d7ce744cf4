"""The events: each one's settings and the version of its schedule that is current."""

from __future__ import annotations

import sqlite3

from rotation.desk.core.settings import EventSettings
from rotation.desk.storage.base import Connection
from rotation.desk.storage.records import EventRow, now, parsed, stored_json
from rotation.desk.storage.rooms import new_public_id


class Events(Connection):
    def add_event(self, settings: EventSettings) -> int:
        """The event, and its room with a random public id (rotation.desk.room.service)."""
        with self.change() as db:
            cursor = db.execute("INSERT INTO events (settings, created) VALUES (?, ?)", (stored_json(settings), now()))
            assert cursor.lastrowid is not None
            db.execute("INSERT INTO rooms (event_id, public_id) VALUES (?, ?)", (cursor.lastrowid, new_public_id()))
            return cursor.lastrowid

    def set_settings(self, event_id: int, settings: EventSettings) -> None:
        with self.change() as db:
            db.execute("UPDATE events SET settings = ? WHERE id = ?", (stored_json(settings), event_id))

    def set_archived(self, event_id: int, archived: bool) -> None:
        with self.change() as db:
            db.execute("UPDATE events SET archived = ? WHERE id = ?", (int(archived), event_id))

    def event(self, event_id: int) -> EventRow | None:
        row = self.db.execute("SELECT * FROM events WHERE id = ?", (event_id,)).fetchone()
        return None if row is None else _event(row)

    def events(self) -> list[EventRow]:
        return [_event(row) for row in self.db.execute("SELECT * FROM events ORDER BY id DESC")]

    def point_at(self, event_id: int, version_id: int) -> None:
        with self.change() as db:
            db.execute("UPDATE events SET current_version = ? WHERE id = ?", (version_id, event_id))


def _event(row: sqlite3.Row) -> EventRow:
    settings = parsed(EventSettings, row["settings"], f"event {row['id']}'s settings")
    return EventRow(**{**dict(row), "settings": settings})
