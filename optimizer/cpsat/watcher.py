"""The CP-SAT solution callback of the day's model: keeps the best seating, reports progress, and stops the
search once nothing better can exist. A module of its own because its class derives from CP-SAT's, which is
imported only where a model is solved (optimizer.budget, "Start-up")."""

from __future__ import annotations

import time
from collections.abc import Callable

from ortools.sat.python import cp_model

from models import Progress
from optimizer.cpsat.model import SeatingModel
from optimizer.seats import Seats


class Watcher(cp_model.CpSolverSolutionCallback):
    """Keeps the best seating found and tells the director; stops once nothing better can exist."""

    def __init__(
        self, model: SeatingModel, lower_bound: int, epoch: float, on_progress: Callable[[Progress], None] | None
    ) -> None:
        super().__init__()
        self.model, self.lower_bound, self.epoch, self.on_progress = model, lower_bound, epoch, on_progress
        self.seats: Seats | None = None
        self.repeats: int | None = None
        self.best_at: float | None = None
        self.stopped_by_us = False

    def on_solution_callback(self) -> None:
        elapsed = time.monotonic() - self.epoch
        repeats = int(self.value(self.model.total_repeats))
        if self.repeats is None or repeats < self.repeats:
            self.repeats, self.best_at = repeats, elapsed
        self.seats = self.model.seating(self.boolean_value)
        bound = max(self.lower_bound, self.model.repeats_bound(self.best_objective_bound))
        if self.on_progress:
            self.on_progress(Progress(repeats=self.repeats, lower_bound=bound, elapsed=elapsed, note="CP-SAT"))
        if (
            repeats == self.lower_bound
            and self.value(self.model.club_meetings) == 0
            and self.value(self.model.worst_player) <= _fairest(repeats, self.model.player_count)
        ):
            self.stopped_by_us = True
            self.stop_search()


def _fairest(repeats: int, player_count: int) -> int:
    """No schedule's worst-off player has fewer repeats than the average share, rounded up."""
    return -(-2 * repeats // player_count)
