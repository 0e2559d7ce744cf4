"""Is there a day of 20 players over 7 rounds at E = 20 with no trio again? (issue 29)

    python -m benchmarks.trios_20x7 --seconds 600 --workers 2

E = 20 is the counting bound: 7 rounds of 5 tables make 210 meetings among 190 pairs, and E = sum over
pairs of max(0, meetings - 1) = 210 - 190 + (pairs who never meet), so E = 20 exactly when every pair
meets. The question is then a satisfaction problem for CP-SAT: x[p, r, t] (player p at table t in round
r, four a table), every pair at one table in some round, and no three players at one table in two
rounds. Symmetries broken: round 1 is players 1-4, 5-8, ... at tables 1-5, and in every later round the
tables are in the order of their first player (player p sits at a table numbered at most p). Prints
whether CP-SAT found such a day (and the day), proved there is none, or neither in the time given.
"""

from __future__ import annotations

import argparse
import sys
from itertools import combinations

from ortools.sat.python import cp_model

PLAYERS, ROUNDS, TABLES = 20, 7, 5


def model() -> tuple[cp_model.CpModel, dict[tuple[int, int, int], cp_model.IntVar]]:
    m = cp_model.CpModel()
    x = {
        (p, r, t): m.new_bool_var(f"x{p}_{r}_{t}") for p in range(PLAYERS) for r in range(ROUNDS) for t in range(TABLES)
    }
    for r in range(ROUNDS):
        for p in range(PLAYERS):
            m.add_exactly_one(x[p, r, t] for t in range(TABLES))
            for t in range(TABLES):
                if (r == 0 and t != p // 4) or t > p:
                    m.add(x[p, r, t] == 0)
        for t in range(TABLES):
            m.add(sum(x[p, r, t] for p in range(PLAYERS)) == 4)
    met = {}
    for p, q in combinations(range(PLAYERS), 2):
        for r in range(ROUNDS):
            y = met[p, q, r] = m.new_bool_var(f"m{p}_{q}_{r}")
            for t in range(TABLES):
                m.add_bool_or([x[p, r, t].Not(), x[q, r, t].Not(), y])  # at one table: they meet
                m.add_implication(y, x[q, r, t]).only_enforce_if(x[p, r, t])  # they meet: at one table
        m.add_bool_or([met[p, q, r] for r in range(ROUNDS)])  # E = 20: every pair meets
    for a, b, c in combinations(range(PLAYERS), 3):
        together = []
        for r in range(ROUNDS):
            z = m.new_bool_var("")
            m.add_implication(z, met[a, b, r])
            m.add_implication(z, met[a, c, r])
            m.add_bool_or([met[a, b, r].Not(), met[a, c, r].Not(), z])
            together.append(z)
        m.add(sum(together) <= 1)  # no trio again
    return m, x


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.trios_20x7", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    m, x = model()
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = args.seconds
    solver.parameters.num_workers = args.workers
    solver.parameters.random_seed = args.seed
    status = solver.solve(m)
    print(f"20 x 7, every pair meets (E = 20), no trio again: {solver.status_name(status)} in {solver.wall_time:.0f} s")
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        print_day(
            [
                [[p + 1 for p in range(PLAYERS) if solver.value(x[p, r, t])] for t in range(TABLES)]
                for r in range(ROUNDS)
            ]
        )
    return 0


def print_day(day: list[list[list[int]]]) -> None:
    for r, tables in enumerate(day):
        print(f"round {r + 1}: {tables}")


if __name__ == "__main__":
    sys.exit(main())
