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
4. balancing (optimizer.balance) at the same repeats: trios again, rematches, seats and tables;
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
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any, TypeVar

import numpy as np

import optimizer.cpsat as cpsat
from models import Bound, Event, PlanResult, Progress
from optimizer.balance import (
    ahead,
    balance_letters,
    balance_table_numbers,
    order_rounds,
    polish,
    regroup_for_tables,
    rounds_for_tables,
)
from optimizer.balance.exact_numbers import fewest_table_visits
from optimizer.balance.rotational_day import ROTATIONAL_DAY_MAX_PLAYERS, rotational_day
from optimizer.balance.tables import ENUMERATED_CHOICES, KICKS
from optimizer.bounds import lower_bound
from optimizer.budget import CPSAT_WORK_PER_SECOND, Budget, Stop
from optimizer.checker import check
from optimizer.config import PlanConfig
from optimizer.constructions import frontier_rounds, instant_seating, longest_design, zero_repeat_seating
from optimizer.constructions.fixed import fixed_schedule, fixed_seating
from optimizer.constructions.greedy import greedy_seating
from optimizer.constructions.odd_rooms import odd_room_seating
from optimizer.constructions.stayers import place_stayers
from optimizer.cpsat.split import split_probe, splits_by_round_two
from optimizer.provenance import BALANCED, COMPUTED_AHEAD, EXTENDED, NUMBERED_EXACTLY, Provenance, rounds_chosen
from optimizer.provenance import searched as searched_by
from optimizer.requests import apart_pairs, club_mates, pinned, turn_exempt
from optimizer.search import Costs, extend, improve, tabu_search
from optimizer.seats import EMPTY, Seats
from optimizer.stages import Probe, ProbeResult, SearchOutcome, Start
from optimizer.state import FINISH_SECONDS, FINISH_SHARE, Candidate, History, Incumbent
from optimizer.verdict import fewest_repeats


