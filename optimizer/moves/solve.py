"""The fewest-moves re-plan: a repair of the old plan, then CP-SAT on moves, then on repeats.

1. The repair start (optimizer.moves.repair): every player who can keep their seat keeps it, the
   empty seats filled, then the fewest trades that keep turns fair. It is offered as it is (the
   checker judges it) and hints phase 1.
2. Phase 1 (optimizer.moves.model): the fewest moves with valid tables, requests and fair turns; its
   bound is the proof of the move count. Should neither the repair nor phase 1 give a seating in time,
   the plan's own search (optimizer.plan, fewest repeats) has what is left: a schedule, moves or not.
3. Phase 2: no more moves than phase 1 found, the fewest repeats. Small rooms leave every cell free;
   larger ones hold every player whose table (old and new) saw no move in that round.
Every seating gets its letters (unmoved players keep theirs) and goes through the incumbent, which
keeps the fewest moves first, then the plan's own ranking (repeats, trios, back-to-back, seats, tables).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from models import Bound, Event, PlanResult, Progress
from optimizer.budget import Budget, Stop, solve
from optimizer.config import PlanConfig
from optimizer.moves.model import MovesModel
from optimizer.moves.old import CANNOT_KEEP, OldPlan
from optimizer.moves.repair import repaired
from optimizer.pipeline.provenance import Method
from optimizer.pipeline.run import RunContext
from optimizer.pipeline.state import Candidate, History
from optimizer.plan import plan
from optimizer.seats import EMPTY, Seats, table_of

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

# Phase 2 leaves every cell free while the whole day's meeting clauses (pairs x rounds x tables) stay
# within this; the day model (optimizer.plan) uses the same limit.
FREE_MAX_CLAUSES = 400_000
# Past this many seat booleans (players x rounds x tables) the model takes longer to build than a run has.
MAX_SEAT_VARIABLES = 400_000
PHASE_ONE_SHARE = 0.6  # of the time left; phase 1 usually proves its count long before
BUILD_SHARE = 0.5  # of the time left that building phase 2's model may take
MIN_FALLBACK_SECONDS = 0.2
FINISH_OFFERS = 3  # the time kept back for the end: this many times what lettering and checking one seating took


@dataclass(frozen=True)
class FewestMoves:
    result: PlanResult
    moves_bound: int  # proven: no valid re-plan of these rounds moves fewer
    repeats_proven: bool  # proven: no re-plan with the fewest moves has fewer repeats


def fits(event: Event) -> bool:
    """Whether the fewest-moves model can be built in a run's time; past it the repair start answers."""
    return len(event.players) * event.rounds * event.layout.tables <= MAX_SEAT_VARIABLES


def fewest_moves(
    event: Event,
    history: History,
    old: OldPlan,
    *,
    time_limit: float = 30.0,
    seed: int = 0,
    workers: int = 8,
    on_progress: Callable[[Progress], None] | None = None,
    stop: Stop | None = None,
    budget: Budget | None = None,
) -> FewestMoves:
    """The re-plan with the fewest moves against `old`, then the fewest repeats, checked. One worker
    counts work (optimizer.budget): a seeded run repeats exactly. A composed run (a re-plan) hands its
    `budget` instead of `time_limit` and `stop`."""
    budget = budget or Budget.for_run(time_limit, workers=workers, stop=stop)
    run = _Run(
        event=event, history=history, old=old, budget=budget, seed=seed, workers=workers, on_progress=on_progress
    )
    start = repaired(old, event, history.burdens_before)
    offering = Budget.stopwatch()
    run.offer(start, "the old plan, repaired")
    # The phases end early enough to letter, check and keep their seatings within the time limit
    # (a repeatable run counts work, so its limits must not depend on the clock).
    if not run.budget.repeatable:
        reserve = FINISH_OFFERS * offering()
        run.budget = run.budget.before(min(reserve, budget.end - 0.1))
    if fits(event):
        run.phase_one(start)
    if run.incumbent.best is None and not run.interrupted:
        run.fewest_repeats()
    if fits(event) and run.incumbent.best is not None and not run.interrupted:
        run.phase_two()
    run.interrupted = run.interrupted or run.budget.stopped
    return FewestMoves(run.result(), run.moves_bound, run.repeats_proven)


