"""Find and store difference matrices: `python -m optimizer.constructions.matrices [--order 12 ...]`.

One CP-SAT model per order m over its stored group (optimizer.constructions.matrices states the condition):
row 0 and column 0 zero, every other row a permutation of the group, and for every pair of rows the
differences, read from the group's subtraction table by an element constraint, all different. One worker,
seed 0, a deterministic-time limit: a run repeats itself.

For a group of odd order the model looks only among the odd matrices: row 1 the identity (columns
reordered) and every row an odd function of its column, D[i][-c] = -D[i][c]. Negation is then an
automorphism of the matrix, which cuts the search to half the columns: Z_15's is found in 3.5 s, where the
unrestricted model was still unknown after 10 minutes (measured). What it finds is checked when loaded like
any other matrix.

Orders with no group of their own (14) get a quasi-difference matrix over Z_(m - 1) and a point at
infinity instead (optimizer.constructions.matrices.quasi).
"""

from __future__ import annotations

import argparse
import json

import numpy as np
from ortools.sat.python import cp_model

from optimizer.constructions.matrices import MATRICES_FILE, ROWS, combine, stored_matrices
from optimizer.constructions.matrices.quasi import search_quasi
from optimizer.constructions.stored import solve_ahead

GROUPS = {12: [2, 2, 3], 15: [15], 24: [2, 2, 2, 3]}
QUASI = {14: 13}  # order m: a quasi-difference matrix over Z_(m - 1)
DETERMINISTIC_LIMIT = 200.0


def search(group: list[int], limit: float = DETERMINISTIC_LIMIT) -> tuple[list[list[int]] | None, str]:
    """The matrix's rows (element numbers) and the solver's status."""
    m = int(np.prod(group))
    everything = np.arange(m)
    table = combine(group, everything.repeat(m), np.tile(everything, m)).tolist()  # x - y at x * m + y
    model = cp_model.CpModel()
    rows = [
        [model.new_int_var(0, 0 if i == 0 or c == 0 else m - 1, f"d{i}_{c}") for c in range(m)] for i in range(ROWS)
    ]
    for row in rows[1:]:
        model.add_all_different(row)
    if m % 2:
        _odd(model, group, rows)
    for i in range(ROWS):
        for j in range(i + 1, ROWS):
            differences = []
            for c in range(m):
                at, difference = model.new_int_var(0, m * m - 1, ""), model.new_int_var(0, m - 1, "")
                model.add(at == m * rows[j][c] + rows[i][c])
                model.add_element(at, table, difference)
                differences.append(difference)
            model.add_all_different(differences)
    solver, status = solve_ahead(model, limit)
    if solver is None:
        return None, status
    return [[solver.value(x) for x in row] for row in rows], status


def _odd(model: cp_model.CpModel, group: list[int], rows: list[list[cp_model.IntVar]]) -> None:
    """Row 1 the identity, every row odd: D[i][-c] = -D[i][c] (the module's docstring says why)."""
    m = int(np.prod(group))
    negative = combine(group, np.zeros(m, dtype=np.int64), np.arange(m)).tolist()
    for c in range(m):
        model.add(rows[1][c] == c)
        for row in rows[2:]:
            model.add_element(row[c], negative, row[negative[c]])


def find(m: int, limit: float = DETERMINISTIC_LIMIT) -> tuple[list[int], list[list[int | None]] | None, str]:
    """The group, the matrix of order m (None for inf) and the solver's status."""
    if m in GROUPS:
        rows, status = search(GROUPS[m], limit)
        return GROUPS[m], [list(row) for row in rows] if rows else None, status
    quasi, status = search_quasi(QUASI[m], limit)
    return [QUASI[m]], quasi, status


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimizer.constructions.matrices", description=__doc__)
    orders = sorted(GROUPS | QUASI)
    parser.add_argument("--order", type=int, nargs="*", choices=orders, help="orders m (default all)")
    parser.add_argument("--limit", type=float, default=DETERMINISTIC_LIMIT, help="deterministic seconds per model")
    args = parser.parse_args(argv)
    stored = json.loads(MATRICES_FILE.read_text(encoding="utf-8"))["matrices"] if MATRICES_FILE.exists() else {}
    for m in args.order or orders:
        group, rows, status = find(m, args.limit)
        print(
            f"m = {m} over Z_{' x Z_'.join(map(str, group))}{'' if m in GROUPS else ' and inf'}: {status}", flush=True
        )
        if rows:
            stored[str(m)] = {"group": group, "rows": rows}
            lines = ",\n".join(f'  "{k}": {json.dumps(stored[k])}' for k in sorted(stored, key=int))
            MATRICES_FILE.write_text('{"matrices": {\n' + lines + "\n}}\n", encoding="utf-8")
            stored_matrices.cache_clear()


if __name__ == "__main__":
    main()