@dataclass
class Run:
    """One planning run: the rounds to plan, what was played before them, the budget, the bound
    and the best schedule so far."""

    event: Event
    history: History
    budget: Budget  # the whole run; the search ends before it (`search`), balancing has the rest
    on_progress: Callable[[Progress], None] | None = None
    computed_ahead: bool = True  # may offer the day stored for this room (optimizer.balance.ahead)
    config: PlanConfig = field(default_factory=PlanConfig)
    bound: Bound = field(init=False)
    incumbent: Incumbent = field(init=False)
    # A repeat-free day as built, when the rounds offered instead were chosen for the table numbers:
    # balanced too, as before the choice, so that the choice can only gain.
    as_built: Start | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.bound = self.history.bound or lower_bound(self.event)
        self.incumbent = Incumbent(self.event, self.history, self.budget, on_better=self._show)

    @property
    def search(self) -> Budget:
        """The search's budget: the run's, less the end kept for balancing (a twentieth, at most FINISH_SECONDS)."""
        return self.budget.before(min(FINISH_SECONDS, FINISH_SHARE * self.budget.end))

    @property
    def repeatable(self) -> bool:
        return self.budget.repeatable

    @cached_property
    def costs(self) -> Costs | None:
        """The search's cost model, built when a stage first needs it. Its player-by-player
        matrices outgrow time and memory in the biggest rooms, where the starts alone answer."""
        if len(self.event.players) > self.config.search_max_players:
            return None
        return Costs.of(self.event, self.history.met_before, self.history.burdens_before)

    def _show(self, best: Candidate) -> None:
        if self.on_progress:
            self.on_progress(
                Progress(
                    repeats=best.metrics.repeats,
                    lower_bound=self.bound.repeats,
                    elapsed=self.budget.elapsed(),
                    note=best.method,
                )
            )

    def offer(self, seats: Seats, made: Provenance, found_at: float | None = None) -> None:
        self.incumbent.offer(seats, made, found_at)

    @property
    def best(self) -> Candidate | None:
        return self.incumbent.best

    @property
    def done(self) -> bool:
        """Repeats at the bound, and no club-mates meeting who were asked to be spread."""
        return self.best is not None and self.best.rank[:2] <= (self.bound.repeats, 0)


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
    run = Run(event, history or History(), budget, on_progress, computed_ahead, config or PlanConfig())
    fixed_repeats = None if history is not None else _until_ctrl_c(budget, lambda: _fixed_rule(run, warm_start))
    searched = _until_ctrl_c(budget, lambda: _stages(run, seed, workers, warm_start)) or SearchOutcome()
    _until_ctrl_c(budget, lambda: _balance(run, np.random.default_rng(seed), workers))
    return run.incumbent.result(
        run.bound, fixed_repeats=fixed_repeats, infeasible=searched.infeasible, interrupted=budget.stopped
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


def _stages(run: Run, seed: int, workers: int, warm_start: bool) -> SearchOutcome:
    """Offer the starts, then search."""
    rng = np.random.default_rng(seed)
    if warm_start and not run.budget.stopped:
        _offer_constructions(run, rng, seed, workers)
    if not run.done and not run.budget.stopped:
        return _search(run, seed, workers, rng, warm_start)
    return SearchOutcome()


def _offer_constructions(run: Run, rng: np.random.Generator, seed: int, workers: int) -> None:
    event = run.event
    if run.history.fresh and not event.layout.threes and not event.layout.sit_outs:
        rotational = run.search.share(1 / 3).within(run.config.rotational_seconds)
        found = zero_repeat_seating(
            len(event.players), event.rounds, rotational, seed, min(workers, run.config.rotational_workers)
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
    if not _numbered(run, found.seats):
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


def _search(run: Run, seed: int, workers: int, rng: np.random.Generator, warm_start: bool) -> SearchOutcome:
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
        _raise_bound(run, _split_probe, seed, workers, share=run.config.split_share)
    else:
        _raise_bound(run, _whole_day_probe, seed, workers, share=run.config.probe_share)
    if run.done or run.budget.stopped:
        return SearchOutcome()
    return _solve_whole_day(run, seed, workers)


def _raise_bound(run: Run, probe: Probe, seed: int, workers: int, share: float) -> None:
    """While the best has more repeats than the bound, ask CP-SAT (`probe`) for a day with no more than
    the bound: a schedule closes the gap, a proof that none exists raises the bound by one. Deciding
    'at most k repeats' is far easier than minimising, so small rooms get honest bounds quickly; the
    smallest are split by round 2 (optimizer.cpsat.split), which proves far more."""
    probing = run.search.share(share)
    while run.best is not None and run.best.metrics.repeats > run.bound.repeats:
        if not probing.afford(0.1):
            return
        result = probe(run, probing, seed, workers)
        if result.seats is not None:
            run.offer(result.seats, result.made, result.found_at)
        elif result.proven:
            forced = run.bound.repeats + 1
            run.bound = Bound(repeats=forced, proof=f"{result.how}: {fewest_repeats(run.event, forced)}")
        else:
            return


def _whole_day_probe(run: Run, budget: Budget, seed: int, workers: int) -> ProbeResult:
    """'At most bound repeats?' on the whole-day model."""
    target = run.history.planned_target(run.bound.repeats)
    outcome = cpsat.solve(
        run.event,
        budget,
        hint=run.best.seats if run.best else None,  # over the target, but CP-SAT repairs a hint near it first
        lower_bound=target,
        max_repeats=target,
        history=run.history,
        seed=seed,
        workers=workers,
    )
    return ProbeResult(outcome.seats, Provenance.of("CP-SAT"), outcome.proven, "CP-SAT search proof", outcome.best_at)


def _split_probe(run: Run, budget: Budget, seed: int, workers: int) -> ProbeResult:
    """'At most bound repeats?' split by round 2 (a fresh day)."""
    outcome = split_probe(run.event, run.bound.repeats, budget, seed=seed, workers=workers)
    return ProbeResult(outcome.seats, Provenance.of("CP-SAT split by round 2"), outcome.proven, outcome.how)


def _solve_whole_day(run: Run, seed: int, workers: int) -> SearchOutcome:
    """The CP-SAT model warm-started from the best so far; its proof raises the bound, or proves that no
    schedule exists."""
    outcome = cpsat.solve(
        run.event,
        run.search,
        hint=run.best.seats if run.best else None,
        lower_bound=run.history.planned_target(run.bound.repeats),
        history=run.history,
        seed=seed,
        workers=workers,
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
    made = run.best.made.then(searched_by(tabu=small))
    offer = lambda seats: run.offer(seats.copy(), made)  # noqa: E731
    if small:
        target = run.history.planned_target(run.bound.repeats)
        offer(tabu_search(run.best.seats, run.costs, budget, rng, target, offer))
    else:
        offer(improve(run.best.seats, run.costs, budget, rng, offer))


def _balance(run: Run, rng: np.random.Generator, workers: int) -> None:
    """What players notice beyond repeats (optimizer.balance), never at the cost of one: regroup for
    fewer trios again and back-to-back rematches at the same repeats, then order the rounds, number
    the tables and seat the letters, none of which changes who meets whom. After a stop only the quick
    steps run (ordering, numbering, letters: no regrouping, no CP-SAT), within the run's end."""
    best, history, event = run.best, run.history, run.event
    if best is None:
        return
    interrupted = run.budget.stopped
    finish = run.budget.unstopped() if interrupted else run.budget
    player_count = len(event.players)
    regroup = not interrupted and run.costs is not None and player_count <= run.config.polish_max_players
    # players x players matrices of the requests, for the regrouping alone (gigabytes at the room limits)
    room: dict[str, Any] = dict(
        met_before=history.met_before,
        apart=apart_pairs(event) > 0 if regroup else None,
        clubs=club_mates(event) > 0 if regroup else None,
        pinned=pinned(event),
        previous=history.previous,
        player_count=player_count,
    )
    # The regrouping for table numbers draws from a generator of its own: the stages before it draw as they did.
    regroup_rng = rng.spawn(1)[0]
    order = partial(
        order_rounds,
        previous=history.previous,
        player_count=player_count,
        exempt=turn_exempt(event),
        burdens_so_far=history.burdens_before,
        budget=finish,
    )
    # A repeatable run numbers by the descent alone (no restarts), which ends by itself.
    kicks = 0 if run.repeatable else KICKS
    number = partial(_number, run, finish, room["pinned"], rng, three_handed=bool((best.seats == EMPTY).any()))
    # seat letters; where tables of three leave them uneven, exactly, on deterministic work
    letters = partial(
        balance_letters, letters_so_far=history.letters_before, player_count=player_count,
        budget=finish, work=run.config.letters_work,
    )  # fmt: skip
    if run.as_built is not None:  # first, so that it draws as it did before the rounds were chosen
        plain = number(order(run.as_built.seats), kicks=kicks, share=run.config.as_built_share)
        run.offer(letters(plain), run.as_built.made.then(BALANCED))
    seats = best.seats
    if regroup:
        seats = polish(seats, rng, budget=_polish_budget(run), **room)
    seats = number(order(seats), kicks=kicks)
    if not run.incumbent.has_time_to_check():
        return  # the seat letters would not be checked in time (at the room limits)
    run.offer(letters(seats), best.made.then(BALANCED))
    if interrupted:
        return
    window = _regroup_share(run) if regroup else 0.0
    balanced = lambda day: letters(number(order(day), kicks=kicks))  # noqa: E731
    won = _offer_stored_day(run, balanced)
    searched = _offer_rotational_day(run, workers, balanced, window)  # only if still above even
    won = won if searched is None else searched
    seats = seats if won is None else won
    # A repeatable run regroups only after a search that stopped early (at the bound), when the work left
    # is the share's; otherwise only the finish window's, which the search's end decides.
    if regroup and (run.done or not run.repeatable) and run.best is not None and not run.budget.stopped:
        renumber = partial(number, kicks=min(kicks, run.config.kicks_between_regrouping))
        seats = regroup_for_tables(
            seats, regroup_rng, renumber, visits_so_far=history.visits_before,
            budget=_polish_budget(run, window=True), **room,
        )  # fmt: skip
        run.offer(letters(seats), run.best.made)
    if not run.budget.stopped:
        _offer_exact_numbering(run, workers, seed=int(rng.integers(2**31)))


def _number(
    run: Run,
    finish: Budget,
    pinned_players: np.ndarray | None,
    rng: np.random.Generator,
    seats: Seats,
    kicks: int,
    three_handed: bool,
    share: float = 1.0,
) -> Seats:
    """The table numbering (optimizer.balance.balance_table_numbers) for `share` of the time left but the
    seat letters' (their checks, and the exact letters where tables of three), one descent at least even
    past the run's end (milliseconds at this size). A repeatable run's numbering (its descent alone) is not
    metered: it ends by itself."""
    if not _numbered(run, seats):
        return seats
    if run.repeatable:
        budget = Budget.unlimited(finish.stop)
    else:
        left = finish.left()
        reserve = (
            run.config.letters_checks * run.incumbent.check_seconds + three_handed * run.config.letters_share * left
        )
        budget = finish.within(share * (left - reserve), at_least=run.config.numbering_seconds)
    history = run.history
    return balance_table_numbers(
        seats, pinned_players, history.visits_before, len(run.event.players), rng=rng, kicks=kicks, budget=budget
    )


def _offer_stored_day(run: Run, balanced: Callable[[Seats], Seats]) -> Seats | None:
    """The day computed ahead for this room (optimizer.balance.ahead: an orbit or rotational day, or a short
    run's day numbered exactly, that takes seconds of CP-SAT), where the best day is still above even; it
    needs no time but its check. (Plans do not search orbit days themselves: over the grid's rooms of 16 to
    28 players it found days only where they are stored, and cost 10 s a run elsewhere;
    benchmarks/README.md.) Returns the day if it became the best."""
    event = run.event
    if not (run.computed_ahead and _another_day_wanted(run) and run.incumbent.has_time_to_check()):
        return None
    entry = ahead.load(len(event.players), event.rounds)
    if entry is None:
        return None
    day = balanced(entry.seats)
    run.offer(day, Provenance.of(entry.method).then(COMPUTED_AHEAD, BALANCED))
    return day if run.best is not None and run.best.seats is day else None


def _another_day_wanted(run: Run) -> bool:
    """Whether a whole other day may be offered for the table numbers: a fresh day without requests, all
    tables of four, whose best day is still above even."""
    event, best = run.event, run.best
    requests = event.stay or event.apart or event.spread or not run.history.fresh
    odd = event.layout.threes or event.layout.sit_outs
    return not (requests or odd) and best is not None and best.metrics.table_visits_above_even > 0


def _offer_rotational_day(
    run: Run, workers: int, balanced: Callable[[Seats], Seats], regroup_window: float
) -> Seats | None:
    """Where the best day still has table visits above even, other groups at its repeats: a rotational
    day (optimizer.balance.rotational_day) with fewer visits and no trio again if it has none, when
    config.rotational_day_seconds are left beside `regroup_window` and the seat letters' checks (at a 5 s limit,
    run in less time, it cost the regrouping after it more than the day gained); a repeatable run on one
    worker and work. Returns the day if it became the best."""
    event = run.event
    won = None
    if not _another_day_wanted(run) or len(event.players) > ROTATIONAL_DAY_MAX_PLAYERS:
        return None
    if _to_spare(run) < run.config.rotational_day_seconds + regroup_window:  # the regrouping's window after it
        return None  # only with its whole time to spare: the stages before it keep theirs (5 s runs do not try)
    days = run.budget.within(run.config.rotational_day_seconds)
    # Short attempts, the kinds in turn, each kind's seeds in turn: a seed may take many times another's.
    for attempt in range(int(run.config.rotational_day_seconds // run.config.rotational_day_attempt)):
        best = run.best
        if best is None or best.metrics.table_visits_above_even == 0 or not days.afford(run.config.numbering_seconds):
            break
        most_above, no_back_to_back = run.config.rotational_day_tries[attempt % len(run.config.rotational_day_tries)]
        day = rotational_day(
            len(event.players), event.rounds, repeats=best.metrics.repeats, below=best.metrics.table_visits_above_even,
            no_trios=best.metrics.trios_again == 0, no_back_to_back=no_back_to_back and best.metrics.back_to_back == 0,
            most_above=most_above, budget=days.within(run.config.rotational_day_attempt),
            workers=1 if run.repeatable else min(workers, 2), seed=attempt // len(run.config.rotational_day_tries),
        )  # fmt: skip
        if day is not None and run.incumbent.has_time_to_check():
            day = balanced(day)
            run.offer(day, Provenance.of("rotational day for the table numbers").then(BALANCED))
            won = day if run.best is not None and run.best.seats is day else won
    return won


def _offer_exact_numbering(run: Run, workers: int, seed: int) -> None:
    """Where the best day still has table visits above even, the exact numbering of its groups
    (optimizer.balance.exact_numbers, CP-SAT over all rounds at once) in the time left: fewer visits, or
    a proof that these groups allow no fewer, which stops it (often within a second). The groups, the
    order and the seat letters stay; only the numbers change. Not with stayers or rounds played before
    (the model renames numbers alike in all rounds), nor past config.exact_numbering_max_tables."""
    best, event = run.best, run.event
    if best is None or best.metrics.table_visits_above_even == 0 or event.stay or not run.history.fresh:
        return
    seconds = _to_spare(run)
    if best.seats.shape[1] > run.config.exact_numbering_max_tables or seconds < run.config.exact_numbering_min_seconds:
        return
    most = (
        run.config.exact_numbering_work / CPSAT_WORK_PER_SECOND
        if run.repeatable
        else run.config.exact_numbering_seconds
    )
    found = fewest_table_visits(
        best.seats, budget=run.budget.within(min(seconds, most)),
        at_most=best.metrics.table_visits_above_even - 1, workers=1 if run.repeatable else min(workers, 2), seed=seed,
    )  # fmt: skip
    if found.seats is not None and run.incumbent.has_time_to_check():
        run.offer(found.seats, best.made.then(NUMBERED_EXACTLY))


def _to_spare(run: Run) -> float:
    """The seconds a CP-SAT step of balancing may take: the time left but config.balance_margin and, on the wall
    clock, the seat letters' checks (a repeatable run never reads how long they took)."""
    checks = 0.0 if run.repeatable else run.config.letters_checks * run.incumbent.check_seconds
    return run.budget.left() - checks - run.config.balance_margin


def _numbered(run: Run, seats: Seats) -> bool:
    """Whether the table numbering fits the room: its players x tables arrays within config.numbering_max_cells."""
    return len(run.event.players) * seats.shape[1] <= run.config.numbering_max_cells


def _polish_budget(run: Run, window: bool = False) -> Budget:
    """A regrouping's budget: a tenth of the time limit (at least FINISH_SECONDS), within the run's end.
    A repeatable run's: the share's after a search that stopped early (at the bound), else (or with
    `window`) config.repeatable_window_share of the finish window (the part of the run always kept for
    balancing), in work."""
    share = _regroup_share(run)
    if not run.repeatable:
        return run.budget.within(share)
    finish_window = run.budget.end - run.search.end
    return run.budget.within(share if run.done and not window else run.config.repeatable_window_share * finish_window)


def _regroup_share(run: Run) -> float:
    return max(FINISH_SECONDS, run.config.polish_share * run.budget.end)
