"""The desk's planning process (rotation.desk.worker): it ends when its desk is gone, learnt from the pipe
the desk holds (its stdin), as it would be on Windows where a parent's pid never changes; and it runs in a
process group (Windows) or session (POSIX) of its own, out of reach of Ctrl-C on the desk's console."""

from __future__ import annotations

import os
import subprocess

import pytest

from desk_helpers import names, seeded_event
from rotation.desk.core.settings import EventSettings
from rotation.desk.storage import PlanRequest, Store
from rotation.desk.worker import WorkerPlanner, own_process_group

pytestmark = pytest.mark.subprocess

SETTINGS = EventSettings(names=names(18), rounds=6, odd="sit-out", time_limit=120)


def started(db) -> tuple[WorkerPlanner, int, subprocess.Popen]:
    store = Store(db)
    run_id = store.add_run(seeded_event(db, SETTINGS), PlanRequest(settings=SETTINGS), 120.0, desk="this desk")
    planner = WorkerPlanner(str(db), "this desk")
    planner.start(run_id)
    return planner, run_id, planner.processes[run_id]


def test_the_worker_ends_when_its_desk_closes_the_pipe_though_the_desk_lives_on(db):
    planner, run_id, worker = started(db)
    try:
        planner.stopping = True  # the desk closes the run itself
        worker.stdin.close()  # what the system does to the pipe when the desk ends, however it ends
        assert worker.wait(timeout=60) == 3  # long before the run's 120 s
        assert Store(db).run(run_id).running  # nothing stored by the worker; this process, its desk, lives on
    finally:
        planner.shutdown()


def test_the_worker_has_a_session_of_its_own(db):
    planner, _, worker = started(db)
    try:
        assert os.getsid(worker.pid) == worker.pid != os.getsid(0)
    finally:
        planner.shutdown()


def test_on_windows_the_worker_has_a_process_group_of_its_own():
    """Faked platform: the arguments Popen is given there (CREATE_NEW_PROCESS_GROUP is 0x200 in Windows' API)."""
    assert own_process_group("win32") == {"creationflags": 0x00000200}
    assert own_process_group("linux") == own_process_group("darwin") == {"start_new_session": True}
