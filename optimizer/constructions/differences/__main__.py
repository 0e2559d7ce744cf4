"""Regenerate the stored difference rows: `python -m optimizer.constructions.differences [--tables 18 21 ...]`.

For each table count T (default 17 to 50: 68 to 200 players) it tries R = T (T - 1 for even T) rounds and
then fewer, down to one more than the speed rule gives, by backtracking over the rounds in turn: f_0 = 0,
f_1(r) = r, then f_2(r) and f_3(r) drawn from the values that keep every row difference injective, in
an order shuffled by a seeded generator, within a fixed number of nodes per R. No clock decides anything,
so a run repeats itself exactly. The first R reached is stored (optimizer.constructions.differences).
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from optimizer.constructions.differences import ROWS_FILE, stored_rows
from optimizer.constructions.speeds import speed_rounds

TABLES = range(17, 51)
NODES = 200_000  # per R tried: about 2 to 6 s in pure Python on this project's 2-core machine
SEED = 0


def search_rows(tables: int, rounds: int, seed: int = SEED, nodes: int = NODES) -> np.ndarray | None:
    """Rows (4, rounds) over Z_tables with every difference injective, or None within `nodes` nodes."""
    rng = random.Random(seed)
    f2, f3 = [0] * rounds, [0] * rounds
    # Values taken so far by f2, f2 - f1 (the round's column), f3, f3 - f1 and f3 - f2.
    used: list[set[int]] = [set() for _ in range(5)]
    count = 0

    def take(values: tuple[int, ...], rows: tuple[int, ...], keep: bool) -> None:
        for row, value in zip(rows, values, strict=True):
            (used[row].add if keep else used[row].discard)(value)

    def place(r: int) -> bool:
        nonlocal count
        count += 1
        if r == rounds:
            return True
        if count > nodes:
            return False
        seconds = [a for a in range(tables) if a not in used[0] and (a - r) % tables not in used[1]]
        rng.shuffle(seconds)
        for a in seconds:
            second = (a, (a - r) % tables)
            take(second, (0, 1), keep=True)
            thirds = [
                b
                for b in range(tables)
                if b not in used[2] and (b - r) % tables not in used[3] and (b - a) % tables not in used[4]
            ]
            rng.shuffle(thirds)
            for b in thirds:
                third = (b, (b - r) % tables, (b - a) % tables)
                take(third, (2, 3, 4), keep=True)
                f2[r], f3[r] = a, b
                if place(r + 1):
                    return True
                take(third, (2, 3, 4), keep=False)
            take(second, (0, 1), keep=False)
        return False

    if not place(0):
        return None
    return np.array([[0] * rounds, list(range(rounds)), f2, f3], dtype=np.int64)


def longest_rows(tables: int) -> np.ndarray | None:
    """The rows for the most rounds found, from T (T - 1 if even) down, if they outlast the speed rule."""
    for rounds in range(tables - (tables % 2 == 0), speed_rounds(4 * tables), -1):
        rows = search_rows(tables, rounds)
        if rows is not None:
            return rows
    return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimizer.constructions.differences", description=__doc__)
    parser.add_argument(
        "--tables", type=int, nargs="*", help=f"table counts (default {TABLES.start}-{TABLES.stop - 1})"
    )
    args = parser.parse_args(argv)
    stored = {tables: rows.tolist() for tables, rows in stored_rows().items()} if ROWS_FILE.exists() else {}
    for tables in args.tables or TABLES:
        start = time.monotonic()
        rows = longest_rows(tables)
        took = time.monotonic() - start
        if rows is None:
            print(f"{tables:3d} tables: nothing beyond the speed rule ({took:.1f} s)", flush=True)
            continue
        stored[tables] = rows.tolist()
        print(f"{tables:3d} tables: {rows.shape[1]} rounds (speed rule {speed_rounds(4 * tables)}, {took:.1f} s)")
        _save(stored)


def _save(stored: dict[int, list]) -> None:
    """One row per line, table counts in order."""
    entries = ",\n".join(
        f'  "{tables}": [' + ", ".join(json.dumps(row, separators=(",", ":")) for row in stored[tables]) + "]"
        for tables in sorted(stored)
    )
    head = json.dumps({"seed": SEED, "nodes": NODES})[:-1]
    ROWS_FILE.write_text(head + ', "rows": {\n' + entries + "\n}}\n", encoding="utf-8")
    stored_rows.cache_clear()


if __name__ == "__main__":
    main()
