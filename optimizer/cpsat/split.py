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
2 (`third_rounds`).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from functools import cache
from itertools import permutations, product
from math import comb

import numpy as np
from ortools.sat.python import cp_model

from models import Event, Layout
from optimizer.cpsat.model import SeatingModel, first_round_tables
from optimizer.seats import EMPTY, Seats

# Past this many groups (tables, and the players sitting out) a round 2 has too many classes to list.
SPLIT_MAX_GROUPS = 4
# Seconds a case split by round 2 gets before it is split again by round 3.
FIRST_LOOK = 1.0
# Past this many count matrices of a round 3 against rounds 1 and 2, a case is not split by round 3.
ROUND_THREE_MAX_MATRICES = 5_000

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


def second_rounds(event: Event) -> list[tuple[list[int], int]]:
    """One round 2 per class of overlap matrices: (table by player, EMPTY sitting out; the pairs it
    seats together again from round 1), fewest such pairs first."""
    return _second_rounds(event.layout)


@dataclass(frozen=True)
class _Groups:
    """A round's groups (its tables, then the players sitting out): size, kind (4, 3, or 0 sitting
    out: groups of one kind are interchangeable) and label (table, or EMPTY)."""

    sizes: list[int]
    kinds: list[int]
    labels: list[int]

    @classmethod
    def of(cls, layout: Layout) -> _Groups:
        out = [layout.sit_outs] if layout.sit_outs else []
        tables = [4] * layout.fours + [3] * layout.threes
        return cls(tables + out, tables + [0] * len(out), list(range(layout.tables)) + [EMPTY] * len(out))


def _cells(layout: Layout, second: tuple[int, ...]) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    """Each player's cell (groups in rounds 1 and 2), the cells in order, and how many each holds."""
    group = {label: g for g, label in enumerate(_Groups.of(layout).labels)}
    of_player = [(group[a], group[b]) for a, b in zip(first_round_tables(layout), second, strict=True)]
    cells = sorted(set(of_player))
    return of_player, cells, [of_player.count(cell) for cell in cells]


@cache  # listing the classes takes seconds in the biggest rooms split, and each probe asks again
def _second_rounds(layout: Layout) -> list[tuple[list[int], int]]:
    groups = _Groups.of(layout)
    sizes, kinds, labels, fours, threes = groups.sizes, groups.kinds, groups.labels, layout.fours, layout.threes
    least = {_least_form(matrix, kinds) for matrix in _matrices(sizes, sizes)}
    out = []
    for flat in least:
        matrix = np.array(flat).reshape(len(sizes), len(sizes))
        tables = [labels[j] for i in range(len(sizes)) for j in range(len(sizes)) for _ in range(matrix[i, j])]
        met_again = sum(comb(int(matrix[i, j]), 2) for i in range(fours + threes) for j in range(fours + threes))
        out.append((tables, met_again))
    return sorted(out, key=lambda case: (case[1], case[0]))


def _least_form(matrix: np.ndarray, kinds: list[int]) -> tuple[int, ...]:
    """The least row-major reading of the matrix over row and column permutations within kinds: for
    each order of the rows, sorting the columns of each kind (as top-down tuples) gives the least."""
    return min(_columns_sorted(matrix[rows], kinds) for rows in _relabellings(tuple(kinds)))


def _columns_sorted(matrix: np.ndarray, kinds: list[int]) -> tuple[int, ...]:
    """The least row-major reading of the matrix over column permutations within kinds."""
    cols = sorted(range(len(kinds)), key=lambda c: (kinds.index(kinds[c]), tuple(matrix[:, c])))
    return tuple(matrix[:, cols].ravel())


def third_rounds(event: Event, second: list[int], most: int) -> list[list[int]]:
    """One round 3 per class under what keeps rounds 1 and 2 as they are: permuting the players of a
    cell (alike in both rounds), permuting round-1 and round-2 groups of one kind where that maps
    cells onto cells of the same size, and relabelling round-3 tables of one size. A round 3 is its
    count matrix of cells by round-3 groups; each class stands for all its days as round 2's does.
    Classes that take turns unfairly or repeat more than `most` in three rounds drop out; the rest
    come easiest first (most repeats)."""
    cases = _third_rounds(event.layout, tuple(second))
    return [third for third, repeats in cases if repeats <= most]


@cache  # each probe of a run asks again for the round-2 cases it left open
def _third_rounds(layout: Layout, second: tuple[int, ...]) -> list[tuple[list[int], int]]:
    groups, first = _Groups.of(layout), first_round_tables(layout)
    of_player, cells, sizes = _cells(layout, second)
    images = _cell_symmetries(cells, sizes, groups.kinds)
    matrices = _matrices(sizes, groups.sizes)
    least = {min(_columns_sorted(matrix[image], groups.kinds) for image in images) for matrix in matrices}
    out = []
    for flat in least:
        matrix = np.array(flat).reshape(len(cells), len(groups.labels))
        in_cell = {
            cell: [label for label, count in zip(groups.labels, matrix[c], strict=True) for _ in range(count)]
            for c, cell in enumerate(cells)
        }
        third = [in_cell[cell].pop(0) for cell in of_player]
        if _fair([first, list(second), third], layout.fours):
            out.append((third, _repeats([first, list(second), third])))
    return sorted(out, key=lambda case: (-case[1], case[0]))


