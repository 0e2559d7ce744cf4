"""How long a stage may run: the one budget every stage reads, and the one way CP-SAT is run.

In the spirit of PyVRP's stopping criteria (pyvrp.stop): a stage asks its budget, never the clock.

Clock      what a budget counts: the wall clock, or the work clock of a repeatable run
Budget     an end on a clock and a stop token: `left`, `done`, `afford(cost)`, `share(part)`, `charge(work)`;
           `for_run` builds a run's from its caller's limit (the one place), `part` hands a composed run its own
Stop       the stop token: Ctrl-C, SIGTERM or the desk's "Stop and keep the best" set it, every stage polls it
Abandoned  what a budget's `poller` raises inside a step that has nothing to return halfway (a check)
solve      the one CP-SAT runner: time or work limit, workers, seed, the stop token and a callback

A repeatable run (a seed, one worker) counts on the work clock. Its seconds are seconds of *work*:
CP-SAT's deterministic time at CPSAT_WORK_PER_SECOND (on one worker a pure function of the model, the
seed and the limit), and a local search's steps at a fixed rate (e.g. 300 tabu steps a work second).
The stages charge what they did; the wall clock is never read to decide what runs, so the same input
gives the same schedule on a quiet machine and on a busy one. The cost: its length is the work, not the
time limit: about the time limit when the machine is quiet (the rates are this project's 2-core
machine's), longer when it is busy.

No exception reports an outcome: a stopped stage returns what it has, and `done()` tells the next stage.
The one exception to it is `Abandoned`, raised by a poll inside a step that has nothing usable halfway
(checking a candidate day): the step's caller catches it at once and keeps the best it had.
A library caller's own Ctrl-C (KeyboardInterrupt, where no signal handler sets the token) is turned into
the stop token here alone (`Budget.until_interrupted`, and the CP-SAT runner's wait).

Start-up: OR-Tools' CP-SAT (with the pandas it imports) is a quarter of a second of CPU to import, about
half of the program's start-up, and most runs build no model (a construction or the local search gives
their day). So `cp_model` is imported where a model is built or solved, never at a module's top (there
only for the type checker); tests/test_startup.py checks which runs import it.

The clock is read here alone: the stages ask their budget (`left`, `done`, `afford`), and measure a step
(`stopwatch`) or a run (`elapsed`) through it, for reports and for keeping back time on the wall clock.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

# Work is summed in floats: a budget this close to its end is spent (so that N steps charged 1/N each
# make exactly one second, whatever the rounding).
EPSILON = 1e-9
# A second of work is this many seconds of CP-SAT's deterministic time: measured on the day models (20 x 6,
# 16 x 12, 24 x 9, one worker), 2 deterministic seconds took 5 to 11 seconds of CPU time. A power of two,
# so that seconds turned into deterministic time and back are exact.
CPSAT_WORK_PER_SECOND = 0.25
# How often the CP-SAT runner looks at the stop token while the solver works in its thread (seconds).
POLL_SECONDS = 0.05


class Stop:
    """A stop token: set once (by a signal handler, another thread or a stage), read by every stage.
    A plain flag, so that a signal handler may set it at any instant. A token with a `parent` is also set
    when its parent is: a run's own token below the process's `STOP`, which the stop signals set."""

    def __init__(self, parent: Stop | None = None) -> None:
        self.parent = parent
        self._asked: float | None = None  # when it was set (the monotonic clock), None until then

    def set(self) -> None:
        if self._asked is None:
            self._asked = time.monotonic()

    def clear(self) -> None:
        self._asked = None

    def is_set(self) -> bool:
        return self._asked is not None or (self.parent is not None and self.parent.is_set())

    def since(self) -> float | None:
        """When the stop was first asked (on the monotonic clock), by this token or a parent; None if not yet."""
        above = self.parent.since() if self.parent is not None else None
        asked = [t for t in (self._asked, above) if t is not None]
        return min(asked) if asked else None


class Deadline(Stop):
    """A stop token also set by the wall clock `seconds` after it is made: a stopped run's finish, whose
    steps poll their stop token, so that they end by it (a stopped run repeats nothing)."""

    def __init__(self, seconds: float, start: float | None = None) -> None:
        super().__init__()
        self._end = (time.monotonic() if start is None else start) + seconds

    def is_set(self) -> bool:
        return super().is_set() or time.monotonic() >= self._end


# The process's stop token: rotation.stopping (the CLI) and the desk's worker set it; each run's token is below it.
STOP = Stop()


class Abandoned(Exception):
    """A step given up halfway because its poll (`Budget.poller`) said so: what it was making is dropped."""


class WallClock:
    """Seconds since the clock was made (or since `started`, on the monotonic clock)."""

    def __init__(self, started: float | None = None) -> None:
        self.started = time.monotonic() if started is None else started

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
T = TypeVar("T")


@dataclass(frozen=True)
class Budget:
    """An end on a clock (seconds from the clock's start) and a stop token. Sub-budgets (`share`, `within`,
    `before`) share the clock and the token: work charged to one counts for all.

    An `allowance` is a work clock of its own within a parent budget: a step count that holds alike on
    the wall clock and the work clock (its work is charged to the parent too).

    `started` and `elapsed()` are for reports (progress, runtime) only: nothing is decided by them."""

    clock: Clock
    end: float
    stop: Stop = field(default_factory=lambda: Stop(STOP))
    started: float = field(default_factory=time.monotonic)
    parent: Budget | None = None

    @classmethod
    def of(cls, seconds: float, *, repeatable: bool = False, stop: Stop | None = None) -> Budget:
        """A run's budget: `seconds` on the wall clock, or seconds of work in a repeatable run."""
        clock: Clock = WorkClock() if repeatable else WallClock()
        return cls(clock, seconds, stop if stop is not None else Stop(STOP))

    @classmethod
    def for_run(cls, time_limit: float, *, workers: int, stop: Stop | None = None) -> Budget:
        """An entry point's budget from its caller's limit: a run on one worker counts work (repeatable,
        with a seed), any other the wall clock."""
        return cls.of(time_limit, repeatable=workers == 1, stop=stop)

    @classmethod
    def after_stop(cls, stop: Stop, seconds: float) -> Budget:
        """A stopped run's finish: `seconds` on the wall clock counted from the moment `stop` was asked (from
        now if it was not), even in a repeatable run (a stopped run repeats nothing), ending by a token of
        its own then. Counted from the stop, not from when the run came to its finish: a stop inside a
        long step (the first check of a big day) leaves the finish only what is left of its seconds."""
        since = stop.since()
        start = time.monotonic() if since is None else since
        return cls(WallClock(start), seconds, Deadline(seconds, start))

    def part(self, seconds: float) -> Budget:
        """A composed run's budget (a plan inside a re-plan, a night, a comparison): `seconds` on a clock
        of its own that starts now, as if the run were called alone (its `end` is its length), never past
        this budget's end; its work counts here too and this stop token stops it."""
        clock: Clock = WorkClock() if self.repeatable else WallClock()
        return Budget(clock, seconds, self.stop, parent=self)

    @property
    def repeatable(self) -> bool:
        return self.parent.repeatable if self.parent is not None else isinstance(self.clock, WorkClock)

    @property
    def stopped(self) -> bool:
        return self.stop.is_set()

    def left(self) -> float:
        """Seconds (of work, in a repeatable run) until the end; 0 once stopped."""
        if self.stopped:
            return 0.0
        own = max(0.0, self.end - self.clock.now())
        return own if self.parent is None else min(own, self.parent.left())

    def overrun(self) -> float:
        """Wall seconds since this budget's own end, 0 before it; always 0 on the work clock (a repeatable
        run decides nothing by the wall clock)."""
        return max(0.0, self.clock.now() - self.end) if isinstance(self.clock, WallClock) else 0.0

    def done(self) -> bool:
        return self.left() <= EPSILON

    def afford(self, cost: float) -> bool:
        """Whether a step of `cost` seconds fits in what is left (and the run was not stopped)."""
        return not self.stopped and self.left() >= cost - EPSILON

    def poller(self, *, at_end: bool = False) -> Callable[[], None]:
        """A poll for a step that cannot stop halfway with something usable: it raises Abandoned once the
        stop token is set (with `at_end`, once the budget is done)."""

        def poll() -> None:
            if self.done() if at_end else self.stopped:
                raise Abandoned

        return poll

    def charge(self, work: float) -> None:
        """Count `work` seconds done (a repeatable run's clock moves only so)."""
        self.clock.charge(work)
        if self.parent is not None:
            self.parent.charge(work)

    def share(self, part: float, at_least: float = 0.0) -> Budget:
        """A sub-stage's budget: `part` of what is left (at least `at_least` seconds), within this end."""
        now = self.clock.now()
        return self.within(max(at_least, part * max(0.0, self.end - now)))

    def within(self, seconds: float, at_least: float = 0.0) -> Budget:
        """A sub-stage's budget: at most `seconds` from now, within this end; but `at_least` seconds from
        now even past it (a step that must not be cut to nothing)."""
        now = self.clock.now()
        end = max(min(self.end, now + seconds), now + at_least)
        return Budget(self.clock, end, self.stop, self.started, self.parent)

    def before(self, seconds: float) -> Budget:
        """This budget ending `seconds` earlier (what is kept after it for the stages that follow)."""
        return Budget(self.clock, self.end - seconds, self.stop, self.started, self.parent)

    def allowance(self, work: float) -> Budget:
        """At most `work` seconds of work, as the steps below charge them, within this budget: a step
        count on either clock."""
        return Budget(WorkClock(), work, self.stop, self.started, self)

    def stoppable(self) -> Budget:
        """This budget with a stop token of its own below this one's: setting it stops what runs under it alone."""
        return Budget(self.clock, self.end, Stop(self.stop), self.started, self.parent)

    def unstopped(self) -> Budget:
        """This budget without its stop token: for finishing what a stopped run keeps (its checks, its
        quick balancing), within the same end."""
        return Budget(self.clock, self.end, Stop(), self.started, self.parent and self.parent.unstopped())

    @classmethod
    def unlimited(cls, stop: Stop | None = None) -> Budget:
        """No end (counted in work, so the wall clock is never read); only the stop token ends it."""
        return cls(WorkClock(), math.inf, stop if stop is not None else Stop(STOP))

    def elapsed(self) -> float:
        """Wall seconds since the run began, for reports only."""
        return time.monotonic() - self.started

    @staticmethod
    def stopwatch() -> Callable[[], float]:
        """Wall seconds since this call, each time asked: how long a step took, for reports and for keeping
        back its time on the wall clock (a repeatable run decides nothing by it)."""
        started = time.monotonic()
        return lambda: time.monotonic() - started

    def until_interrupted(self, step: Callable[[], T]) -> T | None:
        """What `step` returns; a library caller's own Ctrl-C (KeyboardInterrupt, where no stop signal
        handler sets the token) sets the stop token instead (None), and the run goes on to keep its best."""
        try:
            return step()
        except KeyboardInterrupt:
            self.stop.set()
            return None


