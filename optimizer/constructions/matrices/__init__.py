"""Resolvable transversal designs RTD(4, m) for orders the finite fields miss (12, 24: a factor 2 or 3):
developed from a (m, 5, 1) difference matrix over an abelian group of order m, stored ahead and checked
when loaded.

The mathematics. A (m, 5, 1) difference matrix over an abelian group G of order m is a 5 x m array D over
G in which, for any two rows i != j, the differences D[j][c] - D[i][c] over the m columns c run through G
exactly once (C. J. Colbourn and J. H. Dinitz, eds., Handbook of Combinatorial Designs, 2nd ed., 2007,
VI.17; T. Beth, D. Jungnickel and H. Lenz, Design Theory, 2nd ed., 1999, VIII.3). Its development is a
transversal design TD(5, m): groups {i} x G, blocks {(i, D[i][c] + g) : i < 5} for every column c and
g in G; two points (i, x), (j, y) of different groups share the one block with D[j][c] - D[i][c] = y - x
and g = x - D[i][c]. The m blocks through a point (4, y) of the fifth group miss each other and cover the
first four groups, so deleting the fifth group leaves a resolvable TD(4, m): round y, table c is
{(i, D[i][c] - D[4][c] + y) : i < 4}, two players of different groups at one table exactly once. (An
RTD(4, m) exists for every m but 2, 3, 6 and 10: Handbook III.3.) No cyclic group of even order has one
(it has no complete mapping), so G is a product of cyclic groups Z_n1 x Z_n2 x ..., its elements numbered
in mixed radix (the last factor fastest).

`python -m optimizer.constructions.matrices` finds the matrices with CP-SAT (one worker, seed 0, a
deterministic-time limit: a run repeats itself), with the first row and column zero.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

MATRICES_FILE = Path(__file__).parent / "matrices.json"
ROWS = 5


class BadMatrix(ValueError):
    """A stored matrix whose rows' differences do not run through the group once."""


def elements(group: list[int]) -> np.ndarray:
    """(m, len(group)): every element of Z_n1 x Z_n2 x ... as its coordinates, in numbering order."""
    return np.array(np.unravel_index(np.arange(int(np.prod(group))), group)).T


def combine(group: list[int], x: np.ndarray, y: np.ndarray, sign: int = -1) -> np.ndarray:
    """x - y (or x + y with sign 1) in the group, element numbers in and out."""
    coords = (elements(group)[x] + sign * elements(group)[y]) % np.array(group)
    return np.ravel_multi_index(tuple(coords.T), group)


def is_difference_matrix(group: list[int], rows: np.ndarray) -> bool:
    m = int(np.prod(group))
    if rows.shape != (ROWS, m) or rows.min() < 0 or rows.max() >= m:
        return False
    return all(
        sorted(combine(group, rows[j], rows[i]).tolist()) == list(range(m))
        for i in range(ROWS)
        for j in range(i + 1, ROWS)
    )


@cache
def stored_matrices() -> dict[int, tuple[list[int], np.ndarray]]:
    """m -> (group, matrix), each checked; a bad entry refuses the file."""
    data = json.loads(MATRICES_FILE.read_text(encoding="utf-8"))
    found = {}
    for key, entry in data["matrices"].items():
        group, rows = [int(n) for n in entry["group"]], np.array(entry["rows"], dtype=np.int64)
        if int(np.prod(group)) != int(key) or not is_difference_matrix(group, rows):
            raise BadMatrix(f"{MATRICES_FILE.name}: the matrix for m = {key} is not a ({key}, 5, 1) difference matrix")
        found[int(key)] = (group, rows)
    return found


def matrix_rtd(m: int) -> np.ndarray:
    """(m rounds, m tables, 4 groups): the point of group i at each table of the RTD(4, m)."""
    group, rows = stored_matrices()[m]
    offsets = np.stack([combine(group, rows[i], rows[ROWS - 1]) for i in range(ROWS - 1)], axis=1)  # (m, 4)
    rounds = np.arange(m).repeat(m * 4)
    return combine(group, np.tile(offsets.ravel(), m), rounds, sign=1).reshape(m, m, 4)
