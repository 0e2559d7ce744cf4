"""Planning in a process of its own, so the web server never waits on the solver.

    python -m rotation.desk.worker DB RUN_ID

One process per run. It writes its progress to the run's row (at most a few times a second) and,
at the end, the checked schedule and the run's close in one transaction (service.execute_run).
SIGINT is "Stop and keep the best": while the library plans it sets the optimizer's stop token
(optimizer.budget.STOP), on which optimizer.plan returns the best schedule so far. If the desk that
started it goes away (killed, or stopped), the worker ends without storing anything; the desk marks the
run interrupted on restart.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time


class _Stop:
    """SIGINT sets the stop token only inside the library's planning, where it means 'keep the best';
    anywhere else (starting up, storing the result) it is noted and the run goes on."""

    planning = False
    asked = False
    delivered = False  # the library was interrupted once: it is now keeping the best, let it finish

    @classmethod
    def deliver(cls) -> None:
        from optimizer.budget import STOP  # imported by then, with the service

        cls.delivered = True
        STOP.set()


def _on_sigint(signum, frame) -> None:
    _Stop.asked = True
    if _Stop.planning and not _Stop.delivered:
        _Stop.deliver()


PROGRESS_EVERY = 0.25  # seconds between progress writes: live enough, and cheap for SQLite


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, _on_sigint)  # before the slow imports: a Stop may come at once
    from rotation.desk import service
    from rotation.desk.storage import Store

    db_path, run_id = argv[0], int(argv[1])
    parent = os.getppid()
    store = Store(db_path)
    run = store.run(run_id)
    if run is None or not run.running:
        return 1
    progress = _ProgressWriter(db_path, run_id)
    threading.Thread(target=_watch, args=(parent, progress), daemon=True).start()

    def on_progress(update) -> None:
        progress.note(update)
        if _Stop.asked and not _Stop.delivered:  # asked before planning began: stop at the first schedule
            _Stop.deliver()

    outcome = None
    try:
        _Stop.planning = True
        outcome = service.plan_run(store, run, on_progress)
    except KeyboardInterrupt:
        outcome = "stopped before a first schedule was found"  # before the library's own stages began
    finally:
        _Stop.planning = False
    service.keep_run(store, run, outcome)
    return 0


class _ProgressWriter:
    """The latest progress, written by the watcher thread on its own connection."""

    def __init__(self, db_path: str, run_id: int):
        self.db_path, self.run_id = db_path, run_id
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
        with self.lock:
            if not self.changed:
                return
            self.changed = False
            progress = {"repeats": self.best, "bound": self.bound, "note": self.label}
        store.set_progress(self.run_id, progress)


def _watch(parent: int, progress: _ProgressWriter) -> None:
    """Write progress; end the process at once if the desk that started it is gone."""
    from rotation.desk.storage import Store

    store = Store(progress.db_path)
    while True:
        if os.getppid() != parent:
            os._exit(3)
        progress.flush(store)
        time.sleep(PROGRESS_EVERY)


class Planner:
    """The desk's side: starts one worker per run, interrupts it on Stop, ends them all at shutdown."""

    def __init__(self, db_path: str):
        self.db_path = db_path
        self.processes: dict[int, subprocess.Popen] = {}
        self.lock = threading.Lock()

    def start(self, run_id: int) -> int:
        # -I: `-m` would put the current folder first on the path, and a models.py there would be imported.
        command = [sys.executable, "-I", "-m", "rotation.desk.worker", self.db_path, str(run_id)]
        # A session of its own: Ctrl-C on the desk's terminal stops the desk, and the desk ends its
        # workers itself (their runs are then interrupted, never half-stored).
        process = subprocess.Popen(command, start_new_session=True, stdin=subprocess.DEVNULL)
        # Reaped as soon as it ends (no defunct process left per plan); poll() still reads its status.
        threading.Thread(target=process.wait, name=f"reap-{process.pid}", daemon=True).start()
        with self.lock:
            self.processes[run_id] = process
        return process.pid

    def interrupt(self, run_id: int) -> bool:
        """SIGINT to the run's worker: stop and keep the best. False if this desk has no such worker."""
        with self.lock:
            process = self.processes.get(run_id)
        if process is None or process.poll() is not None:
            return False
        process.send_signal(signal.SIGINT)
        return True

    def exited(self, run_id: int) -> bool:
        """The run's worker has ended, or was never this desk's."""
        with self.lock:
            process = self.processes.get(run_id)
        return process is None or process.poll() is not None

    def shutdown(self) -> list[int]:
        """End every worker still running; returns their runs."""
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


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
