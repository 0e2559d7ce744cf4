"""The search for a (n, 5; 1, 1; 1) quasi-difference matrix over Z_n, n = 1 (mod 3) prime, with an
automorphism (optimizer.constructions.matrices states the condition; its development is a TD(5, n + 1)).

sigma multiplies every entry by u, an element of order 3 of Z_n, and moves row i to row TURN[i] (rows
1 -> 2 -> 3 -> 1; rows 0 and 4 stay). It maps the differences of rows (i, j) in a column to u times them,
in rows (TURN[i], TURN[j]) of the image, so the condition holds for sigma's image of a matrix when it holds
for the matrix. The model looks only among matrices whose columns are sigma's images of base columns, each
base fixed by its orbit's power of sigma up to a translate: the inf columns of rows 0 and 4 fixed, those of
rows 1 to 3 one orbit (INFINITE), and the n - 1 finite columns (n - 4) / 3 orbits of three and one fixed
column. Exactly one: a fixed finite column has equal entries in rows 0 and 4, and the pair (0, 4) takes the
difference 0 once, which no orbit of three can give (it would give it three times).

CP-SAT finds Z_13's in about a second; with all 15 columns free it found none in 300 deterministic seconds.
Z_19's takes 109 s and Z_37's was not found in 300 (measured; RTD(4, 20) and RTD(4, 38) are not needed).
A turn of order 4 or 2 cannot serve: u^2 = -1 would map the pair of rows (1, 3) (or the swapped pair)
onto itself with the same differences, twice in every orbit; so Z_17 (order 18) has no such automorphism.
"""

from __future__ import annotations

from itertools import combinations

from ortools.sat.python import cp_model

from optimizer.constructions.matrices import ROWS
from optimizer.constructions.stored import solve_ahead

TURN = (0, 2, 3, 1, 4)  # sigma moves row i to row TURN[i]
INFINITE = ((0, 1), (4, 1), (1, 3))  # (row of inf, orbit size)

Column = list[cp_model.IntVar | None]


def search_quasi(n: int, limit: float) -> tuple[list[list[int | None]] | None, str]:
    """The matrix's rows (None for inf) and the solver's status; every column the image of a base."""
    u = next(x for x in range(2, n) if pow(x, 3, n) == 1)
    model = cp_model.CpModel()
    orbits = [*INFINITE, *[(None, 3)] * ((n - 4) // 3), (None, 1)]
    bases = [(_base(model, n, u, inf, size), size) for inf, size in orbits]
    for i, j in combinations(range(ROWS), 2):
        model.add_all_different(
            [
                _difference(model, n, u, column, k, i, j)
                for column, size in bases
                for k in range(size)
                if column[_source(k, i)] is not None and column[_source(k, j)] is not None
            ]
        )
    solver, status = solve_ahead(model, limit)
    if solver is None:
        return None, status
    values = [([None if x is None else solver.value(x) for x in column], size) for column, size in bases]
    columns = [
        [None if (x := base[_source(k, i)]) is None else pow(u, k, n) * x % n for i in range(ROWS)]
        for base, size in values
        for k in range(size)
    ]
    return [list(row) for row in zip(*columns, strict=True)], status


def _source(k: int, row: int) -> int:
    """The row that sigma^k moves to `row`."""
    for _ in range(k):
        row = TURN.index(row)
    return row


def _base(model: cp_model.CpModel, n: int, u: int, inf: int | None, size: int) -> Column:
    """A base column (its first entry 0) that sigma^size maps to a translate of itself."""
    column: Column = [None if i == inf else model.new_int_var(0, n - 1, "") for i in range(ROWS)]
    model.add(next(x for x in column if x is not None) == 0)
    shift = model.new_int_var(0, n - 1, "")
    for row, entry in enumerate(column):
        source = column[_source(size, row)]
        if entry is not None and source is not None:
            model.add_modulo_equality(entry, pow(u, size, n) * source + n - shift, n)
    return column


def _difference(model: cp_model.CpModel, n: int, u: int, column: Column, k: int, i: int, j: int) -> cp_model.IntVar:
    """Row j minus row i in sigma^k of the column, mod n."""
    a, b = column[_source(k, i)], column[_source(k, j)]
    assert a is not None and b is not None
    difference = model.new_int_var(0, n - 1, "")
    model.add_modulo_equality(difference, pow(u, k, n) * (b - a) + n * n, n)
    return difference
