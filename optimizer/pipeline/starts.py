"""The plan's first stage (optimizer.plan): starts for the search, each offered to the incumbent.

A repeat-free day from a construction where one reaches the day (its rounds chosen from a longer design
for the table numbers they allow), else the longest one at hand extended by local search; for odd rooms a
design cut from a bigger one or joining a smaller one; a greedy seating round by round. Each start carries
how it was made (optimizer.pipeline.provenance), which the result's method reads.
"""

from __future__ import annotations

import math

import numpy as np

from optimizer.balance import rounds_for_tables
from optimizer.balance.tables import ENUMERATED_CHOICES
from optimizer.constructions import frontier_rounds, instant_seating, longest_design, zero_repeat_seating
from optimizer.constructions.greedy import greedy_seating
from optimizer.constructions.odd_rooms import odd_room_seating
from optimizer.constructions.stayers import place_stayers
from optimizer.pipeline.balancing import numbered, quick_steps
from optimizer.pipeline.provenance import EXTENDED, Method, rounds_chosen
from optimizer.pipeline.run import Run
from optimizer.pipeline.stages import Start, Starts
from optimizer.search import extend


def offer_starts(run: Run, rng: np.random.Generator) -> Starts:
    """A repeat-free day where a construction reaches the day (or the longest one at hand, extended by local
    search), an odd room's design, and a greedy seating while the best is above the bound; the day as built
    where its rounds were chosen for the table numbers."""
    event, as_built = run.event, None
    if run.history.fresh and not event.layout.threes and not event.layout.sit_outs:
        rotational = run.search.share(1 / 3).within(run.config.rotational_seconds)
        found = zero_repeat_seating(
            len(event.players), event.rounds, rotational, run.seed, min(run.workers, run.config.rotational_workers)
        )
        start, as_built = _rounds_for_tables(run, found, rng) if found else (_longest_zero_repeat_prefix(run), None)
        if start is not None and (len(start.seats) == event.rounds or run.costs is not None):
            if len(start.seats) < event.rounds:
                assert run.costs is not None  # a design shorter than the day is taken only with a cost model
                start = start.then(extend(start.seats, event.rounds, run.costs, rng, run.search), EXTENDED)
            run.offer(place_stayers(start.seats, event), start.made)
    if run.history.fresh and (event.layout.threes or event.layout.sit_outs):
        _offer_odd_room_designs(run)
    if not run.at(run.bound):
        offer_greedy(run, rng)
    return Starts(as_built)


def _rounds_for_tables(run: Run, found: Start, rng: np.random.Generator) -> tuple[Start, Start | None]:
    """The day's rounds chosen from the longest repeat-free design at hand for the table numbers they
    allow (optimizer.balance.rounds_for_tables), numbered; a generator of its own leaves the run's draws
    as they were. A tenth of the time left, or most of it when the choices are raced and no day can have
    fewer repeats (the search then stops at once). With the day as built, where the rounds were chosen."""
    player_count, rounds = len(run.event.players), run.event.rounds
    if not numbered(run, found.seats):
        return found, None
    longest = longest_design(player_count, rounds)
    if longest is None or len(longest.seats) <= rounds:
        return found, None
    raced = math.comb(len(longest.seats), rounds) <= ENUMERATED_CHOICES  # else one descent each, drawn choices
    share = (
        run.config.round_choice_share_at_bound if raced and run.bound.repeats == 0 else run.config.round_choice_share
    )
    budget = run.search.share(share)  # within what leaves the chosen day its check, numbering, letters and check
    budget = budget.within(max(0.0, run.budget.left() - quick_steps(run, longest.seats[:rounds], checks=2)))
    chosen, seats = rounds_for_tables(longest.seats, rounds, rng.spawn(1)[0], budget=budget)
    if chosen == list(range(rounds)):
        return found, None
    as_built = Start(place_stayers(found.seats, run.event), found.made)
    return longest.then(seats, rounds_chosen(rounds, len(longest.seats))), as_built


def _offer_odd_room_designs(run: Run) -> None:
    """An odd room's repeat-free day with fair turns, cut from a bigger design or joining a smaller one."""
    event = run.event
    found = odd_room_seating(len(event.players), event.rounds, event.odd)
    if found is not None:
        run.offer(place_stayers(found.seats, event), found.made)


def offer_greedy(run: Run, rng: np.random.Generator) -> None:
    """A greedy seating, round by round (optimizer.constructions.greedy)."""
    seats = greedy_seating(run.event, run.costs, rng, run.history.burdens_before, run.search)
    run.offer(seats, Method.of("greedy round by round"))


def _longest_zero_repeat_prefix(run: Run) -> Start | None:
    """Past the rounds a repeat-free schedule reaches, start from the longest one at hand."""
    player_count = len(run.event.players)
    rounds = min(run.event.rounds - 1, frontier_rounds(player_count))
    found = instant_seating(player_count, rounds) if rounds > 0 else None
    return found
