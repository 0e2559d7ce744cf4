"""How long a stage may run: the one budget every stage reads, and the one way CP-SAT is run.

In the spirit of PyVRP's stopping criteria (pyvrp.stop): a stage asks its budget, never the clock.

Clock      what a budget counts: the wall clock, or the work clock of a repeatable run
Budget     an end on a clock and a stop token: `left`, `done`, `afford(cost)`, `share(part)`, `charge(work)`
Stop       the stop token: Ctrl-C, SIGTERM or the desk's "Stop and keep the best" set it, every stage polls it
solve      the one CP-SAT runner: time or work limit, workers, seed, the stop token and a callback

A repeatable run (a seed, one worker) counts on the work clock. Its seconds are seconds of *work*:
CP-SAT's deterministic time (on one worker a pure function of the model, the seed and the limit), and a
local search's steps at a fixed rate (e.g. 300 tabu steps a work second). The stages charge what they
did; the wall clock is never read to decide what runs, so the same input gives the same schedule on a
quiet machine and on a busy one. The cost: its length is the work, not the time limit. On this project's
2-core machine a work second takes about a wall second when the machine is quiet, more when it is busy.

No exception reports an outcome: a stopped stage returns what it has, and `done()` tells the next stage.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

# How often the CP-SAT runner looks at the stop token while the solver works in its thread (seconds).
POLL_SECONDS = 0.05


class Stop:
    """A stop token: set once (by a signal handler, another thread or a stage), read by every stage.
    A plain flag, so that a signal handler may set it at any instant. A token with a `parent` is also set
    when its parent is: a run's own token below the process's `STOP`, which the stop signals set."""

    def __init__(self, parent: Stop | None = None) -> None:
        self.parent = parent
        self._asked = False

    def set(self) -> None:
        self._asked = True

    def clear(self) -> None:
        self._asked = False

    def is_set(self) -> bool:
        return self._asked or (self.parent is not None and self.parent.is_set())


# The process's stop token: rotation.stopping (the CLI) and the desk's worker set it; each run's token is below it.
STOP = Stop()


class WallClock:
    """Seconds since the clock was made."""

    def __init__(self) -> None:
        self.started = time.monotonic()

    def now(self) -> float:
        return time.monotonic() - self.started

    def charge(self, work: float) -> None:
        """The wall clock counts itself."""


class WorkClock:
    """Seconds of work, as the stages charge them; never the wall clock."""

    def __init__(self) -> None:
        self.spent = 0.0

    def now(self) -> float:
        return self.spent

    def charge(self, work: float) -> None:
        self.spent += work


Clock = WallClock | WorkClock


@dataclass(frozen=True)
class Budget:
    """An end on a clock (seconds from the clock's start) and a stop token. Sub-budgets (`share`, `within`,
    `before`) share the clock and the token: work charged to one counts for all.

    `started` and `elapsed()` are for reports (progress, runtime) only: nothing is decided by them."""

    clock: Clock
    end: float
    stop: Stop = field(default_factory=lambda: Stop(STOP))
    started: float = field(default_factory=time.monotonic)

    @classmethod
    def of(cls, seconds: float, *, repeatable: bool = False, stop: Stop | None = None) -> Budget:
        """A run's budget: `seconds` on the wall clock, or seconds of work in a repeatable run."""
        clock: Clock = WorkClock() if repeatable else WallClock()
        return cls(clock, seconds, stop if stop is not None else Stop(STOP))

    @property
    def repeatable(self) -> bool:
        return isinstance(self.clock, WorkClock)

    @property
    def stopped(self) -> bool:
        return self.stop.is_set()

    def left(self) -> float:
        """Seconds (of work, in a repeatable run) until the end; 0 once stopped."""
        return 0.0 if self.stopped else max(0.0, self.end - self.clock.now())

    def done(self) -> bool:
        return self.left() <= 0.0

    def afford(self, cost: float) -> bool:
        """Whether a step of `cost` seconds fits in what is left (and the run was not stopped)."""
        return not self.stopped and self.left() >= cost

    def charge(self, work: float) -> None:
        """Count `work` seconds done (a repeatable run's clock moves only so)."""
        self.clock.charge(work)

    def share(self, part: float, at_least: float = 0.0) -> Budget:
        """A sub-stage's budget: `part` of what is left (at least `at_least` seconds), within this end."""
        now = self.clock.now()
        return self.within(max(at_least, part * max(0.0, self.end - now)))

    def within(self, seconds: float) -> Budget:
        """A sub-stage's budget: at most `seconds` from now, within this end."""
        return Budget(self.clock, min(self.end, self.clock.now() + seconds), self.stop, self.started)

    def before(self, seconds: float) -> Budget:
        """This budget ending `seconds` earlier (what is kept after it for the stages that follow)."""
        return Budget(self.clock, self.end - seconds, self.stop, self.started)

    def elapsed(self) -> float:
        """Wall seconds since the run began, for reports only."""
        return time.monotonic() - self.started


@dataclass(frozen=True)
class Solved:
    """What a CP-SAT run ended with: the status, the solver to read values from, and whether it was stopped."""

    status: cp_model.CpSolverStatus
    solver: cp_model.CpSolver
    stopped: bool

    @property
    def found(self) -> bool:
        return self.status in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    @property
    def closed(self) -> bool:
        """CP-SAT closed the search: optimal, or no solution exists."""
        return self.status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)


def solve(
    model: cp_model.CpModel,
    budget: Budget,
    *,
    workers: int,
    seed: int,
    callback: cp_model.CpSolverSolutionCallback | None = None,
    work: float | None = None,
    tune: Callable[[cp_model.CpSolver], None] | None = None,
) -> Solved:
    """Solve `model` within `budget`: on the wall clock, its seconds left (and at most `work` seconds of
    deterministic time, if given); on the work clock, its seconds left as deterministic time (at most
    `work`), then charged with the deterministic time CP-SAT spent. The solver works in a thread so that
    the stop token (and a library caller's own Ctrl-C, which sets it) stops it at once, the best found
    kept; CP-SAT's own SIGINT catching is off (left on, the process no longer answers Ctrl-C after it).
    `tune` sets further parameters."""
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers, params.random_seed, params.catch_sigint_signal = workers, seed, False
    left = max(0.01, budget.left())
    if budget.repeatable:
        params.max_deterministic_time = left if work is None else min(left, work)
    else:
        params.max_time_in_seconds = left
        if work is not None:
            params.max_deterministic_time = work
    if tune is not None:
        tune(solver)
    status: list[cp_model.CpSolverStatus] = []
    finished = threading.Event()

    def run() -> None:
        status.append(solver.solve(model, callback) if callback else solver.solve(model))
        finished.set()

    threading.Thread(target=run, daemon=True).start()
    stopped = budget.stopped
    if stopped:
        solver.stop_search()
    while not finished.is_set():
        try:
            finished.wait(POLL_SECONDS)
        except KeyboardInterrupt:  # a library caller's own Ctrl-C: the stop token, as a signal handler would
            budget.stop.set()
        if not stopped and budget.stopped:
            stopped = True
            solver.stop_search()
    budget.charge(solver.response_proto.deterministic_time)  # CpSolver.deterministic_time is only 9.15's
    return Solved(status[0], solver, stopped)
