"""A day beside the fixed rule on the same room and the lower bound: the figures a director compares."""

from __future__ import annotations

from models import Comparison, Event, Schedule
from models.event import FixedRule
from optimizer.checking.checker import InvalidSchedule, check
from optimizer.constructions.fixed import fixed_schedule
from optimizer.proof.bounds import lower_bound


def compare(schedule: Schedule, rule: FixedRule = FixedRule.MJMP) -> Comparison:
    """The fixed rule (MJMP item 23 unless `rule` says otherwise) on the room the day seats, as the checker
    measures it, and the lower bound on that room (optimizer.proof.bounds); or why neither describes the day:
    players came and went (the room changed from round to round), or the rule cannot seat the room."""
    if schedule.arrivals or schedule.departures or any(round_.absent for round_ in schedule.rounds):
        return Comparison(
            skipped="players came and went during the day, so the full room's "
            "fixed rotation and lower bound do not describe this schedule"
        )
    try:
        event = Event(
            players=schedule.players,
            rounds=len(schedule.rounds),
            odd=schedule.odd,
            sit_out_scoring=schedule.sit_out_scoring,
        )
        fixed = check(fixed_schedule(event, rule))
    except (ValueError, InvalidSchedule) as error:
        return Comparison(skipped=f"the fixed rule cannot seat this room: {error}")
    return Comparison(fixed=fixed, bound=lower_bound(event))
