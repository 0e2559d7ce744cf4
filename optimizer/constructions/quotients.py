"""The quotients and lifts the searches run ahead share (`python -m optimizer.constructions.cyclic` and
`python -m optimizer.constructions.packings --form threes`, never at run time).

A quotient is a partition of residues mod q into sets of four (and, for the packings, one set of three)
whose differences cover each nonzero residue exactly three times: the images mod q of base blocks over
Z_q x Z_3 or Z_3q. A lift gives each residue r a level l_r in Z_3 so that, for each nonzero residue d, the
three ordered pairs (r, s) of a set with r - s = d get the three values of l_r - l_s - carry(r, s) mod 3
(carry [r < s] for Z_3q, 0 for Z_q x Z_3): then the lifted blocks' differences cover every difference
outside the subgroup of order 3 exactly once.

- `search_quotient`: a tabu search from a partition shuffled by a seeded generator: each step makes the
  best swap of two residues between sets among those moving a residue whose difference is covered more than
  three times (ties broken by the generator), never swapping two residues that both moved in the last 8 to
  10 steps (the tabu); it stops after a fixed number of steps. The changes of every swap of one residue are
  counted at once in numpy (the excess over 3 of each difference's count).
- `search_invariant_quotient`: the quotient closed under a multiplier m of order 3. The residues r with
  (m - 1) r = 0 are fixed (with `short`, 0 among them); the others fall in orbits {x, mx, m^2 x}. With
  `short` the first orbit is the set of three (three fixed residues cannot be: for the packings they are
  {0, q/3, 2q/3}, whose three differences q/3 must lift to 0, 1, 2, so its levels 0, l, 2l, not distinct); `whole`
  sets are four fixed residues, each other fixed residue joins one orbit in a set of its own, and the other
  orbits go in groups of four, each group giving one set (a chosen point of each orbit) and its images under
  m and m^2. Then the differences are m-invariant and the search space is about a third of the size. A
  seeded simulated annealing (constant temperature; swapping two orbits, re-choosing one point, or swapping
  two fixed residues) minimises sum |count(d) - 3| over a fixed number of steps.
- `first_lifted`: over seeds 0, 1, ..., the first quotient (by the annealing where a multiplier is given,
  else by the tabu) whose lifts exist; a quotient whose lifts are impossible is dropped.
- `lift_levels`: one CP-SAT model of the levels (one worker, seed 0, a deterministic-time limit:
  repeatable); the first residue of each set keeps level 0 (raising a whole set changes no difference).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TypeVar

import numpy as np
from ortools.sat.python import cp_model

from optimizer.constructions.stored import solve_ahead

Quotient = list[list[int]]
Made = TypeVar("Made")
PAD = -1  # the missing fourth point of the set of three, in the numpy table of the sets


def search_quotient(q: int, seed: int, iterations: int, short: bool = False) -> Quotient | None:
    """Sets of four residues of 1..q-1 (with `short`: of 0..q-1, the first set of three), each nonzero
    difference three times, or None within `iterations` steps."""
    rng = random.Random(seed)
    residues = list(range(0 if short else 1, q))
    rng.shuffle(residues)
    cut = 3 if short else 0
    sets = ([residues[:cut]] if short else []) + [residues[i : i + 4] for i in range(cut, len(residues), 4)]
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
        table = np.array([block + [PAD] * (4 - len(block)) for block in sets])
        at, counts = np.array([where.get(x, -1) for x in range(q)]), np.array(count)
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


def search_invariant_quotient(
    q: int, m: int, seed: int, whole: int, steps: int, temperature: float, short: bool = False
) -> Quotient | None:
    """Sets of four closed as a family under x -> m x, `whole` of them made of four fixed residues (with
    `short`: 0 among the fixed residues and one orbit a set of three; module docstring), or None within
    `steps` steps."""
    rng = random.Random(seed)
    fixed = [r for r in range(0 if short else 1, q) if r * m % q == r]
    orbits = sorted({tuple(sorted(r * m**e % q for e in range(3))) for r in range(1, q) if r * m % q != r})
    rng.shuffle(orbits)
    rng.shuffle(fixed)
    chosen = [rng.randrange(3) for _ in orbits]
    cost = _invariant_cost(q, _invariant_sets(q, m, fixed, whole, orbits, chosen, short))
    for _ in range(steps):
        if cost == 0:
            return sorted(sorted(block) for block in _invariant_sets(q, m, fixed, whole, orbits, chosen, short))
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
        new = _invariant_cost(q, _invariant_sets(q, m, fixed, whole, orbits, chosen, short))
        if new <= cost or rng.random() < math.exp((cost - new) / temperature):
            cost = new
        else:
            orbits, chosen, fixed = old
    return None


def _invariant_sets(
    q: int, m: int, fixed: list[int], whole: int, orbits: list[tuple[int, ...]], chosen: list[int], short: bool
) -> Quotient:
    """With `short` the first orbit alone; `whole` sets of four fixed residues, each other fixed residue with
    the orbit in its place, then each group of four orbits' block under m^0, m, m^2."""
    sets = [list(orbits[0])] if short else []
    orbits, chosen = (orbits[1:], chosen[1:]) if short else (orbits, chosen)
    sets += [fixed[4 * i : 4 * i + 4] for i in range(whole)]
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
    max(0, count - 3) after the old differences of r and s in their sets go and the new ones come. The set
    of three has PAD in its fourth place, which weighs nothing."""
    own = table[at[r]][(table[at[r]] != r) & (table[at[r]] != PAD)]  # r's set but r
    others = table[at[partners]]
    weight = (others != partners[:, None]) & (others != PAD)  # each s's set but s
    rows = np.arange(len(partners))[:, None]
    moved = np.zeros((len(partners), q), dtype=np.int64)
    for points, sets, sign in ((partners[:, None], others, -1), (partners[:, None], own[None], 1), (r, others, 1)):
        weights = sign * (weight if sets is others else np.ones((len(partners), len(own)), dtype=np.int64))
        np.add.at(moved, (rows, (points - sets) % q), weights)
        np.add.at(moved, (rows, (sets - points) % q), weights)
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


def lift_levels(
    q: int, quotient: Quotient, limit: float, carry: bool = True, distinct: list[int] | None = None
) -> tuple[dict[int, int] | None, str]:
    """Each residue's level (or None) and the solver's status: per residue d, the three ordered pairs
    (r, s) of a set with r - s = d take the three values of l_r - l_s - carry [r < s] mod 3; the residues in
    `distinct` (the set of three) take three different levels."""
    model = cp_model.CpModel()
    level = {r: model.new_int_var(0, 0 if r == block[0] else 2, f"l{r}") for block in quotient for r in block}
    by_difference: dict[int, list[cp_model.IntVar]] = {}
    for block in quotient:
        for r in block:
            for s in block:
                if r != s and (r - s) % q <= q // 2:
                    shifted = model.new_int_var(-3, 2, "")
                    model.add(shifted == level[r] - level[s] - int(carry and r < s))
                    value = model.new_int_var(0, 2, "")
                    model.add_modulo_equality(value, shifted + 3, 3)
                    by_difference.setdefault((r - s) % q, []).append(value)
    for values in by_difference.values():
        model.add_all_different(values)
    if distinct:
        model.add_all_different([level[r] for r in distinct])
    solver, status = solve_ahead(model, limit)
    if solver is None:
        return None, status
    return {r: solver.value(v) for r, v in level.items()}, status


def first_lifted(
    q: int,
    seeds: int,
    iterations: int,
    multiplier: tuple[int, int, int, float] | None,
    lift: Callable[[Quotient], tuple[Made | None, str]],
    short: bool = False,
) -> tuple[Made | None, str]:
    """What `lift` makes of the first quotient over the seeds that it lifts (the annealing with `multiplier`
    = (m, whole, steps, temperature), else the tabu of `iterations` steps; `short`: with a set of three), and
    how it was found, or what was tried."""
    m, whole, steps, temperature = multiplier or (0, 0, 0, 0.0)
    how = f"multiplier {m}, {whole} fixed sets, {steps} annealing steps at {temperature}"
    how = (how + (", the set of three an orbit" if short else "")) if m else f"tabu, {iterations} steps"
    for seed in range(seeds):
        if m:
            quotient = search_invariant_quotient(q, m, seed, whole, steps, temperature, short)
        else:
            quotient = search_quotient(q, seed, iterations, short)
        if quotient is None:
            continue
        made, status = lift(quotient)
        if made is not None:
            return made, f"{how}, seed {seed}"
        print(f"  q = {q}, seed {seed}: a quotient, lifts {status}", flush=True)
    return None, f"nothing within {seeds} seeds ({how})"
