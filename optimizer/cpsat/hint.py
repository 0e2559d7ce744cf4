"""Put a seating in the form the model's symmetry breaking expects, so it can be a complete hint.

The model fixes the first round (players in list order), orders players by their rows of tables
and tables of one size by their lowest-numbered player; any seating is one relabelling of players
and tables away from that form, with the same meetings and so the same repeats.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from optimizer.seats import EMPTY, Seats, table_of


def canonical_form(seats: Seats, fours: int, player_count: int, stretches: Sequence[range] = ()) -> Seats:
    """The same day relabelled to the form the model's symmetry breaking asks for: players sorted by
    their rows of tables (round one first, sitting out after every table), in every round tables of
    one size ordered by their lowest-numbered player, and the rounds of each of `stretches` sorted by
    their columns of tables (player one first).

    Each relabelling that changes anything makes the day's table-by-player matrix smaller in
    row-major order, so alternating them ends, at a form that has every order."""
    while True:
        relabelled = order_tables(_sort_players(seats, player_count), fours, player_count)
        for stretch in stretches:
            part = relabelled[stretch.start : stretch.stop]
            part[:] = part[np.lexsort(_tables(part, player_count).T[::-1])]
        if (relabelled == seats).all():
            return seats
        seats = relabelled


def _tables(seats: Seats, player_count: int) -> np.ndarray:
    """rounds x players: each player's table index, sitting out after every table."""
    tables = table_of(seats, player_count)
    return np.where(tables == EMPTY, seats.shape[1], tables)


def _sort_players(seats: Seats, player_count: int) -> Seats:
    label = np.empty(player_count + 1, dtype=np.int64)
    label[np.lexsort(_tables(seats, player_count)[::-1])] = np.arange(player_count)
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
