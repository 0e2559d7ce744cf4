"""Tabu search over the whole day: swap two players between tables in one round, always taking the
best swap that is not tabu (the local search of Dotu and Van Hentenryck for the social golfer problem,
with repeats as the cost).

The change in repeats of every swap in every round is computed at once from the meetings matrix:
a player leaving a table frees each pair there that met more than once, a player joining a table
repeats each pair there that met before. Swaps keep table sizes, pinned players and keep-apart
costs as the plan's local search does, so fair shares and requests stay as they were.

Who takes a turn may change hands between two players when it keeps turns fair: a player at a table of
three with one at a table of four, and a player sitting out with one seated, where the one giving the
turn away has taken more turns than the other after every round from this one on (then both counts
stay within the fair range, swapped). Without the sit-out trade a day keeps the sit-outs of its start,
and the best day may need others: sit-out 11 x 6 stays at 18 repeats from its greedy start, and with it
reaches its optimum of 17 within a second. Where turns come out even at the end of the day nobody is
ahead to the end, so no single trade is allowed; a restart after a stall therefore also exchanges a
turn: handed over in one round and back in the first later round where the taker takes one and the
giver does not. Three-handed 10 x 5 from a greedy start stays at 25 repeats without it and reaches its
optimum of 17 with it; three-handed 14 x 7 reaches its counting bound of 35.
"""

from __future__ import annotations

import numpy as np

from optimizer.budget import Budget
from optimizer.search.costs import Costs
from optimizer.seats import EMPTY, Seats, meetings, repeats_in, turns_taken

# A repeatable run (optimizer.budget's work clock) counts this many steps a second of work.
TABU_STEPS_PER_SECOND = 300
# Steps without a new best before the search restarts from the best with a few random swaps.
STALL_STEPS = 300


def tabu_search(
    seats: Seats,
    costs: Costs,
    budget: Budget,
    rng: np.random.Generator,
    target: int = 0,
    on_better=None,
    tenure: tuple[int, int] = (2, 6),
) -> Seats:
    """The best seating found within `budget` (each step charged 1 / TABU_STEPS_PER_SECOND seconds of
    work, so that a repeatable run repeats exactly), or as soon as its repeats reach `target`."""
    seats = seats.copy()
    rounds, tables, _ = seats.shape
    met = meetings(seats, costs.player_count) + costs.met_before
    best, best_cost = seats.copy(), _cost(met, costs)
    cost = best_cost
    tabu_until = np.zeros((rounds, costs.player_count), dtype=np.int64)
    step = last_better = 0
    while best_cost > target and not budget.done():
        step += 1
        budget.charge(1 / TABU_STEPS_PER_SECOND)
        move = _best_move(seats, met, costs, tabu_until, step, cost, best_cost, rng)
        if move is None or step - last_better > STALL_STEPS:
            seats, met, cost = _perturb(best, costs, rng)
            tabu_until[:] = 0
            last_better = step
            continue
        r, p, q, delta = move
        _swap(seats[r], p, q, met)
        cost += delta
        tabu_until[r, [p, q]] = step + rng.integers(*tenure, size=2)
        if cost < best_cost - 1e-9:
            best, best_cost, last_better = seats.copy(), cost, step
            if on_better:
                on_better(best)
    return best


