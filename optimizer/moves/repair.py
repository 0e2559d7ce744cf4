"""The repair start of a fewest-moves re-plan: the old plan with as few changes as make it a valid day.

1. Seats: every player who can keep their seat keeps it (optimizer.moves.old); the seats left empty
   go first to those who must move (their seat is gone), then to those not seated before (arrivals,
   last round's sit-outs); whoever is left sits out.
2. Fair turns, round by round: with everyone's count so far at m or m + 1 and L the players at m, a
   round's burdens B (seats at tables of three, or sitting out) keep the counts within one exactly when
   B lies inside L (if L has room for them) or L inside B (if not). Each player on the wrong side
   trades places with one on the other, the cheapest first: a player who moves anyway.
Requests are left to the checker and CP-SAT, which takes this as its hint.
"""

from __future__ import annotations

import numpy as np

from models import Event
from optimizer.moves.old import OldPlan
from optimizer.seats import EMPTY, Seats


def repaired(old: OldPlan, event: Event, burdens_before: np.ndarray | None) -> Seats:
    capacity = [4] * event.layout.fours + [3] * event.layout.threes
    seats = kept_and_filled(old, capacity)
    if event.stay or not event.layout.turns:
        return seats
    before = np.zeros(len(event.players), np.int64) if burdens_before is None else burdens_before
    return fair_turns(seats, old, capacity, event.layout.fours, before)


def kept_and_filled(old: OldPlan, capacity: list[int]) -> Seats:
    keep = old.keepable(capacity)
    seats = np.full((keep.shape[0], len(capacity), 4), EMPTY, np.int64)
    for r, row in enumerate(keep):
        filled = [0] * len(capacity)
        for p in np.flatnonzero(row >= 0):
            t = row[p]
            seats[r, t, filled[t]], filled[t] = p, filled[t] + 1
        waiting = iter(sorted(np.flatnonzero(row < 0).tolist(), key=lambda p: bool(row[p] == EMPTY)))
        for t, size in enumerate(capacity):
            for k in range(filled[t], size):
                seats[r, t, k] = next(waiting)
    return seats


def fair_turns(seats: Seats, old: OldPlan, capacity: list[int], fours: int, before: np.ndarray) -> Seats:
    """The same seating with, round by round, the fewest trades that keep every count within one."""
    seats, so_far = seats.copy(), before.copy()
    keep = old.keepable(capacity)
    for r, round_ in enumerate(seats):
        burdened = _burdened(round_, fours, len(so_far))
        behind = so_far == so_far.min()
        wrong_in, wrong_out = burdened & ~behind, behind & ~burdened  # ahead and burdened; behind and free
        must, may = (wrong_in, wrong_out) if behind.sum() >= burdened.sum() else (wrong_out, wrong_in)
        moving = _where(round_, len(so_far)) != keep[r]  # moves anyway: trading costs nothing more
        options = sorted(np.flatnonzero(may).tolist(), key=lambda p: not moving[p])
        for p, q in zip(np.flatnonzero(must).tolist(), options, strict=False):
            _trade(round_, p, q)
        so_far += _burdened(round_, fours, len(so_far))
    return seats


def _where(round_: np.ndarray, player_count: int) -> np.ndarray:
    """Each player's table in one round, EMPTY sitting out."""
    where = np.full(player_count, EMPTY, np.int64)
    tables, slots = np.nonzero(round_ >= 0)
    where[round_[tables, slots]] = tables
    return where


def _burdened(round_: np.ndarray, fours: int, player_count: int) -> np.ndarray:
    where = _where(round_, player_count)
    return (where == EMPTY) | (where >= fours)


def _trade(round_: np.ndarray, p: int, q: int) -> None:
    """p and q trade places (a seat, or sitting out) in one round."""
    at_p, at_q = round_ == p, round_ == q
    round_[at_p], round_[at_q] = q, p
