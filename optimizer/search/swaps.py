"""The one tabu search over swaps, with pluggable objectives: the search's (repeats, optimizer.search.tabu)
and the polish's (trios again, rematches, table visits, optimizer.balance.polish).

The neighbourhood is that of the tabu searches for the social golfer problem (Dotu and Van Hentenryck,
"Scheduling social golfers locally", CPAIOR 2005): two players of one round trade places, between two
tables or between a table and sitting out. Each step takes the best move over every round that is not
tabu, even an uphill one, to leave local minima; a move that beats the best so far is taken even if
tabu (aspiration). Both players of a move are tabu in that round for a random tenure. Ties are drawn at
random, by one of two rules (`ties`): "rounds", a best move of each round and then one of the rounds whose
best is lowest (the search's and the season's; an objective may weigh several rounds in one block, whose
lowest round is drawn within the block and offered as one), or "moves", one of all the tied moves of the day
(the polish's, whose
integer costs tie often: measured side by side, the first rule on the polish gave 2 table visits more on
40 x 8 and 1 fewer on four other rooms, so each keeps the rule it was tuned with). After `stall_steps`
steps without a new best (or with no move left) the walk restarts from the best after a few random
allowed moves (kicks, players / 8 of them, at least 2). Each step is charged its work to the budget
(optimizer.budget), so that a repeatable run repeats exactly: 1 / `steps_per_second` seconds, or in big
rooms rounds x players^2 x `seconds_per_cell` (every swap of every round is weighed: at 300 x 100 a step
of the polish is a second of work), whichever is more; a step whose work does not fit in what is left is
not begun. It stops once the cost reaches `target` or the budget is spent; the stop token and the wall
clock are polled after each round weighed, so that a long step is given up at the end, the best kept.

An objective says what moves a round allows and what each costs (`moves`), which moves a kick may take
(`kicks`), how a move changes the seating (`apply`) and how to start again from a seating (`restart`);
the cost of the change of every move of a round comes at once from matrix products (`swap_change`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple, Protocol

import numpy as np

from optimizer.budget import Budget
from optimizer.seats import EMPTY, Seats

# Two costs closer than this are equal (the search's costs are floats: its requests weigh 1e-3 and 1000).
EPSILON = 1e-9


class Walk(NamedTuple):
    """The settings of one tabu search."""

    tenure: tuple[int, int]  # a moved player is tabu in that round for low to high - 1 steps, drawn
    stall_steps: int  # steps without a new best before a restart from the best
    steps_per_second: float  # a repeatable run's work: steps a second
    ties: str = "rounds"  # "rounds" or "moves": how a tie between best moves is drawn (module docstring)
    seconds_per_cell: float = 0.0  # a repeatable run's work in big rooms: seconds per swap weighed

    def step_work(self, rounds: int, players: int) -> float:
        """The work charged for one step over `rounds` rounds of `players` (module docstring)."""
        return max(1 / self.steps_per_second, rounds * players * players * self.seconds_per_cell)


class Trades(NamedTuple):
    """Trades of one round: players moving in (rows), players moving out (columns) and the change in cost
    of each pair trading places, infinite where the objective does not allow it."""

    ins: np.ndarray
    outs: np.ndarray
    change: np.ndarray  # ins x outs, or rounds x ins x outs: rounds r, r + 1, ... weighed at once


class Objective(Protocol):
    """What one search weighs, on a seating it changes in place."""

    player_count: int

    @property
    def seats(self) -> Seats: ...

    def cost(self) -> float: ...

    def moves(self) -> Iterator[tuple[int, list[Trades]]]:
        """Per round (in order), the moves it allows with their change in cost."""
        ...

    def kicks(self, r: int) -> Trades | None:
        """The moves a kick may take in round r (finite changes), or None."""
        ...

    def apply(self, r: int, p: int, q: int, change: float | None) -> None:
        """p and q trade places in round r (`change`: the change in cost, None for a kick's)."""
        ...

    def restart(self, seats: Seats, rng: np.random.Generator) -> None:
        """Start again from `seats` (a copy)."""
        ...


def tabu_walk(
    objective: Objective,
    walk: Walk,
    budget: Budget,
    rng: np.random.Generator,
    target: float = 0,
    on_better: Callable[[Seats], None] | None = None,
) -> Seats:
    """The seating of lowest cost found (see the module docstring)."""
    best, best_cost = objective.seats.copy(), objective.cost()
    cost = best_cost
    tabu_until = np.zeros((len(best), objective.player_count), dtype=np.int64)
    step = last_better = 0
    work = walk.step_work(len(best), objective.player_count)
    while best_cost > target and not budget.done() and (work <= 1 / walk.steps_per_second or budget.afford(work)):
        step += 1
        budget.charge(work)
        move = _best_move(objective, tabu_until, step, cost, best_cost, rng, walk.ties, budget)
        if move is _GIVEN_UP:
            break
        if move is None or step - last_better > walk.stall_steps:
            objective.restart(best, rng)
            _kick(objective, rng)
            cost = objective.cost()
            tabu_until[:] = 0
            last_better = step
            continue
        r, p, q, change = move
        objective.apply(r, p, q, change)
        cost = objective.cost()
        tabu_until[r, [p, q]] = step + rng.integers(*walk.tenure, size=2)
        if cost < best_cost - EPSILON:
            best, best_cost, last_better = objective.seats.copy(), cost, step
            if on_better:
                on_better(best)
    return best


# What `_best_move` returns when the run was stopped, or its wall clock ran out, before every round was weighed.
_GIVEN_UP = (-1, -1, -1, 0.0)


def _best_move(
    objective: Objective,
    tabu_until: np.ndarray,
    step: int,
    cost: float,
    best_cost: float,
    rng: np.random.Generator,
    ties: str,
    budget: Budget,
) -> tuple[int, int, int, float] | None:
    """(round, player, player, change in cost) of the best allowed move, ties broken at random by the
    rule `ties` names; _GIVEN_UP if the budget's stop token is set or its wall clock runs out while the
    rounds are weighed (a repeatable run's step was paid for when begun: it always ends)."""
    candidates: list[tuple[float, int, int, int]] = []  # "rounds": each round's best
    tied: list[tuple[int, np.ndarray, np.ndarray]] = []  # "moves": (round, ins, outs) of the moves at `low`
    low = np.inf
    for r, blocks in objective.moves():
        if budget.stopped or (not budget.repeatable and budget.done()):
            return _GIVEN_UP
        for ins, outs, change in blocks:
            if change.ndim == 3:  # rounds r, r + 1, ... stacked
                candidates += _stacked_best(r, ins, outs, change, tabu_until, step, cost - best_cost, rng)
                continue
            allowed = (tabu_until[r, ins][:, None] <= step) & (tabu_until[r, outs][None, :] <= step)
            allowed |= cost + change < best_cost - EPSILON  # aspiration: a new best is never tabu
            change = np.where(allowed, change, np.inf)
            block_low = change.min()
            if not np.isfinite(block_low):
                continue
            if ties == "rounds":
                i, j = _random_argmin(change, block_low, rng)
                candidates.append((block_low, r, ins[i], outs[j]))
                continue
            if block_low < low - EPSILON:
                tied, low = [], block_low
            if block_low <= low + EPSILON:
                rows, cols = np.nonzero(change <= low + EPSILON)  # kept as arrays: thousands tie at the room limits
                tied.append((r, ins[rows], outs[cols]))
    if tied:  # one of all the tied moves, each as likely
        pick = int(rng.integers(sum(len(ins) for _, ins, _ in tied)))
        for r, ins, outs in tied:
            if pick < len(ins):
                return r, int(ins[pick]), int(outs[pick]), float(low)
            pick -= len(ins)
    if not candidates:
        return None
    low = min(c[0] for c in candidates)
    best = [c for c in candidates if c[0] <= low + EPSILON]
    picked, r, p, q = best[rng.integers(len(best))]
    return r, int(p), int(q), float(picked)


def _stacked_best(
    r: int,
    ins: np.ndarray,
    outs: np.ndarray,
    change: np.ndarray,
    tabu_until: np.ndarray,
    step: int,
    above_best: float,
    rng: np.random.Generator,
) -> list[tuple[float, int, int, int]]:
    """The "rounds" rule on a block of rounds r, r + 1, ... at once (change: rounds x ins x outs): one of
    its rounds whose best allowed move is lowest, drawn at random, and a best move of it; [] if none."""
    rounds = slice(r, r + len(change))
    allowed = (tabu_until[rounds, ins][:, :, None] <= step) & (tabu_until[rounds, outs][:, None, :] <= step)
    allowed |= change < -above_best - EPSILON  # aspiration: a new best is never tabu
    change = np.where(allowed, change, np.inf)
    lows = change.min(axis=(1, 2))
    low = lows.min()
    if not np.isfinite(low):
        return []
    s = _random_pick(np.flatnonzero(lows <= low + EPSILON), rng)
    i, j = divmod(_random_pick(np.flatnonzero(change[s] <= low + EPSILON), rng), change.shape[2])
    return [(float(low), r + s, int(ins[i]), int(outs[j]))]


def _random_pick(ties: np.ndarray, rng: np.random.Generator) -> int:
    """One of `ties` at random; the draw (a tenth of a step) only when there are two or more."""
    return int(ties[0] if len(ties) == 1 else ties[rng.integers(len(ties))])


def _kick(objective: Objective, rng: np.random.Generator) -> None:
    """A few random allowed moves, to leave the neighbourhood of the best."""
    for _ in range(max(2, objective.player_count // 8)):
        r = int(rng.integers(len(objective.seats)))
        allowed = objective.kicks(r)
        if allowed is None:
            continue
        ins, outs, change = allowed
        i, j = _random_argmin(np.where(np.isfinite(change), 0.0, np.inf), 0.0, rng)
        objective.apply(r, int(ins[i]), int(outs[j]), None)


def _random_argmin(values: np.ndarray, low: float, rng: np.random.Generator) -> tuple[int, int]:
    ties = np.flatnonzero(values <= low + EPSILON)  # row by row, as np.argwhere: a tenth of its time
    i, j = divmod(int(ties[rng.integers(len(ties))]), values.shape[1])
    return i, j


def seated_at(table: np.ndarray, tables: int) -> np.ndarray:
    """players x tables: 1 where player p sits at table table[p]; a player sitting out (-1) has a row of 0.
    Floats, so that the products of `swap_change` run in BLAS."""
    at = np.zeros((len(table), tables))
    seated = table >= 0
    at[np.flatnonzero(seated), table[seated]] = 1
    return at


def swap_change(join: np.ndarray, leave: np.ndarray, table: np.ndarray, at: np.ndarray) -> np.ndarray:
    """[i, j]: the change in a sum of pair terms over the pairs at one table when players i and j, seated
    at tables table[i] != table[j], swap tables (`at` = seated_at(table, tables), built once per round by
    callers who weigh several sums). join[x, y] is the term a pair (x, y) adds on meeting, leave[x, y] the
    one it frees on parting: i leaving frees leave[i, x] for each x at its table, and joining adds
    join[i, y] for each y at j's table but j; the same for j. Entries of a player sitting out mean nothing.
    `table` may stack several rounds (rounds x players, their tables numbered side by side in `at`): then
    [r, i, j] for each round r."""
    own = (leave @ at)[np.arange(table.shape[-1]), table]  # freed by leaving one's table
    joining = np.moveaxis((join @ at)[:, table], 0, -2)  # [i, j]: i meeting j's table as it is now
    return joining + joining.swapaxes(-1, -2) - join - join.T - own[..., :, None] - own[..., None, :]


class SeatedRound(NamedTuple):
    """One round as the swaps between its tables see it: the players seated in it (seat order)."""

    players: np.ndarray  # the seated players
    table: np.ndarray  # each one's table
    at: np.ndarray  # seated_at(table, tables)
    sizes: np.ndarray  # each one's table's size

    def change(self, join: np.ndarray, leave: np.ndarray) -> np.ndarray:
        """[i, j]: `swap_change` of the pair terms `join` and `leave` (players x players over everyone)
        between the seated players i and j."""
        rows, columns = self.players[:, None], self.players  # np.ix_'s index, without its checks
        return swap_change(join[rows, columns], leave[rows, columns], self.table, self.at)


def seated_round(round_: np.ndarray) -> SeatedRound:
    seated = round_ >= 0
    table = np.nonzero(seated)[0]
    return SeatedRound(round_[seated], table, seated_at(table, round_.shape[0]), seated.sum(axis=1)[table])


def joins_apart(apart: np.ndarray, table: np.ndarray, at: np.ndarray) -> np.ndarray:
    """[i, j]: whether i and j swapping tables (as in `swap_change`) seats a keep-apart pair together,
    `apart` 0/1 players x players."""
    join = (apart @ at)[:, table] - apart  # [i, j]: i's keep-apart mates at j's table but j
    return (join != 0) | (join.T != 0)


def swap(round_: np.ndarray, p: int, q: int, met: np.ndarray) -> None:
    """Swap p and q between their tables, updating the meetings matrix in place; p sitting out
    this round takes q's seat and q sits out. (The round as lists and one indexed update a side: a step of
    the season's descent swaps in a tenth of its time.)"""
    rows = round_.tolist()
    tq = next(t for t, row in enumerate(rows) if q in row)
    tp = next((t for t, row in enumerate(rows) if p in row), None)
    p_mates = [] if tp is None else [u for u in rows[tp] if u not in (EMPTY, p)]
    q_mates = [u for u in rows[tq] if u not in (EMPTY, q)]
    mates = np.array(p_mates + q_mates, dtype=np.int64)
    change = np.repeat([-1, 1], [len(p_mates), len(q_mates)])  # p leaves its mates for q's, q the reverse
    met[p, mates] += change
    met[mates, p] += change
    met[q, mates] -= change
    met[mates, q] -= change
    round_[tq, rows[tq].index(q)] = p
    if tp is not None:
        round_[tp, rows[tp].index(p)] = q
