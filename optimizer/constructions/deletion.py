"""Deletion: repeat-free days for some rooms that are not a multiple of four, cut from a bigger design.

The mathematics. Take a repeat-free design for N players (the next multiple of four above the room's n,
from `instant_seating`), choose `rounds` of its rounds, and delete d players who never meet in them.
Deleting players cannot make a repeat. Each round the d deleted players sit at d different tables: under
the three-handed rule (d = N - n) those become the d tables of three; under the sit-out rule with three
to sit out (n % 4 == 3, d = 1) the deleted player's three tablemates sit out and the table goes. Either
way a player's burden in a round is 1 exactly when they meet a deleted player then, so their day's count
is how many deleted players they meet, and the counts add up to 3 d rounds. Shares are fair only if every
count is k or k + 1, k = 3 d rounds // n: the sets of deleted players are searched depth first among
players who never meet, dropping a set once someone's count passes k + 1. A set fair over the day still
needs an order of the rounds fair after every round (optimizer.balance.fair_order). With d = 1 every
player will do. The choices of rounds, the sets and the orders tried are capped, so a room with no such
set answers None quickly.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, islice

import numpy as np

from models import Layout, OddPolicy
from optimizer.balance import fair_order
from optimizer.constructions import frontier_rounds, instant_seating
from optimizer.pipeline.stages import Start
from optimizer.seats import EMPTY, Seats, meetings

# Past this many players the meetings matrix of each choice of rounds costs more than a start should;
# rooms that big rarely need deletion (601 and 603 players over 8 rounds start with no repeats without it).
MAX_PLAYERS = 600
# Choices of `rounds` of the design's rounds tried, in lexicographic order.
MAX_ROUND_CHOICES = 8
# Sets of deleted players (complete or not) the search visits, over all choices of rounds.
MAX_STEPS = 2_000
# Days fair in the end whose order of rounds is searched (each search is bounded, but not free).
MAX_DAYS = 32


def deletion_seating(player_count: int, rounds: int, odd: OddPolicy) -> Start | None:
    """A repeat-free seating with fair three-handed seats or sit-outs, or None if deletion finds none."""
    deleted = _deleted_count(player_count, odd) if player_count <= MAX_PLAYERS else 0
    design_size = player_count + deleted
    available = frontier_rounds(design_size)
    made = instant_seating(design_size, available) if deleted and 1 <= rounds <= available else None
    if made is None:
        return None
    design, method = made.seats, made.made
    for day in islice(_days_fair_in_the_end(design, rounds, deleted, player_count, odd), MAX_DAYS):
        order = fair_order(day, player_count)
        if order is not None:
            players = f"{deleted} player{'s' * (deleted > 1)}"
            return Start.built(day[order], f"repeat-free design of {design_size} ({method}) with {players} deleted")
    return None


def _deleted_count(player_count: int, odd: OddPolicy) -> int:
    """One player deleted per table of three, or one whose three tablemates sit out; 0 if deletion
    does not fit the room."""
    try:
        layout = Layout.for_room(player_count, odd)
    except ValueError:
        return 0
    return layout.threes or int(layout.sit_outs == 3)


def _days_fair_in_the_end(
    design: Seats, rounds: int, deleted: int, player_count: int, odd: OddPolicy
) -> Iterator[Seats]:
    """Chosen rounds of the design with a set of players deleted, fair over the day, for every complete
    set among the search's first MAX_STEPS steps."""
    for seats, players in islice(_steps(design, rounds, deleted, player_count), MAX_STEPS):
        if len(players) == deleted:
            yield _delete(seats, players, odd)


def _steps(design: Seats, rounds: int, deleted: int, player_count: int) -> Iterator[tuple[Seats, tuple[int, ...]]]:
    """Every step of the search: a choice of rounds and a set of players who never meet in them."""
    most = 3 * deleted * rounds // player_count + 1  # the highest fair count of meetings with the deleted
    design_size = player_count + deleted
    for chosen in islice(combinations(range(len(design)), rounds), MAX_ROUND_CHOICES):
        seats = design[list(chosen)]
        met = meetings(seats, design_size)
        for players in _never_met(met, deleted, most, (), np.zeros(design_size, np.int64)):
            yield seats, players


def _never_met(
    met: np.ndarray, size: int, most: int, chosen: tuple[int, ...], counts: np.ndarray
) -> Iterator[tuple[int, ...]]:
    """Depth first over sets of players (in increasing order) who never meet, yielding every set
    visited: `counts` says how many of `chosen` each player meets. No count may pass `most`, and once
    the set is complete every other player's count is `most` or one less."""
    yield chosen
    if len(chosen) == size:
        return
    gone = np.array(chosen, dtype=np.int64)
    others = np.arange(chosen[-1] + 1 if chosen else 0, len(met))
    others = others[~met[np.ix_(others, gone)].any(axis=1)]
    grown = counts + met[others]  # row i: the counts if others[i] is deleted too
    grown[:, gone] = grown[np.arange(len(others)), others] = most  # the deleted have no count
    least = most - 1 if len(chosen) + 1 == size else 0
    within = (grown.max(axis=1) <= most) & (grown.min(axis=1) >= least)
    for player in map(int, others[within]):
        yield from _never_met(met, size, most, chosen + (player,), counts + met[player])


def _delete(seats: Seats, players: tuple[int, ...], odd: OddPolicy) -> Seats:
    """The seating without `players`, the others numbered 0.. in order: the tables they leave come
    last with the empty seat in D (three-handed), or go with their three players sitting out."""
    gone = np.isin(seats, players)
    short = gone.any(axis=2)
    tables_last = np.argsort(short, axis=1, kind="stable")[:, :, None]
    seats = np.take_along_axis(seats, tables_last, axis=1)
    gone = np.take_along_axis(gone, tables_last, axis=1)
    seats = np.take_along_axis(seats, np.argsort(gone, axis=2, kind="stable"), axis=2)
    number = np.full(4 * seats.shape[1], EMPTY)
    kept = np.setdiff1d(np.arange(len(number)), players)
    number[kept] = np.arange(len(kept))
    day = number[seats]
    return day[:, : day.shape[1] - len(players)] if odd is OddPolicy.SIT_OUT else day
