"""The desk's data in one SQLite file: events, their schedule versions and their planning runs.

WAL journal with synchronous=FULL: a change the director saw saved survives a power cut, and a
change cut off mid-write is rolled back whole. Every change is one transaction (`Store.change`).
A schedule is never edited in place: each change (plan, re-plan, swap, a round marked played) is a new
row of `versions`, made from the one before (`parent`), and the event points at its current version,
so looking back and undoing lose nothing. A re-plan stores its proposals as versions that are not
current until the director accepts one. The rounds played are the schedule's own `played` field.
A table's score card is never edited in place either: a re-entry is a new row of `cards`, and the older
rows are its history. Cards live beside the versions, so no change of the schedule touches them.
The schema carries its version in PRAGMA user_version; `MIGRATIONS[k]` takes a file from version k to k + 1.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from pydantic import BaseModel

import optimizer
from models import Schedule
from rotation.desk import backup

MIGRATIONS = (
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        settings TEXT NOT NULL,
        current_version INTEGER REFERENCES versions(id),
        created TEXT NOT NULL
    );
    CREATE TABLE versions (
        id INTEGER PRIMARY KEY,
        event_id INTEGER NOT NULL REFERENCES events(id),
        parent INTEGER REFERENCES versions(id),
        kind TEXT NOT NULL,
        note TEXT NOT NULL,
        played INTEGER NOT NULL,
        schedule TEXT NOT NULL,
        figures TEXT NOT NULL,
        created TEXT NOT NULL
    );
    CREATE INDEX versions_of_event ON versions(event_id);
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        event_id INTEGER NOT NULL REFERENCES events(id),
        kind TEXT NOT NULL,
        request TEXT NOT NULL,
        status TEXT NOT NULL,
        pid INTEGER,
        time_limit REAL NOT NULL,
        started REAL NOT NULL,
        finished REAL,
        stop_asked INTEGER NOT NULL DEFAULT 0,
        progress TEXT NOT NULL DEFAULT '{}',
        message TEXT NOT NULL DEFAULT '',
        version_id INTEGER REFERENCES versions(id)
    );
    CREATE INDEX runs_of_event ON runs(event_id);
    """,
    # 1 -> 2: the rounds played live in the schedule itself (Schedule.played, set by optimizer.mark_played
    # and by a re-plan), not in a column of the desk's beside it.
    """
    UPDATE versions SET schedule = json_set(schedule, '$.played', played)
        WHERE played > coalesce(json_extract(schedule, '$.played'), 0);
    ALTER TABLE versions DROP COLUMN played;
    """,
    # 2 -> 3, the room (rotation.desk.room): each event's public id for the players' pages, its round
    # timer and paging pace, and the rounds released to the room (each with the seating it had then).
    """
    CREATE TABLE rooms (
        event_id INTEGER PRIMARY KEY REFERENCES events(id),
        public_id TEXT NOT NULL UNIQUE,
        minutes REAL NOT NULL DEFAULT 60,
        pace REAL NOT NULL DEFAULT 12,
        started REAL,
        left REAL
    );
    CREATE TABLE releases (
        event_id INTEGER NOT NULL REFERENCES events(id),
        round INTEGER NOT NULL,
        seating TEXT NOT NULL,
        released REAL NOT NULL,
        PRIMARY KEY (event_id, round)
    );
    """,
    # 3 -> 4, scores (rotation.desk.scores): every entry of a table's card is a row, never updated; the
    # newest of a (round, table) counts and the older ones are its corrections' history. `standings_at`:
    # the projector shows the standings while the latest round released is this one (None: the tables).
    """
    CREATE TABLE cards (
        id INTEGER PRIMARY KEY,
        event_id INTEGER NOT NULL REFERENCES events(id),
        round INTEGER NOT NULL,
        table_number INTEGER NOT NULL,
        card TEXT NOT NULL,
        entered TEXT NOT NULL
    );
    CREATE INDEX cards_of_event ON cards(event_id, round, table_number);
    ALTER TABLE rooms ADD COLUMN standings_at INTEGER;
    """,
    # 4 -> 5 (issue 42): an event put away (archived) is kept whole but listed apart on the desk's first page.
    """
    ALTER TABLE events ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
    """,
    # 5 -> 6 (issue 42): the projector's standings show the top N places (None: every player).
    """
    ALTER TABLE rooms ADD COLUMN standings_top INTEGER;
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)

RUNNING = "running"
FINISHED = "finished"  # the run used its time, or proved its schedule optimal
STOPPED = "stopped"  # the director pressed Stop: the best so far was kept
INTERRUPTED = "interrupted"  # the desk stopped while it ran: nothing was kept, it can run again
FAILED = "failed"  # the library refused the request, or found no schedule


class NewerDatabase(Exception):
    """The file was written by a newer desk; this one does not know its schema."""


class EventRow(BaseModel):
    id: int
    settings: dict
    current_version: int | None
    created: str
    archived: bool = False


class VersionRow(BaseModel):
    id: int
    event_id: int
    parent: int | None
    kind: str
    note: str
    played: int  # the schedule's own `played`, read by SQLite without parsing the schedule
    figures: dict
    created: str
    schedule_json: str

    def schedule(self) -> Schedule:
        return Schedule.model_validate_json(self.schedule_json)


class RunRow(BaseModel):
    id: int
    event_id: int
    kind: str
    request: dict
    status: str
    pid: int | None
    time_limit: float
    started: float
    finished: float | None
    stop_asked: bool
    progress: dict
    message: str
    version_id: int | None

    @property
    def running(self) -> bool:
        return self.status == RUNNING

    def elapsed(self) -> float:
        return (self.finished or time.time()) - self.started


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Store:
    """One connection to the desk's file; open one per thread or process (sqlite3 objects are not shared)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30, check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    def close(self) -> None:
        self.db.close()

    def _migrate(self) -> None:
        found = self.db.execute("PRAGMA user_version").fetchone()[0]
        if 0 < found < SCHEMA_VERSION:  # a file of an older desk: kept as it was before it is changed
            backup.automatic(self.path, f"before-schema-{SCHEMA_VERSION}")
        with self.change():
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise NewerDatabase(
                    f"{self.path} was written by a newer desk (schema {version}, this one knows {SCHEMA_VERSION})"
                )
            for number in range(version, SCHEMA_VERSION):
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        self.db.execute(statement)
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextmanager
    def change(self) -> Iterator[sqlite3.Connection]:
        """One transaction, taken for writing at once (no deadlock between two writers): all or nothing."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # ---- the desk's own secret ------------------------------------------------------------------

    def secret(self) -> str:
        """A random key made once per file, so cookies and open pages outlive a restart."""
        with self.change() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()
            if row:
                return row[0]
            key = secrets.token_urlsafe(24)
            db.execute("INSERT INTO meta VALUES ('secret', ?)", (key,))
            return key

    # ---- events --------------------------------------------------------------------------------

    def add_event(self, settings: dict) -> int:
        with self.change() as db:
            cursor = db.execute("INSERT INTO events (settings, created) VALUES (?, ?)", (json.dumps(settings), now()))
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    def set_settings(self, event_id: int, settings: dict) -> None:
        with self.change() as db:
            db.execute("UPDATE events SET settings = ? WHERE id = ?", (json.dumps(settings), event_id))

    def set_archived(self, event_id: int, archived: bool) -> None:
        with self.change() as db:
            db.execute("UPDATE events SET archived = ? WHERE id = ?", (int(archived), event_id))

    def event(self, event_id: int) -> EventRow | None:
        row = self.db.execute("SELECT * FROM events WHERE id = ?", (event_id,)).fetchone()
        return None if row is None else _event(row)

    def events(self) -> list[EventRow]:
        return [_event(row) for row in self.db.execute("SELECT * FROM events ORDER BY id DESC")]

    # ---- versions ------------------------------------------------------------------------------

    def add_version(
        self,
        db: sqlite3.Connection,
        event_id: int,
        schedule: Schedule,
        *,
        kind: str,
        note: str,
        figures: dict,
        parent: int | None,
        current: bool = True,
    ) -> int:
        """Inside a `change`: check the schedule, store it as a version of the event (its current one
        unless `current` is False: a proposal). Nothing the checker refuses is stored (InvalidSchedule
        goes up and the transaction rolls back)."""
        metrics = optimizer.check(schedule)
        figures = {**figures, "metrics": metrics.model_dump(mode="json")}
        cursor = db.execute(
            "INSERT INTO versions (event_id, parent, kind, note, schedule, figures, created) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (event_id, parent, kind, note, schedule.model_dump_json(), json.dumps(figures), now()),
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

    def point_at(self, event_id: int, version_id: int) -> None:
        with self.change() as db:
            db.execute("UPDATE events SET current_version = ? WHERE id = ?", (version_id, event_id))

    # ---- planning runs -------------------------------------------------------------------------

    def add_run(self, event_id: int, kind: str, request: dict, time_limit: float) -> int:
        with self.change() as db:
            cursor = db.execute(
                "INSERT INTO runs (event_id, kind, request, status, time_limit, started) VALUES (?, ?, ?, ?, ?, ?)",
                (event_id, kind, json.dumps(request), RUNNING, time_limit, time.time()),
            )
            assert cursor.lastrowid is not None
            return cursor.lastrowid

    def run(self, run_id: int) -> RunRow | None:
        row = self.db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        return None if row is None else _run(row)

    def runs(self, event_id: int) -> list[RunRow]:
        return [
            _run(row) for row in self.db.execute("SELECT * FROM runs WHERE event_id = ? ORDER BY id DESC", (event_id,))
        ]

    def running(self) -> list[RunRow]:
        return [_run(row) for row in self.db.execute("SELECT * FROM runs WHERE status = ?", (RUNNING,))]

    def set_pid(self, run_id: int, pid: int) -> None:
        with self.change() as db:
            db.execute("UPDATE runs SET pid = ? WHERE id = ?", (pid, run_id))

    def ask_stop(self, run_id: int) -> None:
        with self.change() as db:
            db.execute("UPDATE runs SET stop_asked = 1 WHERE id = ?", (run_id,))

    def set_progress(self, run_id: int, progress: dict) -> None:
        with self.change() as db:
            db.execute(
                "UPDATE runs SET progress = ? WHERE id = ? AND status = ?", (json.dumps(progress), run_id, RUNNING)
            )

    def end_run(self, db: sqlite3.Connection, run_id: int, status: str, message: str = "", version_id=None) -> bool:
        """Inside a `change`: close a run that is still running. False when it was already closed (the
        desk restarted and marked it interrupted): then its result must not be stored either."""
        cursor = db.execute(
            "UPDATE runs SET status = ?, message = ?, version_id = ?, finished = ? WHERE id = ? AND status = ?",
            (status, message, version_id, time.time(), run_id, RUNNING),
        )
        return cursor.rowcount == 1

    def close_run(self, run_id: int, status: str, message: str = "") -> bool:
        with self.change() as db:
            return self.end_run(db, run_id, status, message)

    # ---- what the room has: releases and cards, for the guards of a change ---------------------

    def released_rounds(self, event_id: int) -> list[int]:
        """The rounds released to the room, in order."""
        rows = self.db.execute("SELECT round FROM releases WHERE event_id = ? ORDER BY round", (event_id,))
        return [row[0] for row in rows]

    def latest_cards(self, event_id: int) -> dict[tuple[int, int], str]:
        """Each (round, table)'s latest card, as its JSON: the one that counts while it seats the table."""
        rows = self.db.execute(
            "SELECT round, table_number, card FROM cards WHERE id IN "
            "(SELECT max(id) FROM cards WHERE event_id = ? GROUP BY round, table_number)",
            (event_id,),
        )
        return {(row[0], row[1]): row[2] for row in rows}

    # ---- an event whole: export, import, delete ---------------------------------------------------

    def event_rows(self, event_id: int) -> dict[str, list[dict]]:
        """Every row of the event, table by table, each as its columns (whatever migrations added)."""
        rows = {"events": [dict(row) for row in self.db.execute("SELECT * FROM events WHERE id = ?", (event_id,))]}
        for table in EVENT_TABLES:
            found = self.db.execute(f"SELECT * FROM {table} WHERE event_id = ? ORDER BY rowid", (event_id,))
            rows[table] = [dict(row) for row in found]
        return rows

    def add_event_rows(self, rows: dict[str, list[dict]], public_id: Callable[[], str]) -> int:
        """The rows of `event_rows` (from this file or another) as a new event, in one transaction: new
        ids, every reference between them renumbered, the room's public id kept unless another event of
        this file has it (then `public_id()`), a run left running marked interrupted. Returns the event."""
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
                status = INTERRUPTED if row["status"] == RUNNING else row["status"]
                moved = {"event_id": event_id, "version_id": versions.get(row["version_id"]), "status": status}
                runs[row["id"]] = _insert(db, "runs", {**row, **moved}, skip=("id", "pid"))
            for old, new in runs.items():  # a re-plan's proposals name their run
                db.execute(
                    "UPDATE versions SET figures = json_set(figures, '$.proposal', ?) "
                    "WHERE event_id = ? AND json_extract(figures, '$.proposal') = ?",
                    (new, event_id, old),
                )
            current = rows["events"][0]["current_version"]
            db.execute("UPDATE events SET current_version = ? WHERE id = ?", (versions.get(current), event_id))
            for row in rows["rooms"]:
                taken = db.execute("SELECT 1 FROM rooms WHERE public_id = ?", (row["public_id"],)).fetchone()
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

        def renamed(names: list[str]) -> list[str]:
            return [new if name == old else name for name in names]

        for row in db.execute("SELECT id, card FROM cards WHERE event_id = ?", (event_id,)).fetchall():
            card = json.loads(row["card"])
            if old in card["players"]:
                card["players"] = renamed(card["players"])
                db.execute("UPDATE cards SET card = ? WHERE id = ?", (json.dumps(card), row["id"]))
        for row in db.execute("SELECT round, seating FROM releases WHERE event_id = ?", (event_id,)).fetchall():
            seating = json.loads(row["seating"])
            for table in seating["tables"]:
                table["players"] = renamed(table["players"])
            for key in ("sit_outs", "absent"):
                seating[key] = renamed(seating.get(key, []))
            db.execute(
                "UPDATE releases SET seating = ? WHERE event_id = ? AND round = ?",
                (json.dumps(seating), event_id, row["round"]),
            )


EVENT_TABLES = ("versions", "runs", "rooms", "releases", "cards")  # the tables whose rows name one event


def _insert(db: sqlite3.Connection, table: str, row: dict, skip: tuple[str, ...] = ()) -> int:
    """Insert the columns of `row` this file's `table` has (a file of another desk may have fewer or more)."""
    columns = [info[1] for info in db.execute(f"PRAGMA table_info({table})") if info[1] in row and info[1] not in skip]
    cursor = db.execute(
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
        [row[column] for column in columns],
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


_VERSION_COLUMNS = "*, coalesce(json_extract(schedule, '$.played'), 0) AS played"


def _event(row: sqlite3.Row) -> EventRow:
    return EventRow(**{**dict(row), "settings": json.loads(row["settings"])})


def _version(row: sqlite3.Row) -> VersionRow:
    fields = {key: row[key] for key in row.keys() if key != "schedule"}
    return VersionRow(**{**fields, "figures": json.loads(row["figures"]), "schedule_json": row["schedule"]})


def _run(row: sqlite3.Row) -> RunRow:
    return RunRow(**{**dict(row), "request": json.loads(row["request"]), "progress": json.loads(row["progress"])})
