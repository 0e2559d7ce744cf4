"""The one entry point for a variety rotation: event and time limit in, a checked result out.

Starts are cheap schedules (the fixed rule, zero-repeat constructions, a greedy round-by-round
seating); the best one that passes the checker is the CP-SAT warm start in rooms small enough for
the full model, and is improved by local search in larger rooms. The search stops early once
repeats meet the lower bound.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from models import Bound, Event, Metrics, PlanResult, Schedule, Status
from optimizer import cpsat, search
from optimizer.bounds import lower_bound
from optimizer.checker import InvalidSchedule, check
from optimizer.constructions import frontier_rounds, instant_seating, zero_repeat_seating
from optimizer.cpsat import Progress
from optimizer.fixed import fixed_seating
from optimizer.requests import place_stayers
from optimizer.seating import to_schedule
from optimizer.tabu import tabu_search

# Above this many pair-round-table clauses the full model is too slow to help; local search takes over.
CPSAT_MAX_CLAUSES = 400_000
CLAUSES_BUILT_PER_SECOND = 100_000  # measured: about 150 000 on this project's 2-core machine
# Tabu search weighs every swap of every round at each step; past this many players, swaps round by round.
TABU_MAX_PLAYERS = 120
# A seeded one-worker run counts tabu steps instead of watching the clock, so it repeats exactly.
TABU_STEPS_PER_SECOND = 300


@dataclass
class Candidate:
    seats: np.ndarray
    schedule: Schedule  # as the checker judged it
    metrics: Metrics
    method: str
    found_at: float

    @property
    def rank(self) -> tuple[int, int]:
        """Repeats first; club-mate meetings (the spread request) break ties."""
        return self.metrics.repeats, self.metrics.club_meetings


@dataclass
class Day:
    """One planning run: the rounds to plan, what was played before them, the clock, the best so far.

    `whole_day` turns planned rounds into the schedule the checker judges (for a re-plan: the
    played rounds followed by the planned ones)."""

    event: Event
    time_limit: float
    on_progress: Callable[[Progress], None] | None = None
    played: np.ndarray | None = None  # meetings so far among the event's players
    burdens: np.ndarray | None = None  # three-handed rounds or sit-outs so far
    whole_day: Callable[[np.ndarray], Schedule] | None = None
    bound: Bound | None = None
    unseen_repeats: int = 0  # repeats of pairs the model does not seat (a player who left)
    repeatable: bool = False  # count work, not seconds, so a seeded run repeats exactly
    started: float = field(default_factory=time.monotonic)
    best: Candidate | None = None
    time_to_first: float | None = None

    def __post_init__(self):
        self.deadline = self.started + self.time_limit
        self.bound = self.bound or lower_bound(self.event)
        self.room = search.Room.of(self.event, self.played)
        self.whole_day = self.whole_day or (lambda seats: to_schedule(self.event, seats, rule="variety"))

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def left(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def offer(self, seats: np.ndarray, method: str, found_at: float | None = None) -> None:
        """Keep the schedule if the checker passes it (requests included), its shares are fair,
        and it beats the best."""
        schedule = self.whole_day(seats)
        try:
            metrics = check(schedule)
        except InvalidSchedule:
            return
        if not (metrics.three_handed_fair and metrics.sit_outs_fair):
            return
        if self.time_to_first is None:
            self.time_to_first = self.elapsed()
        found_at = self.elapsed() if found_at is None else found_at
        candidate = Candidate(seats, schedule, metrics, method, found_at)
        if self.best is None or candidate.rank < self.best.rank:
            self.best = candidate
            if self.on_progress:
                self.on_progress(Progress(metrics.repeats, self.bound.repeats, self.elapsed(), method))

    @property
    def done(self) -> bool:
        """Repeats at the bound, and no club-mates meeting who were asked to be spread."""
        return self.best is not None and self.best.rank <= (self.bound.repeats, 0)


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
    day = Day(event, time_limit, on_progress, repeatable=workers == 1)
    fixed = fixed_seating(event)
    proven, interrupted = run(day, seed, workers, warm_start, starts=[(fixed, "fixed rule")])
    unrequested = event.model_copy(update={"apart": (), "stay": {}})  # the fixed rule cannot honour requests
    return result(day, check(to_schedule(unrequested, fixed, rule="fixed")).repeats, proven, interrupted)


def run(day: Day, seed: int, workers: int, warm_start: bool, starts) -> tuple[bool, bool]:
    """Offer the starts, then search. Returns (proven, interrupted); Ctrl-C keeps the best so far."""
    rng = np.random.default_rng(seed)
    try:
        if warm_start:
            for seats, method in starts:
                day.offer(place_stayers(seats, day.event), method)
            _offer_constructions(day, rng)
        if not day.done:
            return _search(day, seed, workers, rng, warm_start)
    except KeyboardInterrupt:
        return False, True
    return False, False


def _offer_constructions(day: Day, rng: np.random.Generator) -> None:
    event = day.event
    if day.played is None and not event.layout.threes and not event.layout.sit_outs:
        found = zero_repeat_seating(len(event.players), event.rounds, time_limit=min(10.0, day.left() / 3))
        found = found or _longest_zero_repeat_prefix(day)
        if found is not None:
            seats, method = found
            if len(seats) < event.rounds:
                seats, method = search.extend(seats, event.rounds, day.room, rng), f"{method}, extended"
            day.offer(place_stayers(seats, event), method)
    if not day.done:
        day.offer(search.greedy_seating(event, day.room, rng, day.burdens), "greedy round by round")


def _longest_zero_repeat_prefix(day: Day) -> tuple[np.ndarray, str] | None:
    """Past the rounds a repeat-free schedule reaches, start from the longest one at hand."""
    rounds = min(day.event.rounds - 1, frontier_rounds(day.room.players))
    return instant_seating(day.room.players, rounds) if rounds > 0 else None


def _search(day: Day, seed: int, workers: int, rng, warm_start: bool) -> tuple[bool, bool]:
    """CP-SAT on rooms the full model fits, local search beyond. Returns (proven, interrupted)."""
    event, players = day.event, len(day.event.players)
    clauses = players * (players - 1) // 2 * event.rounds * event.layout.tables
    if clauses <= CPSAT_MAX_CLAUSES:
        if warm_start:  # a better hint first
            _local_search(day, rng, share=0.5)
        if day.done:
            return False, False
        if day.left() < clauses / CLAUSES_BUILT_PER_SECOND:  # building the model alone would overrun
            _local_search(day, rng, share=1.0)
            return False, False
        outcome = cpsat.solve(
            event,
            day.best.seats if day.best else None,
            max(0, day.bound.repeats - day.unseen_repeats),
            day.left(),
            seed,
            workers,
            day.on_progress,
            played=day.played,
            played_burdens=day.burdens,
            work_limit=day.time_limit / 2 if day.repeatable else None,
            epoch=day.started,
        )
        if outcome.seats is not None:
            day.offer(outcome.seats, "CP-SAT", found_at=outcome.best_at)
        if outcome.bound + day.unseen_repeats > day.bound.repeats:
            day.bound = Bound(repeats=outcome.bound + day.unseen_repeats, proof="CP-SAT search proof")
        return outcome.proven, outcome.interrupted
    _local_search(day, rng, share=1.0)
    return False, False


def _local_search(day: Day, rng, share: float) -> None:
    """Improve the best start for a share of the time left (a better CP-SAT hint, or the answer)."""
    if day.best is None:
        day.offer(search.greedy_seating(day.event, day.room, rng, day.burdens), "greedy round by round")
    if day.best is None:
        return
    deadline = time.monotonic() + share * day.left()
    method = f"{day.best.method}, {'tabu' if day.room.players <= TABU_MAX_PLAYERS else 'local'} search"
    offer = lambda seats: day.offer(seats.copy(), method)  # noqa: E731
    if day.room.players <= TABU_MAX_PLAYERS:
        target = max(0, day.bound.repeats - day.unseen_repeats)
        steps = int(share * day.time_limit * TABU_STEPS_PER_SECOND) if day.repeatable else None
        offer(tabu_search(day.best.seats, day.room, deadline, rng, target, offer, max_steps=steps))
    else:
        offer(search.improve(day.best.seats, day.room, deadline, rng, offer))


def result(day: Day, fixed_repeats: int, proven: bool, interrupted: bool) -> PlanResult:
    best = day.best
    common = dict(bound=day.bound, fixed_repeats=fixed_repeats, runtime=day.elapsed(), interrupted=interrupted)
    if best is None:
        status = Status.INFEASIBLE if proven else Status.UNKNOWN
        return PlanResult(status=status, repeats=None, method="none", **common)
    return PlanResult(
        status=Status.OPTIMAL if best.metrics.repeats <= day.bound.repeats else Status.FEASIBLE,
        repeats=best.metrics.repeats,
        method=best.method,
        time_to_first=day.time_to_first,
        time_to_best=best.found_at,
        schedule=best.schedule,
        metrics=best.metrics,
        **common,
    )
