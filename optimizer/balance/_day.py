"""Small readings of the array form (optimizer.seats) that the balance modules share."""

from __future__ import annotations

import numpy as np

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
