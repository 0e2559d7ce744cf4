"""Small readings of the array form (optimizer.seats) that the balance modules share."""

from __future__ import annotations

from optimizer.seats import Seats


def players_in(seats: Seats, player_count: int | None = None) -> int:
    """The number of players: given, or one more than the highest index seated."""
    return int(seats.max()) + 1 if player_count is None else player_count
