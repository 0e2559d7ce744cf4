"""Difference rows: the speed rule with any step per round, a repeat-free day with no search at run time.

Tables are the cyclic group Z_T and the players are Z_T x {0, 1, 2, 3}, player (g, s) being index 4g + s.
Four rows f_0, ..., f_3 : {0, ..., R - 1} -> Z_T seat player (g, s) at table g + f_s(r) mod T, in seat s,
in round r, so every round seats each table once with one player of each row. Players (g, s) and (h, t)
meet in round r iff g - h = f_t(r) - f_s(r) (mod T): the day is repeat-free iff every difference of two
rows, r -> f_t(r) - f_s(r), takes R distinct values. Four such rows are a (T, 4; 1) difference matrix
over Z_T cut to R columns (C. J. Colbourn and J. H. Dinitz, eds., Handbook of Combinatorial Designs, 2nd
ed., 2007, section VI.17, "Difference Matrices"), and the day is the transversal design it develops, read
round by round. The speed rule (optimizer.constructions.speeds) is the case f_s(r) = d_s * r, whose rows
stop differing once some d_t - d_s has order R: at most T / p rounds when the least prime p of T is 2 or
3 (72 players: 6 rounds). Rows chosen freely go much further: with f_0 = 0 and f_1(r) = r (columns and
tables renamed), R <= T, and R < T when T is even, since a full matrix would make f_2 an orthomorphism of
Z_T, which exists only for odd T (M. Hall and L. J. Paige, "Complete mappings of finite groups", Pacific
J. Math. 5, 1955).

The rows are found ahead, by the seeded backtracking of `python -m optimizer.constructions.differences`
(no clock, a node count: it repeats itself exactly), and stored in rows.json, one entry per table count
where they outlast the speed rule; each entry is checked when loaded (every row difference injective, and
the day it develops repeat-free) and refused otherwise.
"""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations
from pathlib import Path

import numpy as np

from optimizer.seats import is_repeat_free

ROWS_FILE = Path(__file__).parent / "rows.json"


class BadRows(ValueError):
    """Stored rows that are malformed or whose differences repeat."""


def rows_are_distinct(rows: np.ndarray, tables: int) -> bool:
    """Every difference of two rows takes distinct values mod `tables` (the repeat-free condition)."""
    return all(
        len(np.unique((rows[t] - rows[s]) % tables)) == rows.shape[1] for s, t in combinations(range(len(rows)), 2)
    )


def develop(rows: np.ndarray, tables: int, rounds: int) -> np.ndarray:
    """(rounds, T, 4): player 4g + s at table (g + rows[s][r]) mod T, seat s, in round r."""
    g = np.arange(tables)[None, :, None]
    seat = np.arange(4)[None, None, :]
    at = (g + rows.T[:rounds, None, :]) % tables  # (rounds, T, 4): where (g, s) sits in round r
    seats = np.empty((rounds, tables, 4), dtype=np.int64)
    r = np.arange(rounds)[:, None, None]
    seats[np.broadcast_to(r, at.shape), at, np.broadcast_to(seat, at.shape)] = 4 * g + seat
    return seats


@cache
def stored_rows() -> dict[int, np.ndarray]:
    """Table count -> its rows (4, R), every entry checked; a bad entry refuses the whole file."""
    data = json.loads(ROWS_FILE.read_text(encoding="utf-8"))
    found = {}
    for key, rows in data["rows"].items():
        tables, array = int(key), np.array(rows, dtype=np.int64)
        if array.ndim != 2 or array.shape[0] != 4 or not 1 <= array.shape[1] <= tables:
            raise BadRows(f"{ROWS_FILE.name}: the rows for {tables} tables are not four rows of at most {tables}")
        if not rows_are_distinct(array, tables):
            raise BadRows(f"{ROWS_FILE.name}: the rows for {tables} tables repeat a difference")
        if not is_repeat_free(develop(array, tables, array.shape[1]), 4 * tables, array.shape[1]):
            raise BadRows(f"{ROWS_FILE.name}: the day of {tables} tables is not repeat-free")
        found[tables] = array
    return found


def difference_rounds(player_count: int) -> int:
    """Repeat-free rounds the stored rows give this room (0 if none are stored)."""
    if player_count < 4 or player_count % 4:
        return 0
    rows = stored_rows().get(player_count // 4)
    return 0 if rows is None else rows.shape[1]


def difference_seating(player_count: int, rounds: int) -> np.ndarray | None:
    """The stored rows' day of `rounds` rounds, or None if they do not reach it."""
    if rounds < 1 or rounds > difference_rounds(player_count):
        return None
    tables = player_count // 4
    return develop(stored_rows()[tables], tables, rounds)
