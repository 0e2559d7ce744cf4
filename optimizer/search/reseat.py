"""Local search with numpy: seat one round at a time so that it repeats as few earlier meetings as possible.

A round is improved by swapping two players between tables while that lowers the round's cost;
the gain of every swap is computed at once from the players-by-tables cost matrix. Swaps only
exchange players at tables of the same size, so who is three-handed or sits out never changes and
the fair shares of the start are kept. These are the swaps of the one tabu search (optimizer.search.swaps),
walked differently on purpose: a plain descent of one round with kicks, its players x tables costs kept in
step move by move, where the tabu search weighs every round afresh each step (players^2 x tables), which
the rooms of up to 4000 players this serves cannot afford.

Each step weighs every swap of the round (players x players cells); a repeatable run's budget
(optimizer.budget) is charged CELLS_PER_SECOND cells a second of work, about what this project's 2-core
machine weighs (measured: 30 million cells a second at 160-1000 players, under load 5 on 2 cores).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from optimizer.budget import Budget
from optimizer.search.costs import Costs
from optimizer.seats import EMPTY, Seats, meetings

# A repeatable run is charged for each swap step this much, plus one second for this many cells of its gain
# matrix: measured at one worker's CPU (`python -m benchmarks.balance_work --sites`, work_clock.md), 43 us a
# step at 68 players, 69 us at 100 and 0.5 ms at 300: about 18 us + 5.4 ns a cell, charged a little above.
STEP_SECONDS = 20e-6
CELLS_PER_SECOND = 160_000_000


def reseat_round(
    tables: np.ndarray,
    cost: np.ndarray,
    rng: np.random.Generator,
    kicks: int = 20,
    pinned: np.ndarray | None = None,
    budget: Budget | None = None,
) -> np.ndarray:
    """The round's tables with players swapped to lower the summed cost of pairs at a table;
    pinned players keep their table. Once `budget` is spent it returns the best found so far."""
    budget = budget or Budget.unlimited()
    sizes = (tables >= 0).sum(axis=1)
    seated = tables[tables >= 0]
    table_of = np.repeat(np.arange(len(tables)), sizes)
    order = np.argsort(seated, kind="stable")
    players, table_of = seated[order], table_of[order]
    local = cost[np.ix_(players, players)]
    fixed = np.zeros(len(players), bool) if pinned is None else pinned[players]
    best = table_of.copy()
    best_cost = _round_cost(local, best)
    if best_cost < 1e-9:
        return tables
    for kick in range(kicks + 1):
        if kick:
            table_of = _kick(best.copy(), sizes, fixed, rng)
        table_of = _descend(local, table_of, sizes, fixed, budget)
        current = _round_cost(local, table_of)
        if current < best_cost - 1e-9:
            best, best_cost = table_of.copy(), current
        if best_cost < 1e-9 or budget.done():
            break
    return _as_tables(players, best, sizes, tables.shape)


def _round_cost(local: np.ndarray, table_of: np.ndarray) -> float:
    same = table_of[:, None] == table_of[None, :]
    return float((local * same).sum() / 2)


def _descend(
    local: np.ndarray, table_of: np.ndarray, sizes: np.ndarray, fixed: np.ndarray, budget: Budget
) -> np.ndarray:
    """Best-improvement swaps until none helps or the budget is spent."""
    # player x table: cost of sitting at that table, summed table by table (not a players x players x
    # tables product: seconds at 4000 players)
    order = np.argsort(table_of, kind="stable")
    together = np.add.reduceat(local[:, order], np.searchsorted(table_of[order], np.arange(len(sizes))), axis=1)
    movable_with = sizes[table_of][:, None] == sizes[table_of][None, :]
    movable_with &= ~fixed[:, None] & ~fixed[None, :]
    while True:
        joining = together[:, table_of]  # [i, j]: cost for i at j's table
        own = together[np.arange(len(table_of)), table_of]
        gain = joining + joining.T - 2 * local - own[:, None] - own[None, :]
        gain[~movable_with | (table_of[:, None] == table_of[None, :])] = np.inf
        i, j = np.unravel_index(np.argmin(gain), gain.shape)
        budget.charge(STEP_SECONDS + gain.size / CELLS_PER_SECOND)
        if gain[i, j] >= -1e-9 or budget.done():
            return table_of
        gi, gj = table_of[i], table_of[j]
        together[:, gi] += local[:, j] - local[:, i]
        together[:, gj] += local[:, i] - local[:, j]
        table_of[i], table_of[j] = gj, gi


def _kick(table_of: np.ndarray, sizes: np.ndarray, fixed: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A few random swaps between tables of the same size, to leave a local minimum."""
    for _ in range(max(2, len(table_of) // 8)):
        i, j = rng.choice(len(table_of), size=2, replace=False)
        if sizes[table_of[i]] == sizes[table_of[j]] and not (fixed[i] or fixed[j]):
            table_of[i], table_of[j] = table_of[j], table_of[i]
    return table_of


def _as_tables(players: np.ndarray, table_of: np.ndarray, sizes: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    tables = np.full(shape, EMPTY, dtype=np.int64)
    for t, size in enumerate(sizes):
        tables[t, :size] = np.sort(players[table_of == t])
    return tables


def _shuffled(tables: np.ndarray, pinned: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The round with its movable players shuffled among the seats of tables of the same size."""
    tables = tables.copy()
    sizes = (tables >= 0).sum(axis=1)
    for size in np.unique(sizes):
        seats_of_size = tables[sizes == size][:, :size]
        movable = ~pinned[seats_of_size]
        seats_of_size[movable] = rng.permutation(seats_of_size[movable])
        tables[np.flatnonzero(sizes == size), :size] = seats_of_size
    return tables


def reseat(tables: np.ndarray, met: np.ndarray, costs: Costs, rng: np.random.Generator, budget: Budget) -> np.ndarray:
    """One round's tables reseated against the meetings so far, pinned players kept."""
    if budget.done():  # not even the cost matrix: in a big room it alone takes a while
        return tables
    return reseat_round(tables, costs.of_meeting(met), rng, pinned=costs.pinned, budget=budget)


def improve(
    seats: Seats,
    costs: Costs,
    budget: Budget,
    rng: np.random.Generator,
    on_better: Callable[[Seats], None] | None = None,
) -> Seats:
    """Reseat one round at a time against all the others' meetings until the budget is spent or three
    passes find nothing better."""
    seats = seats.copy()
    if budget.done():
        return seats
    met = meetings(seats, costs.player_count)
    best = costs.repeats(met)
    stale = 0
    while not budget.done() and best > 0 and stale < 3:
        for r in rng.permutation(len(seats)):
            others = met - meetings(seats[r : r + 1], costs.player_count)
            seats[r] = reseat(seats[r], others, costs, rng, budget)
            met = others + meetings(seats[r : r + 1], costs.player_count)
            if budget.done():
                break
        now = costs.repeats(met)
        stale = stale + 1 if now >= best else 0
        if now < best:
            best = now
            if on_better:
                on_better(seats)
    return seats


def extend(seats: Seats, rounds: int, costs: Costs, rng: np.random.Generator, budget: Budget | None = None) -> Seats:
    """Add rounds after the given ones, each seated against every meeting so far (once `budget` is
    spent, seated at random: far fewer repeats than a copy, and still a valid day)."""
    budget = budget or Budget.unlimited()
    met = meetings(seats, costs.player_count)
    added = []
    for _ in range(rounds - len(seats)):
        round_ = seats[rng.integers(len(seats))].copy()
        if budget.done():
            round_ = _shuffled(round_, costs.pinned, rng)
        round_ = reseat(round_, met, costs, rng, budget)
        met = met + meetings(round_[None], costs.player_count)
        added.append(round_)
    return np.concatenate([seats[:rounds]] + ([np.stack(added)] if added else []))
