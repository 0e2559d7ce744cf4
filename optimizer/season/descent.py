"""Tonight's seating improved for the season: swaps of two players, each kept when it spreads meetings.

The season cost of tonight's seating is Q = sum over pairs of (w + t)^2, with w the pair's weighted
earlier meetings (optimizer.season.earlier: its count plus their recency) and t its meetings tonight:
every meeting costs 2(w + t) + 1, so a pair that met often, or lately, costs more than one that met
seldom, or long ago, and a pair never met costs 1. Q is the season's sum of squared pair counts plus a
recency term (optimizer.season.earlier). This is the convex measure a repeat count (optimizer.seats)
cannot be: a plan that avoids the pairs above the season's level leaves the rest alike, and this descent
spreads the rest.

A move swaps two players at different tables of one size in one round (nobody who stays moves, nobody
sitting out moves), so every player keeps their three-handed turns and sit-outs and the requests hold:
a keep-apart pair costs more than any number of meetings. Swapping p at table A with q at table B changes
Q by 2 [sum over x in A - p of (M[q, x] - M[p, x]) + sum over y in B - q of (M[p, y] - M[q, y])]
+ 4 (s - 1), M = w + t and s the tables' size (a meeting moved from a pair at M to one at M' changes Q by
(2M' + 1) - (2M - 1)). Each step takes the best swap of a random round whose
players have not moved there lately, even when it raises Q (tabu search, Glover 1989; a swap that beats
the best seating is always allowed), and the best seating is kept.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from optimizer.seats import EMPTY, Seats, meetings

APART_COST = 1e6  # more than any seating's meetings cost
TENURE = 8  # a player moved in a round stays put there for TENURE to 2 TENURE - 1 steps


def season_cost(seats: Seats, weighted: np.ndarray) -> float:
    """Q of a seating: sum over pairs of (w + t)^2."""
    together = weighted + meetings(seats, len(weighted))
    return float((np.triu(together, 1) ** 2).sum())


def spread_out(
    seats: Seats,
    weighted: np.ndarray,
    *,
    apart: np.ndarray,
    pinned: np.ndarray,
    rng: np.random.Generator,
    steps: int,
    deadline: float = float("inf"),
    stopped: Callable[[], bool] = lambda: False,
) -> Seats:
    """The seating after at most `steps` steps (or at `deadline`, or once `stopped`) of the search: the
    least Q seen."""
    n = len(weighted)
    base = weighted + APART_COST * apart
    met = meetings(seats, n).astype(float)
    current = seats.copy()
    best, best_cost = current.copy(), season_cost(current, weighted)
    cost = best_cost
    until = np.zeros((len(current), n), np.int64)  # step until which a player may not move in a round
    for step in range(steps):
        if time.monotonic() > deadline or stopped():
            break
        r = int(rng.integers(len(current)))
        move = _best_swap(current[r], met, base, pinned, until[r] > step, best_cost - cost)
        if move is None:
            continue
        p, q, change = move
        _apply(current, met, r, p, q)
        until[r, [p, q]] = step + TENURE + rng.integers(TENURE)
        cost += change
        if cost < best_cost - 1e-9:
            best, best_cost = current.copy(), cost
    return best


def _best_swap(tables: np.ndarray, met, base, pinned, tabu, aspiration: float) -> tuple[int, int, float] | None:
    """The swap of one round that lowers Q most (or raises it least), among players not tabu unless it
    beats the best seating so far (gains more than `aspiration`); None when no swap is allowed."""
    size = (tables >= 0).sum(axis=1)
    n = len(base)
    where = np.full(n, -1)
    t_idx, s_idx = np.nonzero(tables >= 0)
    where[tables[t_idx, s_idx]] = t_idx
    seated = np.flatnonzero((where >= 0) & ~pinned)
    if len(seated) < 2:
        return None
    m = base + met
    load = np.zeros((n, len(tables)))  # load[p, t]: sum of M[p, x] over the players x at table t
    for t in range(len(tables)):
        at = tables[t][tables[t] >= 0]
        load[:, t] = m[:, at].sum(axis=1)
    p, q = seated[:, None], seated[None, :]
    a, b = where[p], where[q]
    delta = 2 * (load[q, a] - m[q, p] - load[p, a] + load[p, b] - m[p, q] - load[q, b]) + 4 * (size[a] - 1)
    free = ~(tabu[p] | tabu[q]) | (delta < aspiration - 1e-9)
    allowed = (a < b) & (size[a] == size[b]) & free
    if not allowed.any():
        return None
    delta = np.where(allowed, delta, np.inf)
    i, j = np.unravel_index(int(np.argmin(delta)), delta.shape)
    return int(seated[i]), int(seated[j]), float(delta[i, j])


def _apply(seats: Seats, met: np.ndarray, r: int, p: int, q: int) -> None:
    """Swap p and q in round r, keeping their seat letters, and update tonight's meetings."""
    tables = seats[r]
    (tp,), (sp,) = np.nonzero(tables == p)
    (tq,), (sq,) = np.nonzero(tables == q)
    for player, old in ((p, tp), (q, tq)):
        for x in tables[old]:
            if x != EMPTY and x != player:
                met[player, x] -= 1
                met[x, player] -= 1
    tables[tp, sp], tables[tq, sq] = q, p
    for player, table in ((q, tp), (p, tq)):
        for x in tables[table]:
            if x != EMPTY and x != player:
                met[player, x] += 1
                met[x, player] += 1
