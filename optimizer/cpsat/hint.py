"""Put a seating in the form the model's symmetry breaking expects, so it can be a complete hint.

The model fixes the first round (players in list order) and orders tables of one size by their
lowest-numbered player; any seating is one relabelling of players and tables away from that form,
with the same meetings and so the same repeats.
"""

from __future__ import annotations

import numpy as np

from optimizer.seats import EMPTY, Seats


def renumber_players(seats: Seats, player_count: int) -> Seats:
    """The same day with players renumbered in first-round seat order, sitting-out players last."""
    first = [int(p) for p in seats[0].ravel() if p >= 0]
    order = first + [p for p in range(player_count) if p not in set(first)]
    label = np.empty(player_count + 1, dtype=np.int64)
    label[order] = np.arange(player_count)
    label[EMPTY] = EMPTY
    return label[seats]


def order_tables(seats: Seats, fours: int, player_count: int) -> Seats:
    """The same day with, in every round, tables of one size ordered by their lowest-numbered player."""
    ordered = np.where(seats >= 0, seats, player_count)  # empty seats sort last
    ordered.sort(axis=2)
    for group in (slice(0, fours), slice(fours, seats.shape[1])):
        part = ordered[:, group]
        part[:] = np.take_along_axis(part, np.argsort(part[:, :, 0], axis=1)[:, :, None], axis=1)
    return np.where(ordered < player_count, ordered, EMPTY)
