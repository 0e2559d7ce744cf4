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
from optimizer.budget import Budget
from optimizer.checker import InvalidSchedule, check, indirect_meetings
from optimizer.provenance import Method
from optimizer.seats import Seats, repeats, to_schedule

QUICK_CHECK_SECONDS = 0.1  # a check this quick may end a run up to that much past its limit
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

    def whole_day(self, event: Event, seats: Seats) -> Schedule:
        """The schedule the checker judges: for a re-plan, the played rounds and then these."""
        planned = to_schedule(event, seats, rule="variety")
        return planned if self.join is None else self.join(planned)


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

    def offer(self, seats: Seats, made: Method, found_at: float | None = None) -> None:
        """Keep the seating if the checker passes it (requests included), its shares are fair,
        and it beats the best. Unchecked, since it cannot be kept: a fresh day with more repeats than
        the best (counted on the seats), and in a run on the clock one offered when the time left is
        shorter than the last check took (seconds at the room limits)."""
        if self._cannot_win(seats):
            return
        took = Budget.stopwatch()
        schedule = self.history.whole_day(self.event, seats)
        try:
            metrics = check(schedule, indirect=False)  # not in the rank: measured for the best alone
        except InvalidSchedule:
            return
        finally:
            self.check_seconds = took()
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

    def has_time_to_check(self) -> bool:
        """A run on the clock has at least the last check's time left, or its checks take milliseconds
        (always, in a repeatable run, which never reads the clock): only checks of seconds, at the room
        limits, are skipped."""
        quick = self.check_seconds < QUICK_CHECK_SECONDS  # ms: made even at the end (a room's seat letters)
        return self.budget.repeatable or quick or self.budget.unstopped().left() >= self.check_seconds

    def _cannot_win(self, seats: Seats) -> bool:
        if self.best is None:
            return False
        if not self.has_time_to_check():
            return True
        fresh = self.history.join is None and self.moves_of is None  # the seats are the whole day
        return fresh and repeats(seats, len(self.event.players)) > self.best.metrics.repeats

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
            metrics=self._own_metrics(best).model_copy(update={"indirect_meetings": indirect_meetings(best.schedule)}),
        )
