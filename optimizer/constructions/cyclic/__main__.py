"""Find and store base blocks: `python -m optimizer.constructions.cyclic [--q 33 45 ...] [--iterations N]`.

The search runs in two steps (optimizer.constructions.cyclic states the conditions), both repeatable:

1. The quotient: a partition of Z_q \\ {0} into (q - 1) / 4 sets of four whose differences cover each nonzero
   residue exactly three times (the images mod q of the base blocks: every difference of Z_3q outside H has
   one of the three lifts of its residue). A tabu search from a partition shuffled by a seeded generator:
   each step makes the best swap of two residues between sets among those moving a residue whose difference
   is covered more than three times (ties broken by the generator), the two residues then kept still for a
   few steps; it stops after a fixed number of steps.
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
        for r in moving:
            for s in residues:
                if where[s] == where[r] or (still.get(r, -1) > step and still.get(s, -1) > step):
                    continue
                change = _swap_change(q, count, sets[where[r]], sets[where[s]], r, s)
                if not moves or change < best:
                    best, moves = change, [(r, s)]
                elif change == best:
                    moves.append((r, s))
        r, s = rng.choice(moves)
        _swap(q, count, sets, where, r, s)
        excess += best
        still[r], still[s] = step + 8 + rng.randrange(3), step + 8 + rng.randrange(3)
    return None


def _differences(q: int, r: int, block: list[int], without: int) -> list[int]:
    """The differences r - x and x - r for x in the block but `without` and r."""
    return [d for x in block if x not in (r, without) for d in ((r - x) % q, (x - r) % q)]


def _swap_change(q: int, count: list[int], b: list[int], c: list[int], r: int, s: int) -> int:
    """How the excess changes when r (in b) and s (in c) change sets."""
    old = _differences(q, r, b, r) + _differences(q, s, c, s)
    new = _differences(q, s, b, r) + _differences(q, r, c, s)
    change = 0
    for d in old:
        count[d] -= 1
        change -= count[d] >= 3
    for d in new:
        change += count[d] >= 3
        count[d] += 1
    for d in new:
        count[d] -= 1
    for d in old:
        count[d] += 1
    return change


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
