"""Run the CP-SAT model within a time limit, keeping the best seating and reporting progress."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ortools.sat.python import cp_model

from models import Event, Progress
from optimizer.cpsat.model import SeatingModel
from optimizer.seats import Seats
from optimizer.state import History


@dataclass(frozen=True)
class Outcome:
    seats: Seats | None
    repeats: int | None
    repeats_bound: int  # proven: no schedule of the model has fewer repeats
    proven: bool  # CP-SAT closed the search: the repeats are optimal, or no schedule exists
    best_at: float | None  # seconds from the epoch to the schedule with these repeats
    interrupted: bool


class _Watcher(cp_model.CpSolverSolutionCallback):
    """Keeps the best seating found and tells the director; stops once nothing better can exist."""

    def __init__(self, model: SeatingModel, lower_bound: int, epoch: float, on_progress):
        super().__init__()
        self.model, self.lower_bound, self.epoch, self.on_progress = model, lower_bound, epoch, on_progress
        self.seats: Seats | None = None
        self.repeats: int | None = None
        self.best_at: float | None = None
        self.stopped_by_us = False

    def on_solution_callback(self) -> None:
        elapsed = time.monotonic() - self.epoch
        repeats = int(self.value(self.model.total_repeats))
        if self.repeats is None or repeats < self.repeats:
            self.repeats, self.best_at = repeats, elapsed
        self.seats = self.model.seating(self.boolean_value)
        bound = max(self.lower_bound, self.model.repeats_bound(self.best_objective_bound))
        if self.on_progress:
            self.on_progress(Progress(repeats=self.repeats, lower_bound=bound, elapsed=elapsed, note="CP-SAT"))
        if (
            repeats == self.lower_bound
            and self.value(self.model.club_meetings) == 0
            and self.value(self.model.worst_player) <= _fairest(repeats, self.model.player_count)
        ):
            self.stopped_by_us = True
            self.stop_search()


def _fairest(repeats: int, player_count: int) -> int:
    """No schedule's worst-off player has fewer repeats than the average share, rounded up."""
    return -(-2 * repeats // player_count)


def solve(
    event: Event,
    *,
    time_limit: float,
    hint: Seats | None = None,
    lower_bound: int = 0,
    max_repeats: int | None = None,
    history: History | None = None,
    seed: int = 0,
    workers: int = 8,
    work_limit: float | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    epoch: float | None = None,
) -> Outcome:
    """Solve the day's model; with `max_repeats`, only schedules with at most that many count;
    `history` carries what rounds already played left (a re-plan); `work_limit` caps CP-SAT's
    deterministic time, which with one worker makes a run repeat exactly; progress and `best_at`
    count seconds from `epoch` (the start of the whole run)."""
    started = time.monotonic()
    model = SeatingModel(event, lower_bound=lower_bound, max_repeats=max_repeats, history=history)
    if hint is not None:
        model.add_hint(hint)
    solver = cp_model.CpSolver()
    remaining = max(0.1, time_limit - (time.monotonic() - started))
    solver.parameters.max_time_in_seconds = remaining
    solver.parameters.random_seed = seed
    solver.parameters.num_workers = workers
    if work_limit is not None:
        solver.parameters.max_deterministic_time = work_limit
    watcher = _Watcher(model, lower_bound, epoch or started, on_progress)
    status, interrupted = solve_until_ctrl_c(solver, model.model, watcher)
    proven = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) or watcher.stopped_by_us
    bound = lower_bound
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        bound = max(lower_bound, model.repeats_bound(solver.best_objective_bound))
    return Outcome(
        seats=watcher.seats,
        repeats=watcher.repeats,
        repeats_bound=watcher.repeats if proven and watcher.repeats is not None else bound,
        proven=proven,
        best_at=watcher.best_at,
        interrupted=interrupted,
    )


def solve_until_ctrl_c(
    solver: cp_model.CpSolver, model: cp_model.CpModel, watcher: cp_model.CpSolverSolutionCallback | None = None
) -> tuple[cp_model.CpSolverStatus, bool]:
    """Solve in a thread so Ctrl-C reaches Python: it stops the search, and the best so far stays.

    CP-SAT's own SIGINT catching is turned off: left on, it takes Ctrl-C for itself and, once the
    solve ends, the process no longer answers it. Returns (status, interrupted)."""
    solver.parameters.catch_sigint_signal = False
    status: list[cp_model.CpSolverStatus] = []
    finished = threading.Event()

    def work() -> None:
        status.append(solver.solve(model, watcher) if watcher else solver.solve(model))
        finished.set()

    threading.Thread(target=work, daemon=True).start()
    interrupted = False
    while not finished.is_set():
        try:
            finished.wait(0.1)
        except KeyboardInterrupt:
            interrupted = True
            solver.stop_search()
    return status[0], interrupted
