"""The connection every table group shares: WAL, synchronous=FULL, the schema brought up to date,
and `change`, the one transaction of a change."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rotation.desk.storage import backup
from rotation.desk.storage.schema import MIGRATIONS, SCHEMA_VERSION


class NewerDatabase(Exception):
    """The file was written by a newer desk; this one does not know its schema."""


class ReadOnlyDatabase(Exception):
    """The desk cannot write its file (read-only, or on a read-only disk): every change would fail."""


class _Probed(Exception):
    """The write probe's way out of its transaction (rolled back)."""


class DamagedDatabase(Exception):
    """SQLite's quick check finds the file damaged: the desk refuses to serve it (and to write to it)."""


class Connection:
    """One connection to the desk's file; open one per thread or process (sqlite3 objects are not shared)."""

    busy_seconds = 30.0  # how long a change waits for another one's write lock before it says the file is busy

    def __init__(self, path: str | Path):
        self.path = str(path)
        self.db = sqlite3.connect(self.path, isolation_level=None, timeout=self.busy_seconds, check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    def close(self) -> None:
        self.db.close()

    def reset(self) -> bool:
        """The connection as another request may take it: no transaction open (one left open, by a request
        cut off mid-change, rolled back). False, and the connection closed, when not even that works."""
        try:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
        except sqlite3.Error:
            self.db.close()
            return False
        return True

    def quick_check(self) -> None:
        """PRAGMA quick_check (the integrity check less the index contents: seconds on a big file), or
        DamagedDatabase saying how to restore the latest backup."""
        problems = [" ".join(str(row[0]).split()) for row in self.db.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise DamagedDatabase(
                f"the desk's file {self.path} is damaged ({'; '.join(problems)}); nothing was written to it. "
                f"Restore its latest backup (the backups are in {backup.folder(self.path)}): "
                f"rotation restore --db {self.path} BACKUP"
            )

    def writable_check(self) -> None:
        """ReadOnlyDatabase unless this connection can take the file's write lock (a desk that starts on a
        file it cannot write answers every change with an error it cannot help). SQLite opens a file it
        may not write read-only and says so only at the first page written: a table made and rolled back."""
        try:
            with self.change() as db:
                db.execute("CREATE TABLE main.write_probe (x)")
                raise _Probed
        except _Probed:
            pass
        except sqlite3.OperationalError as error:
            if "readonly" not in str(error):  # SQLITE_READONLY: "attempt to write a readonly database"
                raise
            raise ReadOnlyDatabase(
                f"it is read-only ({error}): make the file and its folder writable, "
                "or copy it somewhere writable and start the desk with --db on the copy"
            ) from None

    def _migrate(self) -> None:
        """Bring the file's schema up to date; a file already up to date is only read (every thread of
        the desk opens its own connection, and a page that reads must not write)."""
        found = self.db.execute("PRAGMA user_version").fetchone()[0]
        if found == SCHEMA_VERSION:
            return
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
    def reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: every read inside it sees the file as it was at the first one (WAL keeps
        that snapshot while changes go on), so rows read in pieces belong together. Writes nothing."""
        if self.db.in_transaction:
            yield self.db
            return
        self.db.execute("BEGIN")
        try:
            yield self.db
        finally:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")

    @contextmanager
    def change(self) -> Iterator[sqlite3.Connection]:
        """One transaction, taken for writing at once (no deadlock between two writers): all or nothing.
        Inside another `change` it is part of that one (so a change can be made of the store's steps)."""
        if self.db.in_transaction:
            yield self.db
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            if self.db.in_transaction:  # SQLite has already rolled back after some errors (a full disk)
                self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")
