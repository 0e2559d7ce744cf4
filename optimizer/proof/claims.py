"""What a CP-SAT proof that repeats cannot be avoided says, shared by the verdict and the plan's search."""

from __future__ import annotations

from models import Event
from optimizer.checking.checker import check
from optimizer.constructions.fixed import fixed_schedule


def fewest_repeats(event: Event, forced: int) -> str:
    """What a CP-SAT proof that `forced` repeats cannot be avoided says, with the rules it holds
    under: the model shares three-handed tables and sit-outs in turn, which the fixed rule does not."""
    claim = "no repeat-free day exists" if forced == 1 else f"every day has at least {forced} repeats"
    layout = event.layout
    if not (layout.threes or layout.sit_outs):
        return claim
    rules = " with three-handed tables taken in turn" if layout.threes else " with sit-outs taken in turn"
    fixed = check(fixed_schedule(event), indirect=False)
    unfair = not fixed.turns_fair
    note = (
        f"; the fixed rule, which does not take turns, has E = {fixed.repeats}"
        if unfair and fixed.repeats < forced
        else ""
    )
    return f"{claim}{rules}{note}"
