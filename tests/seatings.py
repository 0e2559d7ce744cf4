"""Seatings for tests, built from random permutations rather than by the optimizer."""

import numpy as np

from models import Event
from optimizer.seats import EMPTY


def random_seating(event: Event, rng: np.random.Generator) -> np.ndarray:
    """Each round a random permutation cut into tables of four, then three (seat D empty); the rest sit out."""
    layout, n = event.layout, len(event.players)
    seats = np.full((event.rounds, layout.tables, 4), EMPTY, dtype=np.int64)
    for r in range(event.rounds):
        order = rng.permutation(n)
        seats[r, : layout.fours] = order[: 4 * layout.fours].reshape(layout.fours, 4)
        seats[r, layout.fours :, :3] = order[4 * layout.fours : layout.seated].reshape(layout.threes, 3)
    return seats
