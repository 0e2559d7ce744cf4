"""The rooms: each event's public id, round timer and paging pace, and the rounds released to the room."""

from __future__ import annotations

import hashlib
import secrets

from models import Round
from rotation.desk.storage.base import Connection
from rotation.desk.storage.records import ReleaseRow, RoomRow, parsed

PUBLIC_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford's base 32, lower case: no i, l, o, u
PUBLIC_LENGTH = 16  # 80 random bits


def new_public_id() -> str:
    """A random public id without look-alike letters (no i, l, o, u: none read as 1, 0 or v), safe to
    read aloud or type from a wall chart."""
    return "".join(secrets.choice(PUBLIC_ALPHABET) for _ in range(PUBLIC_LENGTH))


STAMP_QUERY = """
    SELECT coalesce(events.current_version, '') || '|' || coalesce((
        SELECT group_concat(round || ':' || released, ',')
        FROM (SELECT round, released FROM releases WHERE releases.event_id = rooms.event_id ORDER BY round)
    ), '')
    FROM rooms JOIN events ON events.id = rooms.event_id
"""


class Rooms(Connection):
    def room_row(self, event_id: int) -> RoomRow | None:
        row = self.db.execute("SELECT * FROM rooms WHERE event_id = ?", (event_id,)).fetchone()
        return None if row is None else RoomRow(**dict(row))

    def released_rounds(self, event_id: int) -> list[int]:
        """The rounds released to the room, in order."""
        rows = self.db.execute("SELECT round FROM releases WHERE event_id = ? ORDER BY round", (event_id,))
        return [row[0] for row in rows]

    def releases(self, event_id: int) -> list[ReleaseRow]:
        rows = self.db.execute(
            "SELECT round, seating, released FROM releases WHERE event_id = ? ORDER BY round", (event_id,)
        )
        return [
            ReleaseRow(
                round=r["round"],
                seating=parsed(Round, r["seating"], f"event {event_id}'s released round {r['round']}"),
                released=r["released"],
            )
            for r in rows
        ]

    def room_stamp(self, event_id: int) -> str | None:
        return self._stamp("rooms.event_id", event_id)

    def public_stamp(self, public_id: str) -> str | None:
        return self._stamp("rooms.public_id", public_id)

    def _stamp(self, where: str, key: int | str) -> str | None:
        """A hash of the current version and every release with its time, read by one query that
        touches no seating; None for a room that does not exist."""
        row = self.db.execute(f"{STAMP_QUERY} WHERE {where} = ?", (key,)).fetchone()
        return None if row is None else hashlib.sha256(row[0].encode()).hexdigest()[:16]

    def event_of(self, public_id: str) -> int | None:
        row = self.db.execute("SELECT event_id FROM rooms WHERE public_id = ?", (public_id,)).fetchone()
        return None if row is None else row[0]

    def set_release(self, event_id: int, round_number: int, seating: Round, now: float) -> None:
        with self.change() as db:
            db.execute(
                "INSERT OR REPLACE INTO releases (event_id, round, seating, released) VALUES (?, ?, ?, ?)",
                (event_id, round_number, seating.model_dump_json(), now),
            )

    def restart_clock(self, event_id: int, now: float) -> None:
        """The round's clock runs from its full length, from `now`."""
        with self.change() as db:
            db.execute("UPDATE rooms SET started = ?, left = minutes * 60 WHERE event_id = ?", (now, event_id))

    def delete_release(self, event_id: int, round_number: int) -> None:
        with self.change() as db:
            db.execute("DELETE FROM releases WHERE event_id = ? AND round = ?", (event_id, round_number))

    def set_pace(self, event_id: int, minutes: float, pace: float) -> None:
        with self.change() as db:
            db.execute("UPDATE rooms SET minutes = ?, pace = ? WHERE event_id = ?", (minutes, pace, event_id))

    def set_clock(self, event_id: int, started: float | None, left: float) -> None:
        with self.change() as db:
            db.execute("UPDATE rooms SET started = ?, left = ? WHERE event_id = ?", (started, left, event_id))

    def set_standings_at(
        self, event_id: int, round_number: int | None, top: int | None = None, series: bool = False
    ) -> None:
        """The projector shows the standings while `round_number` is the latest released (None: the
        tables), the top `top` places only (None: everyone), the series' standings when `series`."""
        with self.change() as db:
            db.execute(
                "UPDATE rooms SET standings_at = ?, standings_top = ?, standings_series = ? WHERE event_id = ?",
                (round_number, top, int(series), event_id),
            )
