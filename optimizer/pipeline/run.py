"""One planning run's context, handed to each of its stages.

RunContext  what every run holds: the rounds to plan and what was played before them, the budget (its stop
            token included), the seed and workers, the bound known before its stages, the progress line and
            the best so far
ProgressLine  the live progress line: each better schedule with the bound the stages last reported
Run         the plan's (optimizer.plan): its tuning figures, the search's budget and cost model, the day as
            built beside rounds chosen for the table numbers

No stage writes into the run: the search returns the bound it proved (optimizer.pipeline.stages.SearchOutcome)
and reports each raise to the progress line as it goes, which only shows it.

The fewest-moves re-plan (optimizer.moves.solve) has a RunContext of its own, which ranks moves first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from models import Bound, Event, Progress
from optimizer.balance.letters import letters_work
from optimizer.balance.order import order_work
from optimizer.budget import Budget
from optimizer.config import PlanConfig
from optimizer.pipeline.provenance import Method
from optimizer.pipeline.state import FINISH_SECONDS, FINISH_SHARE, QUICK_CHECK_SECONDS, Candidate, History, Incumbent
from optimizer.proof.bounds import lower_bound
from optimizer.search import Costs
from optimizer.seats import Seats


@dataclass
class ProgressLine:
    """What `on_progress` shows while the run goes on: each better schedule the incumbent takes, with the
    lower bound as last reported by the stages (`bound_raised`). An observer: no stage reads it back."""

    on_progress: Callable[[Progress], None] | None
    budget: Budget  # for the elapsed seconds shown
    note: Callable[[Candidate], str]  # what the line says of a better schedule
    bound: Bound

    def bound_raised(self, bound: Bound) -> None:
        self.bound = bound

    def better(self, best: Candidate) -> None:
        if self.on_progress:
            elapsed, note = self.budget.elapsed(), self.note(best)
            self.on_progress(
                Progress(repeats=best.metrics.repeats, lower_bound=self.bound.repeats, elapsed=elapsed, note=note)
            )


@dataclass(kw_only=True)
class RunContext:
    """The rounds to plan, what was played before them, the budget, the seed and workers, the bound known
    before any stage (the played rounds' proof, or `first_bound`; the stages return what they raise it to),
    the progress line and the best schedule so far (the incumbent, which shows each better one on the line)."""

    event: Event
    history: History
    budget: Budget
    seed: int
    workers: int
    on_progress: Callable[[Progress], None] | None = None
    bound: Bound = field(init=False)
    progress: ProgressLine = field(init=False)
    incumbent: Incumbent = field(init=False)

    def __post_init__(self) -> None:
        self.bound = self.history.bound or self.first_bound()
        self.progress = ProgressLine(self.on_progress, self.budget, self.note, self.bound)
        self.incumbent = Incumbent(
            self.event, self.history, self.budget, on_better=self.progress.better, moves_of=self.moves_of()
        )

    def first_bound(self) -> Bound:
        """The bound before anything is proven, where the played rounds prove none."""
        return lower_bound(self.event)

    def moves_of(self) -> Callable[[Seats], int] | None:
        """How many players a seating moves, where the run ranks the fewest moves first."""
        return None

    def note(self, best: Candidate) -> str:
        """What the progress line says of a better schedule."""
        return best.method

    @property
    def repeatable(self) -> bool:
        return self.budget.repeatable

    @property
    def best(self) -> Candidate | None:
        return self.incumbent.best


@dataclass(kw_only=True)
class Run(RunContext):
    """One run of the plan: the budget is the whole run's; the search ends before it (`search`) and
    balancing has the rest."""

    computed_ahead: bool = True  # may offer the day stored for this room (optimizer.balance.ahead)
    config: PlanConfig = field(default_factory=PlanConfig)

    @property
    def search(self) -> Budget:
        """The search's budget: the run's, less the end kept for balancing (a twentieth, at most FINISH_SECONDS),
        and where they are not quick, the check of the day it finds and the balancing's own steps on the best
        day so far: the order of its rounds, its seat letters and a check (at the room limits a day found would
        go unchecked or unbalanced, or past the limit)."""
        kept = min(FINISH_SECONDS, FINISH_SHARE * self.budget.end)
        return self.budget.before(kept + self.finish_steps())

    def finish_steps(self) -> float:
        """What the check of a day found and the balancing's steps take on the best day, where they are not
        quick (else 0): two checks as `Incumbent.check_cost` counts them, and the work of ordering and
        lettering its seats (a work second is about a second of a quiet machine's CPU:
        benchmarks/results/work_clock.md)."""
        if self.best is None:
            return 0.0
        seats = self.best.seats
        steps = 2 * self.incumbent.check_cost() + order_work(seats, len(self.event.players)) + letters_work(seats)
        return steps if steps >= QUICK_CHECK_SECONDS else 0.0

    @cached_property
    def costs(self) -> Costs | None:
        """The search's cost model, built when a stage first needs it. Its player-by-player
        matrices outgrow time and memory in the biggest rooms, where the starts alone answer."""
        if len(self.event.players) > self.config.search_max_players:
            return None
        return Costs.of(self.event, self.history.met_before, self.history.burdens_before, self.history.previous)

    def offer(self, seats: Seats, made: Method, found_at: float | None = None, within: Budget | None = None) -> None:
        self.incumbent.offer(seats, made, found_at, within)

    def at(self, bound: Bound) -> bool:
        """Whether the best has repeats at `bound`, and no club-mates meeting who were asked to be spread."""
        return self.best is not None and self.best.rank[:2] <= (bound.repeats, 0)
