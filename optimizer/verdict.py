"""Does a schedule with no repeat opponents exist? A certificate, a proof, or an honest 'unknown'."""

from __future__ import annotations

import time

from models import Answer, Event, Verdict
from optimizer import cpsat
from optimizer.bounds import lower_bound
from optimizer.checker import check
from optimizer.constructions import zero_repeat_seating
from optimizer.seats import to_schedule


def zero_repeat_verdict(event: Event, time_limit: float = 30.0, seed: int = 0, workers: int = 8) -> Verdict:
    started = time.monotonic()
    n, rounds = len(event.players), event.rounds

    def verdict(answer: Answer, reason: str, seats=None) -> Verdict:
        schedule = None
        if seats is not None:
            schedule = to_schedule(event, seats, rule="variety")
            if check(schedule).repeats != 0:  # the certificate must stand on the checker's word
                raise AssertionError("a zero-repeat certificate failed the checker")
        return Verdict(
            players=n, rounds=rounds, answer=answer, reason=reason, schedule=schedule,
            runtime=time.monotonic() - started,
        )

    bound = lower_bound(event)
    if bound.repeats > 0:
        return verdict(Answer.IMPOSSIBLE, bound.proof)
    if not event.layout.threes and not event.layout.sit_outs:
        found = zero_repeat_seating(n, rounds, time_limit=time_limit / 2, seed=seed)
        if found is not None:
            return verdict(Answer.EXISTS, f"constructed: {found[1]}", found[0])
    left = max(0.1, time_limit - (time.monotonic() - started))
    outcome = cpsat.solve(
        event, time_limit=left, max_repeats=0, seed=seed, workers=workers, work_limit=left if workers == 1 else None
    )
    if outcome.seats is not None:
        return verdict(Answer.EXISTS, "found by CP-SAT", outcome.seats)
    if outcome.proven:
        return verdict(Answer.IMPOSSIBLE, "CP-SAT search proof: the whole-day model has no repeat-free solution")
    return verdict(Answer.UNKNOWN, f"no repeat-free schedule found and no proof reached in {time_limit:g} s")
