"""Resolvable maximum packings for 3q + 3 players (q = 3 mod 4, so v = 0 mod 12): q = v / 3 - 1 =
floor((v - 1) / 3) repeat-free rounds in which each player meets everyone but the two others of its group, a
4-RGDD of type 3^(q + 1) (its existence for every v = 0 mod 12 from 24 on: G. Ge, C. W. H. Lam, A. C. H. Ling
and H. Shen, "Resolvable maximum packings with quadruples", Des. Codes Cryptogr. 35, 2005, 287-302). Built
from a base round stored ahead and developed over Z_q, with no search at run time.

The mathematics. Players are Z_q x {0, 1, 2} and three fixed players inf_0, inf_1, inf_2; the groups are
{(x, 0), (x, 1), (x, 2)} for each x and {inf_0, inf_1, inf_2}. Round t is the base round with every (x, i)
moved to (x + t, i), the inf_k staying (the 1-rotational form of optimizer.constructions.resolvable, with
three fixed players in place of one). The base round is made of:

- turned tables: each stored table T, given as entries (x, class) or (inf, class), and its turns T + k
  (every class and every inf index raised by k mod 3) for k = 0, 1, 2; the first turned table is
  {inf_0, (0, 0), (b, 1), (c, 2)}, so each inf_k sits with one player of each class;
- symmetric tables: for each stored pair {a, c} and each class i, {(a, i), (-a, i), (c, i + 1), (-c, i + 1)}.

Two players meet in round t iff their difference pattern occurs at a base table, and over the q shifts a
pattern seen once at the base meets each of its pairs exactly once (optimizer.constructions.resolvable).
The patterns are inf_k with anyone (one player of each class at its table); within class i the differences
+-d, each nonzero d once; between classes i and i + 1 the differences d, each nonzero d once and 0 never
(the pairs of one group never meet). By the turns every class and class pair sees the same differences, so
the conditions are on class 0 and the pair of classes (0, 1): the turned tables put in class 0 the point 0
and classes {+-e} of a set E, their within-class differences are exactly the classes 2E and their
differences from class 0 to class 1 a set M of whole classes {+-d}, d != 0; then the pairs must match the
classes outside E so that their sums and differences +-(c + a), +-(c - a) are exactly the classes outside
M (the symmetric tables give within-class differences +-2a, +-2c: the classes outside 2E).

The form "threes" (no symmetric tables; a relative difference family over Z_q x Z_3 relative to {0} x Z_3
with one short block): the base round is the three turns of the inf table {inf_0, (a, l_a), (b, l_b),
(c, l_c)}, its classes l distinct, and of (q - 3) / 4 tables of four points (x, l_x). It is a round iff the
x of all these q points are Z_q, each once. Two points (x, i), (y, j) of different groups meet once iff their
pattern (y - x, j - i) is the pattern of exactly one ordered pair of points of one stored table (then one turn
and one shift give their table): so the 6 + 12 (q - 3) / 4 = 3 (q - 1) ordered patterns must cover every
(d, delta), d != 0 mod q, delta in Z_3, exactly once; inf_k meets each class once at each shift. Found in two
steps (optimizer.constructions.quotients): the quotient, a partition of Z_q into one set of three and sets of
four whose differences cover each nonzero residue three times; then its lifts, the classes l, such that the
three ordered pairs (r, s) of a set with s - r = d get l_s - l_r = 0, 1, 2 once each.

How the stored bases were found: `python -m optimizer.constructions.packings` builds one CP-SAT model of
the turned tables' values and the matching together (one worker, seed 0, a deterministic-time limit: a
run repeats itself) for the form "one": the inf table and one table of three players of a class and one of
the next, the least that balances the counts. That form is infeasible for most q: CP-SAT proves it in
seconds for every q from 11 to 83 but 35 and 63 (63 not tried: 192 players come from the weighting); it
was found for q = 7, 35, 91 and 119 (24, 108, 276, 360 players; 91 and 119 with `--limit 300`), and is
unknown within 20 s for the other q to 131. Tried and not kept (nothing found): a larger form (two tables
of three and one, one of two, one and one) for q = 23 in 12 minutes, and the turns taken with a multiplier
u (u^2 + u + 1 = 0 mod q) for q = 19 within 200 deterministic seconds.
`python -m optimizer.constructions.packings --form threes` (each entry says how it was found: repeatable)
found q = 23, 27, 31, 39, 43 (72 to 132 players; tabu, 4000 steps, seeds 0 or 1, about a second each), 51 and
59 (156 and 180; 10 000 steps, seeds 0 and 1, seconds), and, by the annealing over the orbits of a multiplier
of order 3 with an orbit for the set of three, 67, 103 and 111 (204, 312, 336; multipliers 29, 46, 10, seeds
0, 2, 0, under 10 s in all; 67 had failed by the tabu, 16 seeds of 10 000 steps). Not found: q = 71 (the tabu,
seed 0, 40 000 steps, hovers at an excess of 4 to 8; an annealing of single swaps, 2 million steps, then 13
CP-SAT re-partitions of six sets at a time stay at sum |count - 3| = 8; for 67 the same annealing stopped at 4
after 8 million steps); 75, 83, 87, 107, 115, 123, 131 not tried: none has a multiplier of order 3 (3 does not
divide their groups of units' orders), and the -1-invariant quotient is impossible for q prime to 6 (all its
sets must be {+-x, +-y} and the set of three {0, +-a}; summing the squares of the classes covered gives a^2 =
0 mod q). Three fixed residues {0, q/3, 2q/3} cannot be the set of three either (its levels would be 0, l,
2l). The framing over the packing of 72 builds 348 = 23 x 15 + 3 at the bound.
Every stored base is checked when loaded: developed, repeat-free, and every player meeting the 3q others
outside its group.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from optimizer.constructions.resolvable import base_round as symmetric_tables
from optimizer.constructions.rotational import Shape, expand
from optimizer.seats import is_repeat_free, meetings

BASES_FILE = Path(__file__).parent / "bases.json"
INF = "inf"

Entry = tuple[int | str, int]  # (x, class) or (INF, class)


class BadBase(ValueError):
    """A stored base round whose day is not a resolvable maximum packing."""


def base_round(q: int, turned: list[list[Entry]], pairs: list[tuple[int, int]]) -> np.ndarray:
    """(v / 4, 4): the turned tables and their turns, then the symmetric tables of the pairs."""
    shape = Shape(q, 3, 3)
    tables = []
    for table in turned:
        for k in range(3):
            tables.append([3 * q + (c + k) % 3 if x == INF else shape.player(int(x), (c + k) % 3) for x, c in table])
    return np.array(tables + symmetric_tables(q, pairs)[1:].tolist(), dtype=np.int64)


def develop(q: int, base: np.ndarray, rounds: int) -> np.ndarray:
    return expand(base, Shape(q, 3, 3), rounds)


def is_packing(seats: np.ndarray, q: int) -> bool:
    """Repeat-free, and the pairs that never meet are exactly the groups'."""
    v = 3 * q + 3
    if seats.shape != (q, v // 4, 4) or not is_repeat_free(seats, v, q):
        return False
    group = np.where(np.arange(v) < 3 * q, np.arange(v) % q, q)  # (x, i) is player i * q + x
    apart = (meetings(seats, v) == 0) & ~np.eye(v, dtype=bool)
    return bool((apart == (group[:, None] == group[None, :]) & ~np.eye(v, dtype=bool)).all())


@cache
def stored_bases() -> dict[int, np.ndarray]:
    """q -> its base round, each checked as a whole day; a bad entry refuses the file."""
    data = json.loads(BASES_FILE.read_text(encoding="utf-8"))
    found = {}
    for key, entry in data["bases"].items():
        q = int(key)
        turned = [[(x, int(c)) for x, c in table] for table in entry["turned"]]
        base = base_round(q, turned, [(int(a), int(c)) for a, c in entry["pairs"]])
        if q % 4 != 3 or len(base) != (3 * q + 3) // 4 or not is_packing(develop(q, base, q), q):
            raise BadBase(f"{BASES_FILE.name}: the base round for q = {q} is not a resolvable maximum packing")
        found[q] = base
    return found


def packing_rounds(player_count: int) -> int:
    """Rounds the stored bases give this room: q = v / 3 - 1 where one is stored, else 0."""
    q, rest = divmod(player_count - 3, 3)
    return q if not rest and q in stored_bases() else 0


def packing_seating(player_count: int, rounds: int) -> np.ndarray | None:
    """The first `rounds` rounds of the packing, or None if none is stored or it is shorter."""
    q = packing_rounds(player_count)
    return develop(q, stored_bases()[q], rounds) if 1 <= rounds <= q else None
