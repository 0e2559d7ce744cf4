"""Find and store base rounds: `python -m optimizer.constructions.matchings [--m 22 26 ...] [--nodes N]`.

A depth-first search fills the base round's tables (optimizer.constructions.matchings states the
conditions) seat by seat, each value the first in an order shuffled by a seeded generator that uses no type
twice, and restarts with the next seed after a fixed number of nodes: a run repeats itself exactly. With
`--fewest` it fills next the table whose next seat has the fewest values left (the most-constrained-first
order of Knuth's Algorithm X), trying them in a seeded order; an entry found so says `"fewest": true`. With a
cube root of unity u != 1 in Z_m it searches the turned tables (values of class c divided by u^c, so that
every type is read in class 0 or the classes (0, 1)); else all the tables, each class its own values.

The forms: `t` tables of three players of class 0 and one of class `single`, `t` of two of class 0, one of
class 1 and one of class 2, the rest two of class 0 and two of class 1 (unturned, each form's table with
its classes raised by 1 and 2 as well). At least one t > 0: the parity count of the package docstring.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator
from math import gcd

from optimizer.constructions.matchings import BASES_FILE, stored_bases
from optimizer.constructions.stored import save_bases

MS = list(range(22, 131, 4))  # 68 to 392 players
NODES = 200_000  # per seed
SEEDS = 8
Form = list[list[int]]  # each table's classes


class _OutOfNodes(Exception):
    pass


def turn_of(m: int) -> int:
    """The least cube root of unity u != 1 in Z_m, or 0 if there is none."""
    return next((u for u in range(2, m) if gcd(u, m) == 1 and pow(u, 3, m) == 1), 0)


def forms(m: int, turned: bool) -> list[tuple[str, Form]]:
    """(name, classes of each table searched) for every t and single class, the most tables of three and
    the single class 2 first (the forms found first for m = 14, 18 and 26)."""
    k = (m - 2) // 4
    found = []
    for t in range(k // 2, 0, -1):
        for single in (2, 1):
            rep = [[0, 0, 1, 1]] * (k - 2 * t) + [[0, 0, 0, single]] * t + [[0, 0, 1, 2]] * t
            form = rep if turned else [[(c + s) % 3 for c in table] for s in range(3) for table in rep]
            found.append((f"t={t} single={single}", form))
    return found


class _Search:
    """The state of one seeded search: values used per pool, types used, the values placed."""

    def __init__(self, m: int, turn: int, form: Form, seed: int, nodes: int, fewest: bool = False) -> None:
        self.m, self.u, self.form, self.nodes, self.fewest = m, turn or 1, form, nodes, fewest
        self.turned, self.rng, self.count = bool(turn), random.Random(seed), 0
        self.pools = 1 if turn else 3
        self.value_used = [[False] * m for _ in range(self.pools)]
        self.within_used = [[False] * (m // 2) for _ in range(self.pools)]
        self.between_used = [[False] * m for _ in range(self.pools)]
        self.slots = [(t, i) for t in range(len(form)) for i in range(4)]
        self.values: dict[tuple[int, int], int] = {}

    def pool(self, c: int) -> int:
        return 0 if self.turned else c

    def types(self, t: int, i: int, v: int) -> list[tuple[bool, int, int]] | None:
        """(within, pool, value) of each pair the value makes with the seats before it; None if forbidden."""
        m, classes, found = self.m, self.form[t], []
        for j in range(i):
            w, c, d = self.values[t, j], classes[j], classes[i]
            if c == d:
                h = min((v - w) % m, (w - v) % m)
                if h == m // 2:
                    return None
                found.append((True, self.pool(c), h))
            elif (c + 1) % 3 == d:
                found.append((False, self.pool(c), (self.u * v - w) % m))
            else:
                found.append((False, self.pool(d), (self.u * w - v) % m))
        return found

    def free(self, types: list[tuple[bool, int, int]]) -> bool:
        if len(set(types)) < len(types):
            return False
        return not any((self.within_used if within else self.between_used)[p][x] for within, p, x in types)

    def mark(self, types: list[tuple[bool, int, int]], used: bool) -> None:
        for within, p, x in types:
            (self.within_used if within else self.between_used)[p][x] = used

    def values_left(self, t: int, i: int) -> list[int]:
        """The values seat i of table t may take by its pool and the order of its class's seats."""
        c, pool = self.form[t][i], self.pool(self.form[t][i])
        least = self.values[t, i - 1] + 1 if i and self.form[t][i - 1] == c else 1  # seats of one class in order
        return [v for v in range(least, self.m) if not self.value_used[pool][v]]

    def options(self, t: int, i: int, values: list[int]) -> Iterator[tuple[int, list[tuple[bool, int, int]]]]:
        """(value, types) of each of `values` seat i of table t can take now, in their order."""
        for v in values:
            types = self.types(t, i, v)
            if types is not None and self.free(types):
                yield v, types

    def next_seat(self, s: int) -> tuple[int, int, list] | None:
        """The seat to fill at step s and its options: the next in order, or (fewest) the next seat of the
        table whose next seat has the fewest options (Knuth's most-constrained-first; none if one has none)."""
        if not self.fewest:  # the values shuffled before they are tried (the stored entries' order)
            t, i = self.slots[s]
            values = self.values_left(t, i)
            self.rng.shuffle(values)
            return t, i, list(self.options(t, i, values))
        best: tuple[int, int, list] | None = None
        for t in range(len(self.form)):
            i = next((i for i in range(4) if (t, i) not in self.values), 4)
            if i < 4:
                found = list(self.options(t, i, self.values_left(t, i)))
                if best is None or len(found) < len(best[2]):
                    best = (t, i, found)
                if not found:
                    break
        return best

    def fill(self, s: int) -> bool:
        self.count += 1
        if self.count > self.nodes:
            raise _OutOfNodes
        if s == len(self.slots):
            return True
        seat = self.next_seat(s)
        assert seat is not None  # s < len(self.slots): a seat is empty
        t, i, options = seat
        if self.fewest:
            self.rng.shuffle(options)
        for v, types in options:
            c = self.form[t][i]
            self.value_used[self.pool(c)][v], self.values[t, i] = True, v
            self.mark(types, True)
            if self.fill(s + 1):
                return True
            self.value_used[self.pool(c)][v] = False
            self.mark(types, False)
            del self.values[t, i]
        return False

    def infinities(self) -> Iterator[tuple[list[int], list[tuple[int, int, int]]]]:
        """inf_1's values (class 0, 1, 2; inf_0 has 0, 0, 0) and the (pool, value, difference) it takes, in a
        seeded order (the node limit ends it); turned, one value b for (b, u b, u^2 b)."""
        m, u = self.m, self.u
        if self.turned:
            bs = [b for b in range(1, m) if (u - 1) * b % m]
            self.rng.shuffle(bs)
            yield from (([b], [(0, b, (u - 1) * b % m)]) for b in bs)
            return
        while True:
            a, b, c = (self.rng.randrange(1, m) for _ in range(3))
            if len({a, b, c}) == 3:
                yield [a, b, c], [(0, a, (b - a) % m), (1, b, (c - b) % m), (2, c, (a - c) % m)]

    def run(self) -> tuple[list[int], dict[tuple[int, int], int]] | None:
        for p in range(self.pools):
            self.value_used[p][0] = self.between_used[p][0] = True  # inf_0's table
            self.within_used[p][0] = True  # no class 0: the difference 0 is no pair
        for values, taken in self.infinities():
            for p, v, d in taken:
                self.value_used[p][v] = self.between_used[p][d] = True
            if self.fill(0):
                return values, dict(self.values)
            for p, v, d in taken:
                self.value_used[p][v] = self.between_used[p][d] = False
        return None


