"""The plan's second stage (optimizer.plan): the search for fewer repeats, from the best start.

Local search (optimizer.search: tabu search over the whole day, or round by round in big rooms) for a
better CP-SAT hint, or for the answer in rooms too big for CP-SAT; then 'at most bound repeats?' to raise
the bound (each proof that no such day exists adds one; in rooms of at most four groups, split by round 2,
optimizer.cpsat.split); then the whole-day CP-SAT model, minimising, warm-started from the best so far.
The search stops early once repeats meet the lower bound.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import optimizer.cpsat as cpsat
from models import Bound
from optimizer.budget import Budget
from optimizer.cpsat.model import day_clauses
from optimizer.cpsat.split import split_probe, splits_by_round_two
from optimizer.pipeline.provenance import Method, searched
from optimizer.pipeline.run import Run
from optimizer.pipeline.stages import ProbeResult, SearchOutcome
from optimizer.pipeline.starts import offer_greedy
from optimizer.proof.claims import fewest_repeats
from optimizer.search import improve, tabu_search

# A probe, a way to ask 'at most bound repeats?' (the whole-day model, or split by round 2): (run, the bound,
# its budget) -> its result.
Probe = Callable[[Run, Bound, Budget], ProbeResult]


class Search:
    """The stage, on one run: `__call__` searches and returns what it proved (SearchOutcome: the bound,
    whether the event has no schedule); `bound` is the bound proven so far, what an interrupted search
    (Ctrl-C) leaves (`outcome`). Each raise is reported to the run's progress line as it is found."""

    def __init__(self, run: Run, rng: np.random.Generator, warm_start: bool):
        self.run, self.rng, self.warm_start = run, rng, warm_start
        self.bound = run.bound

    @property
    def done(self) -> bool:
        return self.run.at(self.bound)

    def outcome(self, infeasible: bool = False) -> SearchOutcome:
        return SearchOutcome(self.bound, infeasible)

    def __call__(self) -> SearchOutcome:
        """CP-SAT on rooms the full model fits, local search beyond."""
        run = self.run
        clauses = day_clauses(run.event)
        if clauses > run.config.cpsat_max_clauses:  # too big to build at all (optimizer.config's `too_big`)
            self._local_search(share=1.0)
            return self.outcome()
        if self.warm_start:  # a better hint first
            self._local_search(share=0.5)
        if self.done or run.budget.stopped:
            return self.outcome()
        if run.config.too_big(clauses, run.search):  # building the model alone would overrun
            self._local_search(share=1.0)
            return self.outcome()
        if run.history.fresh and splits_by_round_two(run.event):
            self._raise_bound(_split_probe, share=run.config.split_share)
        else:
            self._raise_bound(_whole_day_probe, share=run.config.probe_share)
        if self.done or run.budget.stopped:
            return self.outcome()
        return self._solve_whole_day()

    def _raised(self, repeats: int, how: str) -> None:
        self.bound = Bound(repeats=repeats, proof=f"{how}: {fewest_repeats(self.run.event, repeats)}")
        self.run.progress.bound_raised(self.bound)

    def _raise_bound(self, probe: Probe, share: float) -> None:
        """While the best has more repeats than the bound, ask CP-SAT (`probe`) for a day with no more than
        the bound: a schedule closes the gap, a proof that none exists raises the bound by one. Deciding
        'at most k repeats' is far easier than minimising, so small rooms get honest bounds quickly; the
        smallest are split by round 2 (optimizer.cpsat.split), which proves far more."""
        run = self.run
        probing = run.search.share(share)
        while run.best is not None and run.best.metrics.repeats > self.bound.repeats:
            if not probing.afford(0.1):
                return
            result = probe(run, self.bound, probing)
            if result.seats is not None:
                run.offer(result.seats, result.made, result.found_at)
            elif result.proven:
                self._raised(self.bound.repeats + 1, result.how)
            else:
                return

    def _solve_whole_day(self) -> SearchOutcome:
        """The CP-SAT model warm-started from the best so far; its proof raises the bound, or proves that no
        schedule exists."""
        run = self.run
        outcome = cpsat.solve(
            run.event,
            run.search,
            hint=run.best.seats if run.best else None,
            lower_bound=run.history.planned_target(self.bound.repeats),
            history=run.history,
            seed=run.seed,
            workers=run.workers,
            on_progress=run.on_progress,
        )
        if outcome.seats is not None:
            run.offer(outcome.seats, Method.of("CP-SAT"), found_at=outcome.best_at)
        day_bound = run.history.day_bound(outcome.repeats_bound)
        if day_bound > self.bound.repeats:
            self._raised(day_bound, "CP-SAT search proof")
        # Seats CP-SAT found that the checker refused prove nothing: not 'no schedule exists'.
        refused = outcome.seats is not None and run.best is None
        return self.outcome(infeasible=outcome.proven and not refused)

    def _local_search(self, share: float) -> None:
        """Improve the best start for a share of the time left (a better CP-SAT hint, or the answer)."""
        run, rng = self.run, self.rng
        if run.best is None:
            offer_greedy(run, rng)
        if run.best is None or run.costs is None:
            return
        budget = run.search.share(share)
        small = run.costs.player_count <= run.config.tabu_max_players
        made = run.best.made.then(searched(tabu=small))
        offer = lambda seats: run.offer(seats.copy(), made)  # noqa: E731
        if small:
            target = run.history.planned_target(self.bound.repeats)
            offer(tabu_search(run.best.seats, run.costs, budget, rng, target, offer))
        else:
            offer(improve(run.best.seats, run.costs, budget, rng, offer))


def _whole_day_probe(run: Run, bound: Bound, budget: Budget) -> ProbeResult:
    """'At most bound repeats?' on the whole-day model."""
    target = run.history.planned_target(bound.repeats)
    outcome = cpsat.solve(
        run.event,
        budget,
        hint=run.best.seats if run.best else None,  # over the target, but CP-SAT repairs a hint near it first
        lower_bound=target,
        max_repeats=target,
        history=run.history,
        seed=run.seed,
        workers=run.workers,
    )
    return ProbeResult(outcome.seats, Method.of("CP-SAT"), outcome.proven, "CP-SAT search proof", outcome.best_at)


def _split_probe(run: Run, bound: Bound, budget: Budget) -> ProbeResult:
    """'At most bound repeats?' split by round 2 (a fresh day)."""
    outcome = split_probe(run.event, bound.repeats, budget, seed=run.seed, workers=run.workers)
    return ProbeResult(outcome.seats, Method.of("CP-SAT split by round 2"), outcome.proven, outcome.how)
