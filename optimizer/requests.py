"""The director's requests in array form: keep-apart groups and players who stay at one table.

CP-SAT takes them as hard constraints (optimizer.model); the cheap starts and the local search
take them as a heavy cost and as pinned players; a start that still breaks one fails the checker.
"""

from __future__ import annotations

import numpy as np

from models import Event

# Sharing a table with someone to be kept apart costs more than any number of repeats in a round;
# a meeting of club-mates costs less than any repeat, so spreading them never adds one.
APART_COST = 1_000.0
CLUB_COST = 1e-3


def apart_cost(event: Event) -> np.ndarray:
    return APART_COST * _pairs_within(event, event.apart)


def _pairs_within(event: Event, groups) -> np.ndarray:
    n = len(event.players)
    index = {name: p for p, name in enumerate(event.players)}
    within = np.zeros((n, n))
    for group in groups:
        members = [index[name] for name in group]
        within[np.ix_(members, members)] = 1
    np.fill_diagonal(within, 0)
    return within


def club_mates(event: Event) -> np.ndarray:
    """players x players: 1 where two players are club-mates (the soft spread request)."""
    return _pairs_within(event, event.spread)


def pinned(event: Event) -> np.ndarray:
    """True for players who keep one table all day: the local search never moves them."""
    return np.array([name in event.stay for name in event.players])


def place_stayers(seats: np.ndarray, event: Event) -> np.ndarray:
    """Renumber each round's tables (or swap a seat) so every staying player is at their table."""
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