def search(m: int, form: Form, seed: int, nodes: int = NODES, fewest: bool = False) -> dict | None:
    """The stored entry (turn, inf tables, tables), or None within `nodes` nodes or if there is none."""
    turn = turn_of(m)
    try:
        found = _Search(m, turn, form, seed, nodes, fewest).run()
    except _OutOfNodes:
        return None
    if found is None:
        return None
    infinity, values = found
    if turn:
        b = infinity[0]
        infinity = [b * pow(turn, c, m) % m for c in range(3)]
        tables = [[[values[t, i] * pow(turn, c, m) % m, c] for i, c in enumerate(cl)] for t, cl in enumerate(form)]
    else:
        tables = [[[values[t, i], c] for i, c in enumerate(cl)] for t, cl in enumerate(form)]
    return {"turn": turn, "fixed": [[0, 0, 0], infinity], "tables": tables}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimizer.constructions.matchings", description=__doc__)
    parser.add_argument("--m", type=int, nargs="*", help="values of m = 2 mod 4 (default 22 to 130)")
    parser.add_argument("--nodes", type=int, default=NODES, help="nodes per seed")
    parser.add_argument("--seeds", type=int, default=SEEDS)
    parser.add_argument("--fewest", action="store_true", help="fill the most constrained table first")
    args = parser.parse_args(argv)
    stored = json.loads(BASES_FILE.read_text(encoding="utf-8"))["bases"] if BASES_FILE.exists() else {}
    for m in args.m or MS:
        entry = None
        for seed in range(args.seeds):  # a restart schedule: every form at each seed
            for name, form in forms(m, bool(turn_of(m))):
                entry = search(m, form, seed, args.nodes, args.fewest)
                if entry:
                    how = {"fewest": True, "nodes": args.nodes} if args.fewest else {}
                    entry = {"form": name, "seed": seed, **how, **entry}
                    break
            if entry:
                break
        print(
            f"m = {m:3d} ({3 * m + 2} players): {entry['form'] + ', seed ' + str(entry['seed']) if entry else 'none'}"
        )
        if entry:
            stored[str(m)] = entry
            save_bases(BASES_FILE, stored)
            stored_bases.cache_clear()


if __name__ == "__main__":
    main()
