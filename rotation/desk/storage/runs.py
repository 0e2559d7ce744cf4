"""The planning runs: one row per plan or re-plan, its live progress, and how it ended."""

from __future__ import annotations

import sqlite3
import time

from rotation.desk.storage.base import Connection
from rotation.desk.storage.records import RunProgress, RunRequest, RunRow, RunStatus, parsed, stored_json


class Runs(Connection):
    def add_run(self, event_id: int, request: RunRequest, time_limit: float, desk: str = "") -> int:
        """A run of the request's kind, started by `desk` (the desk's id: only it, or a restart once it is
        gone, closes it)."""
        with self.change() as db:
            cursor = db.execute(
                "INSERT INTO runs (event_id, kind, request, status, time_limit, started, desk) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    event_id,
                    request.kind.value,
                    stored_json(request),
                    RunStatus.RUNNING.value,
                    time_limit,
                    time.time(),
                    desk,
                ),
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
        return [_run(row) for row in self.db.execute("SELECT * FROM runs WHERE status = ?", (RunStatus.RUNNING.value,))]

    def set_pid(self, run_id: int, pid: int) -> None:
        with self.change() as db:
            db.execute("UPDATE runs SET pid = ? WHERE id = ?", (pid, run_id))

    def ask_stop(self, run_id: int) -> None:
        with self.change() as db:
            db.execute("UPDATE runs SET stop_asked = 1 WHERE id = ?", (run_id,))

    def set_progress(self, run_id: int, progress: RunProgress) -> None:
        with self.change() as db:
            db.execute(
                "UPDATE runs SET progress = ? WHERE id = ? AND status = ?",
                (progress.model_dump_json(), run_id, RunStatus.RUNNING.value),
            )

    def end_run(
        self,
        db: sqlite3.Connection,
        run_id: int,
        status: RunStatus,
        message: str = "",
        version_id: int | None = None,
        progress: RunProgress | None = None,
    ) -> bool:
        """Inside a `change`: close a run that is still running (with its final `progress`, if given).
        False when it was already closed (the desk restarted and marked it interrupted): then its result
        must not be stored either."""
        if progress is not None:
            db.execute(
                "UPDATE runs SET progress = ? WHERE id = ? AND status = ?",
                (progress.model_dump_json(), run_id, RunStatus.RUNNING.value),
            )
        cursor = db.execute(
            "UPDATE runs SET status = ?, message = ?, version_id = ?, finished = ? WHERE id = ? AND status = ?",
            (status.value, message, version_id, time.time(), run_id, RunStatus.RUNNING.value),
        )
        return cursor.rowcount == 1

    def close_run(self, run_id: int, status: RunStatus, message: str = "") -> bool:
        with self.change() as db:
            return self.end_run(db, run_id, status, message)


def _run(row: sqlite3.Row) -> RunRow:
    fields = {key: row[key] for key in row.keys() if key != "request"}
    progress = parsed(RunProgress, row["progress"], f"run {row['id']}'s progress")
    return RunRow(**{**fields, "request_json": row["request"], "progress": progress})
