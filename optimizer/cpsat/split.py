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
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from models import Event
from optimizer.budget import Budget, solve
from optimizer.cpsat.model import SeatingModel
from optimizer.cpsat.round_classes import round_three_listable, second_rounds, third_rounds
from optimizer.seats import Seats

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

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


def _round_three_cases(event: Event, second: list[int], most: int, budget: Budget) -> list[Case]:
    """A case left open by round 2, split again by round 3 where listing its classes is quick (and
    there is time left to list them)."""
    if budget.done() or not round_three_listable(event, second):
        return [[second]]
    return [[second, third] for third in third_rounds(event, second, most)]


def split_probe(event: Event, most: int, budget: Budget, *, seed: int = 0, workers: int = 8) -> SplitOutcome:
    """Is there a day with at most `most` repeats? Cases that repeat more in round 2 alone drop out;
    the rest go easiest first (most rematches), each for at most FIRST_LOOK seconds. Those left open
    are split again by round 3 (`third_rounds`), which settles a hard case several times faster than
    one search; each of those takes an even share of the budget left, so the hard ones inherit what the
    easy ones leave, and those still open are tried again with what is left. A proof is one search's
    work, so the cores take a case each rather than share one: with several workers, one per core
    runs a case of its own. A repeatable budget (optimizer.budget) runs one case at a time, so that a
    one-worker run repeats exactly."""
    cases = [[tables] for tables, met_again in reversed(second_rounds(event)) if met_again <= most]
    lanes = 1 if budget.repeatable else max(1, min(workers, os.cpu_count() or 1))
    count, pool = len(cases), _Cases(event, most, budget, seed, max(1, workers // lanes))
    seats, still_open = pool.run(cases, lanes, cap=FIRST_LOOK)
    refined = 0
    if still_open and seats is None and not budget.stopped:
        cases = []
        for case in still_open:
            split_again = _round_three_cases(event, case[0], most, budget)
            refined += split_again != [case]
            cases += split_again
        for _ in range(2):
            seats, still_open = pool.run(cases, lanes)
            if seats is not None or budget.stopped or not still_open:
                break
            cases = still_open
    interrupted = budget.stopped and seats is None
    proven = not still_open and seats is None and not interrupted
    return SplitOutcome(seats, proven, count, refined, interrupted)


@dataclass
class _Cases:
    """The cases of one split probe (each the rounds fixed after round 1), run `lanes` at a time,
    each lane a thread with its own solver.

    A case takes its share of what is left when it starts: the budget left over the cases not yet
    started, times the lanes (one lane alone takes exactly an even share, as the proof text says)."""

    event: Event
    most: int
    budget: Budget
    seed: int
    workers: int
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, cases: list[Case], lanes: int, cap: float = math.inf) -> tuple[Seats | None, list[Case]]:
        """(a day found, the cases left open), each case at most `cap` seconds (of work, in a repeatable
        run). A day found, or the stop token, stops every lane."""
        queue, still_open, found = list(cases), [], None
        lanes_budget = self.budget.stoppable()  # a day found stops these lanes alone
        with ThreadPoolExecutor(lanes) as lanes_pool:
            futures = {lanes_pool.submit(self._attempt, queue, lanes, cap, lanes_budget) for _ in range(lanes)}
            while futures:
                waited = self.budget.until_interrupted(partial(wait, futures, timeout=0.1, return_when=FIRST_COMPLETED))
                if waited is None:  # a library caller's own Ctrl-C set the stop token
                    continue
                done, futures = waited
                for future in done:
                    seats, left_open = future.result()
                    found = found if seats is None else seats
                    still_open += left_open
                if found is not None or self.budget.stopped:
                    with self._lock:
                        queue.clear()
                    lanes_budget.stop.set()
        if found is not None:
            return found, []
        return None, sorted(still_open + queue, key=cases.index)  # the queue: cases time left untried

    def _attempt(self, queue: list[Case], lanes: int, cap: float, budget: Budget) -> tuple[Seats | None, list[Case]]:
        """One lane: take cases from the queue until it is empty, a day turns up or the budget runs out."""
        left_open: list[Case] = []
        while True:
            with self._lock:
                left = budget.left()
                if not queue or left <= 0:
                    return None, left_open
                shares = len(queue)
                case = queue.pop(0)
            model = SeatingModel(self.event, max_repeats=self.most, fixed_rounds=case)
            within = budget.within(min(cap, left * lanes / (shares + lanes - 1)))
            solved = solve(model.model, within, workers=self.workers, seed=self.seed, tune=_first_solution)
            if solved.found:
                return model.seating(solved.solver.boolean_value), []
            if not solved.closed:  # not proven infeasible (a day found returned above)
                left_open.append(case)


def _first_solution(solver: cp_model.CpSolver) -> None:
    solver.parameters.stop_after_first_solution = True  # any day within `most` answers the question
