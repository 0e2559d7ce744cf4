"""Small readings of the array form (optimizer.seats) that the balance modules share, and their CP-SAT solver."""

from __future__ import annotations

import time

import numpy as np
from ortools.sat.python import cp_model

from optimizer.seats import Seats


def players_in(seats: Seats, player_count: int | None = None) -> int:
    """The number of players: given, or one more than the highest index seated."""
    return int(seats.max()) + 1 if player_count is None else player_count


def together(where: np.ndarray, r: int) -> np.ndarray:
    """players x players: who shares a table in round r (diagonal False)."""
    row = where[r]
    same = (row[:, None] == row[None, :]) & (row[:, None] >= 0)
    np.fill_diagonal(same, False)
    return same


def cp_solver(deadline: float, work: float | None, workers: int, seed: int) -> cp_model.CpSolver:
    """A CP-SAT solver that stops at `deadline` (time.monotonic()) or after `work` seconds of deterministic
    time if given (which on one worker repeats a run exactly)."""
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.01, deadline - time.monotonic())
    if work is not None:
        solver.parameters.max_deterministic_time = work
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    return solver
