"""Find and store base blocks: `python -m optimizer.constructions.cyclic [--q 33 45 ...] [--iterations N]`.

The search runs in two steps (optimizer.constructions.cyclic states the conditions), both repeatable:

1. The quotient: a partition of Z_q \\ {0} into (q - 1) / 4 sets of four whose differences cover each nonzero
   residue exactly three times (the images mod q of the base blocks: every difference of Z_3q outside H has
   one of the three lifts of its residue). A tabu search from a partition shuffled by a seeded generator:
   each step makes the best swap of two residues between sets among those moving a residue whose difference
   is covered more than three times (ties broken by the generator), never swapping two residues that both
   moved in the last 8 to 10 steps (the tabu); it stops after a fixed number of steps. The changes of every
   swap of one residue are counted at once in numpy (the excess over 3 of each difference's count).
2. The lifts: each residue r becomes the point r + q l_r of Z_3q, l_r in {0, 1, 2}. The difference of
   r + q l_r and s + q l_s is (r - s mod q) + q (l_r - l_s - [r < s]) mod 3q, so for each residue d the three
   ordered pairs of a set differing by d must get the three values of l_r - l_s - [r < s] mod 3. One CP-SAT
   model (one worker, seed 0, a deterministic-time limit); the first residue of each set keeps l = 0 (adding
   q to a whole block changes no difference).

A quotient whose lifts are proved impossible is dropped and the next seed is tried.

For q = 93 the tabu reaches no quotient; for 93, 105 and 129 the quotient is sought invariant under a
multiplier m = 1 mod 3 of order 3 (MULTIPLIERS). The residues r with (m - 1) r = 0 are fixed (2, 14 and 2 of
them); the others fall in orbits {x, mx, m^2 x}. `whole` sets are four fixed residues, each other fixed
residue joins one orbit in a set of its own, and the other orbits go in groups of four, each group giving one
set (a chosen point of each orbit) and its images under m and m^2. Then the differences are m-invariant and
the search space is about a third of the size. A seeded simulated annealing (constant temperature; swapping
two orbits, re-choosing one point, or swapping two fixed residues) minimises sum |count(d) - 3| over a fixed
number of steps. (For q = 105 with no whole sets the annealing stays at 132; the sets of four fixed residues
give the differences that are multiples of 7. The form of -1-invariant blocks {a, -a, b, -b} cannot work for
q = 93: its 23 pairs of classes +-a need as many pairs of two classes prime to 3 as of one, so 3 n of the 31
classes prime to 3.)
"""

from __future__ import annotations

import argparse
import json
import math
import random

import numpy as np
from ortools.sat.python import cp_model

from optimizer.constructions.cyclic import BASES_FILE, stored_blocks
from optimizer.constructions.stored import solve_ahead

QS = [33, 45, 57, 93, 105, 129]  # 100, 136, 172, 280, 316 and 388 players
ITERATIONS = 4_000  # tabu steps per seed
SEEDS = 16
# q -> m = 1 mod 3 of order 3 (67 = 5 mod 31, 49 = 6 mod 43, 16 = 1 mod 15 and 2 mod 7), the sets made of
# four fixed residues, the annealing's steps and temperature (a change of the orbits moves the cost by a
# multiple of 12: three images, |count - 3| both ways; sets of fixed residues move it by less)
MULTIPLIERS = {93: (67, 0, 60_000, 3.0), 129: (49, 0, 60_000, 3.0), 105: (16, 3, 100_000, 2.0)}
LIFT_LIMIT = 30.0  # deterministic seconds per lift model

Quotient = list[list[int]]


def search_quotient(q: int, seed: int, iterations: int = ITERATIONS) -> Quotient | None:
    """Sets of four residues, each nonzero difference three times, or None within `iterations` steps."""
    rng = random.Random(seed)
    residues = list(range(1, q))
    rng.shuffle(residues)
    sets = [residues[i : i + 4] for i in range(0, q - 1, 4)]
    where = {r: i for i, block in enumerate(sets) for r in block}
    count = [0] * q
    for block in sets:
        for r in block:
            for s in block:
                count[(r - s) % q] += r != s
    excess = sum(max(0, c - 3) for c in count[1:])
    still: dict[int, int] = {}
    for step in range(iterations):
        if excess == 0:
            return sorted(sorted(block) for block in sets)
        moving = [r for r in residues if any(count[(r - s) % q] > 3 for s in sets[where[r]] if s != r)]
        best, moves = 0, list[tuple[int, int]]()
        table, at, counts = np.array(sets), np.array([where.get(x, -1) for x in range(q)]), np.array(count)
        for r in moving:
            kept = still.get(r, -1) > step  # a kept residue moves only with one that is not
            partners = np.array(
                [s for s in residues if where[s] != where[r] and not (kept and still.get(s, -1) > step)]
            )
            if not len(partners):
                continue
            changes = _swap_changes(q, counts, table, at, r, partners)
            low = int(changes.min())
            if not moves or low < best:
                best, moves = low, []
            if low == best:
                moves += [(r, int(x)) for x in partners[changes == low]]
        r, s = rng.choice(moves)
        _swap(q, count, sets, where, r, s)
        excess += best
        still[r], still[s] = step + 8 + rng.randrange(3), step + 8 + rng.randrange(3)
    return None


