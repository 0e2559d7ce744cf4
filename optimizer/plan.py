"""The one entry point for a variety rotation: event and time limit in, a checked result out.

The pipeline, each stage offering its seatings to the incumbent, which keeps the best that passes
the checker:
1. starts (optimizer.pipeline.starts): the fixed rule, zero-repeat constructions (for odd rooms by
   deleting players from a bigger design, or for sit-out rooms joining the extra players to a smaller
   one), a greedy seating;
2. the search (optimizer.pipeline.searching): local search for a better CP-SAT hint, or the answer in rooms
   too big for CP-SAT; then the whole-day CP-SAT model (optimizer.cpsat): first 'at most bound repeats?'
   to raise the bound (each proof that no such day exists adds one; in rooms of at most four groups,
   split by round 2), then minimising, warm-started from the best so far;
3. balancing (optimizer.pipeline.balancing) at the same repeats: trios again, rematches, seats and tables;
4. the result, with the lower bound (optimizer.proof.bounds, raised by CP-SAT's proofs).
The search stops early once repeats meet the lower bound; balancing still runs. The stages share the run's
context (optimizer.pipeline.run), which none of them writes into, and hand each other typed results
(optimizer.pipeline.stages: the search's bound among them); this module composes them.

Every stage learns how long it may run from the run's budget (optimizer.budget): seconds on the wall
clock, or, in a repeatable run (a seed, one worker), seconds of work that the stages charge (CP-SAT's
deterministic time, search steps at fixed rates), so that the wall clock never decides what runs. A stop
(Ctrl-C, SIGTERM, the desk's Stop) sets the budget's stop token: each stage returns what it has, and
the quick balancing steps still run on the best.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from models import Event, PlanResult, Progress
from optimizer.budget import Budget, Stop
from optimizer.checking.checker import check
from optimizer.config import PlanConfig
from optimizer.constructions.fixed import fixed_schedule, fixed_seating
from optimizer.constructions.stayers import place_stayers
from optimizer.pipeline.balancing import balance
from optimizer.pipeline.provenance import Method
from optimizer.pipeline.run import Run
from optimizer.pipeline.searching import Search
from optimizer.pipeline.stages import SearchOutcome, Starts
from optimizer.pipeline.starts import offer_starts
from optimizer.pipeline.state import History


def plan(
    event: Event,
    *,
    time_limit: float = 30.0,
    seed: int = 0,
    workers: int = 8,
    on_progress: Callable[[Progress], None] | None = None,
    warm_start: bool = True,
    history: History | None = None,
    computed_ahead: bool = True,
    stop: Stop | None = None,
    config: PlanConfig | None = None,
    budget: Budget | None = None,
    balanced: bool = True,
) -> PlanResult:
    """The variety rotation with the fewest repeats found within the time limit, checked.

    With `history` (a re-plan) only the rounds still to play are planned and the fixed rule is
    neither a start nor a comparison. `warm_start=False` skips the starts, so a benchmark can show
    what they buy; `computed_ahead=False` the days stored for the table numbers, so that the run is the
    search's own (`optimizer.balance.ahead` regenerates them so). `workers=1` with a seed repeats a run
    exactly: its `time_limit` is then seconds of work (optimizer.budget), never the wall clock's. Setting
    `stop` (or the process's optimizer.budget.STOP, as the stop signals do) ends the run with the best
    so far. `config` holds the tuning figures (optimizer.config; by default those every benchmark measured).
    A composed run (a re-plan, a night) hands its `budget` instead of `time_limit` and `stop`;
    `balanced=False` skips the balancing (the verdict asks only whether the search reaches no repeats)."""
    budget = budget or Budget.for_run(time_limit, workers=workers, stop=stop)
    run = Run(
        event=event, history=history or History(), budget=budget, seed=seed, workers=workers,
        on_progress=on_progress, computed_ahead=computed_ahead, config=config or PlanConfig(),
    )  # fmt: skip
    fixed_repeats = None if history is not None else budget.until_interrupted(lambda: _fixed_rule(run, warm_start))
    rng = np.random.default_rng(seed)
    starts = budget.until_interrupted(lambda: _starts(run, rng, warm_start)) or Starts()
    searching = Search(run, rng, warm_start)
    outcome = budget.until_interrupted(lambda: _search(run, searching)) or searching.outcome()
    if balanced:
        budget.until_interrupted(lambda: balance(run, starts, np.random.default_rng(seed), outcome.bound))
    return run.incumbent.result(
        outcome.bound, fixed_repeats=fixed_repeats, infeasible=outcome.infeasible, interrupted=budget.stopped
    )


def _fixed_rule(run: Run, warm_start: bool) -> int:
    """The fixed rule's repeats, the checker's count; with `warm_start` the fixed rule is offered as the
    first start, and in a day without stays its check is the fixed rule's own (one check, not two)."""
    if warm_start:
        run.offer(place_stayers(fixed_seating(run.event), run.event), Method.of("fixed rule"))
        if run.best is not None and not run.event.stay:
            return run.best.metrics.repeats
    return check(fixed_schedule(run.event), indirect=False).repeats


def _starts(run: Run, rng: np.random.Generator, warm_start: bool) -> Starts:
    """The starts, offered (none without `warm_start`)."""
    if warm_start and not run.budget.stopped:
        return offer_starts(run, rng)
    return Starts()


def _search(run: Run, searching: Search) -> SearchOutcome:
    """The search, from the best start, unless it is at the bound already."""
    if not searching.done and not run.budget.stopped:
        return searching()
    return searching.outcome()
