"""Resolvable designs of 3q + 1 players over Z_q with their classes turned, by exact cover: the designs the
signed doubling (optimizer.constructions.doubling) needs, where the stored ones of optimizer.constructions
.resolvable have every table two of one class and two of another (an odd dependency of its sign system).

The mathematics. Players are Z_q x {0, 1, 2} and inf (player c q + x, inf = 3q), q = 1 (mod 4); round t is
the base round moved by t (optimizer.constructions.rotational). The base round is invariant under turning
the classes, (x, c) -> (x, c + 1): inf's table is {inf, (0, 0), (0, 1), (0, 2)} and the others come in
threes, a representative R and its two turns. So the representatives split Z_q \\ {0} into (q - 1) / 4 sets
of four, each point with a class. A pair (x, c), (y, d) of one representative has the type +-(y - x) within
a class (d = c), y - x between classes c and c + 1 (d = c + 1) or x - y (c = d + 1): turning does not change
the type, and over the q moves a type seen once meets each of its pairs once. So the day is a resolvable
design (every pair once) iff each within-class type +-d, 0 < d <= (q - 1) / 2, and each between-class type
delta != 0 occurs exactly once (delta = 0 is inf's table's): an exact cover whose items are the q - 1 points
and the 3 (q - 1) / 2 types, and whose options are the candidate representatives (4 points, the least of
class 0, six distinct types). Knuth's Algorithm X (D. E. Knuth, "Dancing links", 2000) picks the item with
the fewest options left, trying them in a seeded order.

Found: q = 17 in 3 s (1 043 nodes); q = 25 at seed 1 in 880 s (148 445 nodes, seed 0 none in 400 s).
"""

from __future__ import annotations

import random
import time
from itertools import combinations, product

import numpy as np

from optimizer.constructions.rotational import Shape, expand
from optimizer.seats import Seats

Representative = tuple[tuple[int, int], ...]  # (x, class) of its four players
Item = tuple[str, int]  # ("point", x), ("within", d) or ("between", delta)
Option = tuple[Representative, list[Item]]


class _OutOfTime(Exception):
    pass


def turned_design(q: int, reps: list[Representative]) -> Seats:
    """(q, (3q + 1) / 4, 4): the day of the base round {inf, (0, c)} and every representative with its turns."""
    shape = Shape(q, 3, 1)
    base = [[3 * q, *(shape.player(0, c) for c in range(3))]]
    base += [[shape.player(x, (c + k) % 3) for x, c in rep] for rep in reps for k in range(3)]
    return expand(np.array(base, dtype=np.int64), shape, q)


def search_representatives(q: int, seed: int, seconds: float) -> list[Representative] | None:
    """The representatives of a turned design over Z_q, or None if none is found within `seconds`."""
    options, half = _options(q), (q - 1) // 2
    items = [("point", x) for x in range(1, q)] + [("within", d) for d in range(1, half + 1)]
    columns: dict[Item, set[int]] = {item: set() for item in items + [("between", d) for d in range(1, q)]}
    for k, (_, covered) in enumerate(options):
        for item in covered:
            columns[item].add(k)
    rng = random.Random(seed)
    rank = {k: rng.random() for k in range(len(options))}
    chosen: list[int] = []
    deadline = time.monotonic() + seconds
    try:
        found = _cover(columns, options, chosen, rank, deadline)
    except _OutOfTime:
        return None
    return [options[k][0] for k in chosen] if found else None


def _options(q: int) -> list[Option]:
    """Every candidate representative and the items it covers: its points and its six types."""

    def kind(x: int, c: int, y: int, d: int) -> Item:
        if c == d:
            return ("within", min((y - x) % q, (x - y) % q))
        return ("between", (y - x) % q if d == (c + 1) % 3 else (x - y) % q)

    found: list[Option] = []
    for points in combinations(range(1, q), 4):
        for classes in product(range(3), repeat=3):
            rep = tuple(zip(points, (0, *classes), strict=True))
            types = [kind(*a, *b) for a, b in combinations(rep, 2)]
            if len(set(types)) == 6 and ("between", 0) not in types:
                found.append((rep, [("point", x) for x in points] + types))
    return found


def _cover(
    columns: dict[Item, set[int]], options: list[Option], chosen: list[int], rank: dict[int, float], deadline: float
) -> bool:
    """Algorithm X: cover the item with the fewest options left by each of them in turn."""
    if not columns:
        return True
    if time.monotonic() > deadline:
        raise _OutOfTime
    item = min(columns, key=lambda i: len(columns[i]))
    for k in sorted(columns[item], key=rank.__getitem__):
        chosen.append(k)
        removed = _select(columns, options, k)
        if _cover(columns, options, chosen, rank, deadline):
            return True
        _deselect(columns, options, k, removed)
        chosen.pop()
    return False


def _select(columns: dict[Item, set[int]], options: list[Option], k: int) -> list[set[int]]:
    removed = []
    for item in options[k][1]:
        for other in columns[item]:
            for clash in options[other][1]:
                if clash != item:
                    columns[clash].remove(other)
        removed.append(columns.pop(item))
    return removed


def _deselect(columns: dict[Item, set[int]], options: list[Option], k: int, removed: list[set[int]]) -> None:
    for item in reversed(options[k][1]):
        columns[item] = removed.pop()
        for other in columns[item]:
            for clash in options[other][1]:
                if clash != item:
                    columns[clash].add(other)