def _round_three_cases(event: Event, second: list[int], most: int, deadline: float) -> list[Case]:
    """A case left open by round 2, split again by round 3 where listing its classes is quick (and
    there is time left to list them)."""
    if time.monotonic() >= deadline or not _branches_on_round_three(event, second):
        return [[second]]
    return [[second, third] for third in third_rounds(event, second, most)]


def _branches_on_round_three(event: Event, second: list[int]) -> bool:
    """Listing round 3's classes walks every count matrix of cells by groups: a few thousand in rooms
    of ten or eleven, 10^4 to 10^6 from thirteen players on, where it would cost more than it saves."""
    _, _, sizes = _cells(event.layout, tuple(second))
    return _count_matrices(tuple(sizes), tuple(_Groups.of(event.layout).sizes)) <= ROUND_THREE_MAX_MATRICES


@cache
def _count_matrices(row_sums: tuple[int, ...], room: tuple[int, ...]) -> int:
    """How many matrices `_matrices` lists with these row sums and column room left."""
    if not row_sums:
        return 1
    return sum(
        _count_matrices(row_sums[1:], tuple(r - x for r, x in zip(room, row, strict=True)))
        for row in _splits(row_sums[0], room)
    )


def _cell_symmetries(cells: list[tuple[int, int]], sizes: list[int], kinds: list[int]) -> list[list[int]]:
    """Relabellings of round-1 and round-2 groups (within kinds) that map every cell onto a cell of
    its size, each as the cell that each cell's image is (a permutation of the cells)."""
    index = {cell: c for c, cell in enumerate(cells)}
    found = []
    for rows in _relabellings(tuple(kinds)):
        for cols in _relabellings(tuple(kinds)):
            image = [index.get((rows[i], cols[j]), -1) for i, j in cells]
            if all(im >= 0 and sizes[im] == size for im, size in zip(image, sizes, strict=True)):
                found.append(np.argsort(image).tolist())  # matrix[order] moves each cell's row to its image
    return found


def _fair(rounds: list[list[int]], fours: int) -> bool:
    """Turns taken in turn so far: after every round, everyone's count of sit-outs or seats at tables
    of three lies within one of everyone else's."""
    tables = np.array(rounds)
    so_far = ((tables == EMPTY) | (tables >= fours)).cumsum(axis=0)
    return bool((so_far.max(axis=1) - so_far.min(axis=1) <= 1).all())


def _repeats(rounds: list[list[int]]) -> int:
    """Repeats among the given rounds (each table by player, EMPTY sitting out)."""
    tables = np.array(rounds)
    met = ((tables[:, :, None] == tables[:, None, :]) & (tables[:, :, None] != EMPTY)).sum(axis=0)
    return int(np.triu(np.maximum(met - 1, 0), 1).sum())


@cache
def _relabellings(kinds: tuple[int, ...]) -> list[list[int]]:
    """Every permutation of the groups that maps each group to one of its kind."""
    classes = [[g for g, k in enumerate(kinds) if k == kind] for kind in dict.fromkeys(kinds)]
    out = []
    for images in product(*(permutations(group) for group in classes)):
        order = list(range(len(kinds)))
        for group, image in zip(classes, images, strict=True):
            for g, h in zip(group, image, strict=True):
                order[g] = h
        out.append(order)
    return out


def _matrices(row_sums: list[int], column_sums: list[int]) -> Iterator[np.ndarray]:
    """Every matrix of counts with the given row and column sums."""

    def rows(i: int, room: tuple[int, ...]) -> Iterator[list[tuple[int, ...]]]:
        if i == len(row_sums):
            yield []
            return
        for row in _splits(row_sums[i], room):
            for rest in rows(i + 1, tuple(r - x for r, x in zip(room, row, strict=True))):
                yield [row, *rest]

    for found in rows(0, tuple(column_sums)):
        yield np.array(found)


def _splits(total: int, room: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Ways to write `total` as a sum of parts, the j-th at most room[j]."""
    if len(room) == 1:
        if total <= room[0]:
            yield (total,)
        return
    for x in range(min(total, room[0]) + 1):
        for rest in _splits(total - x, room[1:]):
            yield (x, *rest)


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
    pool = _Cases(event, most, time.monotonic() + time_limit, seed, max(1, workers // lanes), work_limit)
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
    return SplitOutcome(seats, proven, pool.count, refined, interrupted)


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
    count: int = 0  # cases by round 2
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _running: set[cp_model.CpSolver] = field(default_factory=set)

    def run(self, cases: list[Case], lanes: int, cap: float = math.inf) -> tuple[Seats | None, list[Case], bool]:
        """(a day found, the cases left open, interrupted), each case at most `cap` seconds (and units
        of work). A day found or Ctrl-C stops every lane."""
        self.count = self.count or len(cases)
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
                    self.work_limit -= solver.deterministic_time
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
