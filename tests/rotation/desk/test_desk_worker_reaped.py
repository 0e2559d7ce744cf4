"""A planning process that ended is reaped at once: no defunct process is left behind per plan."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from rotation.desk.storage import Store
from rotation.desk.worker import WorkerPlanner


def state(pid: int) -> str:
    """The process's state letter (Z: defunct), or '' once it is gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""
    return next(line.split()[1] for line in text.splitlines() if line.startswith("State:"))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
@pytest.mark.subprocess
def test_a_worker_that_ended_is_not_left_defunct(tmp_path):
    db = tmp_path / "desk.sqlite3"
    Store(db).close()
    planner = WorkerPlanner(str(db), desk="this desk")
    pids = [planner.start(run_id) for run_id in (1, 2, 3)]  # no such runs: each worker ends at once
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and any(state(pid) not in ("", "Z") for pid in pids):
        time.sleep(0.1)
    time.sleep(0.5)  # the reaper's moment
    assert [state(pid) for pid in pids] == ["", "", ""]
    assert not any(planner.running(run_id) for run_id in (1, 2, 3))
