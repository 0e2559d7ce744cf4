"""Find and store base rounds: `python -m optimizer.constructions.packings [--q 7 35 ...] [--limit 300]
[--form one threes] [--iterations N] [--seeds N]`.

Form "one": one CP-SAT model per q (optimizer.constructions.packings states the conditions): the turned
tables' values as one-hot variables over Z_q, their class-0 points E closed under negation and never 0 but
for the fixed 0, their within-class differences exactly the classes 2E, their class-0-to-1 differences whole
classes M without 0, and a matching of the classes outside E whose sums and differences are the classes
outside M. One worker, seed 0, a deterministic-time limit: a run repeats itself.

Form "threes": for seeds 0, 1, ... the tabu search of optimizer.constructions.quotients for a quotient of
Z_q (one set of three, the others of four, each nonzero difference three times), then one CP-SAT model of its
lifts (the classes; the set of three's distinct); a quotient whose lifts are impossible is dropped and the
next seed tried. The entry stores the steps and the seed that found it.
"""

from __future__ import annotations

import argparse
import json

from ortools.sat.python import cp_model

from optimizer.constructions.packings import BASES_FILE, INF, stored_bases
from optimizer.constructions.quotients import Quotient, first_lifted, lift_levels
from optimizer.constructions.resolvable import nonzero_class
from optimizer.constructions.stored import save_bases, solve_ahead

ZERO = "zero"
FORMS: dict[str, list[list[tuple[int | str, int]]]] = {  # slot numbers, or the fixed 0, or inf
    "one": [[(INF, 0), (ZERO, 0), (0, 1), (1, 2)], [(2, 0), (3, 0), (4, 0), (5, 1)]],
}
THREES = "threes"  # the form without symmetric tables: a quotient, then its lifts (module docstring)
QS = [q for q in range(7, 132, 4)]  # 24 to 396 players
DETERMINISTIC_LIMIT = 60.0
ITERATIONS = 4_000  # tabu steps per seed (form threes)
SEEDS = 16
LIFT_LIMIT = 30.0  # deterministic seconds per lift model
# q -> m of order 3 mod q, the sets of four fixed residues, the annealing's steps and temperature (form threes;
# the set of three is an orbit of m)
MULTIPLIERS = {67: (29, 0, 60_000, 3.0), 103: (46, 0, 60_000, 3.0), 111: (10, 0, 60_000, 3.0)}


def differences(form: list[list[tuple[int | str, int]]]) -> tuple[list[tuple], list[tuple]]:
    """(within, between): the entry pairs of a turned table in one class, and those from class c to c + 1."""
    within, between = [], []
    for table in form:
        points = [(x, c) for x, c in table if x != INF]
        for i, (x, c) in enumerate(points):
            for y, d in points[i + 1 :]:
                if c == d:
                    within.append((x, y))
                elif (c + 1) % 3 == d:
                    between.append((x, y))
                else:
                    between.append((y, x))
    return within, between


def search(q: int, form_name: str, limit: float = DETERMINISTIC_LIMIT) -> tuple[dict | None, str]:
    """The stored entry (turned tables, pairs) and the solver's status."""
    form, model = FORMS[form_name], cp_model.CpModel()
    half, slots = (q - 1) // 2, 1 + max(x for t in FORMS[form_name] for x, _ in t if isinstance(x, int))
    value = [model.new_int_var(1, q - 1, f"x{s}") for s in range(slots)]
    is_value = [_one_hot(model, value[s], q) for s in range(slots)]
    in_e = [model.new_bool_var(f"e{h}") for h in range(half + 1)]
    for h in range(1, half + 1):
        model.add(sum(is_value[s][h] for s in range(slots)) == in_e[h])
        model.add(sum(is_value[s][q - h] for s in range(slots)) == in_e[h])

    def difference(x: int | str, y: int | str) -> list[cp_model.IntVar]:  # the one-hot of y - x mod q
        d, wrap = model.new_int_var(0, q - 1, ""), model.new_int_var(-1, 1, "")
        model.add(d == _at(value, y) - _at(value, x) + q * wrap)
        return _one_hot(model, d, q)

    within, between = differences(form)
    pure, mixed = [difference(x, y) for x, y in within], [difference(x, y) for x, y in between]
    halve = pow(2, -1, q)
    for h in range(1, half + 1):
        model.add(sum(d[h] + d[q - h] for d in pure) == in_e[nonzero_class(h * halve, q)])
    in_m = [model.new_bool_var(f"m{h}") for h in range(half + 1)]
    model.add(sum(d[0] for d in mixed) == 0)
    for h in range(1, half + 1):
        model.add(sum(d[h] for d in mixed) == in_m[h])
        model.add(sum(d[q - h] for d in mixed) == in_m[h])
    pair = {(a, c): model.new_bool_var("") for a in range(1, half + 1) for c in range(a + 1, half + 1)}
    for a in range(1, half + 1):
        model.add(sum(v for (x, y), v in pair.items() if a in (x, y)) + in_e[a] == 1)
    hits: dict[int, list] = {h: [] for h in range(1, half + 1)}
    for (a, c), v in pair.items():
        hits[nonzero_class(a + c, q)].append(v)
        hits[nonzero_class(a - c, q)].append(v)
    for h in range(1, half + 1):
        model.add(sum(hits[h]) + in_m[h] == 1)
    solver, status = solve_ahead(model, limit)
    if solver is None:
        return None, status
    named = [solver.value(v) for v in value]
    turned = [[[_named(x, named), c] for x, c in table] for table in form]
    pairs = sorted([a, c] for (a, c), v in pair.items() if solver.value(v))
    return {"form": form_name, "turned": turned, "pairs": pairs}, status


