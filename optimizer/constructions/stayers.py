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
    for round_ in seats:
        placed: set[int] = set()
        for name, table in event.stay.items():
            target, player = table - 1, index[name]
            where = np.argwhere(round_ == player)
            if not len(where) or target in placed:
                continue
            t, s = where[0]
            if (round_[t] >= 0).sum() == (round_[target] >= 0).sum() and t not in placed:
                round_[[t, target]] = round_[[target, t]]
            elif t != target:
                round_[t, s], round_[target, 0] = round_[target, 0], player
            placed.add(target)
    return seats
