"""The table numbering of a whole day as one exact model: the fewest table visits above even any
numbering of these groups allows, or a proof that none reaches a target.

The model (CP-SAT): x[r, i, j] says table row i of round r gets number j, a permutation of each
round's rows among tables of the same size; v[p, j], the rounds player p spends at number j, is a sum
of x; a[p, j] >= v[p, j] - ceil(rounds p plays / tables), a >= 0, and the sum of a is minimised (it is
`table_visits_above_even`). Renaming the numbers alike in every round changes nothing, so round 1 keeps
its numbers. A fresh day only: nobody stays, no round played before (those break the renaming).

What it is for. The descent of `optimizer.balance.tables` is a local search; this model proves what the
groups allow. Measured (benchmarks/README.md, issue 29's second part; `benchmarks.tables_exact`): it
proves the descent's 6 optimal for the 16 x 6 day and 1 for a 20 x 8 day, and that no numbering of the
20 x 9 or 20 x 10 day reaches 0 (in under a second). In a run's first seconds it seldom beats the
descent, so plans run it last, in the time left (`optimizer.plan`, at most 4 s): at the default 30 s
limit the 24 x 9 day's last visit above even goes (1 -> 0, published 0; issue 29's fourth part).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np

from optimizer.balance._day import players_in
from optimizer.budget import Budget, solve
from optimizer.seats import table_of


@dataclass(frozen=True)
class ExactNumbering:
    seats: np.ndarray | None  # the best numbering found (None if none within the target and time)
    figure: int | None  # its table visits above even
    bound: int  # no numbering of these groups has fewer
    proven: bool  # the search closed: `figure` is the fewest, or (seats None) none meets `at_most`


def fewest_table_visits(
    seats: np.ndarray,
    *,
    budget: Budget,
    at_most: int | None = None,
    workers: int = 2,
    seed: int = 0,
) -> ExactNumbering:
    """Number the day's tables over all rounds at once, hinted with the numbering as given; with
    `at_most`, only numberings with at most that many visits above even count (a decision: 'can these
    groups reach the target?', which CP-SAT often settles far faster than the minimum). Within `budget`
    (optimizer.budget: deterministic time in a repeatable run, which on one worker repeats exactly)."""
    n = players_in(seats)
    rounds, tables = seats.shape[:2]
    where = table_of(seats, n)
    even = -(-(where >= 0).sum(axis=0) // tables)
    sizes = (seats >= 0).sum(axis=2)
    from ortools.sat.python import cp_model  # here, not above: optimizer.budget, "Start-up"

    model = cp_model.CpModel()
    x = {cell: model.new_bool_var(f"x{cell}") for cell in product(range(rounds), range(tables), range(tables))}
    for r in range(rounds):
        for i in range(tables):
            model.add_exactly_one(x[r, i, j] for j in range(tables))
            model.add_exactly_one(x[r, j, i] for j in range(tables))
            model.add_hint(x[r, i, i], 1)  # an int: ortools 9.10 refuses a bool here
            for j in range(tables):
                if sizes[r, i] != sizes[r, j] or (r == 0 and i != j):
                    model.add(x[r, i, j] == 0)
    above = []
    for p in range(n):
        for j in range(tables):
            visits = sum(x[r, where[r, p], j] for r in range(rounds) if where[r, p] >= 0)
            a = model.new_int_var(0, rounds, f"a{p}_{j}")
            model.add(a >= visits - int(even[p]))
            above.append(a)
    total = sum(above)
    if at_most is not None:
        model.add(total <= at_most)
    model.minimize(total)
    solved = solve(model, budget, workers=workers, seed=seed)
    solver, status = solved.solver, solved.status
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        bound = at_most + 1 if status == cp_model.INFEASIBLE and at_most is not None else 0
        return ExactNumbering(None, None, bound, status == cp_model.INFEASIBLE)
    numbered = seats.copy()
    for (r, i, j), chosen in x.items():
        if solver.value(chosen):
            numbered[r, j] = seats[r, i]
    bound = int(np.ceil(solver.best_objective_bound - 1e-6))
    return ExactNumbering(numbered, int(solver.objective_value), bound, status == cp_model.OPTIMAL)
