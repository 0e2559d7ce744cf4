"""The plan's balancing stage (optimizer.plan's last): what players notice beyond repeats, never at the
cost of one.

Regroup the best day for fewer trios again and back-to-back rematches at the same repeats (polish), then
order the rounds, number the tables and seat the letters, none of which changes who meets whom; then,
where table visits stay above even, other days at the same repeats (optimizer.balance.other_days), a
regrouping for the table numbers, and the exact numbering of the best day's groups. After a stop only
the quick steps run (ordering, numbering, letters: no regrouping, no CP-SAT), within the run's end.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models import Bound
from optimizer.balance.letters import balance_letters, letters_work
from optimizer.balance.order import order_rounds, order_work
from optimizer.balance.other_days import offer_exact_numbering, offer_other_days
from optimizer.balance.polish import polish, regroup_for_tables
from optimizer.balance.tables import KICKS, balance_table_numbers
from optimizer.budget import Budget
from optimizer.pipeline.provenance import BALANCED, Method
from optimizer.pipeline.run import Run
from optimizer.pipeline.stages import Starts
from optimizer.pipeline.state import FINISH_SECONDS, QUICK_CHECK_SECONDS, STOPPED_FINISH_SECONDS, check_work
from optimizer.requests import pinned, turn_exempt
from optimizer.search.costs import Costs
from optimizer.seats import EMPTY, Seats, repeats


def balance(run: Run, starts: Starts, rng: np.random.Generator, bound: Bound) -> None:
    """Balance the run's best day (and the starts' day as built, where rounds were chosen for the table
    numbers), offering each balanced day to the incumbent; `bound` is the search's (SearchOutcome)."""
    best = run.best
    if best is None:
        return
    steps = Steps.of(run, rng)
    # The regrouping for table numbers draws from a generator of its own: the stages before it draw as they did.
    regroup_rng = rng.spawn(1)[0]
    # The day as built first, so that it draws as it did before the rounds were chosen; only where the finish
    # also leaves the chosen day its quick steps (the round choice kept it theirs alone).
    if starts.as_built is not None and steps.finish.afford(2 * quick_steps(run, starts.as_built.seats)):
        plain = steps.number(steps.order(starts.as_built.seats), share=run.config.as_built_share)
        steps.offer(steps.letters(plain), starts.as_built.made.then(BALANCED))
    seats = best.seats
    if steps.regroup:  # within what leaves the quick steps their work
        quick = order_work(seats, len(run.event.players)) + run.config.numbering_seconds + steps.reserve(seats)
        seats = polish(seats, rng, steps.costs, budget=steps.kept_for(polish_budget(run, run.at(bound)), quick))
    seats = steps.number(steps.order(seats))
    if not run.incumbent.has_time_to_check(seats, steps.within, first=letters_work(seats)):
        return  # the seat letters would not be made and checked in time (at the room limits)
    steps.offer(steps.letters(seats), best.made.then(BALANCED))
    if steps.interrupted or steps.late:
        return
    window = regroup_share(run) if steps.regroup else 0.0
    won = offer_other_days(run, steps.balanced, window)
    seats = seats if won is None else won
    if steps.regroup and (run.at(bound) or not run.repeatable) and run.best is not None and not run.budget.stopped:
        _regroup_for_tables(run, steps, seats, regroup_rng)
    if not run.budget.stopped:
        offer_exact_numbering(run, seed=int(rng.integers(2**31)))


