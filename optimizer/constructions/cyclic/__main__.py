"""Find and store base blocks: `python -m optimizer.constructions.cyclic [--q 33 45 ...] [--iterations N]`.

The search runs in two steps (optimizer.constructions.cyclic states the conditions), both repeatable:

1. The quotient: a partition of Z_q \\ {0} into (q - 1) / 4 sets of four whose differences cover each nonzero
   residue exactly three times (the images mod q of the base blocks: every difference of Z_3q outside H has
   one of the three lifts of its residue), by the seeded tabu search of optimizer.constructions.quotients.
2. The lifts: each residue r becomes the point r + q l_r of Z_3q, l_r in {0, 1, 2}. The difference of
   r + q l_r and s + q l_s is (r - s mod q) + q (l_r - l_s - [r < s]) mod 3q, so for each residue d the three
   ordered pairs of a set differing by d must get the three values of l_r - l_s - [r < s] mod 3: one CP-SAT
   model (optimizer.constructions.quotients.lift_levels).

A quotient whose lifts are proved impossible is dropped and the next seed is tried.

For q = 93 the tabu reaches no quotient; for 93, 105 and 129 the quotient is sought invariant under a
multiplier m = 1 mod 3 of order 3 (MULTIPLIERS; the residues r with (m - 1) r = 0 are fixed, 2, 14 and 2 of
them), by the seeded annealing over orbits of optimizer.constructions.quotients. (For q = 105 with no whole
sets the annealing stays at 132; the sets of four fixed residues give the differences that are multiples of
7. The form of -1-invariant blocks {a, -a, b, -b} cannot work for q = 93: its 23 pairs of classes +-a need as
many pairs of two classes prime to 3 as of one, so 3 n of the 31 classes prime to 3.)
"""

from __future__ import annotations

import argparse
import json

from optimizer.constructions.cyclic import BASES_FILE, stored_blocks
from optimizer.constructions.quotients import Quotient, first_lifted, lift_levels

QS = [33, 45, 57, 93, 105, 129]  # 100, 136, 172, 280, 316 and 388 players
ITERATIONS = 4_000  # tabu steps per seed
SEEDS = 16
# q -> m = 1 mod 3 of order 3 (67 = 5 mod 31, 49 = 6 mod 43, 16 = 1 mod 15 and 2 mod 7), the sets made of
# four fixed residues, the annealing's steps and temperature (a change of the orbits moves the cost by a
# multiple of 12: three images, |count - 3| both ways; sets of fixed residues move it by less)
MULTIPLIERS = {93: (67, 0, 60_000, 3.0), 129: (49, 0, 60_000, 3.0), 105: (16, 3, 100_000, 2.0)}
LIFT_LIMIT = 30.0  # deterministic seconds per lift model


def lift(q: int, quotient: Quotient, limit: float = LIFT_LIMIT) -> tuple[list[list[int]] | None, str]:
    """The base blocks of Z_3q over the quotient (or None) and the solver's status."""
    level, status = lift_levels(q, quotient, limit)
    if level is None:
        return None, status
    return sorted(sorted(r + q * level[r] for r in block) for block in quotient), status


def find_blocks(q: int, iterations: int = ITERATIONS) -> tuple[list[list[int]] | None, str]:
    """The first base blocks over the seeds (the multiplier's annealing where q has one, else the tabu), and
    how they were found (stored beside them)."""
    return first_lifted(q, SEEDS, iterations, MULTIPLIERS.get(q), lambda quotient: lift(q, quotient))


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
