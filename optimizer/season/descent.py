"""Tonight's seating improved for the season: the one tabu search (optimizer.search.swaps) on the season's
measure of the one cost model (optimizer.search.costs: `season_total`, `season_steps`).

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
sitting out moves), so every player keeps their three-handed turns and sit-outs; a keep-apart pair never
joins. With G[p, x] = F(c + 1) - F(c) + 2b and L[p, x] = F(c - 1) - F(c) - 2b what one more and one fewer
meeting of a pair at c = m + t costs, swapping p at table A with q at table B changes Q by sum over x in
A - p of (G[q, x] + L[p, x]) + sum over y in B - q of (G[p, y] + L[q, y]) (optimizer.search.swaps.swap_change
with join = G and leave = -L). The walk is the one tabu search's: the best swap of any round whose players
have not moved there lately, even when it raises Q (Glover 1989; a swap that beats the best seating is
always allowed), restarts from the best after STALL_STEPS steps without a new one, and the best seating
is kept.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from optimizer.budget import Budget
from optimizer.search.costs import Costs
from optimizer.search.swaps import SeatedRound, Trades, Walk, joins_apart, seated_round, swap, tabu_walk
from optimizer.seats import Seats, meetings

TENURE = (8, 16)  # a player moved in a round stays put there for 8 to 15 steps
# Steps without a new best before a restart from it: more than a night's descent takes at the benchmark's
# 2 s (some 640), so it restarts only when stuck. Measured on three leagues x two half-lives
# (benchmarks/results/season_engine): 200 let one pair reach 5 meetings where 4 was reached.
STALL_STEPS = 1000


def season_cost(seats: Seats, costs: Costs) -> float:
    """The seating's season cost (Costs.season_total)."""
    return costs.season_total(meetings(seats, costs.player_count))


def spread_out(seats: Seats, costs: Costs, *, rng: np.random.Generator, budget: Budget, step_work: float) -> Seats:
    """The seating of least season cost found before `budget` is spent, each step charged `step_work`
    seconds of work (so that a repeatable run repeats exactly)."""
    walk = Walk(TENURE, STALL_STEPS, 1 / step_work)
    return tabu_walk(_Season(seats, costs), walk, budget, rng, target=-np.inf)


class _Season:
    """The descent's objective for the one tabu search: the season cost, on swaps of same-sized tables
    that join no keep-apart pair and move no pinned player."""

    def __init__(self, seats: Seats, costs: Costs):
        self.costs, self.player_count = costs, costs.player_count
        self.restart(seats, None)

    def restart(self, seats: Seats, rng: np.random.Generator | None) -> None:
        self.seats = seats.copy()
        self.met = meetings(self.seats, self.player_count).astype(float)
        self._cost: float | None = None
        self._rounds: dict[int, tuple[SeatedRound, np.ndarray] | None] = {}  # each round's, until a swap in it

    def cost(self) -> float:
        if self._cost is None:
            self._cost = self.costs.season_total(self.met)
        return self._cost

    def apply(self, r: int, p: int, q: int, change: float | None) -> None:
        swap(self.seats[r], p, q, self.met)
        self._rounds.pop(r, None)
        self._cost = None if change is None or self._cost is None else self._cost + change

    def moves(self) -> Iterator[tuple[int, list[Trades]]]:
        gain, loss = self.costs.season_steps(self.met)
        leave = -loss
        for r in range(len(self.seats)):
            swaps = self._swaps(r, gain, leave)
            yield r, [] if swaps is None else [swaps]

    def kicks(self, r: int) -> Trades | None:
        gain, loss = self.costs.season_steps(self.met)
        swaps = self._swaps(r, gain, -loss)
        return None if swaps is None else swaps._replace(change=np.where(np.isfinite(swaps.change), 0.0, np.inf))

    def _swaps(self, r: int, gain: np.ndarray, leave: np.ndarray) -> Trades | None:
        """The swaps of round r with their change in season cost (`leave` = -loss)."""
        if (allowed := self._allowed(r)) is None:
            return None
        seated, mask = allowed
        return Trades(seated.players, seated.players, np.where(mask, seated.change(gain, leave), np.inf))

    def _allowed(self, r: int) -> tuple[SeatedRound, np.ndarray] | None:
        """Round r's seated players and the swaps allowed between them (each once: the first player's
        table first), None if none is; kept until a swap in round r, since a step changes one round."""
        if r not in self._rounds:
            seated = seated_round(self.seats[r])
            players, table, sizes = seated.players, seated.table, seated.sizes
            movable = ~self.costs.pinned[players]
            allowed = (table[:, None] < table[None, :]) & (sizes[:, None] == sizes[None, :])
            allowed &= movable[:, None] & movable[None, :]
            apart = self.costs.apart_pairs[np.ix_(players, players)]
            if apart.any():
                allowed &= ~joins_apart(apart.astype(float), table, seated.at)
            self._rounds[r] = (seated, allowed) if allowed.any() else None
        return self._rounds[r]
