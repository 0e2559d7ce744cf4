"""Resolvable designs for 3q + 1 players over the cyclic group Z_3q (q = 1 mod 4 and a multiple of 3, stored
for 100 to 388 players): every pair meets exactly once over q rounds, developed from base blocks stored
ahead, with no search at run time.

The mathematics. Players are Z_3q and a fixed player inf (v = 3q + 1 = 4 mod 12, the resolvable (v, 4, 1)
designs of H. Hanani, D. K. Ray-Chaudhuri and R. M. Wilson, "On resolvable designs", Discrete Math. 3,
1972). H = {0, q, 2q} is the subgroup of order 3. The base round is the table {inf, 0, q, 2q} and, for each
stored base block B, its translates B, B + q, B + 2q; round t is the base round with every x moved to x + t,
inf staying, for t = 0..q-1. A design of this form is 1-rotational over Z_3q with the base round fixed by H
(M. Buratti and F. Zuanni, "G-invariantly resolvable Steiner 2-designs which are 1-rotational over G",
Bull. Belg. Math. Soc. 5, 1998, 221-235; the form of the 1-rotational RBIBDs in Beth, Jungnickel and Lenz,
Design Theory, 2nd ed., 1999, VII.7). Two conditions make it a resolvable design:

- The base round is a round: the (q - 1) / 4 blocks hold one point of each coset x + H but H itself (their
  residues mod q are 1..q-1, each once), so they and their translates by H split Z_3q \\ H.
- Every pair meets once: the blocks' differences cover Z_3q \\ H exactly once (a (3q, 3, 4, 1) relative
  difference family). A pair {x, y} outside H meets in round t iff y - x is a difference of a base block,
  found there once, at one of its three H-translates B + h; the block B + h + t holds x and y for exactly
  one t mod 3q, and as t runs over 0..q-1 the rounds P + t run over the q translates of the base round P
  (P + h = P), so the pair meets in exactly one round. Pairs in one coset meet at inf's table of the round
  t = x mod q, and inf meets everyone there.

The blocks are found ahead by `python -m optimizer.constructions.cyclic` (a seeded search for their
residues, then one CP-SAT model for the lifts: repeatable), stored in bases.json with how each was found and
checked when loaded: both conditions, then the developed day repeat-free with every pair meeting. For q = 93
(280 players) the tabu search reached no quotient (20 000 steps at seed 0 left 6 to 10 differences over
three); residues closed under a multiplier of order 3 did, and for q = 105 and 129 (316 and 388 players)
(the generator's docstring). Stored: q = 33, 45, 57, 93, 105, 129 (every q = 1 mod 4 divisible by 3 to 400
players but 9 and 21, whose rooms other constructions build).
The resolvable designs over Z_q x {0, 1, 2} (optimizer.constructions.resolvable) cover the q not divisible
by 3; their symmetric form is proved impossible for q = 9, 21, 33, 45, which is why these rooms need another group.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from optimizer.constructions.rotational import Shape, expand
from optimizer.seats import is_repeat_free, meetings

BASES_FILE = Path(__file__).parent / "bases.json"


class BadBlocks(ValueError):
    """Stored base blocks that do not make a resolvable design."""


def is_difference_family(blocks: list[list[int]], q: int) -> bool:
    """Four points each, one in every coset x + H but H, and their differences cover Z_3q \\ H once."""
    n = 3 * q
    points = [x % n for block in blocks for x in block]
    if any(len(block) != 4 for block in blocks) or sorted(x % q for x in points) != list(range(1, q)):
        return False
    differences = sorted((x - y) % n for block in blocks for x in block for y in block if x != y)
    return differences == [d for d in range(n) if d % q]


def base_round(q: int, blocks: list[list[int]]) -> np.ndarray:
    """(v / 4, 4): inf's table {inf, 0, q, 2q}, then each block and its translates by q and 2q."""
    n = 3 * q
    tables = [[n, 0, q, 2 * q]] + [[(x + h) % n for x in block] for block in blocks for h in (0, q, 2 * q)]
    return np.array(tables, dtype=np.int64)


def develop(q: int, base: np.ndarray, rounds: int) -> np.ndarray:
    """(rounds, v / 4, 4): round t moves every x to x + t mod 3q, inf staying."""
    return expand(base, Shape(3 * q, 1, 1), rounds)


def is_design(seats: np.ndarray, q: int) -> bool:
    """q rounds of 3q + 1 players, repeat-free, every pair meeting."""
    v = 3 * q + 1
    if seats.shape != (q, v // 4, 4) or not is_repeat_free(seats, v, q):
        return False
    met = meetings(seats, v) > 0
    return bool(met.sum() == v * (v - 1))


@cache
def stored_blocks() -> dict[int, list[list[int]]]:
    """q -> its base blocks, each entry checked (the two conditions, then the developed day); a bad entry
    refuses the file."""
    data = json.loads(BASES_FILE.read_text(encoding="utf-8"))
    found = {}
    for key, rows in data["blocks"].items():
        q, blocks = int(key), [[int(x) for x in block] for block in rows]
        if q % 4 != 1 or not is_difference_family(blocks, q):
            raise BadBlocks(f"{BASES_FILE.name}: the blocks for q = {q} are not a resolvable difference family")
        if not is_design(develop(q, base_round(q, blocks), q), q):
            raise BadBlocks(f"{BASES_FILE.name}: the day for q = {q} is not a resolvable design")
        found[q] = blocks
    return found


def cyclic_rounds(player_count: int) -> int:
    """Rounds the stored blocks give this room: (v - 1) / 3 where v = 3q + 1 has stored blocks, else 0."""
    q, rest = divmod(player_count - 1, 3)
    return q if not rest and q in stored_blocks() else 0


def cyclic_seating(player_count: int, rounds: int) -> np.ndarray | None:
    """The first `rounds` rounds of the design, or None if none is stored or it is shorter."""
    q = cyclic_rounds(player_count)
    if not 1 <= rounds <= q:
        return None
    return develop(q, base_round(q, stored_blocks()[q]), rounds)
