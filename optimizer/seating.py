"""The array form every builder works in, and its translation to the schedule file.

A seating is an int array of shape (rounds, tables, 4): the player index in each seat A-D of each
table, with -1 for the empty seat D of a three-handed table. Players absent from a round's tables
sit out. Numpy makes meeting counts and local moves cheap on this form.
"""

from __future__ import annotations

import numpy as np

from models import Event, Round, Schedule, Table

EMPTY = -1


def meetings(seats: np.ndarray, players: int) -> np.ndarray:
    """players x players matrix: how many rounds each pair shares a table (diagonal zero)."""
    rounds, tables, _ = seats.shape
    incidence = np.zeros((players, rounds * tables), dtype=np.float32)  # BLAS; exact for small counts
    flat = seats.reshape(rounds * tables, 4)
    rows, cols = np.nonzero(flat >= 0)
    incidence[flat[rows, cols], rows] = 1
    met = (incidence @ incidence.T).astype(np.int64)
    np.fill_diagonal(met, 0)
    return met


def total_repeats(seats: np.ndarray, players: int) -> int:
    """E = sum over pairs of max(0, meetings - 1)."""
    met = meetings(seats, players)
    return int(np.maximum(met - 1, 0).sum() // 2)


def to_schedule(event: Event, seats: np.ndarray, rule: str) -> Schedule:
    names = event.players
    rounds = []
    for round_seats in seats:
        seated = set(int(p) for p in round_seats.ravel() if p >= 0)
        tables = tuple(
            Table(table=t + 1, players=tuple(names[p] for p in table if p >= 0))
            for t, table in enumerate(round_seats)
        )
        sit_outs = tuple(names[p] for p in range(len(names)) if p not in seated)
        rounds.append(Round(tables=tables, sit_outs=sit_outs))
    return Schedule(
        players=names,
        rounds=tuple(rounds),
        odd=event.odd,
        sit_out_scoring=event.sit_out_scoring,
        rule=rule,
        apart=event.apart,
        spread=event.spread,
        stay=event.stay,
    )


def renumber_players(seats: np.ndarray, players: int) -> np.ndarray:
    """The same day with players renumbered in first-round seat order, sitting-out players last."""
    first = [int(p) for p in seats[0].ravel() if p >= 0]
    order = first + [p for p in range(players) if p not in set(first)]
    label = np.empty(players + 1, dtype=np.int64)
    label[order] = np.arange(players)
    label[EMPTY] = EMPTY
    return label[seats]


def order_tables(seats: np.ndarray, fours: int, players: int) -> np.ndarray:
    """The same day with, in every round, tables of one size ordered by their lowest-numbered player."""
    ordered = np.where(seats >= 0, seats, players)  # empty seats sort last
    ordered.sort(axis=2)
    for group in (slice(0, fours), slice(fours, seats.shape[1])):
        part = ordered[:, group]
        part[:] = np.take_along_axis(part, np.argsort(part[:, :, 0], axis=1)[:, :, None], axis=1)
    return np.where(ordered < players, ordered, EMPTY)
