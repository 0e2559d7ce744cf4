"""One entry point for zero-repeat seatings: stored designs and instant constructions, then search.

Order: the library (designs computed ahead by `python -m optimizer.library`), the affine geometry
AG(k, 4), the speed rule, all instant; then the rotational CP-SAT search within the time limit.
Every seating handed out is checked here first, so a builder bug can only cost a None.
"""

from __future__ import annotations

import numpy as np

from optimizer import library
from optimizer.affine import affine_dimension, affine_rounds, affine_seating
from optimizer.rotational import rotational_seating
from optimizer.speeds import best_speeds, speed_rounds, speed_seating

Made = tuple[np.ndarray, str]


def zero_repeat_seating(players: int, rounds: int, time_limit: float = 10.0, seed: int = 0) -> Made | None:
    """A repeat-free seating (rounds, players/4, 4) and how it was made, or None if none in time."""
    if players < 4 or players % 4 or rounds < 1:
        return None
    made = instant_seating(players, rounds)
    if made is None:
        made = rotational_seating(players, rounds, time_limit=time_limit, seed=seed)
    return made if made is not None and is_repeat_free(made[0], players, rounds) else None


def instant_seating(players: int, rounds: int) -> Made | None:
    """The first instant construction reaching `rounds`: library, affine geometry, speed rule."""
    for build in (_from_library, _from_affine, _from_speeds):
        made = build(players, rounds)
        if made is not None:
            return made
    return None


def frontier_rounds(players: int) -> int:
    """The most repeat-free rounds available instantly (library, affine, speeds); not a table."""
    if players < 4 or players % 4:
        return 0
    entry = library.load(players)
    return max(entry.rounds if entry else 0, affine_rounds(players), speed_rounds(players))


def _from_library(players: int, rounds: int) -> Made | None:
    entry = library.load(players)
    if entry is None or entry.rounds < rounds:
        return None
    return entry.seats[:rounds].copy(), f"{entry.method} (library)"


def _from_affine(players: int, rounds: int) -> Made | None:
    k = affine_dimension(players)
    if k is None or rounds > affine_rounds(players):
        return None
    return affine_seating(k, rounds), f"affine geometry AG({k},4)"


def _from_speeds(players: int, rounds: int) -> Made | None:
    if rounds > speed_rounds(players):
        return None
    speeds = best_speeds(players // 4)[0]
    return speed_seating(players, rounds, speeds), f"speed rule d={speeds} mod {players // 4}"


def is_repeat_free(seats: np.ndarray, players: int, rounds: int) -> bool:
    """Right shape, everyone at exactly one seat each round, and no pair at two tables.

    Counting distinct pair codes gives the same E as seating.total_repeats but stays fast for
    a thousand players (the meeting matrix would not).
    """
    tables = players // 4
    if seats.shape != (rounds, tables, 4):
        return False
    if not (np.sort(seats.reshape(rounds, -1), axis=1) == np.arange(players)).all():
        return False
    return repeats(seats, players) == 0


def repeats(seats: np.ndarray, players: int) -> int:
    """E = sum over pairs of max(0, meetings - 1), from the pair codes p * players + q."""
    a, b = np.triu_indices(4, 1)
    first = np.minimum(seats[..., a], seats[..., b]).ravel().astype(np.int64)
    second = np.maximum(seats[..., a], seats[..., b]).ravel().astype(np.int64)
    codes = first * players + second
    return int(codes.size - np.unique(codes).size)
