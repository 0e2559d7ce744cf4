"""Small readings of the array form shared by the balance modules.

A seating is an int array (rounds, tables, 4): the player in each seat A-D, EMPTY for the empty seat D
of a three-handed table. Tables of four come first in every round, tables of three last.
"""

from __future__ import annotations

import numpy as np

EMPTY = -1  # the same value as optimizer.seating.EMPTY; kept here so this package imports no builder


def players_in(seats: np.ndarray, players: int | None = None) -> int:
    """The number of players: given, or one more than the highest index seated."""
    return int(seats.max()) + 1 if players is None else players


def table_sizes(seats: np.ndarray) -> np.ndarray:
    """rounds x tables: how many players sit at each table."""
    return (seats >= 0).sum(axis=2)


def table_of(seats: np.ndarray, players: int) -> np.ndarray:
    """rounds x players: each player's table in each round (0-based), or -1 when sitting out."""
    rounds = len(seats)
    where = np.full((rounds, players), -1, dtype=np.int64)
    r, t, s = np.nonzero(seats >= 0)
    where[r, seats[r, t, s]] = t
    return where


def together(where: np.ndarray, r: int) -> np.ndarray:
    """players x players: who shares a table in round r (diagonal False)."""
    row = where[r]
    same = (row[:, None] == row[None, :]) & (row[:, None] >= 0)
    np.fill_diagonal(same, False)
    return same
