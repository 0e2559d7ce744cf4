"""The state of one planning run, typed: what was played before and the best so far (its budget is
optimizer.budget's).

History    what the rounds already played leave to the rounds still to plan (a re-plan)
Incumbent  the best schedule that passed the checker, with `offer` as its only way in
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from models import Bound, Event, Metrics, PlanResult, Schedule, Status
from optimizer.budget import Abandoned, Budget, Stop
from optimizer.checking.checker import InvalidSchedule, check, indirect_meetings
from optimizer.pipeline.provenance import Method
from optimizer.seats import Seats, repeats, to_schedule

QUICK_CHECK_SECONDS = 0.1  # a check this quick may end a run up to that much past its limit
# A repeatable run's budget is charged for each check this much, plus one second of work for checking this
# many seats (the seating turned into a schedule and checked): measured at one worker's CPU (`python -m
# benchmarks.balance_work --sites`, work_clock.md), 2.6 us a seat at 400 x 100 and 1000 x 100, 3.7 us at
# 124 x 41, and some 4 ms a check in small rooms.
CHECK_SECONDS = 0.004
SEATS_CHECKED_PER_SECOND = 360_000
# A run stopped before balancing orders, numbers and letters its best within this many seconds of the stop
# (optimizer.pipeline.balancing), and then measures the indirect-meetings figure of the best within this many
# more, or leaves it out: counted from the stop, so that a stop inside a long step does not add to them.
STOPPED_FINISH_SECONDS = 0.5
STOPPED_INDIRECT_SECONDS = 0.25
# The first schedule's check, which a stop does not end at once (there is nothing else to write), is given up
# this many seconds after the stop: at the room limits on a busy machine it takes seconds.
STOPPED_FIRST_CHECK_SECONDS = 0.75
# The end of a run is kept for balancing (optimizer.balance): this share of the limit, at most FINISH_SECONDS.
FINISH_SHARE = 0.05
FINISH_SECONDS = 1.0


@dataclass(frozen=True)
class History:
    """What the played rounds of a re-planned day leave behind; the default is a fresh day.

    The model plans only the players still here, so repeats of a pair with someone who left
    (`unseen_repeats`) are fixed and invisible to it: `planned_target` and `day_bound` translate
    between the whole day's repeats and the planned rounds' (played meetings of the players still
    here are in `met_before`, so the planned rounds count them themselves).

    A night of a season (optimizer.season) has earlier nights instead of played rounds: `met_before`
    holds their meetings, `season` ranks tonight by what it adds to them (its figures counted over the
    season), and `earlier_repeats`, the repeats among the earlier meetings themselves, which the model
    counts and tonight's figure leaves out, is what the translation takes away."""

    met_before: np.ndarray | None = None  # players x players: meetings in the played rounds
    burdens_before: np.ndarray | None = None  # per player: three-handed rounds or sit-outs so far
    letters_before: np.ndarray | None = None  # players x 4: seat letters A-D so far
    visits_before: np.ndarray | None = None  # players x tables: visits to each table so far
    previous: Seats | None = None  # (tables, 4): the last round played, for back-to-back rematches
    unseen_repeats: int = 0
    bound: Bound | None = None  # what the played rounds prove about the whole day
    join: Callable[[Schedule], Schedule] | None = None  # the played rounds followed by the planned ones
    earlier_repeats: int = 0  # a night of a season: repeats within `met_before`, not tonight's
    season: Callable[[Seats, Metrics], Metrics] | None = None  # a night of a season: its figures over the season

    @property
    def fresh(self) -> bool:
        return self.met_before is None

    def planned_target(self, day_repeats: int) -> int:
        """The planned rounds' share of a whole-day repeat count."""
        return max(0, day_repeats - self.unseen_repeats + self.earlier_repeats)

    def day_bound(self, planned_bound: int) -> int:
        """A bound on the planned rounds' repeats as a bound on the whole day's."""
        return max(0, planned_bound + self.unseen_repeats - self.earlier_repeats)

    def whole_day(self, event: Event, seats: Seats, poll: Callable[[], None] = lambda: None) -> Schedule:
        """The schedule the checker judges: for a re-plan, the played rounds and then these."""
        planned = to_schedule(event, seats, rule="variety", poll=poll)
        return planned if self.join is None else self.join(planned)


