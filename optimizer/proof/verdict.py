"""Does a schedule with no repeat opponents exist? A certificate, a proof, or an honest 'unknown'."""

from __future__ import annotations

import optimizer.cpsat as cpsat
from models import Answer, Event, Verdict
from optimizer.budget import Abandoned, Budget, Stop
from optimizer.checking.checker import check
from optimizer.config import PlanConfig
from optimizer.constructions import instant_seating, zero_repeat_seating
from optimizer.constructions.odd_rooms import odd_room_seating
from optimizer.constructions.theorems import design_theorem, open_room_note
from optimizer.cpsat.model import day_clauses
from optimizer.cpsat.split import SplitOutcome, split_probe, splits_by_round_two
from optimizer.plan import plan
from optimizer.proof.bounds import lower_bound
from optimizer.proof.claims import fewest_repeats
from optimizer.seats import Seats, from_schedule, to_schedule

THEOREM_SEARCH_SHARE = 0.2  # of the time limit, a search for a checked day before a theorem answers alone
THEOREM_SEARCH_SECONDS = 1.0  # and at most this: a room a theorem covers answers in about a second


def zero_repeat_verdict(
    event: Event,
    *,
    time_limit: float = 30.0,
    seed: int = 0,
    workers: int = 8,
    stop: Stop | None = None,
    budget: Budget | None = None,
) -> Verdict:
    """Exists (with a checked schedule), impossible (with the proof named and the rules it holds
    under), or unknown; the stop token (Ctrl-C) gives an honest unknown. One worker counts work
    (optimizer.budget): a seeded run repeats exactly."""
    budget = budget or Budget.for_run(time_limit, workers=workers, stop=stop)
    n, rounds = len(event.players), event.rounds

    def verdict(answer: Answer, reason: str, seats: Seats | None = None) -> Verdict:
        schedule = None
        if answer is Answer.UNKNOWN and (note := open_room_note(n, rounds)) is not None:
            reason = f"{reason}; {note}"
        if seats is not None:
            poll = budget.poller()  # a stop inside the check of a big day (seconds at the room limits) ends it
            try:
                schedule = to_schedule(event, seats, rule="variety", poll=poll)
                metrics = check(schedule, indirect=False, poll=poll)  # the certificate must stand on the checker's word
            except Abandoned:
                return verdict(Answer.UNKNOWN, "stopped by Ctrl-C before its certificate was checked")
            if metrics.repeats != 0 or not metrics.turns_fair:
                raise AssertionError("a zero-repeat certificate failed the checker")
        return Verdict(
            players=n,
            rounds=rounds,
            answer=answer,
            reason=reason,
            schedule=schedule,
            runtime=budget.elapsed(),
        )

    bound = lower_bound(event)
    if bound.repeats > 0:
        return verdict(Answer.IMPOSSIBLE, bound.proof)
    if not event.layout.threes and not event.layout.sit_outs:
        found = instant_seating(n, rounds)
        theorem = design_theorem(n)
        if found is None and theorem is not None and rounds <= theorem.rounds:
            # a checked day where a short search finds one, else the theorem's word without a schedule
            share = budget.share(THEOREM_SEARCH_SHARE).within(THEOREM_SEARCH_SECONDS)
            if (searched := _searched(event, share, seed, workers)) is not None:
                return verdict(Answer.EXISTS, "found by the planner's search", searched)
            return verdict(Answer.EXISTS, f"theorem: {theorem.statement}; not built here")
        found = found or zero_repeat_seating(n, rounds, budget.share(0.5), seed=seed, workers=min(workers, 2))
        if found is None:  # the search has all that is left where the model will not be built, else half
            share = budget.share(1.0 if _too_big(event, budget) else 0.5)
            if (searched := _searched(event, share, seed, workers)) is not None:
                return verdict(Answer.EXISTS, "found by the planner's search", searched)
    else:
        found = odd_room_seating(n, rounds, event.odd)
    if found is not None:
        return verdict(Answer.EXISTS, f"constructed: {found.made}", found.seats)
    outcome: cpsat.Outcome | SplitOutcome
    if budget.stopped:
        return verdict(Answer.UNKNOWN, "stopped by Ctrl-C before an answer was reached")
    if too_big := _too_big(event, budget):
        return verdict(Answer.UNKNOWN, too_big)
    if splits_by_round_two(event):
        outcome = split_probe(event, 0, budget, seed=seed, workers=workers)
        how = outcome.how
    else:
        outcome = cpsat.solve(event, budget, max_repeats=0, seed=seed, workers=workers)
        how = "CP-SAT search proof"
    if outcome.seats is not None:
        return verdict(Answer.EXISTS, "found by CP-SAT", outcome.seats)
    if outcome.proven:
        return verdict(Answer.IMPOSSIBLE, f"{how}: {fewest_repeats(event, 1)}")
    if outcome.interrupted:
        return verdict(Answer.UNKNOWN, "stopped by Ctrl-C before an answer was reached")
    return verdict(Answer.UNKNOWN, f"no repeat-free schedule found and no proof reached in {budget.end:g} s")


def _too_big(event: Event, budget: Budget) -> str | None:
    """Why the whole-day model is not built, if it is not (optimizer.config's `too_big`)."""
    clauses = day_clauses(event)
    why = PlanConfig().too_big(clauses, budget)
    return why and f"no construction for this room, and its CP-SAT model ({clauses:,} clauses) {why}"


def _searched(event: Event, budget: Budget, seed: int, workers: int) -> Seats | None:
    """A repeat-free day from the planner's starts and search (optimizer.plan, not balanced), where no
    construction reaches the room: its local search finds days that the whole-day model is too big to
    build for (68 players over 20 rounds in about 4 s) and that the rotational search misses, and days of
    rooms a theorem covers but nothing here builds (372 players over 33 rounds in about a second)."""
    if budget.stopped:
        return None
    result = plan(event, budget=budget, seed=seed, workers=workers, balanced=False)
    if result.schedule is None or result.metrics is None or result.metrics.repeats:
        return None
    return from_schedule(result.schedule)
