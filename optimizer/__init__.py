"""Ways to build a schedule, the independent checker and the bounds, behind one small entry point.

    plan(event, time_limit=...)            -> PlanResult: the variety rotation (tuned by a PlanConfig)
    fixed_schedule(event)                  -> Schedule: the fixed MJMP rotation
    zero_repeat_verdict(event, time_limit) -> Verdict: exists / impossible / unknown
    replan(schedule, played, drop=..., add=...) -> Replan: the rounds still to play, again
    plan_night(event, earlier_nights, ...) -> NightPlan: a night of a season, against the nights before
    swap / move / mark_played / rename (optimizer/fix.py) -> Schedule: fixes by hand, checked
    check(schedule)                        -> Metrics, or InvalidSchedule
    lower_bound(event)                     -> Bound
    compare(schedule)                      -> Comparison: the fixed rule and the bound on the day's room

The pipeline behind `plan` (optimizer/plan.py): constructions/ (starts) -> search/ (local search)
-> cpsat/ (the whole-day model) -> checker.py (every candidate); bounds.py proves how good it is.
"""

from optimizer.checking.checker import InvalidSchedule, check, measure
from optimizer.config import PlanConfig
from optimizer.constructions.fixed import fixed_schedule
from optimizer.fix import FixRefused, mark_played, move, moved, rename, renamed_round, respelling, swap
from optimizer.plan import plan
from optimizer.proof.bounds import lower_bound
from optimizer.proof.compare import compare
from optimizer.proof.verdict import zero_repeat_verdict
from optimizer.replan import replan
from optimizer.season import plan_night

__all__ = [
    "FixRefused",
    "InvalidSchedule",
    "PlanConfig",
    "check",
    "compare",
    "fixed_schedule",
    "lower_bound",
    "mark_played",
    "measure",
    "move",
    "moved",
    "rename",
    "renamed_round",
    "respelling",
    "plan",
    "plan_night",
    "replan",
    "swap",
    "zero_repeat_verdict",
]
