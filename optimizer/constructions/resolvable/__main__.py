"""Regenerate the stored pairs: `python -m optimizer.constructions.resolvable [--q 5 13 ...]`.

For each q = 1 mod 4 (default 5 to 133 but the multiples of 3: 16 to 400 players) a backtracking search
matches the classes {+-x} of Z_q \\ {0} in pairs {a, c} whose sums and differences fall in classes not yet hit
(optimizer.constructions.resolvable states why that makes a resolvable design). It always extends the
unmatched class with the fewest partners left, tries partners in an order shuffled by a seeded generator,
and restarts with the next seed after a fixed number of nodes, so a run repeats itself exactly. A search
that ends without a node limit proves that no matching exists for that q.
"""

from __future__ import annotations

import argparse
import json
import random

from optimizer.constructions.resolvable import PAIRS_FILE, nonzero_class, stored_pairs

QS = [q for q in range(5, 134, 4) if q % 3]  # q = 3 mod 9 or 6 mod 9: none (the package docstring)
NODES = 200_000  # per seed: well under a second for every q found here
SEEDS = 8


class _OutOfNodes(Exception):
    pass


def search_pairs(q: int, seed: int, nodes: int = NODES) -> list[tuple[int, int]] | None:
    """A matching, or None if none exists; raises _OutOfNodes past `nodes` nodes."""
    rng = random.Random(seed)
    half = (q - 1) // 2
    free, hit = set(range(1, half + 1)), set[int]()
    pairs: list[tuple[int, int]] = []
    count = 0

    def partners(a: int) -> list[int]:
        return [
            c for c in sorted(free) if c != a and len({nonzero_class(c + a, q), nonzero_class(c - a, q)} - hit) == 2
        ]

    def extend() -> bool:
        nonlocal count
        count += 1
        if count > nodes:
            raise _OutOfNodes
        if not free:
            return True
        a, options = min(((a, partners(a)) for a in sorted(free)), key=lambda item: len(item[1]))
        rng.shuffle(options)
        free.discard(a)
        for c in options:
            sums = {nonzero_class(c + a, q), nonzero_class(c - a, q)}
            free.discard(c)
            hit.update(sums)
            pairs.append((a, c))
            if extend():
                return True
            pairs.pop()
            hit.difference_update(sums)
            free.add(c)
        free.add(a)
        return False

    return sorted(pairs) if extend() else None


def find_pairs(q: int) -> tuple[list[tuple[int, int]] | None, str]:
    """The first matching over the seeds, and what happened."""
    for seed in range(SEEDS):
        try:
            pairs = search_pairs(q, seed)
        except _OutOfNodes:
            continue
        return pairs, (f"seed {seed}" if pairs else "proved: no matching exists")
    return None, f"nothing within {SEEDS} seeds of {NODES} nodes"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimizer.constructions.resolvable", description=__doc__)
    parser.add_argument("--q", type=int, nargs="*", help="values of q = 1 mod 4 (default 5-133 but the multiples of 3)")
    args = parser.parse_args(argv)
    stored = {q: list(map(list, pairs)) for q, pairs in stored_pairs().items()} if PAIRS_FILE.exists() else {}
    for q in args.q or QS:
        pairs, how = find_pairs(q)
        print(f"q = {q:3d} ({3 * q + 1} players): {'found, ' if pairs else ''}{how}", flush=True)
        if pairs:
            stored[q] = [list(pair) for pair in pairs]
            _save(stored)


def _save(stored: dict[int, list]) -> None:
    """One q per line, in order."""
    entries = ",\n".join(f'  "{q}": {json.dumps(stored[q], separators=(",", ":"))}' for q in sorted(stored))
    head = json.dumps({"seeds": SEEDS, "nodes": NODES})[:-1]
    PAIRS_FILE.write_text(head + ', "pairs": {\n' + entries + "\n}}\n", encoding="utf-8")
    stored_pairs.cache_clear()


if __name__ == "__main__":
    main()
