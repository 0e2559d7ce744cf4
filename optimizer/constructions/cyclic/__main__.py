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
"""

from __future__ import annotations

import argparse
import json
import random

import numpy as np
from ortools.sat.python import cp_model

from optimizer.constructions.cyclic import BASES_FILE, stored_blocks

QS = [33, 45, 57, 93, 105, 129]  # 100, 136, 172, 280, 316 and 388 players
ITERATIONS = 4_000  # tabu steps per seed
SEEDS = 16
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
    solver = cp_model.CpSolver()
    solver.parameters.num_workers, solver.parameters.random_seed = 1, 0
    solver.parameters.max_deterministic_time = limit
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, solver.status_name(status)
    blocks = [sorted(r + q * solver.value(level[r]) for r in block) for block in quotient]
    return sorted(blocks), solver.status_name(status)


def find_blocks(q: int, iterations: int = ITERATIONS) -> tuple[list[list[int]] | None, str]:
    """The first base blocks over the seeds, and what happened."""
    for seed in range(SEEDS):
        quotient = search_quotient(q, seed, iterations)
        if quotient is None:
            continue
        blocks, status = lift(q, quotient)
        if blocks is not None:
            return blocks, f"seed {seed}"
        print(f"  q = {q}, seed {seed}: a quotient, lifts {status}", flush=True)
    return None, f"nothing within {SEEDS} seeds of {iterations} steps"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimizer.constructions.cyclic", description=__doc__)
    parser.add_argument("--q", type=int, nargs="*", help="values of q = 1 mod 4 (default 33 45 57 93 105 129)")
    parser.add_argument("--iterations", type=int, default=ITERATIONS, help="tabu steps per seed")
    args = parser.parse_args(argv)
    stored = {q: blocks for q, blocks in stored_blocks().items()} if BASES_FILE.exists() else {}
    for q in args.q or QS:
        blocks, how = find_blocks(q, args.iterations)
        print(f"q = {q:3d} ({3 * q + 1} players): {'found, ' if blocks else ''}{how}", flush=True)
        if blocks:
            stored[q] = blocks
            _save(stored, args.iterations)


def _save(stored: dict[int, list[list[int]]], iterations: int) -> None:
    """One q per line, in order."""
    entries = ",\n".join(f'  "{q}": {json.dumps(stored[q], separators=(",", ":"))}' for q in sorted(stored))
    head = json.dumps({"seeds": SEEDS, "iterations": iterations})[:-1]
    BASES_FILE.write_text(head + ', "blocks": {\n' + entries + "\n}}\n", encoding="utf-8")
    stored_blocks.cache_clear()


if __name__ == "__main__":
    main()
