"""Planning in a process of its own, so the web server never waits on the solver.

    python -m rotation.desk.worker DB RUN_ID

One process per run. It writes its progress to the run's row (at most a few times a second) and,
at the end, the checked schedule and the run's close in one transaction (planning.keep_run).
Stop is a request written to the run's row (`stop_asked`, runs.stop_run), not a signal: the
worker's watcher thread reads it with the progress and sets the optimizer's stop token
(optimizer.budget.STOP), on which optimizer.plan returns the best schedule so far. It works from the
first millisecond (a token set before planning begins stops the library at its first schedule, the
quick start) and on Windows alike. If the desk that started it goes away (killed, or stopped), the
worker ends without storing anything; the desk marks the run interrupted on restart. It learns so from its
stdin, a pipe whose other end only the desk holds: the pipe reads end-of-file when the desk ends however it
ends, on every system (a parent's pid, which POSIX changes when the parent dies, never changes on Windows).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

PROGRESS_EVERY = 0.25  # seconds between progress writes: live enough, and cheap for SQLite


def main(argv: list[str]) -> int:
    from rotation.desk.events import planning
    from rotation.desk.storage import Store

    db_path, run_id = argv[0], int(argv[1])
    threading.Thread(target=_end_with_the_desk, args=(sys.stdin.fileno(),), daemon=True).start()
    store = Store(db_path)
    run = store.run(run_id)
    if run is None or not run.running:
        return 1
    progress = _ProgressWriter(db_path, run_id)
    threading.Thread(target=_watch, args=(progress,), daemon=True).start()
    planning.keep_run(store, run, planning.plan_run(store, run, progress.note))
    return 0


class _ProgressWriter:
    """The latest progress, written by the watcher thread on its own connection."""

    def __init__(self, db_path: str, run_id: int):
        self.db_path, self.run_id = db_path, run_id
        self.stop_asked = False
        self.best: int | None = None
        self.bound = 0
        self.label = ""
        self.changed = False
        self.lock = threading.Lock()

    def note(self, update) -> None:
        with self.lock:
            if update.repeats is not None and (self.best is None or update.repeats < self.best):
                self.best = update.repeats
            self.bound = max(self.bound, update.lower_bound)
            self.label = update.note
            self.changed = True

    def flush(self, store) -> None:
        from rotation.desk.storage import RunProgress

        with self.lock:
            changed, self.changed = self.changed, False
            progress = RunProgress(repeats=self.best, bound=self.bound, note=self.label)
        if changed:
            store.set_progress(self.run_id, progress)

    def stop_requested(self, store) -> bool:
        """The director pressed Stop (runs.stop_run wrote it to the run's row): true once, then the
        request is delivered."""
        if self.stop_asked:
            return False
        run = store.run(self.run_id)
        self.stop_asked = run is None or run.stop_asked or not run.running
        return self.stop_asked


def _end_with_the_desk(desk_pipe: int) -> None:
    """End the process at once when the desk's end of the pipe is closed (end-of-file, or a broken pipe)."""
    while True:
        try:
            if not os.read(desk_pipe, 1):
                break
        except OSError:
            break
    os._exit(3)


def _watch(progress: _ProgressWriter) -> None:
    """Write progress and read the stop request."""
    from optimizer.budget import STOP
    from rotation.desk.storage import Store

    store = Store(progress.db_path)
    while True:
        progress.flush(store)
        if progress.stop_requested(store):
            STOP.set()  # the library keeps the best so far
        time.sleep(PROGRESS_EVERY)


class WorkerPlanner:
    """The desk's side: starts one worker per run, closes the run of a worker that ended without a word,
    ends them all at shutdown. `desk`: this desk's id, stamped on the runs it starts."""

    def __init__(self, db_path: str, desk: str):
        self.db_path, self.desk = db_path, desk
        self.processes: dict[int, subprocess.Popen] = {}
        self.lock = threading.Lock()
        self.stopping = False

    def start(self, run_id: int) -> int:
        # -I: `-m` would put the current folder first on the path, and a models.py there would be imported.
        command = [sys.executable, "-I", "-m", "rotation.desk.worker", self.db_path, str(run_id)]
        # stdin: the pipe whose closing tells the worker that the desk is gone (the desk never writes to it).
        process = subprocess.Popen(command, stdin=subprocess.PIPE, **own_process_group(sys.platform))
        # Reaped as soon as it ends (no defunct process left per plan); poll() still reads its status.
        with self.lock:
            self.processes[run_id] = process
        threading.Thread(target=self._reap, args=(run_id, process), name=f"reap-{process.pid}", daemon=True).start()
        return process.pid

    def _reap(self, run_id: int, process: subprocess.Popen) -> None:
        """When the worker ends: a run it left open failed (it stored nothing). A run it closed, or one
        this desk closes at shutdown, is left as it is."""
        from rotation.desk.storage import RunStatus, Store

        process.wait()
        if process.stdin is not None:
            process.stdin.close()
        if self.stopping:
            return
        store = Store(self.db_path)
        try:
            store.close_run(run_id, RunStatus.FAILED, "the planning process ended without a result")
        finally:
            store.close()

    def running(self, run_id: int) -> bool:
        """The run's worker is this desk's and still running (Stop is then read by it)."""
        with self.lock:
            process = self.processes.get(run_id)
        return process is not None and process.poll() is None

    def shutdown(self) -> list[int]:
        """End every worker still running; returns their runs."""
        self.stopping = True
        with self.lock:
            running = {run_id: p for run_id, p in self.processes.items() if p.poll() is None}
        for process in running.values():
            process.terminate()
        for process in running.values():
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
        return list(running)


# Windows' CREATE_NEW_PROCESS_GROUP (the constant exists only in Windows' subprocess module).
NEW_PROCESS_GROUP = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0x00000200)


def own_process_group(platform: str) -> dict:
    """Popen's arguments that give the worker a process group of its own (Windows) or a session of its own
    (POSIX): Ctrl-C on the desk's console reaches the desk alone, and the desk ends its workers itself (their
    runs are then interrupted, never half-stored)."""
    if platform == "win32":
        return {"creationflags": NEW_PROCESS_GROUP}
    return {"start_new_session": True}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