@dataclass(frozen=True)
class Solved:
    """What a CP-SAT run ended with: the status, the solver to read values from, and whether it was stopped."""

    status: cp_model.CpSolverStatus
    solver: cp_model.CpSolver
    stopped: bool

    @property
    def found(self) -> bool:
        from ortools.sat.python import cp_model

        return self.status in (cp_model.OPTIMAL, cp_model.FEASIBLE)

    @property
    def closed(self) -> bool:
        """CP-SAT closed the search: optimal, or no solution exists."""
        from ortools.sat.python import cp_model

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
    deterministic time, if given); on the work clock, its seconds left as deterministic time at
    CPSAT_WORK_PER_SECOND (at most `work`), then charged with the deterministic time CP-SAT spent. The
    solver works in a thread so that the stop token (and a library caller's own Ctrl-C, which sets it)
    stops it at once, the best found kept; CP-SAT's own SIGINT catching is off (left on, the process no
    longer answers Ctrl-C after it). `tune` sets further parameters."""
    from ortools.sat.python import cp_model  # where a model is solved: see "Start-up" above

    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers, params.random_seed, params.catch_sigint_signal = workers, seed, False
    left = budget.left()
    if budget.repeatable:
        deterministic = left * CPSAT_WORK_PER_SECOND
        params.max_deterministic_time = deterministic if work is None else min(deterministic, work)
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
    if budget.repeatable:
        budget.charge(solver.response_proto.deterministic_time / CPSAT_WORK_PER_SECOND)
    return Solved(status[0], solver, stopped)
