"""Ways to build a schedule, the independent checker and the bounds, behind one small entry point.

    plan(event, time_limit=...)            -> PlanResult: the variety rotation
    fixed_schedule(event)                  -> Schedule: the fixed MJMP rotation
    zero_repeat_verdict(event, time_limit) -> Verdict: exists / impossible / unknown
    replan(schedule, played, drop=..., add=...) -> Replan: the rounds still to play, again
    check(schedule)                        -> Metrics, or InvalidSchedule
    lower_bound(event)                     -> Bound

The pipeline behind `plan` (optimizer/plan.py): constructions/ (starts) -> search/ (local search)
-> cpsat/ (the whole-day model) -> checker.py (every candidate); bounds.py proves how good it is.
"""

from models import Event, Schedule
from optimizer.bounds import lower_bound
from optimizer.checker import InvalidSchedule, check, measure
from optimizer.constructions.fixed import fixed_seating
from optimizer.plan import plan
from optimizer.replan import replan
from optimizer.seats import to_schedule
from optimizer.verdict import zero_repeat_verdict


def fixed_schedule(event: Event) -> Schedule:
    """The fixed MJMP rotation for the event, checked."""
    schedule = to_schedule(event, fixed_seating(event), rule="fixed")
    check(schedule)
    return schedule


__all__ = [
    "InvalidSchedule",
    "check",
    "fixed_schedule",
    "lower_bound",
    "measure",
    "plan",
    "replan",
    "zero_repeat_verdict",
]
