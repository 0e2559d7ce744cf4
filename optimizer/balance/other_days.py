"""Other days for the table numbers, at the best day's repeats, in the balancing stage (optimizer.pipeline.balancing):
the day stored for the room, a rotational day searched by CP-SAT, and the exact numbering of the best day's
groups. Each is offered to the incumbent, which keeps it only if it ranks better (fewer table visits above
even, nothing before them worse).
"""

from __future__ import annotations

from collections.abc import Callable

from optimizer.balance import ahead
from optimizer.balance.exact_numbers import fewest_table_visits
from optimizer.balance.rotational_day import ROTATIONAL_DAY_MAX_PLAYERS, rotational_day
from optimizer.budget import CPSAT_WORK_PER_SECOND
from optimizer.pipeline.provenance import BALANCED, COMPUTED_AHEAD, NUMBERED_EXACTLY, Method
from optimizer.pipeline.run import Run
from optimizer.seats import Seats


def offer_other_days(run: Run, balanced: Callable[[Seats], Seats], regroup_window: float) -> Seats | None:
    """The stored day, then rotational days while the best is still above even, each `balanced` (ordered,
    numbered, lettered). Returns the last of them that became the best, if any."""
    stored = _offer_stored_day(run, balanced)
    searched = _offer_rotational_day(run, balanced, regroup_window)  # only if still above even
    return stored if searched is None else searched


def _offer_stored_day(run: Run, balanced: Callable[[Seats], Seats]) -> Seats | None:
    """The day computed ahead for this room (optimizer.balance.ahead: an orbit or rotational day, or a short
    run's day numbered exactly, that takes seconds of CP-SAT), where the best day is still above even; it
    needs no time but its check. (Plans do not search orbit days themselves: over the grid's rooms of 16 to
    28 players it found days only where they are stored, and cost 10 s a run elsewhere;
    benchmarks/README.md.) Returns the day if it became the best."""
    event = run.event
    if not (run.computed_ahead and _another_day_wanted(run) and run.incumbent.has_time_to_check()):
        return None
    entry = ahead.load(len(event.players), event.rounds)
    if entry is None:
        return None
    day = balanced(entry.seats)
    run.offer(day, Method.of(entry.method).then(COMPUTED_AHEAD, BALANCED))
    return day if run.best is not None and run.best.seats is day else None


def _another_day_wanted(run: Run) -> bool:
    """Whether a whole other day may be offered for the table numbers: a fresh day without requests, all
    tables of four, whose best day is still above even."""
    event, best = run.event, run.best
    requests = event.stay or event.apart or event.spread or not run.history.fresh
    odd = event.layout.threes or event.layout.sit_outs
    return not (requests or odd) and best is not None and best.metrics.table_visits_above_even > 0


def _offer_rotational_day(run: Run, balanced: Callable[[Seats], Seats], regroup_window: float) -> Seats | None:
    """Where the best day still has table visits above even, other groups at its repeats: a rotational
    day (optimizer.balance.rotational_day) with fewer visits and no trio again if it has none, when
    config.rotational_day_seconds are left beside `regroup_window` and the seat letters' checks (at a 5 s
    limit, run in less time, it cost the regrouping after it more than the day gained); a repeatable run on
    one worker and work. Short attempts, the kinds in turn, each kind's seeds in turn: a seed may take many
    times another's. Returns the day if it became the best."""
    event, config = run.event, run.config
    won = None
    if not _another_day_wanted(run) or len(event.players) > ROTATIONAL_DAY_MAX_PLAYERS:
        return None
    if to_spare(run) < config.rotational_day_seconds + regroup_window:  # the regrouping's window after it
        return None  # only with its whole time to spare: the stages before it keep theirs (5 s runs do not try)
    days = run.budget.within(config.rotational_day_seconds)
    kinds = config.rotational_day_tries
    for attempt in range(int(config.rotational_day_seconds // config.rotational_day_attempt)):
        best = run.best
        if best is None or best.metrics.table_visits_above_even == 0 or not days.afford(config.numbering_seconds):
            break
        most_above, no_back_to_back = kinds[attempt % len(kinds)]
        day = rotational_day(
            len(event.players), event.rounds, repeats=best.metrics.repeats, below=best.metrics.table_visits_above_even,
            no_trios=best.metrics.trios_again == 0, no_back_to_back=no_back_to_back and best.metrics.back_to_back == 0,
            most_above=most_above, budget=days.within(config.rotational_day_attempt),
            workers=1 if run.repeatable else min(run.workers, 2), seed=attempt // len(kinds),
        )  # fmt: skip
        if day is not None and run.incumbent.has_time_to_check():
            day = balanced(day)
            run.offer(day, Method.of("rotational day for the table numbers").then(BALANCED))
            won = day if run.best is not None and run.best.seats is day else won
    return won


def offer_exact_numbering(run: Run, seed: int) -> None:
    """Where the best day still has table visits above even, the exact numbering of its groups
    (optimizer.balance.exact_numbers, CP-SAT over all rounds at once) in the time left: fewer visits, or
    a proof that these groups allow no fewer, which stops it (often within a second). The groups, the
    order and the seat letters stay; only the numbers change. Not with stayers or rounds played before
    (the model renames numbers alike in all rounds), nor past config.exact_numbering_max_tables."""
    best, event, config = run.best, run.event, run.config
    if best is None or best.metrics.table_visits_above_even == 0 or event.stay or not run.history.fresh:
        return
    seconds = to_spare(run)
    if best.seats.shape[1] > config.exact_numbering_max_tables or seconds < config.exact_numbering_min_seconds:
        return
    most = config.exact_numbering_work / CPSAT_WORK_PER_SECOND if run.repeatable else config.exact_numbering_seconds
    found = fewest_table_visits(
        best.seats, budget=run.budget.within(min(seconds, most)), at_most=best.metrics.table_visits_above_even - 1,
        workers=1 if run.repeatable else min(run.workers, 2), seed=seed,
    )  # fmt: skip
    if found.seats is not None and run.incumbent.has_time_to_check():
        run.offer(found.seats, best.made.then(NUMBERED_EXACTLY))


def to_spare(run: Run) -> float:
    """The seconds a CP-SAT step of balancing may take: the time left but config.balance_margin and, on the
    wall clock, the seat letters' checks (a repeatable run never reads how long they took)."""
    checks = 0.0 if run.repeatable else run.config.letters_checks * run.incumbent.check_seconds
    return run.budget.left() - checks - run.config.balance_margin