def search_invariant_quotient(q: int, m: int, seed: int, whole: int, steps: int, temperature: float) -> Quotient | None:
    """Sets of four closed as a family under x -> m x, `whole` of them made of four fixed residues (module
    docstring), or None within `steps` steps."""
    rng = random.Random(seed)
    fixed = [r for r in range(1, q) if r * m % q == r]
    orbits = sorted({tuple(sorted(r * m**e % q for e in range(3))) for r in range(1, q) if r * m % q != r})
    rng.shuffle(orbits)
    rng.shuffle(fixed)
    chosen = [rng.randrange(3) for _ in orbits]
    cost = _invariant_cost(q, _invariant_sets(q, m, fixed, whole, orbits, chosen))
    for _ in range(steps):
        if cost == 0:
            return sorted(sorted(block) for block in _invariant_sets(q, m, fixed, whole, orbits, chosen))
        old = orbits[:], chosen[:], fixed[:]
        move = rng.random()
        if move < 0.45:
            i, j = rng.randrange(len(orbits)), rng.randrange(len(orbits))
            orbits[i], orbits[j], chosen[i], chosen[j] = orbits[j], orbits[i], chosen[j], chosen[i]
        elif move < 0.9:
            chosen[rng.randrange(len(orbits))] = rng.randrange(3)
        else:
            i, j = rng.randrange(len(fixed)), rng.randrange(len(fixed))
            fixed[i], fixed[j] = fixed[j], fixed[i]
        new = _invariant_cost(q, _invariant_sets(q, m, fixed, whole, orbits, chosen))
        if new <= cost or rng.random() < math.exp((cost - new) / temperature):
            cost = new
        else:
            orbits, chosen, fixed = old
    return None


def _invariant_sets(
    q: int, m: int, fixed: list[int], whole: int, orbits: list[tuple[int, ...]], chosen: list[int]
) -> Quotient:
    """`whole` sets of four fixed residues, each other fixed residue with the orbit in its place, then each
    group of four orbits' block under m^0, m, m^2."""
    sets = [fixed[4 * i : 4 * i + 4] for i in range(whole)]
    rest = fixed[4 * whole :]
    sets += [[f, *orbits[k]] for k, f in enumerate(rest)]
    for g in range(len(rest), len(orbits), 4):
        block = [orbits[k][chosen[k]] for k in range(g, g + 4)]
        sets += [[x * m**e % q for x in block] for e in range(3)]
    return sets


def _invariant_cost(q: int, sets: Quotient) -> int:
    """sum over nonzero d of |count(d) - 3|: zero exactly for a quotient."""
    count = [0] * q
    for block in sets:
        for x in block:
            for y in block:
                count[(x - y) % q] += x != y
    return sum(abs(c - 3) for c in count[1:])


def _differences(q: int, r: int, block: list[int], without: int) -> list[int]:
    """The differences r - x and x - r for x in the block but `without` and r."""
    return [d for x in block if x not in (r, without) for d in ((r - x) % q, (x - r) % q)]


def _swap_changes(
    q: int, count: np.ndarray, table: np.ndarray, at: np.ndarray, r: int, partners: np.ndarray
) -> np.ndarray:
    """How the excess changes when r and each partner s change sets: per difference d, the excess
    max(0, count - 3) after the old differences of r and s in their sets go and the new ones come."""
    own = table[at[r]][table[at[r]] != r]  # r's set but r
    others = table[at[partners]]
    others = others[others != partners[:, None]].reshape(len(partners), 3)  # each s's set but s
    rows = np.arange(len(partners))[:, None]
    moved = np.zeros((len(partners), q), dtype=np.int64)
    for points, sets, sign in ((partners[:, None], others, -1), (partners[:, None], own[None], 1), (r, others, 1)):
        np.add.at(moved, (rows, (points - sets) % q), sign)
        np.add.at(moved, (rows, (sets - points) % q), sign)
    moved[:, (r - own) % q] -= 1
    moved[:, (own - r) % q] -= 1
    return (np.maximum(0, count + moved - 3) - np.maximum(0, count - 3)).sum(axis=1)