def _perturb(best: Seats, costs: Costs, rng: np.random.Generator):
    """Restart from the best seating after a few random swaps: a stalled search moves elsewhere.
    Where turns come out even at the end, no single trade is ever allowed, so a turn is exchanged
    too (elsewhere the trades already move turns, and an exchange at every restart costs more than
    it frees: measured, sit-out 25 x 8 and 26 x 8 end higher with it)."""
    seats = best.copy()
    met = meetings(seats, costs.player_count) + costs.met_before
    if (taken := _turns_taken(seats, costs)) is not None and np.ptp(_turns_so_far(taken, costs)[-1]) == 0:
        _exchange_turns(seats, met, taken, costs, rng)
    for _ in range(max(2, costs.player_count // 8)):
        r = rng.integers(len(seats))
        gain = _swap_gains(seats[r], met >= 2, met >= 1, costs, conflicts_only=False)
        if gain is None:
            continue
        players, delta = gain
        i, j = _random_argmin(np.where(np.isfinite(delta), 0.0, np.inf), 0.0, rng)
        _swap(seats[r], int(players[i]), int(players[j]), met)
    return seats, met, _cost(met, costs)


def _cost(met: np.ndarray, costs: Costs) -> float:
    upper = np.triu(met, 1)
    requests = (np.triu(costs.apart, 1) * (upper > 0)).sum() + (np.triu(costs.clubs, 1) * upper).sum()
    return float(repeats_in(met) + requests)


def _best_move(seats, met, costs: Costs, tabu_until, step, cost, best_cost, rng):
    """(round, player, player, change in cost) of the best allowed swap or sit-out trade, ties
    broken at random."""
    # Exact marginal costs: one meeting fewer, one meeting more (keep-apart cost on first meeting).
    repeated = (met >= 2) + costs.apart * (met == 1) + costs.clubs
    seen = (met >= 1) + costs.apart * (met == 0) + costs.clubs
    taken = _turns_taken(seats, costs)
    ahead = None if taken is None else _ahead(_turns_so_far(taken, costs))
    candidates = []
    for r, round_ in enumerate(seats):
        gains = []  # (players moving in, players moving out, change in cost of each pair)
        three_ahead = ahead[r] if ahead is not None and costs.three_handed_turns else None
        sitter_ahead = ahead[r] if ahead is not None and costs.sit_out_turns else None
        if (swaps := _swap_gains(round_, repeated, seen, costs, ahead=three_ahead)) is not None:
            gains.append((swaps[0], *swaps))
        if sitter_ahead is not None and (trades := _trade_gains(round_, repeated, seen, costs, sitter_ahead)):
            gains.append(trades)
        for ins, outs, delta in gains:
            allowed = (tabu_until[r, ins][:, None] <= step) & (tabu_until[r, outs][None, :] <= step)
            allowed |= cost + delta < best_cost - 1e-9  # aspiration: a new best is never tabu
            delta = np.where(allowed, delta, np.inf)
            low = delta.min()
            if np.isfinite(low):
                i, j = _random_argmin(delta, low, rng)
                candidates.append((low, r, ins[i], outs[j]))
    if not candidates:
        return None
    low = min(c[0] for c in candidates)
    best = [c for c in candidates if c[0] <= low + 1e-9]
    delta, r, p, q = best[rng.integers(len(best))]
    return r, int(p), int(q), float(delta)


def _turns_taken(seats: Seats, costs: Costs) -> np.ndarray | None:
    """[round, player]: who takes a turn that round (a seat at a table of three, or sitting out),
    if turns are taken in turn."""
    if not (costs.three_handed_turns or costs.sit_out_turns):
        return None
    return turns_taken(seats, costs.player_count)


def _turns_so_far(taken: np.ndarray, costs: Costs) -> np.ndarray:
    """[round, player]: turns taken after each round, the played rounds' included."""
    return costs.burdens_before[None, :] + taken.astype(np.int64).cumsum(axis=0)


def _ahead(so_far: np.ndarray) -> list[np.ndarray]:
    """Per round r, [p, q]: p has taken more turns than q after every round from r on. Only then
    may p hand q its turn in round r (a seat at a table of three, or sitting out) without breaking
    turns: both counts stay in the fair range, swapped."""
    player_count = so_far.shape[1]
    ahead, still = [], np.ones((player_count, player_count), dtype=bool)
    for counts in so_far[::-1]:
        still = still & (counts[:, None] > counts[None, :])
        ahead.append(still)
    return ahead[::-1]


def _exchange_turns(seats: Seats, met: np.ndarray, taken: np.ndarray, costs: Costs, rng) -> None:
    """Hand a random player's turn in a random round to a player one turn behind, who hands one back
    at the first later round where they take a turn and the first does not, if there is one. Counts
    between those rounds move by one each way, swapped, so turns stay fair after every round. Single
    trades (`_ahead`) need the giver ahead to the end of the day; where turns come out even at the
    end there are none, and only this changes who takes a turn when."""
    so_far = _turns_so_far(taken, costs)
    r = int(rng.integers(len(seats)))
    givers = np.flatnonzero(taken[r] & ~costs.pinned)
    takers = np.flatnonzero(~taken[r] & ~costs.pinned)
    pairs = np.argwhere(so_far[r, givers][:, None] > so_far[r, takers][None, :])
    if not len(pairs):
        return
    i, j = pairs[rng.integers(len(pairs))]
    p, q = int(givers[i]), int(takers[j])
    _swap(seats[r], p, q, met)
    back = np.flatnonzero(taken[r + 1 :, q] & ~taken[r + 1 :, p])
    if len(back):
        _swap(seats[r + 1 + int(back[0])], q, p, met)


def _trade_gains(round_: np.ndarray, repeated, seen, costs: Costs, ahead: np.ndarray):
    """(players sitting out, players seated, change in cost [i, j] of sitter i taking seated j's
    seat). Only trades that take a player out of a repeat are weighed, and only with a sitter
    ahead in turns."""
    seated = round_ >= 0
    players = round_[seated]
    sitters = np.setdiff1d(np.flatnonzero(~costs.pinned), players)
    if not len(sitters):
        return None
    table_of = np.nonzero(seated)[0]
    same = (table_of[:, None] == table_of[None, :]) & ~np.eye(len(players), dtype=bool)
    leave = (repeated[np.ix_(players, players)] * same).sum(axis=1)  # what j frees by leaving
    join = seen[np.ix_(sitters, players)] @ same  # [i, j]: i meeting j's table-mates
    allowed = ahead[np.ix_(sitters, players)] & ~costs.pinned[players][None, :] & (leave > 0)[None, :]
    if not allowed.any():
        return None
    return sitters, players, np.where(allowed, join - leave[None, :], np.inf)


def _swap_gains(round_: np.ndarray, repeated, seen, costs: Costs, conflicts_only: bool = True, ahead=None):
    """Players seated this round and the change in cost of swapping each pair of them. Only a swap
    that moves a player out of a repeat can lower the cost, so by default only those are weighed.
    With `ahead`, a player at a table of three may trade places with one at a table of four who is
    behind in turns."""
    seated = round_ >= 0
    players = round_[seated]
    table_of = np.nonzero(seated)[0]
    onehot = np.zeros((len(players), round_.shape[0]))
    onehot[np.arange(len(players)), table_of] = 1
    sub_repeated = repeated[np.ix_(players, players)]
    sub_seen = seen[np.ix_(players, players)]
    same = onehot @ onehot.T
    leave = (sub_repeated * same).sum(axis=1)  # repeats freed by leaving one's table
    join = sub_seen @ onehot  # [i, table]: cost of i joining that table as it is now
    joining = join[:, table_of]  # [i, j]: cost of i at j's table
    delta = joining + joining.T - sub_seen - sub_seen.T - leave[:, None] - leave[None, :]
    sizes = seated.sum(axis=1)[table_of]
    movable = ~costs.pinned[players]
    trade = sizes[:, None] == sizes[None, :]
    if ahead is not None:
        turn = ahead[np.ix_(players, players)]
        trade |= ((sizes[:, None] == 3) & (sizes[None, :] == 4) & turn) | (
            (sizes[:, None] == 4) & (sizes[None, :] == 3) & turn.T
        )
    allowed = trade & (same == 0) & movable[:, None] & movable[None, :]
    if conflicts_only:
        conflicted = leave > 0
        allowed &= conflicted[:, None] | conflicted[None, :]
    allowed = np.triu(allowed, 1)
    if not allowed.any():
        return None
    return players, np.where(allowed, delta, np.inf)


def _random_argmin(values: np.ndarray, low: float, rng) -> tuple[int, int]:
    ties = np.argwhere(values <= low + 1e-9)
    return tuple(ties[rng.integers(len(ties))])


def _swap(round_: np.ndarray, p: int, q: int, met: np.ndarray) -> None:
    """Swap p and q between their tables, updating the meetings matrix in place; p sitting out
    this round takes q's seat and q sits out."""
    tq, sq = np.argwhere(round_ == q)[0]
    q_mates = [u for u in round_[tq] if u not in (EMPTY, q)]
    if p not in round_:
        _move(met, q, q_mates, [])
        _move(met, p, [], q_mates)
        round_[tq, sq] = p
        return
    tp, sp = np.argwhere(round_ == p)[0]
    p_mates = [u for u in round_[tp] if u not in (EMPTY, p)]
    _move(met, p, p_mates, [u for u in q_mates if u != p])
    _move(met, q, q_mates, [u for u in p_mates if u != q])
    round_[tp, sp], round_[tq, sq] = q, p


def _move(met: np.ndarray, player: int, old_mates: list[int], new_mates: list[int]) -> None:
    """Meetings after `player` leaves `old_mates` for `new_mates`."""
    met[player, old_mates] -= 1
    met[old_mates, player] -= 1
    met[player, new_mates] += 1
    met[new_mates, player] += 1
