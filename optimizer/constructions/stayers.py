"""Make any seating keep the stay requests: a repair step every start goes through."""

from __future__ import annotations

import numpy as np

from models import Event
from optimizer.seats import Seats


def place_stayers(seats: Seats, event: Event) -> Seats:
    """Renumber each round's tables (or swap a seat) so every staying player is at their table.

    Renumbering tables of the same size changes nobody's opponents; only when a stayer's table and
    the target differ in size is a seat swapped, which a later search may improve."""
    seats = seats.copy()
    index = {name: p for p, name in enumerate(event.players)}
    staying_at = {index[name]: table - 1 for name, table in event.stay.items()}
    for round_ in seats:
        placed: set[int] = set()  # tables already holding their stayers: never renumbered again
        for player, target in staying_at.items():
            where = np.argwhere(round_ == player)
            if not len(where):
                continue  # sitting out this round
            t, s = where[0]
            if t != target:
                if target not in placed and t not in placed and (round_[t] >= 0).sum() == (round_[target] >= 0).sum():
                    round_[[t, target]] = round_[[target, t]]
                else:
                    free = next(k for k in range(4) if staying_at.get(int(round_[target, k])) != target)
                    round_[t, s], round_[target, free] = round_[target, free], player
            placed.add(target)
    return seats