def _swap(q: int, count: list[int], sets: list[list[int]], where: dict[int, int], r: int, s: int) -> None:
    b, c = sets[where[r]], sets[where[s]]
    for d in _differences(q, r, b, r) + _differences(q, s, c, s):
        count[d] -= 1
    for d in _differences(q, s, b, r) + _differences(q, r, c, s):
        count[d] += 1
    b[b.index(r)], c[c.index(s)] = s, r
    where[r], where[s] = where[s], where[r]


def lift(q: int, quotient: Quotient, limit: float = LIFT_LIMIT) -> tuple[list[list[int]] | None, str]:
    """The base blocks of Z_3q over the quotient (or None) and the solver's status."""
    model = cp_model.CpModel()
    level = {r: model.new_int_var(0, 0 if r == block[0] else 2, f"l{r}") for block in quotient for r in block}
    by_difference: dict[int, list[cp_model.IntVar]] = {}
    for block in quotient:
        for r in block:
            for s in block:
                if r != s and (r - s) % q <= q // 2:
                    shifted = model.new_int_var(-3, 2, "")
                    model.add(shifted == level[r] - level[s] - int(r < s))
                    value = model.new_int_var(0, 2, "")
                    model.add_modulo_equality(value, shifted + 3, 3)
                    by_difference.setdefault((r - s) % q, []).append(value)
    for values in by_difference.values():
        model.add_all_different(values)
    solver, status = solve_ahead(model, limit)
    if solver is None:
        return None, status
    blocks = [sorted(r + q * solver.value(level[r]) for r in block) for block in quotient]
    return sorted(blocks), status


def find_blocks(q: int, iterations: int = ITERATIONS) -> tuple[list[list[int]] | None, str]:
    """The first base blocks over the seeds (the multiplier's annealing where q has one, else the tabu), and
    how they were found (stored beside them)."""
    m, whole, steps, temperature = MULTIPLIERS.get(q, (0, 0, 0, 0.0))
    how = f"multiplier {m}, {whole} fixed sets, {steps} annealing steps at {temperature}"
    how = how if m else f"tabu, {iterations} steps"
    for seed in range(SEEDS):
        if m:
            quotient = search_invariant_quotient(q, m, seed, whole, steps, temperature)
        else:
            quotient = search_quotient(q, seed, iterations)
        if quotient is None:
            continue
        blocks, status = lift(q, quotient)
        if blocks is not None:
            return blocks, f"{how}, seed {seed}"
        print(f"  q = {q}, seed {seed}: a quotient, lifts {status}", flush=True)
    return None, f"nothing within {SEEDS} seeds ({how})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimizer.constructions.cyclic", description=__doc__)
    parser.add_argument("--q", type=int, nargs="*", help="values of q = 1 mod 4 (default 33 45 57 93 105 129)")
    parser.add_argument("--iterations", type=int, default=ITERATIONS, help="tabu steps per seed")
    args = parser.parse_args(argv)
    data = json.loads(BASES_FILE.read_text(encoding="utf-8")) if BASES_FILE.exists() else {}
    stored = dict(stored_blocks()) if BASES_FILE.exists() else {}
    made = {int(q): how for q, how in data.get("made", {}).items()}
    for q in args.q or QS:
        blocks, how = find_blocks(q, args.iterations)
        print(f"q = {q:3d} ({3 * q + 1} players): {'found, ' if blocks else ''}{how}", flush=True)
        if blocks:
            stored[q], made[q] = blocks, how
            _save(stored, made)


def _save(stored: dict[int, list[list[int]]], made: dict[int, str]) -> None:
    """How each q was found, then its blocks, one q per line, in order."""
    hows = ",\n".join(f'  "{q}": {json.dumps(made[q])}' for q in sorted(made))
    entries = ",\n".join(f'  "{q}": {json.dumps(stored[q], separators=(",", ":"))}' for q in sorted(stored))
    BASES_FILE.write_text('{"made": {\n' + hows + '\n}, "blocks": {\n' + entries + "\n}}\n", encoding="utf-8")
    stored_blocks.cache_clear()


if __name__ == "__main__":
    main()
