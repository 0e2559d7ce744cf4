"""The one entry point for a variety rotation: event and time limit in, a checked result out.

The pipeline, each stage offering its seatings to the incumbent, which keeps the best that passes
the checker:
1. starts (optimizer.constructions): the fixed rule, zero-repeat constructions (for odd rooms by
   deleting players from a bigger design, or for sit-out rooms joining the extra players to a smaller
   one), a greedy seating;
2. local search (optimizer.search): a better CP-SAT hint, or the answer in rooms too big for CP-SAT;
3. the whole-day CP-SAT model (optimizer.cpsat): first 'at most bound repeats?' to raise the bound
   (each proof that no such day exists adds one; in rooms of at most four groups, split by round 2),
   then minimising, warm-started from the best so far;
4. balancing (optimizer.balance.stage) at the same repeats: trios again, rematches, seats and tables;
5. the result, with the lower bound (optimizer.bounds, raised by CP-SAT's proofs).
The search stops early once repeats meet the lower bound; balancing still runs.

Every stage learns how long it may run from the run's budget (optimizer.budget): seconds on the wall
clock, or, in a repeatable run (a seed, one worker), seconds of work that the stages charge (CP-SAT's
deterministic time, search steps at fixed rates), so that the wall clock never decides what runs. A stop
(Ctrl-C, SIGTERM, the desk's Stop) sets the budget's stop token: each stage returns what it has, and
the quick balancing steps still run on the best.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

import numpy as np

import optimizer.cpsat as cpsat
from models import Bound, Event, PlanResult, Progress
from optimizer.balance import rounds_for_tables
from optimizer.balance.stage import balance, numbered
from optimizer.balance.tables import ENUMERATED_CHOICES
from optimizer.budget import Budget, Stop
from optimizer.checker import check
from optimizer.config import PlanConfig
from optimizer.constructions import frontier_rounds, instant_seating, longest_design, zero_repeat_seating
from optimizer.constructions.fixed import fixed_schedule, fixed_seating
from optimizer.constructions.greedy import greedy_seating
from optimizer.constructions.odd_rooms import odd_room_seating
from optimizer.constructions.stayers import place_stayers
from optimizer.cpsat.split import split_probe, splits_by_round_two
from optimizer.provenance import EXTENDED, Provenance, rounds_chosen, searched
from optimizer.run import Run
from optimizer.search import extend, improve, tabu_search
from optimizer.stages import Probe, ProbeResult, SearchOutcome, Start
from optimizer.state import History
from optimizer.verdict import fewest_repeats


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
) -> PlanResult:
    """The variety rotation with the fewest repeats found within the time limit, checked.

    With `history` (a re-plan) only the rounds still to play are planned and the fixed rule is
    neither a start nor a comparison. `warm_start=False` skips the starts, so a benchmark can show
    what they buy; `computed_ahead=False` the days stored for the table numbers, so that the run is the
    search's own (`optimizer.balance.ahead` regenerates them so). `workers=1` with a seed repeats a run
    exactly: its `time_limit` is then seconds of work (optimizer.budget), never the wall clock's. Setting
    `stop` (or the process's optimizer.budget.STOP, as the stop signals do) ends the run with the best
    so far. `config` holds the tuning figures (optimizer.config; by default those every benchmark measured)."""
    budget = Budget.of(time_limit, repeatable=workers == 1, stop=stop)
    run = Run(
        event=event, history=history or History(), budget=budget, seed=seed, workers=workers,
        on_progress=on_progress, computed_ahead=computed_ahead, config=config or PlanConfig(),
    )  # fmt: skip
    fixed_repeats = None if history is not None else _until_ctrl_c(budget, lambda: _fixed_rule(run, warm_start))
    outcome = _until_ctrl_c(budget, lambda: _stages(run, warm_start)) or SearchOutcome()
    _until_ctrl_c(budget, lambda: balance(run, np.random.default_rng(seed)))
    return run.incumbent.result(
        run.bound, fixed_repeats=fixed_repeats, infeasible=outcome.infeasible, interrupted=budget.stopped
    )


T = TypeVar("T")


def _until_ctrl_c(budget: Budget, step: Callable[[], T]) -> T | None:
    """Run a step and return what it returns; a library caller's own Ctrl-C (KeyboardInterrupt, where no
    stop signal handler sets the token) sets the run's stop token instead (None), and the run goes on to
    keep its best."""
    try:
        return step()
    except KeyboardInterrupt:
        budget.stop.set()
        return None


def _fixed_rule(run: Run, warm_start: bool) -> int:
    """The fixed rule's repeats, the checker's count; with `warm_start` the fixed rule is offered as the
    first start, and in a day without stays its check is the fixed rule's own (one check, not two)."""
    if warm_start:
        run.offer(place_stayers(fixed_seating(run.event), run.event), Provenance.of("fixed rule"))
        if run.best is not None and not run.event.stay:
            return run.best.metrics.repeats
    return check(fixed_schedule(run.event), indirect=False).repeats


