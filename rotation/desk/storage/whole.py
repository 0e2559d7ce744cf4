"""An event whole, across every table that names it: export, import, delete, and a player's new spelling
in what the room has (cards and released seatings)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator

import optimizer
from models import Round
from models.scores import Card
from rotation.desk.storage.base import Connection
from rotation.desk.storage.records import ReplanRequest, RunKind, RunStatus, parsed, run_request, stored_json

EVENT_TABLES = ("versions", "runs", "rooms", "releases", "cards")  # the tables whose rows name one event


class AlreadyHere(Exception):
    """The event of an import is in this file already: its room's public id is one of this file's."""

    def __init__(self, event_id: int):
        super().__init__(f"event {event_id}")
        self.event_id = event_id


class Whole(Connection):
    def event_rows(self, event_id: int) -> dict[str, list[dict]]:
        """Every row of the event, table by table, each as its columns (whatever migrations added)."""
        with self.reading():
            return {table: list(self.table_rows(table, event_id)) for table in ("events", *EVENT_TABLES)}

    def table_rows(self, table: str, event_id: int) -> Iterator[dict]:
        """The event's rows in `table` ("events" or one of EVENT_TABLES) one at a time, in the order they
        were stored: an event of any size read without holding it whole."""
        column = "id" if table == "events" else "event_id"
        for row in self.db.execute(f"SELECT * FROM {table} WHERE {column} = ? ORDER BY rowid", (event_id,)):
            yield dict(row)

    def add_event_rows(self, rows: dict[str, list[dict]], public_id: Callable[[], str], copy: bool = False) -> int:
        """The rows of `event_rows` (from this file or another) as a new event, in one transaction: new
        ids, every reference between them renumbered, the room's public id kept, a run left running marked
        interrupted. Returns the event. An event of this file with the same public id is the same event
        (ids are 80 random bits): AlreadyHere, nothing stored; with `copy`, a copy with a new public id.
        A plan's request keeps the ids of its series' earlier nights: they are not read again (a plan
        runs again from the event's settings and series as they are)."""
        with self.change() as db:
            event_id = _insert(db, "events", {**rows["events"][0], "current_version": None}, skip=("id",))
            versions: dict[int, int] = {}
            for row in sorted(rows["versions"], key=lambda row: row["id"]):
                parent = versions.get(row["parent"]) if row["parent"] is not None else None
                versions[row["id"]] = _insert(
                    db, "versions", {**row, "event_id": event_id, "parent": parent}, skip=("id",)
                )
            runs: dict[int, int] = {}
            for row in rows["runs"]:
                running = row["status"] == RunStatus.RUNNING.value
                status = RunStatus.INTERRUPTED.value if running else row["status"]
                moved = {
                    "event_id": event_id,
                    "version_id": versions.get(row["version_id"]),
                    "status": status,
                    "request": _renumbered_request(row, versions),
                }
                runs[row["id"]] = _insert(db, "runs", {**row, **moved}, skip=("id", "pid"))
            for old, new in runs.items():  # a re-plan's proposals name their run
                db.execute(
                    "UPDATE versions SET figures = json_set(figures, '$.proposal', ?) "
                    "WHERE event_id = ? AND json_extract(figures, '$.proposal') = ?",
                    (new, event_id, old),
                )
            current = rows["events"][0]["current_version"]
            db.execute("UPDATE events SET current_version = ? WHERE id = ?", (versions.get(current), event_id))
            for row in rows["rooms"] or [{"public_id": public_id()}]:  # every event has its room
                taken = db.execute("SELECT event_id FROM rooms WHERE public_id = ?", (row["public_id"],)).fetchone()
                if taken and not copy:
                    raise AlreadyHere(taken[0])
                _insert(db, "rooms", {**row, "event_id": event_id, **({"public_id": public_id()} if taken else {})})
            for table in ("releases", "cards"):
                for row in rows[table]:
                    _insert(db, table, {**row, "event_id": event_id}, skip=("id",))
            return event_id

    def delete_event(self, event_id: int) -> None:
        """The event and every row of it, in one transaction."""
        with self.change() as db:
            db.execute("UPDATE events SET current_version = NULL WHERE id = ?", (event_id,))
            for table in ("cards", "releases", "rooms", "runs", "versions"):
                db.execute(f"DELETE FROM {table} WHERE event_id = ?", (event_id,))
            db.execute("DELETE FROM events WHERE id = ?", (event_id,))

    def rename_in_room(self, db: sqlite3.Connection, event_id: int, old: str, new: str) -> None:
        """Inside a `change`: a player's new spelling in every card (its history included) and every
        released seating of the event, so scores, standings and the room go on under one player."""

        for row in db.execute("SELECT id, card FROM cards WHERE event_id = ?", (event_id,)).fetchall():
            card = parsed(Card, row["card"], f"score card {row['id']}")
            if old in card.players:
                players = tuple(new if name == old else name for name in card.players)
                renamed = card.model_copy(update={"players": players}).model_dump_json()
                db.execute("UPDATE cards SET card = ? WHERE id = ?", (renamed, row["id"]))
        for row in db.execute("SELECT round, seating FROM releases WHERE event_id = ?", (event_id,)).fetchall():
            seating = parsed(Round, row["seating"], f"event {event_id}'s released round {row['round']}")
            db.execute(
                "UPDATE releases SET seating = ? WHERE event_id = ? AND round = ?",
                (optimizer.renamed_round(seating, old, new).model_dump_json(), event_id, row["round"]),
            )


def _renumbered_request(row: dict, versions: dict[int, int]) -> str:
    """A re-plan's request names the version it started from: by that version's new id (another
    request is kept as it was written)."""
    request = run_request(row["id"], RunKind(row["kind"]), row["request"])
    if not isinstance(request, ReplanRequest) or request.base_version not in versions:
        return row["request"]
    return stored_json(request.model_copy(update={"base_version": versions[request.base_version]}))


def _insert(db: sqlite3.Connection, table: str, row: dict, skip: tuple[str, ...] = ()) -> int:
    """Insert the columns of `row` this file's `table` has (a file of another desk may have fewer or more)."""
    columns = [info[1] for info in db.execute(f"PRAGMA table_info({table})") if info[1] in row and info[1] not in skip]
    cursor = db.execute(
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
        [row[column] for column in columns],
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid
