"""What starts and stops the desk's planning (its protocol; the worker processes are rotation.desk.worker)."""

from __future__ import annotations

from typing import Protocol


class Planner(Protocol):
    """Starts planning processes and ends them at shutdown (rotation.desk.worker.WorkerPlanner); `desk` is the
    id of the desk it belongs to, stamped on the runs it starts."""

    desk: str

    def start(self, run_id: int) -> int: ...
    def running(self, run_id: int) -> bool: ...
    def shutdown(self) -> list[int]: ...
