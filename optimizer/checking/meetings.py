"""The checker's tallies of who sat with whom, as arrays: part of the independent checker
(optimizer.checking.checker), built from the schedule's names alone, in time near-linear in seats.

Players are numbered in the schedule's order; a pair (a < b) is the code a x players + b, a trio
a x players^2 + b x players + c (within int64 at the room limits).
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

import numpy as np

from models import Schedule


class Seated(NamedTuple):
    """Every table of the day, grouped by size: players (tables, size) in seat order, and per table its
    round (from 0), its number and the number of tables in its round."""

    player_count: int
    players: dict[int, np.ndarray]
    round: dict[int, np.ndarray]
    number: dict[int, np.ndarray]
    tables_in_round: dict[int, np.ndarray]


def seated(schedule: Schedule) -> Seated:
    index = {name: i for i, name in enumerate(schedule.players)}
    tables = [(r, table, len(round_.tables)) for r, round_ in enumerate(schedule.rounds) for table in round_.tables]
    names = [name for _, table, _ in tables for name in table.players]
    who = np.fromiter(map(index.__getitem__, names), np.int64, len(names))
    sizes = np.fromiter((len(table.players) for _, table, _ in tables), np.int64, len(tables))
    at = np.array([(r, table.table, count) for r, table, count in tables], dtype=np.int64).reshape(-1, 3)
    first = np.cumsum(sizes) - sizes  # each table's first seat in `who`
    of_size = {int(size): np.flatnonzero(sizes == size) for size in np.unique(sizes)}
    return Seated(
        player_count=len(index),
        players={size: who[first[rows, None] + np.arange(size)] for size, rows in of_size.items()},
        round={size: at[rows, 0] for size, rows in of_size.items()},
        number={size: at[rows, 1] for size, rows in of_size.items()},
        tables_in_round={size: at[rows, 2] for size, rows in of_size.items()},
    )


def seat_players(day: Seated) -> np.ndarray:
    """The player in every seat of the day, table by table of each size."""
    return np.concatenate([p.ravel() for p in day.players.values()] or [np.zeros(0, np.int64)])


class Pairs(NamedTuple):
    """Each pair that met: its code and meetings; and each meeting's pair code and round."""

    codes: np.ndarray
    counts: np.ndarray
    meeting_codes: np.ndarray
    meeting_rounds: np.ndarray


def pairs(day: Seated) -> Pairs:
    n = day.player_count
    codes, rounds = [], []
    for size, players in day.players.items():
        for i, j in combinations(range(size), 2):
            low, high = np.minimum(players[:, i], players[:, j]), np.maximum(players[:, i], players[:, j])
            codes.append(low * n + high)
            rounds.append(day.round[size])
    meeting_codes = np.concatenate(codes) if codes else np.zeros(0, np.int64)
    meeting_rounds = np.concatenate(rounds) if rounds else np.zeros(0, np.int64)
    order = np.lexsort((meeting_rounds, meeting_codes))  # by pair, then round
    meeting_codes, meeting_rounds = meeting_codes[order], meeting_rounds[order]
    unique, counts = np.unique(meeting_codes, return_counts=True)
    return Pairs(unique, counts, meeting_codes, meeting_rounds)


def repeats_by_round(met: Pairs, rounds: int) -> np.ndarray:
    """Meetings in each round of a pair that had met before (meetings sorted by pair, then round)."""
    again = np.zeros(len(met.meeting_codes), bool)
    again[1:] = met.meeting_codes[1:] == met.meeting_codes[:-1]
    return np.bincount(met.meeting_rounds[again], minlength=rounds)


def back_to_back(met: Pairs) -> int:
    """Meetings of a pair in the round after another of its meetings."""
    same = met.meeting_codes[1:] == met.meeting_codes[:-1]
    return int((same & (met.meeting_rounds[1:] == met.meeting_rounds[:-1] + 1)).sum())


def per_player(met: Pairs, n: int) -> tuple[np.ndarray, np.ndarray]:
    """(different opponents, repeats) of each player."""
    low, high = np.divmod(met.codes, n)
    ends = np.concatenate([low, high])
    opponents = np.bincount(ends, minlength=n)
    repeats = np.bincount(ends, weights=np.concatenate([met.counts, met.counts]) - 1, minlength=n)
    return opponents, repeats.astype(np.int64)


def meetings_of(met: Pairs, codes: np.ndarray) -> np.ndarray:
    """Meetings of each pair code given (0 for a pair that never met)."""
    if not len(met.codes):
        return np.zeros(len(codes), np.int64)
    at = np.minimum(np.searchsorted(met.codes, codes), len(met.codes) - 1)
    return np.where(met.codes[at] == codes, met.counts[at], 0)


def trios_again(day: Seated) -> int:
    """Sum over every three players of max(0, rounds all three share a table - 1)."""
    n, codes = day.player_count, []
    for size, players in day.players.items():
        for trio in combinations(range(size), 3):
            ordered = np.sort(players[:, list(trio)], axis=1)
            codes.append((ordered[:, 0] * n + ordered[:, 1]) * n + ordered[:, 2])
    if not codes:
        return 0
    all_codes = np.concatenate(codes)
    return int(len(all_codes) - len(np.unique(all_codes)))


def seat_spread(day: Seated) -> int:
    """The worst player's (most - fewest) rounds in one seat letter, over A-D for a player who sat at
    any table of four, A-C for one only ever three-handed (an unused letter counts as zero)."""
    n = day.player_count
    letters = np.zeros((n, 4), np.int64)
    at_four = np.zeros(n, bool)
    for size, players in day.players.items():
        for seat in range(size):
            letters[:, seat] += np.bincount(players[:, seat], minlength=n)
        if size == 4:
            at_four[players.ravel()] = True
    sat = letters.sum(axis=1) > 0
    fewest = np.where(at_four, letters.min(axis=1), letters[:, :3].min(axis=1))
    return int((letters.max(axis=1) - fewest)[sat].max(initial=0))


def table_visits_above_even(day: Seated, staying: np.ndarray) -> int:
    """Visits to one table number beyond ceil(rounds played / tables), summed over players (those who
    stay exempt) and tables; a player's tables are the most of any round they play."""
    n = day.player_count
    who = seat_players(day)
    size_of = {size: p.shape[1] for size, p in day.players.items()}
    number = np.concatenate([np.repeat(day.number[s], size_of[s]) for s in day.players] or [np.zeros(0, np.int64)])
    tables = np.concatenate([np.repeat(day.tables_in_round[s], size_of[s]) for s in day.players] or [number])
    most_tables = np.zeros(n, np.int64)
    np.maximum.at(most_tables, who, tables)
    played = np.bincount(who, minlength=n)
    even = -(-played // np.maximum(most_tables, 1))
    visits, counts = np.unique(who * (int(number.max(initial=0)) + 1) + number, return_counts=True)
    player = visits // (int(number.max(initial=0)) + 1)
    above = np.maximum(counts - even[player], 0)
    return int(above[~staying[player]].sum())
