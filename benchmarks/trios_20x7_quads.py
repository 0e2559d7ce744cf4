"""20 x 7 at E = 20 with no trio again, modelled on tables as sets: shapes proven impossible (issue 29)

    python -m benchmarks.trios_20x7_quads --seconds 150 z3-fixed z4-fixed couples

One boolean per round and set of four players (4845 sets a round): each player at one table a round,
every pair at one table in some round (E = 20, see `benchmarks.trios_20x7`), and each set of three players
inside at most one table of the day (no trio again). A shape adds a symmetry g = (sigma on the players,
tau on the rounds): the table Q in round r is chosen exactly when sigma(Q) is in round tau(r), so the
model keeps one boolean per orbit. A table that meets its own image in a round is ruled out by the
constraints themselves (a player would sit at two tables). INFEASIBLE proves that no day of the shape
exists; it says nothing of days without the symmetry.

The shape `couples` is of another kind: ten couples (players 2i and 2i + 1) meet three times each and
every other pair exactly once; rounds 1-3 seat two whole couples a table, rounds 4-7 keep couples apart.
Its excess graph (pairs met twice or more) is a matching of doubled edges, which has no triangle, so no
trio can come again.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable
from itertools import combinations

from ortools.sat.python import cp_model

from benchmarks.trios_20x7 import print_day

PLAYERS, ROUNDS = 20, 7
Quad = tuple[int, ...]


def cycles(n: int, *orbits: tuple[int, ...]) -> list[int]:
    """The permutation of range(n) made of the given cycles."""
    image = list(range(n))
    for orbit in orbits:
        for i, a in enumerate(orbit):
            image[a] = orbit[(i + 1) % len(orbit)]
    return image


def _runs(length: int, count: int) -> list[tuple[int, ...]]:
    return [tuple(range(length * i, length * i + length)) for i in range(count)]


SHAPES: dict[str, tuple[list[int], list[int]]] = {  # name: (sigma on players, tau on rounds)
    "z3-fixed": (cycles(20, *_runs(3, 6)), cycles(7)),
    "z3-rounds-3111": (cycles(20, *_runs(3, 6)), cycles(7, (0, 1, 2))),
    "z3-rounds-331": (cycles(20, *_runs(3, 6)), cycles(7, (0, 1, 2), (3, 4, 5))),
    "z6-rounds-61": (cycles(20, *_runs(6, 3)), cycles(7, (0, 1, 2, 3, 4, 5))),
    "z4-fixed": (cycles(20, *_runs(4, 5)), cycles(7)),
    "z4-rounds-4111": (cycles(20, *_runs(4, 5)), cycles(7, (0, 1, 2, 3))),
    "z4-rounds-421": (cycles(20, *_runs(4, 5)), cycles(7, (0, 1, 2, 3), (4, 5))),
    "z2-fixed": (cycles(20, *_runs(2, 10)), cycles(7)),
    "z2-rounds-2221": (cycles(20, *_runs(2, 10)), cycles(7, (0, 1), (2, 3), (4, 5))),
    "z2-four-fixed-players": (cycles(20, *_runs(2, 8)), cycles(7)),
}


def symmetric_day(sigma: list[int], tau: list[int]) -> tuple[cp_model.CpModel, dict[tuple[int, Quad], cp_model.IntVar]]:
    """The quad model with one boolean per orbit of (round, table) under g = (sigma, tau)."""
    model = cp_model.CpModel()
    chosen: dict[tuple[int, Quad], cp_model.IntVar] = {}
    for r in range(ROUNDS):
        for quad in combinations(range(PLAYERS), 4):
            if (r, quad) not in chosen:
                var = model.new_bool_var("")
                key: tuple[int, Quad] = (r, quad)
                while key not in chosen:
                    chosen[key] = var
                    key = tau[key[0]], tuple(sorted(sigma[p] for p in key[1]))
    _seat_and_meet(model, chosen, lambda pair: (1, None))
    return model, chosen


def couples_day() -> tuple[cp_model.CpModel, dict[tuple[int, Quad], cp_model.IntVar]]:
    """Couples met three times, every other pair once; round 1 is couples 1-2, 3-4, ... (couples renumbered)."""
    model = cp_model.CpModel()
    chosen: dict[tuple[int, Quad], cp_model.IntVar] = {}
    for r in range(ROUNDS):
        for quad in combinations(range(PLAYERS), 4):
            couples = len({p // 2 for p in quad})
            if (r < 3 and couples == 2) or (r >= 3 and couples == 4):
                chosen[r, quad] = model.new_bool_var("")
                if r == 0:
                    model.add(chosen[r, quad] == (quad == tuple(range(quad[0], quad[0] + 4)) and quad[0] % 4 == 0))
    _seat_and_meet(model, chosen, lambda pair: (3, 3) if pair[1] == pair[0] ^ 1 else (1, 1))
    return model, chosen


def _seat_and_meet(model, chosen, meetings: Callable[[tuple[int, ...]], tuple[int, int | None]]) -> None:
    """One table a player a round; meetings(pair) = (least, most) times each pair meets; no trio again.

    A boolean standing for several tables is counted once per table; it must be false where it would seat
    a player twice in one round or hold a trio twice."""
    at_seat: dict[tuple[int, int], Counter] = {}
    pairs: dict[tuple[int, ...], Counter] = {}
    trios: dict[tuple[int, ...], Counter] = {}
    for (r, quad), var in chosen.items():
        for p in quad:
            at_seat.setdefault((r, p), Counter())[var] += 1
        for pair in combinations(quad, 2):
            pairs.setdefault(pair, Counter())[var] += 1
        for trio in combinations(quad, 3):
            trios.setdefault(trio, Counter())[var] += 1
    for counted in [*at_seat.values(), *trios.values()]:
        for var, n in counted.items():
            if n > 1:
                model.add(var == 0)
    for seat in at_seat.values():
        model.add(sum(seat) == 1)
    for held in trios.values():
        model.add(sum(held) <= 1)
    for two, counted in pairs.items():
        least, most = meetings(two)
        total = sum(n * var for var, n in counted.items())
        model.add(total >= least)
        if most is not None:
            model.add(total <= most)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.trios_20x7_quads", description=__doc__.split("\n\n")[0])
    parser.add_argument("shapes", nargs="+", choices=[*SHAPES, "couples"])
    parser.add_argument("--seconds", type=float, default=150.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for name in args.shapes:
        model, chosen = couples_day() if name == "couples" else symmetric_day(*SHAPES[name])
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = args.seconds
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = args.seed
        status = solver.solve(model)
        print(f"20 x 7, shape {name}, E = 20, no trio again: {solver.status_name(status)} in {solver.wall_time:.1f} s")
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            print_day(
                [
                    [[p + 1 for p in q] for (r, q), v in chosen.items() if r == k and solver.value(v)]
                    for k in range(ROUNDS)
                ]
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
