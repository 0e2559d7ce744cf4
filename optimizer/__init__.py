"""Ways to build a schedule, the independent checker and the bounds, behind one small entry point."""

from models import Event, Schedule
from optimizer.bounds import lower_bound
from optimizer.checker import InvalidSchedule, check, measure
from optimizer.fixed import fixed_seating
from optimizer.seating import to_schedule


def fixed_schedule(event: Event) -> Schedule:
    """The fixed MJMP rotation for the event, checked."""
    schedule = to_schedule(event, fixed_seating(event), rule="fixed")
    check(schedule)
    return schedule


__all__ = ["InvalidSchedule", "check", "fixed_schedule", "lower_bound", "measure"]
