"""Resolvable maximum packings for v = 8 (mod 12) players: (v - 2) / 3 = floor((v - 1) / 3) repeat-free
rounds in which every player meets everyone but one partner, so the pairs that never meet are a perfect
matching (a 4-RGDD of type 2^(v/2); its existence for every v = 8 (mod 12) but 20 and at most 18 values:
G. Ge, C. W. H. Lam, A. C. H. Ling and H. Shen, "Resolvable maximum packings with quadruples", Des. Codes
Cryptogr. 35, 2005, 287-302). Built from a base round stored ahead and developed over Z_m, m = (v - 2) / 3,
with no search at run time.

The mathematics. Players are Z_m x {0, 1, 2} and two fixed players inf_0, inf_1; m = 2 (mod 4). Round t is
the base round with every (x, c) moved to (x + t, c), the inf_i staying (optimizer.constructions.rotational,
Shape(m, 3, 2)). The partners are {(x, c), (x + m/2, c)} and {inf_0, inf_1}. A pair of movers has the type
(c, c, +-d) within a class or (c, c + 1, y - x) from (x, c) to (y, c + 1), classes mod 3; over the m shifts a
type seen once at the base table meets each pair of that type exactly once, and the within-class type m/2
would meet its pairs twice (shifts t and t + m/2). So the day is such a packing iff the base round is a
partition in which

- inf_i's table holds one player of each class (it then meets each mover once): {inf_i, (a_0, 0), (a_1, 1),
  (a_2, 2)}, with a = (0, 0, 0) for inf_0 (every class may be translated on its own);
- every within-class type +-d, 0 < d < m/2, occurs once in each class, and m/2 never;
- every between-class type, y - x in Z_m, occurs once for each pair of classes (c, c + 1).

Counting: 3 (m/2 - 1) + 3m types, as many as the base round's pairs of movers (3 at each inf table, 6 at
each of the (3m - 6) / 4 others). A parity count rules out the form in which every table has two players
of each of two classes: the between-class differences of one pair of classes sum to m/2 (mod m), which is
odd, but each such table adds an even amount; so some tables hold three of a class, or two and one and one.

Turned bases: where Z_m has a cube root of unity u != 1 (80, 116, 164, 188, 212, ... players) the base
round is also invariant under sigma: (x, c) -> (u x, c + 1), which commutes with the shifts up to a
multiplier (sigma(B + t) = sigma(B) + u t) and cuts the search to a third: each stored table stands for
itself and its two turns, the inf tables are {inf_i, (a, 0), (u a, 1), (u^2 a, 2)}, and the conditions are
on class 0 and the classes (0, 1) alone (the form of the 44 and 56 player days in the library, found by
optimizer.constructions.rotational).

How the stored bases were found: `python -m optimizer.constructions.matchings` (a seeded depth-first
search with a node limit per seed: a run repeats itself; the form and seed are stored with each base).
It finds m = 14 and 18 (44 and 56 players, which the library's rotational days already reach) at seed 0
in a second. For m = 26 (80 players) long runs found none (every form within 60 seeds of 200 000 nodes);
the most-constrained-first order (`--fewest`) with many short runs found one at seed 485 of 3 000 nodes a
run (2 minutes). For m = 22 (68 players, no turned form) about 1 100 seeds of 3 000 nodes found none.
Every stored base is checked when loaded: developed, repeat-free, and the pairs that never meet exactly the
partners.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from optimizer.constructions.rotational import Shape, expand
from optimizer.seats import is_repeat_free, meetings

BASES_FILE = Path(__file__).parent / "bases.json"

Table = list[tuple[int, int]]  # (x, class) entries


class BadBase(ValueError):
    """A stored base round whose day is not a resolvable maximum packing with partners."""


def base_round(m: int, turn: int, fixed: list[list[int]], tables: list[Table]) -> np.ndarray:
    """(v / 4, 4): the inf tables, then every stored table and, with a turn u, its images under sigma."""
    shape = Shape(m, 3, 2)
    rows = [[3 * m + i] + [shape.player(x, c) for c, x in enumerate(a)] for i, a in enumerate(fixed)]
    for table in tables:
        for k in range(3 if turn else 1):
            rows.append([shape.player(x * pow(turn, k, m), (c + k) % 3) for x, c in table])
    return np.array(rows, dtype=np.int64)


def develop(m: int, base: np.ndarray, rounds: int) -> np.ndarray:
    return expand(base, Shape(m, 3, 2), rounds)


def is_packing(seats: np.ndarray, m: int) -> bool:
    """Repeat-free over m rounds, and the pairs that never meet are exactly the partners."""
    v = 3 * m + 2
    if seats.shape != (m, v // 4, 4) or not is_repeat_free(seats, v, m):
        return False
    players = np.arange(v)
    partner = np.where(players < 3 * m, (players // m) * m + (players % m + m // 2) % m, 3 * m + (players + 1) % 2)
    apart = (meetings(seats, v) == 0) & ~np.eye(v, dtype=bool)
    return bool((apart == (partner[:, None] == players[None, :])).all())


@cache
def stored_bases() -> dict[int, np.ndarray]:
    """m -> its base round, each checked as a whole day; a bad entry refuses the file."""
    data = json.loads(BASES_FILE.read_text(encoding="utf-8"))
    found = {}
    for key, entry in data["bases"].items():
        m = int(key)
        tables = [[(int(x), int(c)) for x, c in table] for table in entry["tables"]]
        base = base_round(m, int(entry["turn"]), [[int(x) for x in a] for a in entry["fixed"]], tables)
        if m % 4 != 2 or base.shape != ((3 * m + 2) // 4, 4) or not is_packing(develop(m, base, m), m):
            raise BadBase(f"{BASES_FILE.name}: the base round for m = {m} is not a resolvable maximum packing")
        found[m] = base
    return found


def matching_rounds(player_count: int) -> int:
    """Rounds the stored bases give this room: m = (v - 2) / 3 where one is stored, else 0."""
    m, rest = divmod(player_count - 2, 3)
    return m if not rest and m in stored_bases() else 0


def matching_seating(player_count: int, rounds: int) -> np.ndarray | None:
    """The first `rounds` rounds of the packing, or None if none is stored or it is shorter."""
    m = matching_rounds(player_count)
    return develop(m, stored_bases()[m], rounds) if 1 <= rounds <= m else None