def _stages(run: Run, warm_start: bool) -> SearchOutcome:
    """Offer the starts, then search."""
    rng = np.random.default_rng(run.seed)
    if warm_start and not run.budget.stopped:
        _offer_constructions(run, rng)
    if not run.done and not run.budget.stopped:
        return _search(run, rng, warm_start)
    return SearchOutcome()


def _offer_constructions(run: Run, rng: np.random.Generator) -> None:
    event = run.event
    if run.history.fresh and not event.layout.threes and not event.layout.sit_outs:
        rotational = run.search.share(1 / 3).within(run.config.rotational_seconds)
        found = zero_repeat_seating(
            len(event.players), event.rounds, rotational, run.seed, min(run.workers, run.config.rotational_workers)
        )
        start = _rounds_for_tables(run, Start.of(found), rng) if found else _longest_zero_repeat_prefix(run)
        if start is not None and (len(start.seats) == event.rounds or run.costs is not None):
            if len(start.seats) < event.rounds:
                assert run.costs is not None  # a design shorter than the day is taken only with a cost model
                start = start.then(extend(start.seats, event.rounds, run.costs, rng, run.search), EXTENDED)
            run.offer(place_stayers(start.seats, event), start.made)
    if run.history.fresh and (event.layout.threes or event.layout.sit_outs):
        _offer_odd_room_designs(run)
    if not run.done:
        _offer_greedy(run, rng)


def _rounds_for_tables(run: Run, found: Start, rng: np.random.Generator) -> Start:
    """The day's rounds chosen from the longest repeat-free design at hand for the table numbers they
    allow (optimizer.balance.rounds_for_tables), numbered; a generator of its own leaves the run's draws
    as they were. A tenth of the time left, or most of it when the choices are raced and no day can have
    fewer repeats (the search then stops at once)."""
    player_count, rounds = len(run.event.players), run.event.rounds
    if not numbered(run, found.seats):
        return found
    longest = longest_design(player_count, rounds)
    if longest is None or len(longest[0]) <= rounds:
        return found
    raced = math.comb(len(longest[0]), rounds) <= ENUMERATED_CHOICES  # else one descent each, drawn choices
    share = (
        run.config.round_choice_share_at_bound if raced and run.bound.repeats == 0 else run.config.round_choice_share
    )
    chosen, seats = rounds_for_tables(longest[0], rounds, rng.spawn(1)[0], budget=run.search.share(share))
    if chosen == list(range(rounds)):
        return found
    run.as_built = Start(place_stayers(found.seats, run.event), found.made)
    return Start.of(longest).then(seats, rounds_chosen(rounds, len(longest[0])))


def _offer_odd_room_designs(run: Run) -> None:
    """An odd room's repeat-free day with fair turns, cut from a bigger design or joining a smaller one."""
    event = run.event
    found = odd_room_seating(len(event.players), event.rounds, event.odd)
    if found is not None:
        start = Start.of(found)
        run.offer(place_stayers(start.seats, event), start.made)


def _offer_greedy(run: Run, rng: np.random.Generator) -> None:
    seats = greedy_seating(run.event, run.costs, rng, run.history.burdens_before, run.search)
    run.offer(seats, Provenance.of("greedy round by round"))


def _longest_zero_repeat_prefix(run: Run) -> Start | None:
    """Past the rounds a repeat-free schedule reaches, start from the longest one at hand."""
    player_count = len(run.event.players)
    rounds = min(run.event.rounds - 1, frontier_rounds(player_count))
    found = instant_seating(player_count, rounds) if rounds > 0 else None
    return Start.of(found) if found is not None else None