@dataclass(frozen=True)
class Steps:
    """The balancing steps of one run, on its finish budget (the whole run's, or past a stop the run's end
    regardless of the stop): the order of rounds, the table numbers, the seat letters."""

    run: Run
    rng: np.random.Generator
    finish: Budget
    interrupted: bool  # stopped before balancing: the quick steps only
    late: bool  # on the wall clock, come to balancing past the run's end: the quick steps that fit its finish
    regroup: bool  # whether the day is regrouped (polish, and for the table numbers)
    costs: Costs | None  # the regrouping's cost model, when it regroups (gigabytes at the room limits)
    pinned: np.ndarray  # the players who keep their table
    kicks: int  # the table numbering's restarts
    three_handed: bool

    @property
    def within(self) -> Budget | None:
        """What a stopped or late run's offers are checked within (its finish); None: the run's own budget."""
        return self.finish if self.interrupted or self.late else None

    def offer(self, seats: Seats, made: Method) -> None:
        self.run.offer(seats, made, within=self.within)

    def fits(self, work: float) -> bool:
        """Whether a quick step of `work` seconds runs: always, but in a stopped or late run's finish only if
        it has that long left on the wall clock (at the room limits the steps take seconds): `work` as this
        machine does it now, slowed as the last check was against its work (a busy machine). A late run's
        step that takes less than a quick check runs all the same (the seat letters of a small room)."""
        if not (self.interrupted or self.late):
            return True
        run = self.run
        planned = check_work(run.best.seats) if run.best is not None else 0.0
        slowness = max(1.0, run.incumbent.check_seconds / planned) if planned > 0 else 1.0
        return (self.late and work * slowness < QUICK_CHECK_SECONDS) or self.finish.afford(work * slowness)

    @classmethod
    def of(cls, run: Run, rng: np.random.Generator) -> Steps:
        assert run.best is not None
        event, interrupted = run.event, run.budget.stopped
        late = not interrupted and run.budget.done() and not run.repeatable
        player_count = len(event.players)
        regroup = not interrupted and run.costs is not None and player_count <= run.config.polish_max_players
        costs = run.costs if regroup else None
        # After a stop the quick steps have what is left of STOPPED_FINISH_SECONDS since the stop, on the wall
        # clock (optimizer.budget.Budget.after_stop): at the room limits they take seconds, so each polls the
        # finish's stop token, which its end sets, and one that cannot afford its work is skipped. A run on
        # the wall clock that comes here past its end (its first day checked on a busy machine) has what is
        # left of as many seconds since its end, at least a quick check's (a small room's steps and checks
        # take milliseconds): the steps that fit run whole (a stop still stops them).
        finish = run.budget
        if interrupted:
            finish = Budget.after_stop(run.budget.stop, STOPPED_FINISH_SECONDS)
        elif late:
            window = max(QUICK_CHECK_SECONDS, STOPPED_FINISH_SECONDS - run.budget.overrun())
            finish = Budget.of(window, stop=run.budget.stop)
        kicks = 0 if run.repeatable else KICKS  # a repeatable run numbers by the descent alone (metered in work)
        three_handed = bool((run.best.seats == EMPTY).any())
        return cls(run, rng, finish, interrupted, late, regroup, costs, pinned(event), kicks, three_handed)

    def order(self, seats: Seats) -> Seats:
        """The order of rounds; its local search within what leaves the numbering's least and the seat
        letters their work (`reserve`). A day without repeats (and no round before it) keeps its order."""
        history, player_count = self.run.history, len(self.run.event.players)
        if history.previous is None and repeats(seats, player_count) == 0:
            return seats  # no pair meets twice: no order has a back-to-back rematch (and the turns are kept)
        if not self.fits(order_work(seats, player_count)):
            return seats
        budget = self.kept_for(self.finish, self.run.config.numbering_seconds + self.reserve(seats))
        return order_rounds(
            seats, previous=history.previous, player_count=player_count, exempt=turn_exempt(self.run.event),
            burdens_so_far=history.burdens_before, budget=budget,
        )  # fmt: skip

    def reserve(self, seats: Seats) -> float:
        """What a step before the seat letters leaves them: their lettering, config.letters_checks checks
        (counted on the seats in a repeatable run, as the last check took on the wall clock) and, where
        tables of three, config.letters_share of the time left for the exact letters."""
        run, config = self.run, self.run.config
        check = check_work(seats) if self.finish.repeatable else run.incumbent.check_seconds
        left = self.finish.left()
        return letters_work(seats) + config.letters_checks * check + self.three_handed * config.letters_share * left

    def kept_for(self, budget: Budget, work: float) -> Budget:
        """`budget` ending where `work` is left of the finish (never before now): a step's budget that
        leaves the steps after it their work."""
        return budget.within(max(0.0, self.finish.left() - work))

    def number(self, seats: Seats, kicks: int | None = None, share: float = 1.0) -> Seats:
        """The table numbering (optimizer.balance.balance_table_numbers) for `share` of the time left but the
        seat letters' (their lettering and checks, and the exact letters where tables of three), at least
        config.numbering_seconds even past the run's end (one descent at small rooms). A repeatable run's
        is metered in work (rounds numbered, lettering and checks by their seats)."""
        run, config = self.run, self.run.config
        if not numbered(run, seats):
            return seats
        left = self.finish.left()
        budget = self.finish.within(share * (left - self.reserve(seats)), at_least=config.numbering_seconds)
        return balance_table_numbers(
            seats, self.pinned, run.history.visits_before, len(run.event.players), rng=self.rng,
            kicks=self.kicks if kicks is None else kicks, budget=budget,
        )  # fmt: skip

    def letters(self, seats: Seats) -> Seats:
        """The seat letters; where tables of three leave them uneven, exactly, on deterministic work."""
        run = self.run
        if not self.fits(letters_work(seats)):
            return seats
        return balance_letters(
            seats, letters_so_far=run.history.letters_before, player_count=len(run.event.players),
            budget=self.finish, work=run.config.letters_work,
        )  # fmt: skip

    def balanced(self, day: Seats) -> Seats:
        """Another day, ordered, numbered and lettered."""
        return self.letters(self.number(self.order(day)))