@dataclass(kw_only=True)
class _Run(RunContext):
    """One fewest-moves run: the old plan it moves players from, and what it proved. Its bound on the whole
    day's repeats is the played rounds' only; its incumbent ranks the fewest moves first."""

    old: OldPlan
    capacity: list[int] = field(init=False)
    moves_bound: int = field(init=False)
    infeasible: bool = False
    interrupted: bool = False
    repeats_proven: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        layout = self.event.layout
        self.capacity = [4] * layout.fours + [3] * layout.threes
        self.moves_bound = forced_moves(self.old, self.capacity, layout.sit_outs)

    def first_bound(self) -> Bound:
        return Bound(repeats=0, proof="no repeats yet")

    def moves_of(self) -> Callable[[Seats], int]:
        return lambda seats: int(self.old.moved(seats).sum())

    def note(self, best: Candidate) -> str:
        return f"fewest moves: {best.moves}"

    def offer(self, seats: Seats, method: str) -> None:
        """Letter the seating (unmoved players keep their letters) and offer it to the incumbent."""
        self.incumbent.offer(self.old.keep_letters(seats, self.history.letters_before), Method.of(method))

    def phase_one(self, start: Seats) -> None:
        """The fewest moves, and the proof of that count."""
        first = _phase(MovesModel(self.event, self.history, self.old), start, PHASE_ONE_SHARE, self)
        self.interrupted, self.infeasible = first.interrupted, first.infeasible
        if first.seats is not None:
            self.offer(first.seats, "fewest moves (CP-SAT)")
        self.moves_bound = max(self.moves_bound, first.bound)

    def phase_two(self) -> None:
        """The fewest repeats, then back-to-back rematches, with no more moves than the best so far."""
        best = self.incumbent.best
        assert best is not None
        held = held_cells(best.seats, self.old, self.capacity, seconds=BUILD_SHARE * self.budget.left())
        if held is None:
            return
        model = MovesModel(self.event, self.history, self.old, held=held, max_moves=best.moves)
        second = _phase(model, best.seats, 1.0, self)
        if second.seats is not None:
            self.offer(second.seats, "fewest moves, then fewest repeats (CP-SAT)")
        self.interrupted = second.interrupted
        exact = best.moves <= self.moves_bound and not held.any() and second.optimal
        self.repeats_proven = exact and self.incumbent.best is not None and self.incumbent.best.moves == best.moves

    def fewest_repeats(self) -> None:
        """No seating with few moves in time: the plan's own, which seeks the fewest repeats, for what is left."""
        if self.budget.left() < MIN_FALLBACK_SECONDS:
            return
        event, left = self.event, self.budget.left()
        result = plan(event, seed=self.seed, workers=self.workers, history=self.history, budget=self.budget.part(left))
        if result.schedule is not None:
            played = len(result.schedule.rounds) - event.rounds
            seats = OldPlan.of(result.schedule, played, event.players).seats(event.layout.tables)
            self.offer(seats, "fewest repeats: no seating with fewer moves in time")
        self.interrupted = result.interrupted

    def result(self) -> PlanResult:
        return self.incumbent.result(
            self.bound, fixed_repeats=None, infeasible=self.infeasible, interrupted=self.interrupted
        )


@dataclass(frozen=True)
class _Phase:
    seats: Seats | None
    bound: int  # on the phase's objective
    infeasible: bool  # proven: no seating meets the phase's constraints
    optimal: bool  # proven: no seating has a better objective
    interrupted: bool


def _phase(model: MovesModel, hint: Seats, share: float, run: _Run) -> _Phase:
    """Solve one phase for a share of the time left, from a hint: its seating, bound and status."""
    model.add_hint(hint)
    solved = solve(model.model, run.budget.share(share), workers=run.workers, seed=run.seed, tune=_no_probing)
    solver, interrupted = solved.solver, solved.stopped
    if not solved.found:
        return _Phase(None, 0, solved.closed, False, interrupted)
    bound = math.ceil(solver.best_objective_bound - 1e-6)
    return _Phase(model.seating(solver.boolean_value), bound, False, solved.closed, interrupted)


def _no_probing(solver: cp_model.CpSolver) -> None:
    """Probing in presolve took most of the time in rooms of 80-120 players (1.3 of 1.9 s), for no gain."""
    solver.parameters.cp_model_probing_level = 0


def forced_moves(old: OldPlan, capacity: list[int], sit_outs: int) -> int:
    """A bound any seating obeys: a player whose old seat is gone (a table no longer there, seat D of a
    table now three-handed) moves, and so do those not seated before beyond the round's sit-outs."""
    keep = old.keepable(capacity)
    unseated = (keep == EMPTY).sum(axis=1)
    return int((keep == CANNOT_KEEP).sum() + np.maximum(unseated - sit_outs, 0).sum())


def held_cells(seats: Seats, old: OldPlan, capacity: list[int], seconds: float) -> np.ndarray | None:
    """rounds x players: where phase 2 holds a player at their seat. Nobody while the whole model can
    be built in `seconds` (and is not too big to help); else every player whose group in that round
    (table, or sitting out), old and new, holds nobody who moved; None if even that takes too long."""
    rounds, player_count = old.tables.shape
    within = seconds * PlanConfig.clauses_built_per_second
    nobody = np.zeros((rounds, player_count), bool)
    if _clauses(nobody, len(capacity)) <= min(FREE_MAX_CLAUSES, within):
        return nobody
    moved, tables = old.moved(seats), len(capacity)
    new = table_of(seats, player_count)
    groups = (
        np.where(new == EMPTY, tables, new),
        np.where(old.tables == EMPTY, tables, np.minimum(old.tables, tables + 1)),
    )
    touched = np.zeros((rounds, tables + 2), bool)
    in_round = np.broadcast_to(np.arange(rounds)[:, None], moved.shape)
    for group in groups:
        touched[in_round[moved], group[moved]] = True
    held = ~(np.take_along_axis(touched, groups[0], axis=1) | np.take_along_axis(touched, groups[1], axis=1))
    return held if _clauses(held, tables) <= within else None


def _clauses(held: np.ndarray, tables: int) -> int:
    """The meeting clauses phase 2 builds: a table's worth for each free pair in a round, one for each
    free player and held player."""
    free = (~held).sum(axis=1)
    return int((free * (free - 1) // 2 * tables + free * (held.shape[1] - free)).sum())