def check_work(seats: Seats | None) -> float:
    """Seconds of work charged for checking a seating (CHECK_SECONDS, SEATS_CHECKED_PER_SECOND)."""
    return 0.0 if seats is None else CHECK_SECONDS + int((seats >= 0).sum()) / SEATS_CHECKED_PER_SECOND


@dataclass(frozen=True)
class Candidate:
    seats: Seats
    schedule: Schedule  # as the checker judged it
    metrics: Metrics
    made: Method
    found_at: float
    moves: int = 0  # players moved against the plan being replaced, where a re-plan counts them

    @property
    def method(self) -> str:
        """How it was made, in words (the result's `method`)."""
        return str(self.made)

    @property
    def rank(self) -> tuple[int, ...]:
        """Repeats first; then club-mate meetings (the spread request), trios again, back-to-back
        rematches, seat spread and table visits above even, each only among equals in the ones before."""
        m = self.metrics
        return m.repeats, m.club_meetings, m.trios_again, m.back_to_back, m.seat_spread, m.table_visits_above_even


@dataclass
class Incumbent:
    """The best schedule so far. Nothing becomes best without passing the checker with fair shares.
    With `moves_of` (a re-plan moving few players) the fewest moves come first, then `Candidate.rank`."""

    event: Event
    history: History
    budget: Budget
    on_better: Callable[[Candidate], None] | None = None
    moves_of: Callable[[Seats], int] | None = None  # moves come before everything in `rank` when given
    best: Candidate | None = None
    time_to_first: float | None = None
    check_seconds: float = 0.0  # how long the last check took, seating to schedule included

    def offer(self, seats: Seats, made: Method, found_at: float | None = None, within: Budget | None = None) -> None:
        """Keep the seating if the checker passes it (requests included), its shares are fair,
        and it beats the best. Unchecked, since it cannot be kept: a fresh day with more repeats than
        the best (counted on the seats), and one offered when the time left is shorter than its check
        (seconds at the room limits). The check polls the stop token (`within`: that budget's end, a
        stopped run's finish) and is given up when it is set, unless nothing is kept yet; a repeatable run
        is charged its work (SEATS_CHECKED_PER_SECOND)."""
        if self._cannot_win(seats, within):
            return
        took = Budget.stopwatch()
        poll = self._first_poll  # the first schedule found is checked even after a stop, for a while
        if self.best is not None:
            poll = within.poller(at_end=True) if within is not None else self.budget.poller()
        self.budget.charge(check_work(seats))
        try:
            schedule = self.history.whole_day(self.event, seats, poll)
            metrics = check(schedule, indirect=False, poll=poll)  # not in the rank: measured for the best alone
            self.check_seconds = took()
        except InvalidSchedule:
            self.check_seconds = took()
            return
        except Abandoned:
            return
        if not metrics.turns_fair:
            return
        if self.history.season is not None:
            metrics = self.history.season(seats, metrics)
        if self.time_to_first is None:
            self.time_to_first = self.budget.elapsed()
        found_at = self.budget.elapsed() if found_at is None else found_at
        moves = 0 if self.moves_of is None else self.moves_of(seats)
        candidate = Candidate(seats, schedule, metrics, made, found_at, moves)
        if self.best is None or (candidate.moves, candidate.rank) < (self.best.moves, self.best.rank):
            self.best = candidate
            if self.on_better:
                self.on_better(candidate)

    def _first_poll(self) -> None:
        """The first schedule's check goes on after a stop until STOPPED_FIRST_CHECK_SECONDS past it."""
        if self.budget.stopped:
            Budget.after_stop(self.budget.stop, STOPPED_FIRST_CHECK_SECONDS).poller(at_end=True)()

    def has_time_to_check(self, seats: Seats | None = None, within: Budget | None = None, first: float = 0.0) -> bool:
        """The run (or `within`) has a check's time left (`check_cost`), after `first` seconds of a step
        that makes the day checked, or its checks take milliseconds: only checks of seconds, at the room
        limits, are skipped."""
        budget = within or self.budget
        cost = self.check_cost(seats, budget)
        quick = cost < QUICK_CHECK_SECONDS  # ms: made even at the end (a room's seat letters)
        return quick or budget.unstopped().left() >= first + cost

    def check_cost(self, seats: Seats | None = None, budget: Budget | None = None) -> float:
        """A check's time on `budget`'s clock (the run's): the last one's on the wall clock, the work of
        checking `seats` (else the best's) in a repeatable run, which never reads the clock."""
        if not (budget or self.budget).repeatable:
            return self.check_seconds
        return check_work(seats if seats is not None else self.best.seats if self.best is not None else None)

    def _cannot_win(self, seats: Seats, within: Budget | None) -> bool:
        """Whether an offer is dropped unchecked. On the wall clock a fresh day with fewer repeats than the
        best (counted on the seats) is checked even without a check's time left, within FINISH_SECONDS
        past the end (the run's tidy-up): on a busy machine the first day's check can take the whole
        limit, and a repeat-free construction built in a moment must not lose to the fixed rule. The best's
        own seats offered again (a search that had no time to change them) are not checked twice."""
        if self.best is None:
            return False
        if np.array_equal(seats, self.best.seats):
            return True
        fresh = self.history.join is None and self.moves_of is None  # the seats are the whole day
        counted = repeats(seats, len(self.event.players)) if fresh else None
        if not self.has_time_to_check(seats, within):
            fewer = counted is not None and counted < self.best.metrics.repeats
            return not (fewer and within is None and not self.budget.stopped and self._in_tidy_up())
        return counted is not None and counted > self.best.metrics.repeats

    def _in_tidy_up(self) -> bool:
        """On the wall clock, less than FINISH_SECONDS past the run's end (never on the work clock)."""
        return not self.budget.repeatable and self.budget.overrun() < FINISH_SECONDS

    def _indirect(self, schedule: Schedule, stopped: bool) -> int | None:
        """The indirect-meetings figure; after a stop, None unless measured by STOPPED_FINISH_SECONDS +
        STOPPED_INDIRECT_SECONDS after the stop (not begun where a check took longer than the latter: its
        first step alone, reading the seats, is a check's; nor once that time has passed). A run on the
        wall clock already past its end measures it so too, within STOPPED_INDIRECT_SECONDS from now."""
        late = self.budget.overrun() > 0
        if not (stopped or late):
            return indirect_meetings(schedule)
        seconds = STOPPED_FINISH_SECONDS + STOPPED_INDIRECT_SECONDS if stopped else STOPPED_INDIRECT_SECONDS
        window = Budget.after_stop(self.budget.stop if stopped else Stop(), seconds)
        if self.check_seconds >= STOPPED_INDIRECT_SECONDS or window.done():
            return None
        poll = window.poller()
        try:
            return indirect_meetings(schedule, poll)
        except Abandoned:
            return None

    def _own_metrics(self, best: Candidate) -> Metrics:
        """The checker's figures of the schedule itself (a night of a season was ranked by the season's)."""
        return best.metrics if self.history.season is None else check(best.schedule, indirect=False)

    def result(self, bound: Bound, *, fixed_repeats: int | None, infeasible: bool, interrupted: bool) -> PlanResult:
        """The run's result: the best schedule, optimal when its repeats meet `bound`; without one,
        infeasible only when that was proven."""
        best, runtime = self.best, self.budget.elapsed()
        if best is None:
            return PlanResult(
                status=Status.INFEASIBLE if infeasible else Status.UNKNOWN,
                repeats=None,
                bound=bound,
                fixed_repeats=fixed_repeats,
                method="none",
                runtime=runtime,
                interrupted=interrupted,
            )
        return PlanResult(
            status=Status.OPTIMAL if best.metrics.repeats <= bound.repeats else Status.FEASIBLE,
            repeats=best.metrics.repeats,
            bound=bound,
            fixed_repeats=fixed_repeats,
            method=best.method,
            runtime=runtime,
            time_to_first=self.time_to_first,
            time_to_best=best.found_at,
            interrupted=interrupted,
            schedule=best.schedule,
            metrics=self._own_metrics(best).model_copy(
                update={"indirect_meetings": self._indirect(best.schedule, interrupted)}
            ),
        )
