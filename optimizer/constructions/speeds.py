"""The speed rule: every seat moves a fixed number of tables per round, a general MJMP slip rule.

With T tables, the player in seat s of table j in round 0 sits at table (j + d_s * r) mod T in
round r. Players of seats s and s' meet in round r iff their round-0 table offset equals
(d_s' - d_s) * r mod T, so a pair meets twice within R rounds iff some r1 != r2 < R have
(d_s' - d_s) * (r1 - r2) == 0 mod T. The schedule is therefore repeat-free for exactly as many
rounds as the smallest additive order T / gcd(d_s - d_s', T) among the six seat differences.
Players of one seat never meet: they keep their round-0 table offsets.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from math import gcd

import numpy as np

# The best speeds depend only on T modulo small prime powers, so small speeds find them.
SEARCH_LIMIT = 24


def guaranteed_rounds(speeds: tuple[int, ...], tables: int) -> int:
    """Repeat-free rounds of these speeds: the least additive order of a seat difference."""
    return min(tables // gcd((a - b) % tables, tables) for a, b in combinations(speeds, 2))


@cache
def best_speeds(tables: int) -> tuple[tuple[int, int, int, int], int]:
    """Speeds (d_0 = 0, distinct) giving the most repeat-free rounds, and that number of rounds."""
    if tables < 4:
        # Fewer than four distinct speeds: round 0 alone is trivially repeat-free.
        return (0, 0, 0, 0), 1
    best, best_rounds = (0, 1, 2, 3), 0
    for rest in combinations(range(1, min(tables, SEARCH_LIMIT)), 3):
        speeds = (0, *rest)
        rounds = guaranteed_rounds(speeds, tables)
        if rounds > best_rounds:
            best, best_rounds = speeds, rounds
            if rounds == tables:  # nothing beats the full cycle
                break
    return best, best_rounds


def speed_rounds(player_count: int) -> int:
    """Repeat-free rounds the best speeds give this room (0 if not whole tables of four)."""
    if player_count < 4 or player_count % 4:
        return 0
    return best_speeds(player_count // 4)[1]


def speed_seating(player_count: int, rounds: int, speeds: tuple[int, ...] | None = None) -> np.ndarray:
    """(rounds, T, 4): player 4j + s starts at table j seat s and moves d_s tables per round."""
    tables = player_count // 4
    speeds = best_speeds(tables)[0] if speeds is None else tuple(speeds)
    if player_count % 4 or rounds > max(1, guaranteed_rounds(speeds, tables)) or len(speeds) != 4:
        raise ValueError(f"speeds {speeds} do not seat {player_count} players for {rounds} rounds without repeats")
    r = np.arange(rounds)[:, None, None]
    start = np.arange(tables)[None, :, None]
    d = np.asarray(speeds)[None, None, :]
    seat = np.arange(4)[None, None, :]
    table_now = (start + d * r) % tables  # where each round-0 seat sits in round r
    seats = np.empty((rounds, tables, 4), dtype=np.int64)
    seats[np.broadcast_to(r, table_now.shape), table_now, np.broadcast_to(seat, table_now.shape)] = 4 * start + seat
    return seats
