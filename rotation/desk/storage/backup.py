"""Backups of the desk's file: consistent while the desk runs, kept automatically, restored whole.

A copy of the SQLite file alone misses what is still in its `-wal` file; SQLite's online backup
(`sqlite3.Connection.backup`) copies the database as one reader sees it at one moment, the write-ahead
log included, while other connections go on writing. A backup is written to a temporary file beside its
target, checked (`PRAGMA integrity_check`) and only then renamed into place, so a backup cut off (a
killed process, a full disk) leaves no half file under the backup's name.

The desk keeps its own backups in a folder beside its file (`desk.sqlite3.backups/`): one before every
schema migration, one before a restore or an event is deleted, and one every 15 minutes while something
changed; the newest `KEEP` of them stay.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from contextlib import closing
from datetime import datetime
from pathlib import Path

from filelock import FileLock, Timeout

from rotation.desk.folders import log_file

KEEP = 48  # automatic backups kept: 12 hours of a busy day at one every 15 minutes, and those before changes
EVERY = 15 * 60  # seconds between automatic backups, while something changed
SUFFIX = ".sqlite3"
LOCK_WAIT = 600  # seconds a backup waits for the one being made (a big file takes a minute, not ten)


class BackupError(Exception):
    """A backup or a restore that could not be made; the message says why in one line."""


def backup(source: str | Path, out: str | Path, pages: int = -1, progress: Callable | None = None) -> Path:
    """A consistent copy of the database `source` at `out`, made by SQLite's online backup while other
    connections write, checked, then moved into place whole. `pages` per step (-1: all at once)."""
    refuse_out(source, out)
    return _copy(source, Path(out), pages, progress)


def _copy(source: str | Path, out: Path, pages: int = -1, progress: Callable | None = None) -> Path:
    """`backup` without the check of `out` (the desk's automatic backups go in its own folder)."""
    for left in out.parent.glob(f".{out.name}.partial-*"):  # a backup killed before it was whole
        left.unlink(missing_ok=True)
    partial = out.with_name(f".{out.name}.partial-{os.getpid()}-{threading.get_ident()}")
    try:
        with _open(source) as db, _open(partial) as copy:
            db.backup(copy, pages=pages, progress=progress)
            _check(copy, str(source))
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        os.replace(partial, out)
    except (sqlite3.Error, OSError) as error:
        raise BackupError(f"cannot back up {str(source)!r} to {str(out)!r}: {error}") from None
    finally:
        partial.unlink(missing_ok=True)
    return out


def desk_files(db_path: str | Path) -> list[Path]:
    """The files that are the desk's: the database, the journals SQLite keeps beside it (`-wal`, `-shm`,
    `-journal`), its lock, its log and the automatic backups' folder."""
    path = Path(db_path)
    journals = (Path(f"{path}{suffix}") for suffix in ("-wal", "-shm", "-journal", ".lock"))
    return [path, *journals, log_file(path), folder(path)]


def refuse_out(db_path: str | Path, out: str | Path, example: str = "desk-backup.sqlite3") -> None:
    """BackupError unless `out` may take a backup (or an export: `example` names one) of `db_path`: not a
    folder, none of the desk's own files (`desk_files`, a link to one of them) and nothing inside its
    backups' folder. Replacing the `-wal` of a running desk loses every change it still holds (issue 57)."""
    named = str(out)
    out = Path(out)
    if out.is_dir() or named.endswith(("/", os.sep)):  # 'new/' names a folder, even one not made yet
        raise BackupError(f"{named!r} is a folder: name a file in it, for example {str(out / example)!r}")
    backups = folder(db_path)
    own = desk_files(db_path) + (sorted(backups.iterdir()) if backups.is_dir() else [])
    found = next((path for path in own if out.resolve() == path.resolve() or _same_file(out, path)), None)
    if found is None and backups.resolve() in out.resolve().parents:
        found = backups
    if found is not None:
        raise BackupError(
            f"{str(out)!r} is the desk's own {found.name!r}: writing it would lose the desk's data; choose another name"
        )


def _same_file(first: Path, second: Path) -> bool:
    """Whether two names are one file (a hard link is another name of the same file)."""
    try:
        return first.samefile(second)
    except OSError:
        return False


def restore(backup_file: str | Path, target: str | Path) -> None:
    """The database `target` becomes the backup's content whole, in one step of SQLite's (other
    connections wait, then see it). The backup is checked first (`restorable`); the target's own state is
    backed up automatically before."""
    restorable(backup_file, target)
    with _open(backup_file) as source:
        automatic(target, "before-restore")
        with _open(target) as db:
            source.backup(db)
    _bring_up_to_date(target)


def restorable(backup_file: str | Path, target: str | Path) -> None:
    """BackupError unless the backup can replace `target`: whole, a desk's, of a schema this desk knows,
    and not the target itself. Asked before a director is asked to confirm, and again by `restore`."""
    if Path(backup_file).resolve() == Path(target).resolve() or _same_file(Path(backup_file), Path(target)):
        raise BackupError(f"{str(backup_file)!r} is the desk's file itself: name a backup of it")
    with _open(backup_file) as source:
        try:
            _check(source, str(backup_file))
            _check_schema(source, str(backup_file))
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{str(backup_file)!r} is not a desk backup this desk can restore: {error}") from None


def _bring_up_to_date(path: str | Path) -> None:
    """A backup of an older desk, restored, has its schema migrated at once: the desk that runs on the file
    opened its connections at its own schema and would not migrate it again."""
    from rotation.desk.storage.base import Connection  # base backs up before it migrates: imported here

    Connection(path).close()


def folder(db_path: str | Path) -> Path:
    """Where the desk keeps the automatic backups of the file `db_path`."""
    path = Path(db_path)
    return path.with_name(path.name + ".backups")


def automatic(db_path: str | Path, reason: str) -> Path | None:
    """A backup in the desk's folder, named by its time and reason; the oldest beyond `KEEP` go. None
    for a file that does not exist yet (nothing to keep)."""
    if not Path(db_path).exists() or Path(db_path).stat().st_size == 0:
        return None
    where = folder(db_path)
    where.mkdir(parents=True, exist_ok=True)
    try:
        with FileLock(where / ".making.lock", timeout=LOCK_WAIT):  # two at once: one waits, each its own name
            stamp = datetime.now().strftime("%Y-%m-%d-%H%M%S")
            made = _copy(db_path, _free(where / f"{stamp}-{reason}{SUFFIX}"))
            for old in listed(db_path)[KEEP:]:
                old.unlink(missing_ok=True)
    except Timeout:
        raise BackupError(f"another backup of {db_path} has taken over {LOCK_WAIT} s; try again later") from None
    return made


def listed(db_path: str | Path) -> list[Path]:
    """The automatic backups of `db_path`, newest first."""
    where = folder(db_path)
    if not where.is_dir():
        return []
    return sorted(where.glob(f"*{SUFFIX}"), key=lambda path: (path.stat().st_mtime, path.name), reverse=True)


def changed_since(db_path: str | Path, moment: float) -> bool:
    """Whether the file (or its write-ahead log) was written after `moment` (a time.time())."""
    stamps = [Path(str(db_path) + suffix) for suffix in ("", "-wal")]
    return any(path.exists() and path.stat().st_mtime > moment for path in stamps)


class Keeper:
    """A thread that backs the file up every `EVERY` seconds while it changed; stopped with the desk."""

    def __init__(self, db_path: str | Path, every: float = EVERY):
        self.db_path, self.every = db_path, every
        self.last = time.time()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="desk-backups", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=30)

    def _run(self) -> None:
        while not self.stopped.wait(self.every):
            self.tick()

    def tick(self) -> Path | None:
        """One look: a backup if the file changed since the last one."""
        if not changed_since(self.db_path, self.last):
            return None
        self.last = time.time()
        try:
            return automatic(self.db_path, "every-15-minutes")
        except BackupError:
            return None  # a full disk must not stop the desk; the next look tries again


def _open(path: str | Path) -> closing[sqlite3.Connection]:
    return closing(sqlite3.connect(str(path), timeout=30))


def _check(db: sqlite3.Connection, what: str) -> None:
    verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
    if verdict != "ok":
        raise sqlite3.DatabaseError(f"{what}: integrity check says {verdict}")
    if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'events'").fetchone():
        raise sqlite3.DatabaseError(f"{what} holds no desk data (no events table)")


def _check_schema(db: sqlite3.Connection, what: str) -> None:
    """A desk's file of a schema this desk knows: its user_version set by a desk, not above ours, and the
    desk's tables in it."""
    from rotation.desk.storage.schema import SCHEMA_VERSION

    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise sqlite3.DatabaseError(
            f"it was written by a newer desk (schema {version}; this one knows {SCHEMA_VERSION}): "
            "update rotation before restoring it"
        )
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    missing = {"meta", "events", "versions", "runs"} - tables
    if version < 1 or missing:
        raise sqlite3.DatabaseError(f"{what} is another program's database, not the desk's")


def _free(path: Path) -> Path:
    """`path`, or `path` with a number when a backup of the same second is there already."""
    number = 1
    candidate = path
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
    return candidate