def _regroup_for_tables(run: Run, steps: Steps, seats: Seats, rng: np.random.Generator) -> None:
    """Regroup the day for fewer table visits above even (optimizer.balance.regroup_for_tables), renumbering
    with fewer restarts between regroupings. A repeatable run regroups only after a search that stopped
    early (at the bound), when the work left is the share's; otherwise only the finish window's, which the
    search's end decides."""
    assert run.best is not None
    kicks = min(steps.kicks, run.config.kicks_between_regrouping)
    budget = steps.kept_for(polish_budget(run, at_bound=False, window=True), steps.reserve(seats))
    regrouped = regroup_for_tables(
        seats, rng, lambda day: steps.number(day, kicks=kicks), steps.costs, visits_so_far=run.history.visits_before,
        budget=budget,
    )  # fmt: skip
    if regrouped is not seats and not np.array_equal(regrouped, seats):  # else its letters were offered already
        steps.offer(steps.letters(regrouped), run.best.made)


def quick_steps(run: Run, seats: Seats, checks: int = 1) -> float:
    """The quick steps' time for a day of these seats: the numbering's least, its lettering and `checks`
    checks (the work of checking its seats in a repeatable run, as the last check took on the wall clock)."""
    check = check_work(seats) if run.repeatable else run.incumbent.check_seconds
    return run.config.numbering_seconds + letters_work(seats) + checks * check


def numbered(run: Run, seats: Seats) -> bool:
    """Whether the table numbering fits the room: its players x tables arrays within config.numbering_max_cells."""
    return len(run.event.players) * seats.shape[1] <= run.config.numbering_max_cells


def polish_budget(run: Run, at_bound: bool, window: bool = False) -> Budget:
    """A regrouping's budget: a tenth of the time limit (at least FINISH_SECONDS), within the run's end.
    A repeatable run's: the share's after a search that stopped early (`at_bound`), else (or with
    `window`) config.repeatable_window_share of the finish window (the part of the run always kept for
    balancing), in work."""
    share = regroup_share(run)
    if not run.repeatable:
        return run.budget.within(share)
    finish_window = run.budget.end - run.search.end
    return run.budget.within(share if at_bound and not window else run.config.repeatable_window_share * finish_window)


def regroup_share(run: Run) -> float:
    """A regrouping's seconds: config.polish_share of the time limit, at least FINISH_SECONDS."""
    return max(FINISH_SECONDS, run.config.polish_share * run.budget.end)
