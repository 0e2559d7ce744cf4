"""Tonight's seating improved for the season: swaps of two players, each kept when it spreads meetings.

The season cost of tonight's seating is Q = sum over pairs of F(m + t) + 2 b t, with m the pair's earlier
meetings, b their recency (optimizer.season.earlier: the weight w = m + b) and t its meetings tonight, and
F(c) = c^2 + TOP_WEIGHT max(0, c - top)^2, top the most meetings of one of tonight's pairs so far. Without
the second term Q is sum (w + t)^2 less a constant, the season's sum of squared pair counts plus a recency
term: every meeting costs 2(m + t) + 1 + 2b, so a pair that met often, or lately, costs more than one that
met seldom, or long ago, and a pair never met costs 1. This is the convex measure a repeat count
(optimizer.seats) cannot be: a plan that avoids the pairs above the season's level leaves the rest alike,
and this descent spreads the rest. The second term makes the season's worst pair come first
(a min-max, then the sum of squares): a meeting that takes a pair past the most so far costs more than
a swap can gain elsewhere, so the season's maximum rises only on a night that cannot avoid it. With the
squares alone the descent let single pairs reach 5 meetings in 12 weeks where 4 was reached with it
(benchmarks/README.md, "A league season").

A move swaps two players at different tables of one size in one round (nobody who stays moves, nobody
sitting out moves), so every player keeps their three-handed turns and sit-outs and the requests hold:
a keep-apart pair costs more than any number of meetings. With G[p, x] = F(c + 1) - F(c) + 2b and
L[p, x] = F(c - 1) - F(c) - 2b what one more and one fewer meeting of a pair at c = m + t costs, swapping
p at table A with q at table B changes Q by sum over x in A - p of (G[q, x] + L[p, x]) + sum over y in
B - q of (G[p, y] + L[q, y]) (with F(c) = c^2 this is 2 [sum over A - p of (M[q, x] - M[p, x]) + sum
over B - q of (M[p, y] - M[q, y])] + 4 (s - 1), M = w + t, s the tables' size). Each step takes the best
swap of a random round whose players have not moved there lately, even when it raises Q (tabu search,
Glover 1989; a swap that beats the best seating is always allowed), and the best seating is kept.
"""

from __future__ import annotations

import numpy as np

from optimizer.budget import Budget
from optimizer.seats import EMPTY, Seats, meetings

APART_COST = 1e6  # more than any seating's meetings cost
TENURE = 8  # a player moved in a round stays put there for TENURE to 2 TENURE - 1 steps
# A meeting that takes a pair past the season's most meetings so far costs this much more (squared in the
# excess): more than a meeting elsewhere costs at this scale (2 (m + t) + 1 + 2b, some 15 in a 12-week
# league). 10 left single pairs at 5 in the benchmark's league where 100 did not.
TOP_WEIGHT = 100.0


class PairCosts:
    """What a pair's meetings cost the season: F(m + t) + 2 b t, F(c) = c^2 + TOP_WEIGHT max(0, c - top)^2,
    m the pair's earlier count, b their recency, t tonight's meetings and top the most meetings of one of
    tonight's pairs so far (the module docstring). Keep-apart pairs cost APART_COST a meeting."""

    def __init__(self, counts: np.ndarray, recency: np.ndarray, apart: np.ndarray):
        self.counts = counts.astype(float)
        self.recency = recency
        self.apart = apart
        self.top = float(counts.max(initial=0))

    def shape(self, c: np.ndarray) -> np.ndarray:
        """F(c) for every pair."""
        return c**2 + TOP_WEIGHT * np.maximum(0.0, c - self.top) ** 2

    def total(self, met: np.ndarray) -> float:
        """The seating's cost from tonight's meetings (pairs once each)."""
        c = self.counts + met
        cost = self.shape(c) + 2 * self.recency * met + APART_COST * self.apart * met
        return float(np.triu(cost, 1).sum())

    def steps(self, met: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(gain, loss): what one more meeting, and one fewer, of each pair costs tonight (diagonal 0)."""
        c = self.counts + met
        here = self.shape(c)
        linear = 2 * self.recency + APART_COST * self.apart
        gain = self.shape(c + 1) - here + linear
        loss = self.shape(np.maximum(c - 1, 0)) - here - linear
        np.fill_diagonal(gain, 0)
        np.fill_diagonal(loss, 0)
        return gain, loss


def season_cost(seats: Seats, costs: PairCosts) -> float:
    """The seating's season cost (PairCosts)."""
    return costs.total(meetings(seats, len(costs.counts)))


def spread_out(
    seats: Seats,
    costs: PairCosts,
    *,
    pinned: np.ndarray,
    rng: np.random.Generator,
    steps: int,
    budget: Budget | None = None,
    step_work: float = 0.0,
) -> Seats:
    """The seating after at most `steps` steps (or once `budget` is spent, each step charged `step_work`
    seconds of work) of the search: the least cost seen."""
    budget = budget or Budget.unlimited()
    n = len(costs.counts)
    met = meetings(seats, n).astype(float)
    current = seats.copy()
    best, best_cost = current.copy(), costs.total(met)
    cost = best_cost
    until = np.zeros((len(current), n), np.int64)  # step until which a player may not move in a round
    for step in range(steps):
        if budget.done():
            break
        budget.charge(step_work)
        r = int(rng.integers(len(current)))
        move = _best_swap(current[r], met, costs, pinned, until[r] > step, best_cost - cost)
        if move is None:
            continue
        p, q, change = move
        _apply(current, met, r, p, q)
        until[r, [p, q]] = step + TENURE + rng.integers(TENURE)
        cost += change
        if cost < best_cost - 1e-9:
            best, best_cost = current.copy(), cost
    return best


def _best_swap(tables: np.ndarray, met, costs: PairCosts, pinned, tabu, aspiration: float):
    """The swap of one round that lowers the cost most (or raises it least), among players not tabu unless
    it beats the best seating so far (gains more than `aspiration`); None when no swap is allowed."""
    size = (tables >= 0).sum(axis=1)
    n = len(met)
    where = np.full(n, -1)
    t_idx, s_idx = np.nonzero(tables >= 0)
    where[tables[t_idx, s_idx]] = t_idx
    seated = np.flatnonzero((where >= 0) & ~pinned)
    if len(seated) < 2:
        return None
    gain, loss = costs.steps(met)
    gained = np.zeros((n, len(tables)))  # gained[p, t]: sum of gain[p, x] over the players x at table t
    lost = np.zeros((n, len(tables)))
    for t in range(len(tables)):
        at = tables[t][tables[t] >= 0]
        gained[:, t] = gain[:, at].sum(axis=1)
        lost[:, t] = loss[:, at].sum(axis=1)
    p, q = seated[:, None], seated[None, :]
    a, b = where[p], where[q]
    delta = gained[q, a] - gain[q, p] + lost[p, a] + gained[p, b] - gain[p, q] + lost[q, b]
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
