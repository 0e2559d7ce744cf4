"""Run the CP-SAT model within a time limit, keeping the best seating and reporting progress."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from models import Event, Progress
from optimizer.budget import Budget
from optimizer.budget import solve as budget_solve
from optimizer.cpsat.model import SeatingModel
from optimizer.pipeline.state import History
from optimizer.seats import Seats


@dataclass(frozen=True)
class Outcome:
    seats: Seats | None
    repeats: int | None
    repeats_bound: int  # proven: no schedule of the model has fewer repeats
    proven: bool  # CP-SAT closed the search: the repeats are optimal, or no schedule exists
    best_at: float | None  # seconds from the epoch to the schedule with these repeats
    interrupted: bool


def solve(
    event: Event,
    budget: Budget,
    *,
    hint: Seats | None = None,
    lower_bound: int = 0,
    max_repeats: int | None = None,
    history: History | None = None,
    seed: int = 0,
    workers: int = 8,
    on_progress: Callable[[Progress], None] | None = None,
) -> Outcome:
    """Solve the day's model within `budget` (optimizer.budget: seconds, or CP-SAT's deterministic time in
    a repeatable run, which with one worker repeats exactly); with `max_repeats`, only schedules with at
    most that many count; `history` carries what rounds already played left (a re-plan); progress and
    `best_at` count seconds from the start of the budget's run."""
    model = SeatingModel(event, lower_bound=lower_bound, max_repeats=max_repeats, history=history)
    if hint is not None:
        model.add_hint(hint)
    from optimizer.cpsat.watcher import Watcher  # CP-SAT's own class: imported with a model (optimizer.budget)

    watcher = Watcher(model, lower_bound, budget.started, on_progress)
    solved = budget_solve(model.model, budget, workers=workers, seed=seed, callback=watcher)
    proven = solved.closed or watcher.stopped_by_us
    bound = lower_bound
    if solved.found:
        bound = max(lower_bound, model.repeats_bound(solved.solver.best_objective_bound))
    return Outcome(
        seats=watcher.seats,
        repeats=watcher.repeats,
        repeats_bound=watcher.repeats if proven and watcher.repeats is not None else bound,
        proven=proven,
        best_at=watcher.best_at,
        interrupted=solved.stopped,
    )