def find_threes(q: int, iterations: int = ITERATIONS, seeds: int = SEEDS) -> tuple[dict | None, str]:
    """The stored entry of form threes over the first seed whose quotient lifts (the annealing over a
    multiplier's orbits where q has one in MULTIPLIERS, else the tabu), or None, and how it was found (or
    what was tried)."""
    entry, how = first_lifted(q, seeds, iterations, MULTIPLIERS.get(q), lambda quotient: lift_threes(q, quotient), True)
    return (None if entry is None else {"form": THREES, "how": how, **entry}), how


def lift_threes(q: int, quotient: Quotient, limit: float = LIFT_LIMIT) -> tuple[dict | None, str]:
    """The turned tables over the quotient (or None) and the solver's status: the set of three, its classes
    distinct, with inf_0; each set of four as one table; the classes its points' levels."""
    three = next(block for block in quotient if len(block) == 3)
    level, status = lift_levels(q, quotient, limit, carry=False, distinct=three)
    if level is None:
        return None, status
    turned = [[[INF, 0]] + [[r, level[r]] for r in three]]
    turned += [[[r, level[r]] for r in block] for block in quotient if len(block) == 4]
    return {"turned": turned, "pairs": []}, status


def _at(value: list[cp_model.IntVar], x: int | str) -> cp_model.IntVar | int:
    """A slot's value, or the fixed 0 (inf has no differences: it is never asked)."""
    return value[x] if isinstance(x, int) else 0


def _named(x: int | str, named: list[int]) -> int | str:
    return named[x] if isinstance(x, int) else 0 if x == ZERO else x


def _one_hot(model: cp_model.CpModel, var: cp_model.IntVar, q: int) -> list[cp_model.IntVar]:
    hot = [model.new_bool_var("") for _ in range(q)]
    model.add_exactly_one(hot)
    for v in range(q):
        model.add(var == v).only_enforce_if(hot[v])
    return hot


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimizer.constructions.packings", description=__doc__)
    parser.add_argument("--q", type=int, nargs="*", help="values of q = 3 mod 4 (default 7 to 131)")
    parser.add_argument("--form", nargs="*", default=list(FORMS), choices=[*FORMS, THREES])
    parser.add_argument("--limit", type=float, default=DETERMINISTIC_LIMIT, help="deterministic seconds per model")
    parser.add_argument("--iterations", type=int, default=ITERATIONS, help="tabu steps per seed (form threes)")
    parser.add_argument("--seeds", type=int, default=SEEDS, help="seeds tried (form threes)")
    args = parser.parse_args(argv)
    stored = json.loads(BASES_FILE.read_text(encoding="utf-8"))["bases"] if BASES_FILE.exists() else {}
    for q in args.q or QS:
        for form in args.form:
            if form == THREES:
                entry, status = find_threes(q, args.iterations, args.seeds)
            else:
                entry, status = search(q, form, args.limit)
            print(f"q = {q:3d} ({3 * q + 3} players), form {form}: {status}", flush=True)
            if entry:
                stored[str(q)] = entry
                save_bases(BASES_FILE, stored)
                stored_bases.cache_clear()
                break


if __name__ == "__main__":
    main()
