"""Seat letters by CP-SAT: the fewest seat spread a seating allows, for rooms with tables of three.

The equitable colouring (optimizer.balance.letters) proves spread <= 1 only where every table has four
seats; with tables of three its local search may stop above what the seating allows. This model takes
the tables as they are (nobody changes table) and decides the letters exactly:

    x[s, l] = 1 when seat-holder s (a player at a table in a round) sits in letter l,
    sum_l x[s, l] = 1 for every s;  sum_{s at table} x[s, l] = 1 for each letter l the table has
    (A-D at a table of four, A-C at a table of three);
    c[p, l] = so_far[p, l] + sum_{s of p} x[s, l];  lo_p <= c[p, l] <= hi_p over the letters p has
    (A-D once p sat at a table of four, else A-C);  minimise max_p (hi_p - lo_p).

Its optimum is the seating's fewest spread; a proof of optimality is a proof that the turns (who sits
three-handed when) force it. Run on one worker with a deterministic time limit, so a seeded run repeats.
"""

from __future__ import annotations

import numpy as np

from optimizer.budget import Budget, solve
from optimizer.seats import EMPTY


def exact_letters(
    seats: np.ndarray, n: int, so_far: np.ndarray, at_four: np.ndarray, budget: Budget, work: float
) -> tuple[np.ndarray, int, bool] | None:
    """(seats with the letters found, their spread, proven fewest), or None when nothing was found in
    `work` seconds of deterministic time within `budget`, on one worker (a seeded run repeats)."""
    from ortools.sat.python import cp_model  # here, not above: optimizer.budget, "Start-up"

    model = cp_model.CpModel()
    holders = []  # (round, table, player, letter variables)
    counts: list[list[list]] = [[[] for _ in range(4)] for _ in range(n)]
    for r, t in zip(*np.nonzero((seats != EMPTY).any(axis=2))):
        players = [int(p) for p in seats[r, t] if p != EMPTY]
        letters = range(len(players))
        table = [[model.new_bool_var("") for _ in letters] for _ in players]
        for row in table:
            model.add_exactly_one(row)
        for letter in letters:
            model.add_exactly_one(row[letter] for row in table)
        for p, row in zip(players, table):
            holders.append((r, t, p, row))
            for letter, x in zip(letters, row):
                counts[p][letter].append(x)
    spread = model.new_int_var(0, seats.shape[0], "spread")
    for p in range(n):
        own = range(4) if at_four[p] else range(3)
        if not any(counts[p][letter] for letter in own):
            continue
        lo, hi = model.new_int_var(0, 10**6, ""), model.new_int_var(0, 10**6, "")
        for letter in own:
            total = sum(counts[p][letter]) + int(so_far[p, letter])
            model.add(lo <= total)
            model.add(total <= hi)
        model.add(hi - lo <= spread)
    model.minimize(spread)
    solved = solve(model, budget, workers=1, seed=0, work=work)
    solver, status = solved.solver, solved.status
    if not solved.found:
        return None
    out = np.full_like(seats, EMPTY)
    for r, t, p, row in holders:
        out[r, t, next(letter for letter, x in enumerate(row) if solver.value(x))] = p
    return out, int(solver.value(spread)), status == cp_model.OPTIMAL
