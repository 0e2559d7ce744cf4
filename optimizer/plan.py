"""The one entry point for a variety rotation: event and time limit in, a checked result out.

Starts are cheap schedules (the fixed rule, zero-repeat constructions, a greedy round-by-round
seating); the best fair one is the CP-SAT warm start in rooms small enough for the full model, and
is improved by local search in larger rooms. The search stops early once repeats meet the lower bound.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from models import Bound, Event, PlanResult, Status
from optimizer import cpsat, search
from optimizer.bounds import lower_bound
from optimizer.checker import check
from optimizer.constructions import zero_repeat_seating
from optimizer.cpsat import Progress
from optimizer.fixed import fixed_seating
from optimizer.seating import to_schedule, total_repeats

# Above this many pair-round-table clauses the full model is too slow to help; local search takes over.
CPSAT_MAX_CLAUSES = 400_000


@dataclass
class Candidate:
    seats: np.ndarray
    repeats: int
    method: str
    found_at: float


class _Day:
    """The state of one planning run: the clock, the best fair candidate, what is proven."""

    def __init__(self, event: Event, time_limit: float, on_progress):
        self.event, self.players = event, len(event.players)
        self.started = time.monotonic()
        self.deadline = self.started + time_limit
        self.on_progress = on_progress
        self.bound = lower_bound(event)
        self.best: Candidate | None = None
        self.time_to_first: float | None = None

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def offer(self, seats: np.ndarray, method: str) -> None:
        if not _shares_burdens_fairly(self.event, seats):
            return
        repeats = total_repeats(seats, self.players)
        if self.time_to_first is None:
            self.time_to_first = self.elapsed()
        if self.best is None or repeats < self.best.repeats:
            self.best = Candidate(seats, repeats, method, self.elapsed())
            self.report()

    def report(self, note: str = "") -> None:
        if self.on_progress and self.best:
            self.on_progress(Progress(self.best.repeats, self.bound.repeats, self.elapsed(), note or self.best.method))

    @property
    def done(self) -> bool:
        return self.best is not None and self.best.repeats <= self.bound.repeats


def plan(
    event: Event,
    time_limit: float = 30.0,
    seed: int = 0,
    workers: int = 8,
    on_progress: Callable[[Progress], None] | None = None,
    warm_start: bool = True,
) -> PlanResult:
    """The variety rotation with the fewest repeats found within the time limit, checked.
    `warm_start=False` skips the starts, so a benchmark can show what they buy."""
    day = _Day(event, time_limit, on_progress)
    rng = np.random.default_rng(seed)
    fixed = fixed_seating(event)
    interrupted, proven = False, False
    try:
        if warm_start:
            day.offer(fixed, "fixed rule")
            _offer_constructions(day, rng)
        if not day.done:
            proven, interrupted = _search(day, seed, workers, rng)
    except KeyboardInterrupt:
        interrupted = True
    return _result(day, fixed, proven, interrupted)


def _offer_constructions(day: _Day, rng: np.random.Generator) -> None:
    event = day.event
    if not event.layout.threes and not event.layout.sit_outs:
        found = zero_repeat_seating(day.players, event.rounds, time_limit=min(10.0, _left(day) / 3))
        if found is None:
            found = _longest_zero_repeat_prefix(day)
        if found is not None:
            seats, method = found
            if len(seats) < event.rounds:
                seats, method = search.extend(seats, event.rounds, day.players, rng), f"{method}, extended"
            day.offer(seats, method)
    if not day.done:
        day.offer(search.greedy_seating(event, rng), "greedy round by round")


def _longest_zero_repeat_prefix(day: _Day) -> tuple[np.ndarray, str] | None:
    """Past the rounds a repeat-free schedule reaches, start from the longest one that exists."""
    for rounds in range(day.event.rounds - 1, 0, -1):
        found = zero_repeat_seating(day.players, rounds, time_limit=min(2.0, _left(day) / 6))
        if found is not None:
            return found
    return None


def _left(day: _Day) -> float:
    return max(0.0, day.deadline - time.monotonic())


def _search(day: _Day, seed: int, workers: int, rng) -> tuple[bool, bool]:
    """CP-SAT on rooms the full model fits, local search beyond. Returns (proven, interrupted)."""
    event, layout = day.event, day.event.layout
    clauses = day.players * (day.players - 1) // 2 * (event.rounds - 1) * layout.tables
    if clauses <= CPSAT_MAX_CLAUSES:
        hint = day.best.seats if day.best else None
        outcome = cpsat.solve(event, hint, day.bound.repeats, _left(day), seed, workers, day.on_progress)
        if outcome.seats is not None:
            day.offer(outcome.seats, "CP-SAT")
            if outcome.time_to_first is not None and day.time_to_first is None:
                day.time_to_first = outcome.time_to_first
        if outcome.bound > day.bound.repeats:
            day.bound = Bound(repeats=outcome.bound, proof="CP-SAT search proof")
        return outcome.proven, outcome.interrupted
    if day.best is None:
        day.offer(search.greedy_seating(event, rng), "greedy round by round")
    if day.best is not None:
        improved = search.improve(
            day.best.seats, day.players, day.deadline, rng, on_better=lambda s, _: day.offer(s.copy(), "local search")
        )
        day.offer(improved, "local search")
    return False, False


def _shares_burdens_fairly(event: Event, seats: np.ndarray) -> bool:
    """Three-handed seats and sit-outs taken in turn (the model's rule), checked on the array."""
    layout, n = event.layout, len(event.players)
    if not (layout.threes or layout.sit_outs):
        return True
    burdened = np.zeros((len(seats), n), dtype=np.int64)
    for r, round_ in enumerate(seats):
        seated = round_[round_ >= 0]
        if layout.sit_outs:
            burdened[r] = 1
            burdened[r, seated] = 0
        else:
            three = round_[layout.fours :, :3].ravel()
            burdened[r, three] = 1
    so_far = burdened.cumsum(axis=0)
    return bool(np.all(so_far.max(axis=1) - so_far.min(axis=1) <= 1))


def _result(day: _Day, fixed: np.ndarray, proven: bool, interrupted: bool) -> PlanResult:
    event, best = day.event, day.best
    fixed_repeats = total_repeats(fixed, day.players)
    if best is None:
        status = Status.INFEASIBLE if proven else Status.UNKNOWN
        return PlanResult(
            status=status, repeats=None, bound=day.bound, fixed_repeats=fixed_repeats, method="none",
            runtime=day.elapsed(), interrupted=interrupted,
        )
    schedule = to_schedule(event, best.seats, rule="variety")
    metrics = check(schedule)
    optimal = metrics.repeats <= day.bound.repeats
    return PlanResult(
        status=Status.OPTIMAL if optimal else Status.FEASIBLE,
        repeats=metrics.repeats,
        bound=day.bound,
        fixed_repeats=fixed_repeats,
        method=best.method,
        runtime=day.elapsed(),
        time_to_first=day.time_to_first,
        time_to_best=best.found_at,
        interrupted=interrupted,
        schedule=schedule,
        metrics=metrics,
    )
