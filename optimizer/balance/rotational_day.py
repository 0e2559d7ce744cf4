"""A whole day regrouped for the table numbers: base rounds developed over Z_T, found by CP-SAT.

The regrouping of `optimizer.balance.polish` moves a few players at a time and stops where every small
move costs a repeat; the exact numbering (`exact_numbers`) proves that some days' groups cannot reach
fewer table visits at all. This model searches other groups at the same repeats, whole days at a time,
by making them rotational (as `optimizer.constructions.rotational` does for repeat-free days).

Players are Z_T x {0, 1, 2, 3}, player c*T + x being (x, c), with T tables. Round s of orbit b (s < T)
seats (x, c) at the table that base round b gives (x - s, c): the shift keeps the table numbers. So

- a pair {(x, c), (y, d)} meets in round (b, s) iff (x - s, c) and (y - s, d) share a table of base b;
- over a whole orbit a player sits at the tables its class has in the base round, whatever its x.

Only the B = ceil(R / T) base rounds are searched; the last orbit is cut to R - (B - 1) T rounds:

    x[b, p, t]     player p at table t of base round b: one table a player, four players a table;
    y[b, p, q]  >= x[b, p, t] + x[b, q, t] - 1 for every t, and sum_q y[b, p, q] = 3, so y is exactly
                   'p and q share a table of base b' (each player has three table-mates);
    met[p, q]   => OR of y[b, p - s, q - s] over the rounds (b, s);
    sum met     >= meetings - E, so repeats <= E, as repeats = meetings - pairs that meet;
    no trio again (when asked): for any three players, at most one round in which p shares a table
                   with q and with r;
    no back-to-back (when asked): no pair shares a table in two rounds running, in orbit order;
    a[p, t]     >= (rounds p spends at t) - ceil(R / T), a >= 0; minimise sum a, the table visits
                   above even (`tables.table_visits_above_even`).

Player 0 sits at table 0 of base round 0 (renaming the tables alike in all rounds changes nothing).
The rounds come in orbit order; `optimizer.balance.order` may reorder them for back-to-back rematches.

Measured (benchmarks/README.md, issue 29's third part), 2 workers: the 16 x 6 day at E = 24 with 4 table
visits above even (the published table has 5, our regrouped days 6, proven the fewest their groups
allow) in 2 s, and the 20 x 10 day at E = 110 with none (ours 15 to 16) in 1.3 s for 3 seeds of 4,
neither with trios again; nothing for 20 x 7, 20 x 8, 20 x 9 or 24 x 9 in 30 s, nor past 20 players
in 10 s. Back-to-back rematches: the 16 x 6 day has none once reordered, but the days found for
16 x 8, 16 x 12 and 20 x 13 keep 18 to 24 in any order, and the 20 x 10 day needs the clauses (then,
with `most_above` = 0).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from optimizer.budget import Budget, solve

if TYPE_CHECKING:  # CP-SAT is imported where the model is built (optimizer.budget, "Start-up")
    from ortools.sat.python import cp_model

    # Per base round, the model's 0/1 variables by a pair of indices: x[b][p, t] or y[b][p, q] (`base_rounds`).
    BaseRounds = list[dict[tuple[int, int], cp_model.IntVar]]
    # together(p, q, b, s): p and q share a table in the round of orbit (b, s).
    Together = Callable[[int, int, int, int], cp_model.IntVar]
# The day's rounds, in order: (base round, shift).
Orbits = list[tuple[int, int]]

# Measured at 10 s a room on 2 workers (a sweep of the grid's rooms with visits above even, 16 to 32
# players): nothing found past 20 players.
ROTATIONAL_DAY_MAX_PLAYERS = 20


def rotational_day(
    player_count: int,
    rounds: int,
    *,
    repeats: int,
    no_trios: bool,
    no_back_to_back: bool = False,
    below: int,
    budget: Budget,
    most_above: int | None = None,
    workers: int = 2,
    seed: int = 0,
) -> np.ndarray | None:
    """A rotational day (rounds, T, 4) with at most `repeats` repeats and fewer than `below` table visits
    above even; also no trio again if `no_trios`, no pair at one table in two rounds running (in orbit
    order) if `no_back_to_back`, and no player more than `most_above` visits above even at one table if
    given (a narrower search, often far quicker). None when none is found within `budget`
    (optimizer.budget: deterministic time in a repeatable run, which with one worker repeats exactly)."""
    tables = player_count // 4
    if player_count % 4 or not 4 <= player_count <= ROTATIONAL_DAY_MAX_PLAYERS or below <= 0:
        return None
    bases = even = -(-rounds // tables)  # ceil(R / T): the base rounds, and each player's even share of a table
    orbits = [(b, s) for b in range(bases) for s in range(min(tables, rounds - b * tables))]
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x, meet = base_rounds(model, player_count, bases)

    def shifted(p: int, s: int) -> int:  # (x, c) -> (x - s, c)
        return p // tables * tables + (p - s) % tables

    def together(p: int, q: int, b: int, s: int) -> cp_model.IntVar:
        return meet[b][shifted(p, s), shifted(q, s)]

    _at_most_repeats(model, player_count, orbits, together, repeats)
    if no_trios:
        _no_trio_again(model, player_count, orbits, together)
    if no_back_to_back:
        _no_back_to_back(model, player_count, orbits, together)
    above = []
    for p in range(player_count):
        for t in range(tables):
            a = model.new_int_var(0, rounds if most_above is None else most_above, "")
            model.add(a >= sum(x[b][shifted(p, s), t] for b, s in orbits) - even)
            above.append(a)
    model.add(sum(above) <= below - 1)
    model.minimize(sum(above))
    solved = solve(model, budget, workers=workers, seed=seed)
    return _developed(solved.solver, x, orbits, player_count) if solved.found else None


def base_rounds(model: cp_model.CpModel, n: int, bases: int) -> tuple[BaseRounds, BaseRounds]:
    """x[b][p, t] (player p at table t of base round b) and y[b][p, q] (p and q share a table there)."""
    tables = n // 4
    x: BaseRounds = []
    y: BaseRounds = []
    for _ in range(bases):
        at = {(p, t): model.new_bool_var("") for p in range(n) for t in range(tables)}
        for p in range(n):
            model.add_exactly_one(at[p, t] for t in range(tables))
        for t in range(tables):
            model.add(sum(at[p, t] for p in range(n)) == 4)
        mates = {}
        for p, q in combinations(range(n), 2):
            mates[p, q] = mates[q, p] = model.new_bool_var("")
            for t in range(tables):
                model.add_bool_or([at[p, t].Not(), at[q, t].Not(), mates[p, q]])
        for p in range(n):
            model.add(sum(mates[p, q] for q in range(n) if q != p) == 3)
        x.append(at)
        y.append(mates)
    model.add(x[0][0, 0] == 1)
    return x, y


def _at_most_repeats(model: cp_model.CpModel, n: int, orbits: Orbits, together: Together, repeats: int) -> None:
    """Pairs that meet at least (meetings - repeats): met[p, q] only if they share a table some round."""
    met = []
    for p, q in combinations(range(n), 2):
        m = model.new_bool_var("")
        model.add_bool_or([together(p, q, b, s) for b, s in orbits]).only_enforce_if(m)
        met.append(m)
    meetings = len(orbits) * (n // 4) * 6
    model.add(sum(met) >= meetings - repeats)


def _no_trio_again(model: cp_model.CpModel, n: int, orbits: Orbits, together: Together) -> None:
    """Any three players share a table in at most one round."""
    for p, q, r in combinations(range(n), 3):
        trio = []
        for b, s in orbits:
            z = model.new_bool_var("")
            model.add_bool_or([together(p, q, b, s).Not(), together(p, r, b, s).Not(), z])
            trio.append(z)
        model.add(sum(trio) <= 1)


def _no_back_to_back(model: cp_model.CpModel, n: int, orbits: Orbits, together: Together) -> None:
    """No pair shares a table in two rounds running, in orbit order."""
    for p, q in combinations(range(n), 2):
        for (b, s), (c, u) in zip(orbits, orbits[1:]):
            model.add_bool_or([together(p, q, b, s).Not(), together(p, q, c, u).Not()])


def _developed(solver: cp_model.CpSolver, x: BaseRounds, orbits: Orbits, n: int) -> np.ndarray:
    """The day: round (b, s), table t holds (x + s, c) for every (x, c) at table t of base round b."""
    tables = n // 4
    seats = np.zeros((len(orbits), tables, 4), np.int64)
    for r, (b, s) in enumerate(orbits):
        for t in range(tables):
            base = [p for p in range(n) if solver.value(x[b][p, t])]
            seats[r, t] = sorted(p // tables * tables + (p + s) % tables for p in base)
    return seats
