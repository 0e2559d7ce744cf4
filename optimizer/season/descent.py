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
from optimizer.search.swaps import Trades, Walk, joins_apart, seated_round, swap, swap_change, tabu_walk
from optimizer.seats import Seats, meetings

TENURE = (8, 16)  # a player moved in a round stays put there for 8 to 15 steps
# Steps without a new best before a restart from it: more than a night's descent takes at the benchmark's
# 2 s (some 640), so it restarts only when stuck. Measured on three leagues x two half-lives
# (benchmarks/results/season_engine): 200 let one pair reach 5 meetings where 4 was reached.
STALL_STEPS = 1000
# A seating within this share of `season_floor` is taken as reaching it (the two sums round apart).
FLOOR_TOLERANCE = 1e-9


def season_cost(seats: Seats, costs: Costs) -> float:
    """The seating's season cost (Costs.season_total)."""
    return costs.season_total(meetings(seats, costs.player_count))


def spread_out(seats: Seats, costs: Costs, *, rng: np.random.Generator, budget: Budget, step_work: float) -> Seats:
    """The seating of least season cost found before `budget` is spent, each step charged `step_work`
    seconds of work (so that a repeatable run repeats exactly), or as soon as one costs `season_floor`."""
    walk = Walk(TENURE, STALL_STEPS, 1 / step_work)
    floor = season_floor(seats, costs)
    target = floor + FLOOR_TOLERANCE * max(1.0, abs(floor))
    return tabu_walk(_Season(seats, costs), walk, budget, rng, target=target)


def season_floor(seats: Seats, costs: Costs) -> float:
    """No seating with the tables of `seats` costs less: the season cost with no meeting tonight, plus the
    M cheapest steps over all pairs, M the pair-meetings the tables make. A pair's k-th meeting tonight
    costs F(c + k) - F(c + k - 1) + 2b (c its earlier count), rising with k as F is convex, so the M
    cheapest steps take each pair's first ones: this is the least cost of M meetings spread over the
    pairs however they like, the tables' shape relaxed. It is reached on a first night without repeats
    (every pair at 0, each meeting 1), where the descent then has nothing to do."""
    rounds, n = len(seats), costs.player_count
    upper = np.triu_indices(n, 1)
    c = (costs.met_before[upper] + np.arange(rounds + 1)[:, None]).astype(float)  # [k, pair]: c + k
    steps = np.diff(costs.season_shape(c), axis=0) + costs.season_step_cost[upper]
    pair_meetings = int(meetings(seats, n)[upper].sum())
    cheapest = np.partition(steps.ravel(), pair_meetings - 1)[:pair_meetings] if pair_meetings else steps[:0]
    return season_cost(seats[:0], costs) + float(cheapest.sum())


class _Season:
    """The descent's objective for the one tabu search: the season cost, on swaps of same-sized tables
    that join no keep-apart pair and move no pinned player. Every round is weighed in one block (players x
    players a round, `swap_change` over all rounds' tables side by side): one matrix product a step for
    them all, where a round at a time took one each and its overhead four times."""

    def __init__(self, seats: Seats, costs: Costs):
        self.costs, self.player_count = costs, costs.player_count
        self.everyone = np.arange(self.player_count)
        self.restart(seats, None)

    def restart(self, seats: Seats, rng: np.random.Generator | None) -> None:
        self.seats = seats.copy()
        self.met = meetings(self.seats, self.player_count).astype(float)
        self._cost: float | None = None
        rounds, tables = seats.shape[:2]
        # column[r, p]: p's table in round r among every round's tables side by side, the last (empty) if out
        self._column = np.full((rounds, self.player_count), rounds * tables)
        self._at = np.zeros((self.player_count, rounds * tables + 1))  # seated_at of every round side by side
        for r in range(rounds):
            table, seat = np.nonzero(seats[r] >= 0)
            self._column[r, seats[r][table, seat]] = r * tables + table
        self._at[self.everyone[None, :], self._column] = 1
        self._at[:, -1] = 0
        # the swaps each round allows whatever the seating (seated, not pinned, tables of one size) and, with
        # keep-apart pairs, those that join none (kept until a swap in that round)
        self._fixed = np.stack([self._fixed_in(r) for r in range(rounds)])
        self._apart = self.costs.apart_pairs.any()
        if self._apart:
            self._fixed &= np.stack([self._joins_no_apart(r) for r in range(rounds)])

    def cost(self) -> float:
        if self._cost is None:
            self._cost = self.costs.season_total(self.met)
        return self._cost

    def apply(self, r: int, p: int, q: int, change: float | None) -> None:
        swap(self.seats[r], p, q, self.met)
        (cp, cq) = self._column[r, [p, q]]
        self._at[[p, q], [cp, cq]] = 0
        self._at[[p, q], [cq, cp]] = 1
        self._column[r, [p, q]] = cq, cp
        if self._apart:
            self._fixed[r] = self._fixed_in(r) & self._joins_no_apart(r)
        self._cost = None if change is None or self._cost is None else self._cost + change

    def moves(self) -> Iterator[tuple[int, list[Trades]]]:
        gain, loss = self.costs.season_steps(self.met)
        change = swap_change(gain, -loss, self._column, self._at)
        yield 0, [Trades(self.everyone, self.everyone, np.where(self._allowed(slice(None)), change, np.inf))]

    def kicks(self, r: int) -> Trades | None:
        allowed = self._allowed(r)
        return Trades(self.everyone, self.everyone, np.where(allowed, 0.0, np.inf)) if allowed.any() else None

    def _allowed(self, rounds: int | slice) -> np.ndarray:
        """[r, i, j] (or [i, j] of one round): whether i and j may swap in round r, each swap once (the
        first player's table first)."""
        column = self._column[rounds]
        return (column[..., :, None] < column[..., None, :]) & self._fixed[rounds]

    def _fixed_in(self, r: int) -> np.ndarray:
        """players x players: the pairs seated in round r at different tables of one size, neither pinned."""
        seated = seated_round(self.seats[r])
        players, sizes = seated.players, seated.sizes
        movable = ~self.costs.pinned[players]
        fixed = np.zeros((self.player_count, self.player_count), bool)
        fixed[np.ix_(players, players)] = (sizes[:, None] == sizes[None, :]) & movable[:, None] & movable[None, :]
        return fixed

    def _joins_no_apart(self, r: int) -> np.ndarray:
        """players x players: the swaps of round r that seat no keep-apart pair together."""
        seated = seated_round(self.seats[r])
        apart = self.costs.apart_pairs[np.ix_(seated.players, seated.players)]
        free = np.ones((self.player_count, self.player_count), bool)
        free[np.ix_(seated.players, seated.players)] = ~joins_apart(apart.astype(float), seated.table, seated.at)
        return free
