"""Tonight planned against the earlier nights: the plan with their history, then the season's descent."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from models import Event, NightPlan, PlanResult, Progress, Schedule, Status
from optimizer.balance.letters import reletter
from optimizer.budget import Budget, Stop
from optimizer.checking.checker import InvalidSchedule, check, indirect_meetings
from optimizer.plan import plan
from optimizer.search.costs import Costs
from optimizer.season.descent import season_cost, spread_out
from optimizer.season.earlier import HALF_LIFE, LEVEL_SHARE, Season
from optimizer.seats import from_schedule, meetings, to_schedule

# The plan of tonight alone, for comparison, takes this share of the time limit; of the rest, the descent
# that spreads meetings over the season (optimizer.season.descent) takes this share.
ALONE_SHARE = 0.2
DESCENT_SHARE = 0.8
# A repeatable run counts steps (about 1400 a second at 34 players on this project's loaded 2-core machine),
# each charged as 1 / this of a second of work.
DESCENT_STEPS_PER_SECOND = 500
# A step weighs every swap of every round (rounds x players x players): past this many players the plan's
# seating stays.
DESCENT_MAX_PLAYERS = 400


def plan_night(
    event: Event,
    earlier: Sequence[Schedule],
    *,
    ids: Mapping[str, str] | None = None,
    half_life: float = HALF_LIFE,
    level_share: float = LEVEL_SHARE,
    time_limit: float = 30.0,
    seed: int = 0,
    workers: int = 8,
    on_progress: Callable[[Progress], None] | None = None,
    alone: bool = True,
    stop: Stop | None = None,
    budget: Budget | None = None,
) -> NightPlan:
    """Tonight planned against the earlier nights (oldest first), players matched by `ids` (name -> member
    id; the event's own by default) where both nights have one, else by name: optimizer.plan with their history (the
    pairs above the season's level kept apart, turns and seat letters over the season), then the descent
    that spreads meetings (the rest of the season's pairs by their weighted meetings), checked again.
    With `alone`, a short run (ALONE_SHARE of the time) plans tonight as if nothing had been played, to
    say what the season gains. `workers=1` with a seed repeats the plan (optimizer.plan) and counts the
    descent's steps. Setting `stop` (or optimizer.budget.STOP, as the stop signals do) ends the night with
    the best so far. Raise ValueError on a half-life that is not positive, or a room larger than
    optimizer.season.earlier.MAX_PLAYERS. The night's budget (`budget`, else `time_limit` and `stop`) is
    handed down in parts: the plan's, the descent's, then the comparison's."""
    budget = budget or Budget.for_run(time_limit, workers=workers, stop=stop)
    season = Season(event, earlier, event.ids if ids is None else ids, half_life, level_share)
    own = budget.end * (1 - ALONE_SHARE) if alone else budget.end
    result = plan(
        event,
        seed=seed,
        workers=workers,
        history=season.history(),
        on_progress=on_progress,
        budget=budget.part(own * (1 - DESCENT_SHARE)),
    )
    small = len(event.players) <= DESCENT_MAX_PLAYERS
    if result.schedule is not None and small and not (result.interrupted or budget.stopped):
        result = _spread(result, season, budget.part(own * DESCENT_SHARE), seed=seed)
    result = result.model_copy(update={"runtime": budget.elapsed()})
    other, other_runtime = None, 0.0
    if alone and not (result.interrupted or budget.stopped):
        alone_budget = budget.part(budget.end * ALONE_SHARE)
        other = plan(event, seed=seed, workers=workers, budget=alone_budget)
        other_runtime = alone_budget.elapsed()
    return NightPlan(
        nights=season.nights,
        half_life=half_life,
        members=int(season.seen.sum()),
        result=result,
        season=season.figures(result.schedule) if result.schedule else None,
        alone=season.figures(other.schedule) if other is not None and other.schedule else None,
        alone_runtime=other_runtime,
    )


def _spread(result: PlanResult, season: Season, budget: Budget, *, seed: int) -> PlanResult:
    """The plan's seating after the season's descent and its seat letters balanced again over the season,
    when the checker passes it with fair turns and its season cost is lower; else the plan as it was."""
    assert result.schedule is not None
    event = season.event
    seats = from_schedule(result.schedule)
    costs = Costs.of(event, met_before=season.met, recency=season.weighted - season.met)
    spread = spread_out(
        seats, costs, rng=np.random.default_rng(seed), budget=budget, step_work=1 / DESCENT_STEPS_PER_SECOND
    )
    if season_cost(spread, costs) >= season_cost(seats, costs):
        return result
    lettered = reletter(spread, season.letters, len(event.players))
    schedule = to_schedule(event, lettered, rule="variety")
    try:
        metrics = check(schedule)
    except InvalidSchedule:
        return result
    if not metrics.turns_fair:
        return result
    repeats = season.repeats(meetings(lettered, len(event.players)))
    return result.model_copy(
        update={
            "schedule": schedule,
            "metrics": metrics.model_copy(update={"indirect_meetings": indirect_meetings(schedule)}),
            "repeats": repeats,
            "status": Status.OPTIMAL if repeats <= result.bound.repeats else Status.FEASIBLE,
            "method": f"{result.method}, spread over the season",
        }
    )
