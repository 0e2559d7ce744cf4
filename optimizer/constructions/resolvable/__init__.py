"""Resolvable designs for 3q + 1 players (q = 1 mod 4, 3 not dividing q): every pair meets exactly once
over (v - 1) / 3 = q rounds, from a matching stored ahead and developed over Z_q with no search at run time.

The mathematics. Players are Z_q x {0, 1, 2} and a fixed player inf (v = 3q + 1 = 4 mod 12, the
resolvable (v, 4, 1) designs of Hanani, Ray-Chaudhuri and Wilson, "On resolvable designs", Discrete Math.
3, 1972). Round t is the base round with every (x, i) moved to (x + t, i) and inf staying: a 1-rotational
design (the form of the direct constructions over GF(q) in T. Beth, D. Jungnickel and H. Lenz, Design
Theory, 2nd ed., 1999, section VII.7). The base round is the table {inf, (0, 0), (0, 1), (0, 2)} and, for
each stored pair {a, c} and each class i, the table {(a, i), (-a, i), (c, i + 1), (-c, i + 1)} (classes mod
3). It is one round exactly when the classes {+-a} and {+-c} of the pairs partition Z_q \\ {0}: each class
i then holds 0 and every +-a, +-c once.

Two players meet in round t iff their difference pattern occurs at a base table; over the q shifts a pattern
seen once at the base meets each of its pairs exactly once. The patterns are: inf with anyone (inf's table
holds one player of each class); within class i the differences +-2a and +-2c, which over all pairs are
2 times the nonzero classes, each nonzero difference once since 2 is a unit mod the odd q; between classes
i and i + 1 the difference 0 (inf's table) and +-(c - a), +-(c + a). So the day is a resolvable design iff
the classes {+-(c - a)} and {+-(c + a)}, over all stored pairs, are all different: the matching's sums and
differences cover the (q - 1) / 2 nonzero classes once. The pairs are found ahead by
`python -m optimizer.constructions.resolvable` (seeded backtracking, a node count, no clock), stored in
pairs.json and checked when loaded: the matching condition, then the developed day repeat-free. For q a
multiple of 3 (28, 64, 100, ... players) the backtracking proves that no such matching exists for q = 9,
21, 33 and 45; those rooms come from other constructions (optimizer.constructions.cyclic: the group Z_3q).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from optimizer.constructions.rotational import Shape, expand
from optimizer.seats import is_repeat_free

PAIRS_FILE = Path(__file__).parent / "pairs.json"


class BadPairs(ValueError):
    """Stored pairs that are not a matching of the classes or whose sums and differences repeat."""


def nonzero_class(x: int, q: int) -> int:
    """The class {x, -x} of Z_q as its member in 0..(q - 1) / 2."""
    x %= q
    return min(x, q - x)


def is_matching(pairs: list[tuple[int, int]], q: int) -> bool:
    """The pairs split the classes 1..(q - 1) / 2 and their sums and differences fall in distinct classes."""
    half = (q - 1) // 2
    members = sorted(x for pair in pairs for x in pair)
    hit = sorted(nonzero_class(c + s * a, q) for a, c in pairs for s in (1, -1))
    return members == list(range(1, half + 1)) and hit == list(range(1, half + 1))


def base_round(q: int, pairs: list[tuple[int, int]]) -> np.ndarray:
    """(v / 4, 4): inf's table, then per pair and class i the table {(a, i), (-a, i), (c, i + 1), (-c, i + 1)}."""
    shape = Shape(q, 3, 1)
    tables = [[3 * q, shape.player(0, 0), shape.player(0, 1), shape.player(0, 2)]]
    for a, c in pairs:
        for i in range(3):
            j = (i + 1) % 3
            tables.append([shape.player(a, i), shape.player(-a, i), shape.player(c, j), shape.player(-c, j)])
    return np.array(tables, dtype=np.int64)


@cache
def stored_pairs() -> dict[int, list[tuple[int, int]]]:
    """q -> its pairs, each entry checked (matching, then the developed day); a bad entry refuses the file."""
    data = json.loads(PAIRS_FILE.read_text(encoding="utf-8"))
    found = {}
    for key, rows in data["pairs"].items():
        q, pairs = int(key), [(int(a), int(c)) for a, c in rows]
        if q % 4 != 1 or not is_matching(pairs, q):
            raise BadPairs(
                f"{PAIRS_FILE.name}: the pairs for q = {q} are not a matching with distinct sums and differences"
            )
        seats = expand(base_round(q, pairs), Shape(q, 3, 1), q)
        if not is_repeat_free(seats, 3 * q + 1, q):
            raise BadPairs(f"{PAIRS_FILE.name}: the day for q = {q} is not repeat-free")
        found[q] = pairs
    return found


def resolvable_rounds(player_count: int) -> int:
    """Rounds the stored pairs give this room: (v - 1) / 3 where v = 3q + 1 has stored pairs, else 0."""
    q, rest = divmod(player_count - 1, 3)
    return q if not rest and q in stored_pairs() else 0


def resolvable_seating(player_count: int, rounds: int) -> np.ndarray | None:
    """The first `rounds` rounds of the design, or None if none is stored or it is shorter."""
    q = resolvable_rounds(player_count)
    if not 1 <= rounds <= q:
        return None
    return expand(base_round(q, stored_pairs()[q]), Shape(q, 3, 1), rounds)