def _search(run: Run, rng: np.random.Generator, warm_start: bool) -> SearchOutcome:
    """CP-SAT on rooms the full model fits, local search beyond."""
    event, player_count = run.event, len(run.event.players)
    clauses = player_count * (player_count - 1) // 2 * event.rounds * event.layout.tables
    if clauses > run.config.cpsat_max_clauses:
        _local_search(run, rng, share=1.0)
        return SearchOutcome()
    if warm_start:  # a better hint first
        _local_search(run, rng, share=0.5)
    if run.done or run.budget.stopped:
        return SearchOutcome()
    if not run.search.afford(clauses / run.config.clauses_built_per_second):  # building the model alone would overrun
        _local_search(run, rng, share=1.0)
        return SearchOutcome()
    if run.history.fresh and splits_by_round_two(event):
        _raise_bound(run, _split_probe, share=run.config.split_share)
    else:
        _raise_bound(run, _whole_day_probe, share=run.config.probe_share)
    if run.done or run.budget.stopped:
        return SearchOutcome()
    return _solve_whole_day(run)


def _raise_bound(run: Run, probe: Probe, share: float) -> None:
    """While the best has more repeats than the bound, ask CP-SAT (`probe`) for a day with no more than
    the bound: a schedule closes the gap, a proof that none exists raises the bound by one. Deciding
    'at most k repeats' is far easier than minimising, so small rooms get honest bounds quickly; the
    smallest are split by round 2 (optimizer.cpsat.split), which proves far more."""
    probing = run.search.share(share)
    while run.best is not None and run.best.metrics.repeats > run.bound.repeats:
        if not probing.afford(0.1):
            return
        result = probe(run, probing)
        if result.seats is not None:
            run.offer(result.seats, result.made, result.found_at)
        elif result.proven:
            forced = run.bound.repeats + 1
            run.bound = Bound(repeats=forced, proof=f"{result.how}: {fewest_repeats(run.event, forced)}")
        else:
            return


def _whole_day_probe(run: Run, budget: Budget) -> ProbeResult:
    """'At most bound repeats?' on the whole-day model."""
    target = run.history.planned_target(run.bound.repeats)
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
    return ProbeResult(outcome.seats, Provenance.of("CP-SAT"), outcome.proven, "CP-SAT search proof", outcome.best_at)


def _split_probe(run: Run, budget: Budget) -> ProbeResult:
    """'At most bound repeats?' split by round 2 (a fresh day)."""
    outcome = split_probe(run.event, run.bound.repeats, budget, seed=run.seed, workers=run.workers)
    return ProbeResult(outcome.seats, Provenance.of("CP-SAT split by round 2"), outcome.proven, outcome.how)


def _solve_whole_day(run: Run) -> SearchOutcome:
    """The CP-SAT model warm-started from the best so far; its proof raises the bound, or proves that no
    schedule exists."""
    outcome = cpsat.solve(
        run.event,
        run.search,
        hint=run.best.seats if run.best else None,
        lower_bound=run.history.planned_target(run.bound.repeats),
        history=run.history,
        seed=run.seed,
        workers=run.workers,
        on_progress=run.on_progress,
    )
    if outcome.seats is not None:
        run.offer(outcome.seats, Provenance.of("CP-SAT"), found_at=outcome.best_at)
    day_bound = run.history.day_bound(outcome.repeats_bound)
    if day_bound > run.bound.repeats:
        run.bound = Bound(repeats=day_bound, proof=f"CP-SAT search proof: {fewest_repeats(run.event, day_bound)}")
    # Seats CP-SAT found that the checker refused prove nothing: not 'no schedule exists'.
    refused = outcome.seats is not None and run.best is None
    return SearchOutcome(infeasible=outcome.proven and not refused)


def _local_search(run: Run, rng, share: float) -> None:
    """Improve the best start for a share of the time left (a better CP-SAT hint, or the answer)."""
    if run.best is None:
        _offer_greedy(run, rng)
    if run.best is None or run.costs is None:
        return
    budget = run.search.share(share)
    small = run.costs.player_count <= run.config.tabu_max_players
    made = run.best.made.then(searched(tabu=small))
    offer = lambda seats: run.offer(seats.copy(), made)  # noqa: E731
    if small:
        target = run.history.planned_target(run.bound.repeats)
        offer(tabu_search(run.best.seats, run.costs, budget, rng, target, offer))
    else:
        offer(improve(run.best.seats, run.costs, budget, rng, offer))
