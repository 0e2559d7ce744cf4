"""'At most k repeats?' split by how round 2 meets round 1, for small rooms.

Relabelling players and tables makes round 1 the one in `first_round_tables`, so what a
day's round 2 adds is its overlap matrix with round 1: M[i][j] players at group i in round 1 and group
j in round 2 (groups: the tables, then the sitting-out players). Permuting round-1 tables of one size
(players and all) and relabelling round-2 tables of one size permute M's rows and columns, and, given
M, permuting players within a round-1 table fixes round 2. So one day per class of M, in its least
form, stands for all: the day space splits into one small model per class (`SeatingModel` with
`fixed_rounds`), each also assuming the room's interchangeable rounds are ordered so that rounds 1
and 2 share the most pairs. If every case is infeasible, no day has at most k repeats. This is
orbital branching (Ostrowski, Linderoth, Rossi and Smriglio, Math. Programming 126, 2011) on round 2.
A case that stays open is branched again on round 3 the same way, under what keeps its rounds 1 and
2 (the classes are listed in optimizer.cpsat.round_classes).
"""

from __future__ import annotations

import math
import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from models import Event
from optimizer.cpsat.model import SeatingModel
from optimizer.cpsat.round_classes import round_three_listable, second_rounds, third_rounds
from optimizer.seats import Seats

# Past this many groups (tables, and the players sitting out) a round 2 has too many classes to list.
SPLIT_MAX_GROUPS = 4
# Seconds a case split by round 2 gets before it is split again by round 3.
FIRST_LOOK = 1.0

Case = list[list[int]]  # the rounds fixed after round 1, each table by player (EMPTY sitting out)


@dataclass(frozen=True)
class SplitOutcome:
    seats: Seats | None  # a day with at most k repeats, if a case had one
    proven: bool  # every case was shown to have none
    cases: int  # by round 2
    refined: int  # of those, split again by round 3
    interrupted: bool

    @property
    def how(self) -> str:
        """How a proof from these cases was reached, for the bound's text."""
        again = f", {self.refined} of them again by round 3" if self.refined else ""
        return f"CP-SAT search proof, split into {self.cases} cases by round 2{again}"


def splits_by_round_two(event: Event) -> bool:
    """Rooms small enough to split, with players interchangeable (no requests) and rounds to follow."""
    layout = event.layout
    groups = layout.tables + (1 if layout.sit_outs else 0)
    requests = event.apart or event.stay or event.spread
    return groups <= SPLIT_MAX_GROUPS and event.rounds >= 3 and not requests


def _round_three_cases(event: Event, second: list[int], most: int, deadline: float) -> list[Case]:
    """A case left open by round 2, split again by round 3 where listing its classes is quick (and
    there is time left to list them)."""
    if time.monotonic() >= deadline or not round_three_listable(event, second):
        return [[second]]
    return [[second, third] for third in third_rounds(event, second, most)]


