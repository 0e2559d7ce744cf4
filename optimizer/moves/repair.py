"""The repair start of a fewest-moves re-plan: the old plan with as few changes as make it a valid day.

1. Seats: every player who can keep their seat keeps it (optimizer.moves.old); the seats left empty
   go first to those who must move (their seat is gone), then to those not seated before (arrivals,
   last round's sit-outs); whoever is left sits out.
2. Fair turns, round by round: with everyone's count so far at m or m + 1 and L the players at m, a
   round's burdens B (seats at tables of three, or sitting out) keep the counts within one exactly when
   B lies inside L (if L has room for them) or L inside B (if not). Each player on the wrong side
   trades places with one on the other, the cheapest first: a player who moves anyway.
The director's requests hold throughout, wherever a choice allows: a filled seat or a trade never puts
a player who stays at another table (sitting out is everyone's turn) nor a keep-apart pair at one table,
and players who take no three-handed turns (those who stay, optimizer.requests.turn_exempt) trade none.
So in the usual case (an arrival takes the sit-out seats round by round) the start is a valid day that
honours every request, the incumbent the search must beat.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from models import Event
from optimizer.moves.old import OldPlan
from optimizer.requests import apart_pairs, turn_exempt
from optimizer.seats import EMPTY, Seats

NOWHERE = -1  # a player who stays nowhere in particular


@dataclass(frozen=True)
class Requests:
    """What a seat change must not break: where each player stays (NOWHERE if free), who is kept apart."""

    stay_at: np.ndarray  # per player: the table index they stay at, or NOWHERE
    apart: np.ndarray  # players x players, True where two players must not share a table

    @classmethod
    def of(cls, event: Event) -> Requests:
        index = {name: p for p, name in enumerate(event.players)}
        stay_at = np.full(len(event.players), NOWHERE, np.int64)
        for name, table in event.stay.items():
            stay_at[index[name]] = table - 1
        return cls(stay_at, apart_pairs(event) > 0)

    @classmethod
    def none(cls, player_count: int) -> Requests:
        return cls(np.full(player_count, NOWHERE, np.int64), np.zeros((player_count, player_count), bool))

    def allow(self, player: int, table: int, others: Iterable[int]) -> bool:
        """Whether `player` may sit at `table` (EMPTY: sitting out) beside `others` there."""
        if table == EMPTY:
            return True
        stays = self.stay_at[player]
        return (stays == NOWHERE or stays == table) and not any(self.apart[player, q] for q in others if q >= 0)


def repaired(old: OldPlan, event: Event, burdens_before: np.ndarray | None) -> Seats:
    capacity = [4] * event.layout.fours + [3] * event.layout.threes
    requests = Requests.of(event)
    seats = kept_and_filled(old, capacity, requests)
    if not event.layout.turns:
        return seats
    before = np.zeros(len(event.players), np.int64) if burdens_before is None else burdens_before
    return fair_turns(seats, old, capacity, event.layout.fours, before, requests, turn_exempt(event))


def kept_and_filled(old: OldPlan, capacity: list[int], requests: Requests | None = None) -> Seats:
    """Kept seats, then the empty seats filled in turn, each waiting player at the first free seat the
    requests allow (else the first free seat), until none is free. A waiting player who stays takes a
    seat at their table first, or sits out while others do, or else takes the seat of someone there who
    then waits in their place."""
    keep = old.keepable(capacity)
    requests = requests or Requests.none(keep.shape[1])
    seats = np.full((keep.shape[0], len(capacity), 4), EMPTY, np.int64)
    for r, row in enumerate(keep):
        filled = [0] * len(capacity)
        for kept in np.flatnonzero(row >= 0):
            t = row[kept]
            seats[r, t, filled[t]], filled[t] = kept, filled[t] + 1
        waiting = sorted(np.flatnonzero(row < 0).tolist(), key=lambda p: bool(row[p] == EMPTY))
        waiting = _stayers_placed(seats[r], filled, capacity, waiting, requests)
        free = sum(capacity) - sum(filled)
        for p in waiting[:free]:
            open_ = [t for t, size in enumerate(capacity) if filled[t] < size]
            t = next((t for t in open_ if requests.allow(p, t, seats[r, t])), open_[0])
            seats[r, t, filled[t]], filled[t] = p, filled[t] + 1
    return seats


def _stayers_placed(
    round_: np.ndarray, filled: list[int], capacity: list[int], waiting: list[int], requests: Requests
) -> list[int]:
    """Seat each waiting stayer at their table (a free seat there, else sitting out while the seats left
    are fewer than the players waiting, else trading with a player there who does not stay); returns
    who still waits, a player displaced first (they move anyway)."""
    waiting = list(waiting)
    for p in [int(p) for p in waiting if requests.stay_at[p] != NOWHERE]:
        t, free = int(requests.stay_at[p]), sum(capacity) - sum(filled)
        waiting.remove(p)
        if filled[t] < capacity[t]:
            round_[t, filled[t]], filled[t] = p, filled[t] + 1
            continue
        k = next((k for k in range(filled[t]) if requests.stay_at[round_[t, k]] == NOWHERE), None)
        if len(waiting) >= free or k is None:
            waiting.append(p)  # among the last: sits out, as before (or the checker has the last word)
        else:
            waiting.insert(0, int(round_[t, k]))
            round_[t, k] = p
    return waiting


def fair_turns(
    seats: Seats,
    old: OldPlan,
    capacity: list[int],
    fours: int,
    before: np.ndarray,
    requests: Requests | None = None,
    exempt: np.ndarray | None = None,
) -> Seats:
    """The same seating with, round by round, the fewest trades that keep every count within one; a
    trade the requests forbid is passed over for the next cheapest, and exempt players take no turns."""
    seats, so_far = seats.copy(), before.copy()
    keep = old.keepable(capacity)
    requests = requests or Requests.none(len(so_far))
    taking = np.ones(len(so_far), bool) if exempt is None else ~exempt
    for r, round_ in enumerate(seats):
        burdened = _burdened(round_, fours, len(so_far)) & taking
        behind = taking & (so_far == so_far[taking].min(initial=so_far.max(initial=0)))
        wrong_in, wrong_out = burdened & ~behind, behind & ~burdened  # ahead and burdened; behind and free
        must, may = (wrong_in, wrong_out) if behind.sum() >= burdened.sum() else (wrong_out, wrong_in)
        moving = _where(round_, len(so_far)) != keep[r]  # moves anyway: trading costs nothing more
        options = sorted(np.flatnonzero(may).tolist(), key=lambda p: not moving[p])
        for p in np.flatnonzero(must).tolist():
            q = next((q for q in options if _tradable(round_, p, q, requests)), None)
            if q is not None:
                options.remove(q)
                _trade(round_, p, q)
        so_far += _burdened(round_, fours, len(so_far))
    return seats


def _tradable(round_: np.ndarray, p: int, q: int, requests: Requests) -> bool:
    """Whether p and q may trade places in this round, the requests kept."""
    where = _where(round_, len(requests.stay_at))
    at_p, at_q = where[p], where[q]
    if at_p == at_q:
        return True
    beside_q = [s for s in (round_[at_q] if at_q != EMPTY else ()) if s != q]
    beside_p = [s for s in (round_[at_p] if at_p != EMPTY else ()) if s != p]
    return requests.allow(p, at_q, beside_q) and requests.allow(q, at_p, beside_p)


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
