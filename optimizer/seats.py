"""The array form every builder works in, the one count of repeats they share, and the schedule file.

A seating is an int array of shape (rounds, tables, 4): the player index in each seat A-D of each
table, with EMPTY for the empty seat D of a three-handed table. Players absent from a round's
tables sit out. Numpy makes meeting counts and local moves cheap on this form.

Repeats are E = sum over pairs of max(0, meetings - 1). The builders, the re-plan and the desk count
meetings here and only here (`meetings` as a matrix, `pair_counts` sparse, `repeats`, all three from one
enumeration of the pairs at a table; `together`, one round's), and judge turns here and only here
(`turns_taken`, `turns_fair`): a turn is a seat at a table of three or sitting out, and turns are fair
while everyone's count of them lies within one of everyone else's. The checker keeps its own counts,
from names, so that it can vouch for them (tests/optimizer/checking/test_shared_counts.py compares the two
on random days).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from models import Event, Round, Schedule, Table

EMPTY = -1

Seats: TypeAlias = npt.NDArray[np.integer]
"""int (rounds, tables, 4): player index per seat, EMPTY where a three-handed table has no seat D.
An alias of numpy's array type, not a class of its own: every builder slices, swaps and counts on it with
numpy (a wrapper would be unwrapped at each of those hundreds of places); its shape is the checker's to
vouch for."""


def _pairs(seats: Seats) -> tuple[np.ndarray, np.ndarray]:
    """Every meeting of the seating, a pair of players at one table in one round, as two arrays of
    players (first, second), in seat order: the one count of meetings the builders share. Pair by pair,
    linear in seats: not a product of the players x tables incidence (players^2 x tables: seconds at
    4000 players)."""
    a, b = np.triu_indices(4, 1)
    first, second = seats[..., a].ravel().astype(np.int64), seats[..., b].ravel().astype(np.int64)
    seated = (first >= 0) & (second >= 0)
    return first[seated], second[seated]


def meetings(seats: Seats, player_count: int) -> np.ndarray:
    """player_count x player_count matrix: how many rounds each pair shares a table (diagonal zero)."""
    first, second = _pairs(seats)
    codes = np.concatenate([first * player_count + second, second * player_count + first])
    return np.bincount(codes, minlength=player_count * player_count).reshape(player_count, player_count)


def pair_counts(seats: Seats, player_count: int) -> tuple[np.ndarray, np.ndarray]:
    """(pairs, counts): each pair that shares a table at least once, as (lower, higher) player rows
    (pairs x 2, in order), and how many rounds it does. Sparse, so that it stays small for rooms whose
    meetings matrix would not fit."""
    first, second = _pairs(seats)
    codes, counts = np.unique(np.minimum(first, second) * player_count + np.maximum(first, second), return_counts=True)
    return np.stack([codes // player_count, codes % player_count], axis=1), counts


def together(where: np.ndarray, r: int) -> np.ndarray:
    """players x players: who shares a table in round r of `where` (rounds x players, `table_of`),
    diagonal False: one round's meetings."""
    row = where[r]
    same = (row[:, None] == row[None, :]) & (row[:, None] >= 0)
    np.fill_diagonal(same, False)
    return same


def turns_taken(seats: Seats, player_count: int) -> np.ndarray:
    """rounds x players: who takes a turn each round, a seat at a table of three or sitting out."""
    where = table_of(seats, player_count)
    sizes = (seats >= 0).sum(axis=2)
    three_handed = np.take_along_axis(sizes, np.maximum(where, 0), axis=1) == 3
    return (where < 0) | three_handed


def turns_fair(counts: np.ndarray) -> np.ndarray:
    """Whether turns are fair: every count within one of every other along the last axis (players), for
    each row of the leading axes (rounds, or candidate orders), as a bool array of their shape."""
    return counts.max(axis=-1) - counts.min(axis=-1) <= 1


def repeats_in(met: np.ndarray) -> int:
    """E of a meetings matrix: every meeting of a pair beyond its first."""
    return int(np.maximum(met - 1, 0).sum() // 2)


def repeats(seats: Seats, player_count: int) -> int:
    """E of a seating, from its pairs' counts (`pair_counts`: no meetings matrix, so that it stays fast for
    rooms whose matrix would not fit)."""
    return int((pair_counts(seats, player_count)[1] - 1).sum())


def is_repeat_free(seats: Seats, player_count: int, rounds: int) -> bool:
    """Right shape, everyone at exactly one seat each round, and no pair at two tables."""
    tables = player_count // 4
    if seats.shape != (rounds, tables, 4):
        return False
    if not (np.sort(seats.reshape(rounds, -1), axis=1) == np.arange(player_count)).all():
        return False
    return repeats(seats, player_count) == 0


def table_of(seats: Seats, player_count: int) -> np.ndarray:
    """rounds x players: each player's table index, EMPTY when sitting out."""
    where = np.full((seats.shape[0], player_count), EMPTY, dtype=np.int64)
    rounds, tables, seat = np.nonzero(seats >= 0)
    where[rounds, seats[rounds, tables, seat]] = tables
    return where


def from_schedule(schedule: Schedule) -> Seats:
    """The schedule's array form: players by their place in its list, tables in their order (by number in
    the files this tool writes), EMPTY for the empty seat D of a table of three. A day's rounds only: all
    rounds must have their tables (absent players and sit-outs simply do not appear)."""
    index = {name: i for i, name in enumerate(schedule.players)}
    tables = max(len(round_.tables) for round_ in schedule.rounds)
    seats = np.full((len(schedule.rounds), tables, 4), EMPTY, np.int64)
    for r, round_ in enumerate(schedule.rounds):
        for t, table in enumerate(round_.tables):
            seats[r, t, : len(table.players)] = [index[name] for name in table.players]
    return seats


def to_schedule(event: Event, seats: Seats, rule: str, poll: Callable[[], None] = lambda: None) -> Schedule:
    """The seating as a schedule. Tables and rounds are built without pydantic's validation (seconds at
    the room limits): their fields are ints and names by construction, and the checker judges the rest.
    `poll` is called before each round (a planning run's stop: it raises to give up)."""
    names = event.players
    rounds = []
    for round_seats in seats.tolist():
        poll()
        seated = {p for table in round_seats for p in table if p >= 0}
        tables = tuple(
            Table.model_construct(table=t + 1, players=tuple(names[p] for p in table if p >= 0))
            for t, table in enumerate(round_seats)
        )
        sit_outs = tuple(names[p] for p in range(len(names)) if p not in seated)
        rounds.append(Round.model_construct(tables=tables, sit_outs=sit_outs, absent=()))
    return Schedule(
        players=names,
        rounds=tuple(rounds),
        odd=event.odd,
        sit_out_scoring=event.sit_out_scoring,
        rule=rule,
        apart=event.apart,
        spread=event.spread,
        stay=event.stay,
        ids=event.ids,
    )
