"""What the searches run ahead share (`python -m optimizer.constructions.<name>`, never at run time): their
CP-SAT solve, repeatable, and the writing of what they found: one JSON file, `{"bases": {key: entry, ...}}`,
one key a line in numeric order, so that a new entry changes one line of the file's history."""

from __future__ import annotations

import json
from pathlib import Path

from ortools.sat.python import cp_model


def solve_ahead(model: cp_model.CpModel, limit: float) -> tuple[cp_model.CpSolver | None, str]:
    """Solve `model` on one worker with seed 0 within `limit` deterministic seconds, so that a run repeats
    itself on any machine at any load: the solver holding a solution (None if none was found) and the status."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers, solver.parameters.random_seed = 1, 0
    solver.parameters.max_deterministic_time = limit
    status = solver.solve(model)
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return (solver if found else None), solver.status_name(status)


def save_bases(file: Path, stored: dict) -> None:
    """Write `stored` (keys the numbers as strings) to `file`, one entry a line, in numeric order."""
    lines = ",\n".join(f'  "{k}": {json.dumps(stored[k], separators=(",", ":"))}' for k in sorted(stored, key=int))
    file.write_text('{"bases": {\n' + lines + "\n}}\n", encoding="utf-8")
