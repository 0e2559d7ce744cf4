"""No day of 20 players over 7 rounds at E = 20 has this shape, trios again or not (issue 29): a proof by
CP-SAT for one symmetric shape, not for every day (`benchmarks.trios_20x7` asks that).

    python -m benchmarks.trios_20x7_orbit --seconds 900 --workers 1 [--trios-allowed]

The shape. Players are (i, c), i in Z_5, c one of 4 classes; the shift s maps (i, c) to (i + 1, c).
Rounds 1-5 are one base round B and its shifts s^k(B); rounds 6 and 7 are mapped to themselves by s,
so each of their tables is {(j + a_c, c)} for a vector a of Z_5^4 (a_0 = 0 up to renaming the tables).

The model counts orbits, not players. Pairs fall into 38 orbits of 5 under s: {(i, c), (i + d, e)} for
c < e and d in Z_5 (30), and {(i, c), (i + d, c)} for d = 1, 2 (8). Each pair of an orbit is met as
often as B holds pairs of the orbit plus the invariant rounds with a_e - a_c = d, so E = 20 (every pair
meets: `benchmarks.trios_20x7`) asks every orbit to be met at least once (42 meetings over 38 orbits).
Triples fall into 228 orbits of 5 alike; three players share a table in two rounds exactly when one
orbit of triples is held twice: by two tables of B (or one table holding two triples of the orbit), by
B and an invariant round, or by both invariant rounds (an invariant round holds the transversal triple
orbits its vector gives); `--trios-allowed` drops these clauses. Symmetries broken: B's tables in the
order of their first player.

Measured (benchmarks/README.md, issue 29): INFEASIBLE in 298 s on one worker, and INFEASIBLE in 236 s
with trios allowed: the shape misses E = 20 whatever the trios.
"""

from __future__ import annotations

import argparse
import sys
from itertools import combinations

from ortools.sat.python import cp_model

from benchmarks.trios_20x7 import print_day

SHIFT, CLASSES, TABLES = 5, 4, 5
POINTS = [(i, c) for c in range(CLASSES) for i in range(SHIFT)]  # player k is POINTS[k]


class Shape:
    """The CP-SAT model: y[p, t] (player p at table t of B) and b[k, c, v] (a_c = v in invariant round k)."""

    def __init__(self, no_trios: bool = True) -> None:
        m = self.model = cp_model.CpModel()
        self.y = {(p, t): m.new_bool_var("") for p in POINTS for t in range(TABLES)}
        self.b = {(k, c, v): m.new_bool_var("") for k in range(2) for c in range(CLASSES) for v in range(SHIFT)}
        self.gaps: dict[tuple[int, int, int, int], cp_model.LinearExpr] = {}
        self._rounds()
        self._every_pair_meets()
        if no_trios:
            self._no_trio_again()

    def _rounds(self) -> None:
        m, y, b = self.model, self.y, self.b
        for p in POINTS:
            m.add_exactly_one(y[p, t] for t in range(TABLES))
        for t in range(TABLES):
            m.add(sum(y[p, t] for p in POINTS) == 4)
        for k, p in enumerate(POINTS):  # B's tables in the order of their first player
            for t in range(1, TABLES):
                if t > k:
                    m.add(y[p, t] == 0)
                else:  # p at table t: someone before p at table t - 1
                    m.add_bool_or([*(y[q, t - 1] for q in POINTS[:k]), y[p, t].Not()])
        for k in range(2):
            for c in range(CLASSES):
                m.add_exactly_one(b[k, c, v] for v in range(SHIFT))
            m.add(b[k, 0, 0] == 1)

    def _and(self, *literals) -> cp_model.IntVar:
        z = self.model.new_bool_var("")
        self.model.add_multiplication_equality(z, literals)
        return z

    def _in_base(self, *players) -> cp_model.LinearExpr:
        """1 if these players share a table of B, else 0."""
        return cp_model.LinearExpr.sum([self._and(*(self.y[p, t] for p in players)) for t in range(TABLES)])

    def _gap(self, k: int, c: int, e: int, d: int) -> cp_model.LinearExpr:
        """1 if a_e - a_c = d in invariant round k, else 0 (built once)."""
        if (k, c, e, d) not in self.gaps:
            both = [self._and(self.b[k, c, v], self.b[k, e, (v + d) % SHIFT]) for v in range(SHIFT)]
            self.gaps[k, c, e, d] = cp_model.LinearExpr.sum(both)
        return self.gaps[k, c, e, d]

    def _every_pair_meets(self) -> None:
        for c, e in combinations(range(CLASSES), 2):
            for d in range(SHIFT):
                base = sum(self._in_base((i, c), ((i + d) % SHIFT, e)) for i in range(SHIFT))
                self.model.add(base + self._gap(0, c, e, d) + self._gap(1, c, e, d) >= 1)
        for c in range(CLASSES):
            for d in (1, 2):
                self.model.add(sum(self._in_base((i, c), ((i + d) % SHIFT, c)) for i in range(SHIFT)) >= 1)

    def _no_trio_again(self) -> None:
        held: dict[tuple, list] = {}
        for triple in combinations(POINTS, 3):
            held.setdefault(_orbit(triple), []).append(self._in_base(*triple))
        for orbit, in_base in held.items():
            if len({c for _, c in orbit}) == 3:  # transversal: an invariant round may hold it too
                (i0, c0), (i1, c1), (i2, c2) = sorted(orbit, key=lambda p: p[1])
                for k in range(2):
                    gaps = self._gap(k, c0, c1, (i1 - i0) % SHIFT), self._gap(k, c0, c2, (i2 - i0) % SHIFT)
                    both = self.model.new_bool_var("")
                    self.model.add(both >= sum(gaps) - 1)
                    in_base.append(both)
            self.model.add(sum(in_base) <= 1)

    def day(self, solver: cp_model.CpSolver) -> list[list[list[int]]]:
        """The seven rounds, players numbered 1-20 as POINTS lists them."""
        number = {p: k + 1 for k, p in enumerate(POINTS)}
        base = [[p for p in POINTS if solver.value(self.y[p, t])] for t in range(TABLES)]
        shifted = [[[number[(i + k) % SHIFT, c] for i, c in table] for table in base] for k in range(SHIFT)]
        a = [[next(v for v in range(SHIFT) if solver.value(self.b[k, c, v])) for c in range(CLASSES)] for k in (0, 1)]
        invariant = [[[number[(j + v) % SHIFT, c] for c, v in enumerate(a[k])] for j in range(SHIFT)] for k in (0, 1)]
        return shifted + invariant


def _orbit(triple: tuple) -> tuple:
    """The orbit's name: its least shift."""
    return min(tuple(sorted(((i + k) % SHIFT, c) for i, c in triple)) for k in range(SHIFT))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.trios_20x7_orbit", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=900.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--trios-allowed", action="store_true", help="without the clauses against trios again")
    args = parser.parse_args(argv)
    shape = Shape(no_trios=not args.trios_allowed)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = args.seconds
    solver.parameters.num_workers = args.workers
    solver.parameters.random_seed = args.seed
    status = solver.solve(shape.model)
    verdict = solver.status_name(status)
    trios = "trios again allowed" if args.trios_allowed else "no trio again"
    print(f"20 x 7 in the orbit shape, every pair meets (E = 20), {trios}: {verdict} in {solver.wall_time:.0f} s")
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        print_day(shape.day(solver))
    return 0


if __name__ == "__main__":
    sys.exit(main())
