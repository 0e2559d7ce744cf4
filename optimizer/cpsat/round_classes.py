"""The classes of round 2, and of round 3 given rounds 1 and 2, that a split proof
(optimizer.cpsat.split) takes one case each.

Groups are a round's tables, then the players sitting out. Round 1 is `first_round_tables`. A round 2
is its overlap matrix with round 1, up to permuting round-1 and round-2 groups of one kind; a round 3
is its count matrix of cells (players alike in rounds 1 and 2) by round-3 groups, up to what keeps
rounds 1 and 2. Each class is given by one representative in least form.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import permutations, product
from math import comb

import numpy as np

from models import Event, Layout
from optimizer.cpsat.model import first_round_tables
from optimizer.seats import EMPTY, repeats_in, together, turns_fair

# Past this many count matrices of a round 3 against rounds 1 and 2, a case is not split by round 3.
ROUND_THREE_MAX_MATRICES = 5_000


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
    size = len(groups.sizes)
    least = {_least_form(matrix, groups.kinds) for matrix in _matrices(groups.sizes, groups.sizes)}
    out = []
    for flat in least:
        matrix = np.array(flat).reshape(size, size)
        tables = [groups.labels[j] for i in range(size) for j in range(size) for _ in range(matrix[i, j])]
        at_tables = matrix[: layout.tables, : layout.tables]  # sitting out together is no meeting
        out.append((tables, sum(comb(int(count), 2) for count in at_tables.ravel())))
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


def round_three_listable(event: Event, second: list[int]) -> bool:
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
    its size, each as an order of the cells: indexing a matrix of cells by it moves every cell's row
    to where its image stands."""
    index = {cell: c for c, cell in enumerate(cells)}
    found = []
    for rows in _relabellings(tuple(kinds)):
        for cols in _relabellings(tuple(kinds)):
            image = [index.get((rows[i], cols[j]), -1) for i, j in cells]
            if all(im >= 0 and sizes[im] == size for im, size in zip(image, sizes, strict=True)):
                found.append(np.argsort(image).tolist())
    return found


def _fair(rounds: list[list[int]], fours: int) -> bool:
    """Turns taken in turn so far: after every round, everyone's count of sit-outs or seats at tables
    of three lies within one of everyone else's."""
    tables = np.array(rounds)
    so_far = ((tables == EMPTY) | (tables >= fours)).cumsum(axis=0)
    return bool(turns_fair(so_far).all())


def _repeats(rounds: list[list[int]]) -> int:
    """Repeats among the given rounds (each table by player, EMPTY sitting out)."""
    tables = np.array(rounds)
    return repeats_in(np.stack([together(tables, r) for r in range(len(tables))]).sum(axis=0))


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
