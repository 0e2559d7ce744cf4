"""One desk per database file: the desk holds an operating-system lock on `<file>.lock` for its whole
life (filelock: flock on Linux and macOS, LockFileEx on Windows), so a second `rotation serve` on the
same file is refused at once instead of closing the first desk's runs as its own left-overs."""

from __future__ import annotations

from pathlib import Path

from filelock import FileLock, Timeout


class DeskBusy(Exception):
    """Another desk is serving this file."""


class DeskLock:
    def __init__(self, db_path: str | Path):
        self.db_path = str(db_path)
        # not thread-local: taken when the desk starts, let go when its server stops (another thread)
        self.lock = FileLock(self.db_path + ".lock", thread_local=False)

    def acquire(self) -> None:
        try:
            self.lock.acquire(timeout=0)
        except Timeout:
            raise DeskBusy(
                f"another desk is already serving {self.db_path}: use that one (its address was printed when it "
                "started), or stop it first; a desk of its own needs another file (--db)"
            ) from None

    def release(self) -> None:
        self.lock.release(force=True)