def split_probe(
    event: Event, most: int, *, time_limit: float, seed: int = 0, workers: int = 8, work_limit: float | None = None
) -> SplitOutcome:
    """Is there a day with at most `most` repeats? Cases that repeat more in round 2 alone drop out;
    the rest go easiest first (most rematches), each for at most FIRST_LOOK seconds. Those left open
    are split again by round 3 (`third_rounds`), which settles a hard case several times faster than
    one search; each of those takes an even share of the time left, so the hard ones inherit what the
    easy ones leave, and those still open are tried again with what is left. A proof is one search's
    work, so the cores take a case each rather than share one: with several workers, one per core
    runs a case of its own. `work_limit` shares CP-SAT's deterministic time the same way, one case at
    a time, so a one-worker run repeats exactly."""
    cases = [[tables] for tables, met_again in reversed(second_rounds(event)) if met_again <= most]
    lanes = 1 if work_limit is not None else max(1, min(workers, os.cpu_count() or 1))
    count, pool = (
        len(cases),
        _Cases(event, most, time.monotonic() + time_limit, seed, max(1, workers // lanes), work_limit),
    )
    seats, still_open, interrupted = pool.run(cases, lanes, cap=FIRST_LOOK)
    refined = 0
    if still_open and seats is None and not interrupted:
        cases = []
        for case in still_open:
            split_again = _round_three_cases(event, case[0], most, pool.deadline)
            refined += split_again != [case]
            cases += split_again
        for _ in range(2):
            seats, still_open, interrupted = pool.run(cases, lanes)
            if seats is not None or interrupted or not still_open:
                break
            cases = still_open
    proven = not still_open and seats is None and not interrupted
    return SplitOutcome(seats, proven, count, refined, interrupted)


@dataclass
class _Cases:
    """The cases of one split probe (each the rounds fixed after round 1), run `lanes` at a time,
    each lane a thread with its own solver.

    A case takes its share of what is left when it starts: the time left over the cases not yet
    started, times the lanes (one lane alone takes exactly an even share, as the proof text says)."""

    event: Event
    most: int
    deadline: float
    seed: int
    workers: int
    work_limit: float | None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _running: set[cp_model.CpSolver] = field(default_factory=set)

    def run(self, cases: list[Case], lanes: int, cap: float = math.inf) -> tuple[Seats | None, list[Case], bool]:
        """(a day found, the cases left open, interrupted), each case at most `cap` seconds (and units
        of work). A day found or Ctrl-C stops every lane."""
        queue, still_open, found = list(cases), [], None
        with ThreadPoolExecutor(lanes) as lanes_pool:
            futures = {lanes_pool.submit(self._attempt, queue, lanes, cap) for _ in range(lanes)}
            try:
                while futures:
                    done, futures = wait(futures, timeout=0.1, return_when=FIRST_COMPLETED)
                    for future in done:
                        seats, left_open = future.result()
                        found = found if seats is None else seats
                        still_open += left_open
                    if found is not None:
                        self._stop(queue)
            except KeyboardInterrupt:
                self._stop(queue)
                wait(futures)
                return None, still_open, True
        if found is not None:
            return found, [], False
        return None, sorted(still_open + queue, key=cases.index), False  # the queue: cases time left untried

    def _attempt(self, queue: list[Case], lanes: int, cap: float) -> tuple[Seats | None, list[Case]]:
        """One lane: take cases from the queue until it is empty, a day turns up or time runs out."""
        left_open: list[Case] = []
        while True:
            with self._lock:
                left = self.deadline - time.monotonic()
                if not queue or left <= 0 or (self.work_limit is not None and self.work_limit <= 0):
                    return None, left_open
                shares = len(queue)
                case = queue.pop(0)
                work = None if self.work_limit is None else min(cap, self.work_limit / shares)
                seconds = min(cap, left, left * lanes / (shares + lanes - 1))
                solver = _solver(seconds, work, self.seed, self.workers)
                self._running.add(solver)
            model = SeatingModel(self.event, max_repeats=self.most, fixed_rounds=case)
            status = solver.solve(model.model)
            with self._lock:
                self._running.discard(solver)
                if self.work_limit is not None:
                    self.work_limit -= solver.response_proto.deterministic_time
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return model.seating(solver.boolean_value), []
            if status != cp_model.INFEASIBLE:
                left_open.append(case)

    def _stop(self, queue: list[Case]) -> None:
        with self._lock:
            queue.clear()
            for solver in self._running:
                solver.stop_search()


def _solver(time_limit: float, work_limit: float | None, seed: int, workers: int) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    if work_limit is not None:
        solver.parameters.max_deterministic_time = work_limit
    solver.parameters.random_seed = seed
    solver.parameters.num_workers = workers
    solver.parameters.catch_sigint_signal = False  # Ctrl-C reaches Python, which stops every lane
    solver.parameters.stop_after_first_solution = True  # any day within `most` answers the question
    return solver
