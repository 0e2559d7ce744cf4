"""Resolvable transversal designs RTD(4, m) for orders the finite fields miss (12, 14, 15: a factor 2 or 3):
developed from a (m, 5, 1) difference matrix over an abelian group of order m, or from a quasi-difference
matrix over a group of order m - 1 and a point at infinity, stored ahead and checked when loaded.

The mathematics (C. J. Colbourn and J. H. Dinitz, eds., Handbook of Combinatorial Designs, 2nd ed., 2007,
VI.17; T. Beth, D. Jungnickel and H. Lenz, Design Theory, 2nd ed., 1999, VIII.3):

- A (m, 5, 1) difference matrix over an abelian group G of order m is a 5 x m array D over G in which, for
  any two rows i != j, the differences D[j][c] - D[i][c] over the m columns c run through G exactly once.
  Its development is a transversal design TD(5, m): groups {i} x G, blocks {(i, D[i][c] + g) : i < 5} for
  every column c and g in G; two points (i, x), (j, y) of different groups share the one block with
  D[j][c] - D[i][c] = y - x and g = x - D[i][c]. No cyclic group of even order has one (it has no complete
  mapping), so G is a product of cyclic groups Z_n1 x Z_n2 x ..., its elements numbered in mixed radix (the
  last factor fastest).
- A (m - 1, 5; 1, 1; 1) quasi-difference matrix over G of order m - 1 is a 5 x (m + 1) array over G and a
  point inf (inf + g = inf), each row holding inf once and no column twice, in which for any two rows the
  differences over the m - 1 columns where both are in G run through G once. Its development, with the
  block of all inf added, is a TD(5, m) on groups {i} x (G + inf): two points of G meet as above; (i, inf)
  and (j, y) in the translate of the column with inf in row i that puts y in row j; the two infs in the
  added block. This is how the order 14 is built, over Z_13 (3 MOLS(14): D. T. Todorov, Ars Combin. 20,
  1985; no group of order 14 has a difference matrix).

Either way the m blocks through a point of the fifth group miss each other and cover the first four
groups, so deleting the fifth group leaves a resolvable TD(4, m): round y is the blocks through (4, y),
two players of different groups at one table exactly once. (An RTD(4, m) exists for every m but 2, 3, 6
and 10: Handbook III.3.) A stored matrix is refused unless its development is a TD(5, m).

`python -m optimizer.constructions.matrices` finds the matrices with CP-SAT (one worker, seed 0, a
deterministic-time limit: a run repeats itself).
"""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations
from pathlib import Path

import numpy as np

MATRICES_FILE = Path(__file__).parent / "matrices.json"
ROWS = 5
INFINITY = -1  # a quasi-difference matrix's point at infinity, null in the file


class BadMatrix(ValueError):
    """A stored matrix whose development is not a transversal design."""


def elements(group: list[int]) -> np.ndarray:
    """(m, len(group)): every element of Z_n1 x Z_n2 x ... as its coordinates, in numbering order."""
    return np.array(np.unravel_index(np.arange(int(np.prod(group))), group)).T


def combine(group: list[int], x: np.ndarray, y: np.ndarray, sign: int = -1) -> np.ndarray:
    """x - y (or x + y with sign 1) in the group, element numbers in and out."""
    coords = (elements(group)[x] + sign * elements(group)[y]) % np.array(group)
    return np.ravel_multi_index(tuple(coords.T), group)


def development(group: list[int], rows: np.ndarray) -> np.ndarray:
    """(blocks, 5): every column's translates by the group's elements in order, column after column, then
    the block of all inf if the matrix has one; inf is the point numbered |G|."""
    order = int(np.prod(group))
    columns, shifts = np.repeat(rows.T, order, axis=0), np.tile(np.arange(order), rows.shape[1])
    blocks = np.where(
        columns == INFINITY,
        order,
        combine(group, np.maximum(columns, 0).ravel(), shifts.repeat(ROWS), sign=1).reshape(columns.shape),
    )
    return np.vstack([blocks, np.full((1, ROWS), order)]) if (rows == INFINITY).any() else blocks


def is_transversal(blocks: np.ndarray, m: int) -> bool:
    """Whether the blocks are a TD(5, m): m^2 of them, every two points of different groups in one."""
    if blocks.shape != (m * m, ROWS) or blocks.min() < 0 or blocks.max() >= m:
        return False
    return all(np.unique(blocks[:, i] * m + blocks[:, j]).size == m * m for i, j in combinations(range(ROWS), 2))


@cache
def stored_matrices() -> dict[int, tuple[list[int], np.ndarray]]:
    """m -> (group, matrix, inf as INFINITY), each checked; a bad entry refuses the file."""
    data = json.loads(MATRICES_FILE.read_text(encoding="utf-8"))
    found = {}
    for key, entry in data["matrices"].items():
        group = [int(n) for n in entry["group"]]
        rows = np.array([[INFINITY if x is None else x for x in row] for row in entry["rows"]], dtype=np.int64)
        if len(rows) != ROWS or not is_transversal(development(group, rows), int(key)):
            raise BadMatrix(f"{MATRICES_FILE.name}: the matrix for m = {key} does not develop into a TD(5, {key})")
        found[int(key)] = (group, rows)
    return found


def matrix_rtd(m: int) -> np.ndarray:
    """(m rounds, m tables, 4 groups): the point of group i at each table of the RTD(4, m); round y the blocks
    through the fifth group's point y, in the development's order."""
    blocks = development(*stored_matrices()[m])
    return blocks[np.argsort(blocks[:, ROWS - 1], kind="stable"), : ROWS - 1].reshape(m, m, ROWS - 1)
