"""'At most k repeats?' split by how round 2 meets round 1, for small rooms.

Relabelling players and tables makes round 1 the one in `SeatingModel.first_round_tables`, so what a
day's round 2 adds is its overlap matrix with round 1: M[i][j] players at group i in round 1 and group
j in round 2 (groups: the tables, then the sitting-out players). Permuting round-1 tables of one size
(players and all) and relabelling round-2 tables of one size permute M's rows and columns, and, given
M, permuting players within a round-1 table fixes round 2. So one day per class of M, in its least
form, stands for all: the day space splits into one small model per class (`SeatingModel` with
`second_round`), each also assuming the room's interchangeable rounds are ordered so that rounds 1
and 2 share the most pairs. If every case is infeasible, no day has at most k repeats. This is
orbital branching (Ostrowski, Linderoth, Rossi and Smriglio, Math. Programming 126, 2011) on round 2.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import permutations, product
from math import comb

import numpy as np
from ortools.sat.python import cp_model

from models import Event
from optimizer.cpsat.model import SeatingModel
from optimizer.cpsat.solve import solve_until_ctrl_c
from optimizer.seats import EMPTY, Seats

# Past this many groups (tables, and the players sitting out) a round 2 has too many classes to list.
SPLIT_MAX_GROUPS = 4


@dataclass(frozen=True)
class SplitOutcome:
    seats: Seats | None  # a day with at most k repeats, if a case had one
    proven: bool  # every case was shown to have none
    cases: int
    interrupted: bool


def splits_by_round_two(event: Event) -> bool:
    """Rooms small enough to split, with players interchangeable (no requests) and rounds to follow."""
    layout = event.layout
    groups = layout.tables + (1 if layout.sit_outs else 0)
    requests = event.apart or event.stay or event.spread
    return groups <= SPLIT_MAX_GROUPS and event.rounds >= 3 and not requests


def second_rounds(event: Event) -> list[tuple[list[int], int]]:
    """One round 2 per class of overlap matrices: (table by player, EMPTY sitting out; the pairs it
    seats together again from round 1), fewest such pairs first."""
    layout = event.layout
    return _second_rounds(layout.fours, layout.threes, layout.sit_outs)


@cache  # listing the classes takes seconds in the biggest rooms split, and each probe asks again
def _second_rounds(fours: int, threes: int, sit_outs: int) -> list[tuple[list[int], int]]:
    sizes = [4] * fours + [3] * threes + ([sit_outs] if sit_outs else [])
    kinds = [4] * fours + [3] * threes + ([0] if sit_outs else [])
    labels = list(range(fours + threes)) + ([EMPTY] if sit_outs else [])
    least = {_least_form(matrix, kinds) for matrix in _matrices(sizes)}
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
    least = None
    for rows in _relabellings(tuple(kinds)):
        permuted = matrix[rows]
        cols = sorted(range(len(kinds)), key=lambda c: (kinds.index(kinds[c]), tuple(permuted[:, c])))
        reading = tuple(permuted[:, cols].ravel())
        least = reading if least is None or reading < least else least
    assert least is not None
    return least


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


def _matrices(sizes: list[int]) -> Iterator[np.ndarray]:
    """Every matrix of counts with rows and columns summing to `sizes`."""

    def rows(i: int, room: tuple[int, ...]) -> Iterator[list[tuple[int, ...]]]:
        if i == len(sizes):
            yield []
            return
        for row in _splits(sizes[i], room):
            for rest in rows(i + 1, tuple(r - x for r, x in zip(room, row, strict=True))):
                yield [row, *rest]

    for found in rows(0, tuple(sizes)):
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
    the rest go easiest first (most rematches), each with an even share of the time left, so the hard
    ones inherit what the easy ones leave, and those left open are tried again with what is left.
    `work_limit` shares CP-SAT's deterministic time the same way, so a one-worker run repeats exactly."""
    cases = [tables for tables, met_again in reversed(second_rounds(event)) if met_again <= most]
    count, deadline = len(cases), time.monotonic() + time_limit
    for _ in range(2):
        still_open = []
        for done, tables in enumerate(cases):
            left, shares = deadline - time.monotonic(), len(cases) - done
            if left <= 0 or (work_limit is not None and work_limit <= 0):
                return SplitOutcome(None, False, count, False)
            solver = _solver(left / shares, None if work_limit is None else work_limit / shares, seed, workers)
            model = SeatingModel(event, max_repeats=most, second_round=tables)
            status, interrupted = solve_until_ctrl_c(solver, model.model)
            if work_limit is not None:
                work_limit -= solver.deterministic_time
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) or interrupted:
                seats = model.seating(solver.boolean_value) if not interrupted else None
                return SplitOutcome(seats, False, count, interrupted)
            if status != cp_model.INFEASIBLE:
                still_open.append(tables)
        if not still_open:
            return SplitOutcome(None, True, count, False)
        cases = still_open
    return SplitOutcome(None, False, count, False)


def _solver(time_limit: float, work_limit: float | None, seed: int, workers: int) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = time_limit
    if work_limit is not None:
        solver.parameters.max_deterministic_time = work_limit
    solver.parameters.random_seed = seed
    solver.parameters.num_workers = workers
    solver.parameters.stop_after_first_solution = True  # any day within `most` answers the question
    return solver
