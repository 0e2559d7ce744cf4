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

from collections.abc import Callable, Iterator

import numpy as np

from optimizer.budget import Budget
from optimizer.search.costs import Costs
from optimizer.search.swaps import Trades, Walk, seated_round, swap, tabu_walk
from optimizer.seats import Seats, meetings, repeats_in, turns_taken

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
    on_better: Callable[[Seats], None] | None = None,
    tenure: tuple[int, int] = (2, 6),
) -> Seats:
    """The best seating found within `budget` (each step charged 1 / TABU_STEPS_PER_SECOND seconds of
    work, so that a repeatable run repeats exactly), or as soon as its repeats reach `target`: the one
    tabu search (optimizer.search.swaps) on the objective of repeats and requests."""
    walk = Walk(tenure, STALL_STEPS, TABU_STEPS_PER_SECOND)
    return tabu_walk(_Repeats(seats.copy(), costs), walk, budget, rng, target, on_better)


class _Repeats:
    """The search's objective: repeats (counting the rounds already played) and the requests' costs, on
    swaps of same-sized tables that move a player out of a repeat and on turn trades that keep turns fair."""

    def __init__(self, seats: Seats, costs: Costs):
        self.costs, self.player_count = costs, costs.player_count
        self.restart(seats, None)

    def restart(self, seats: Seats, rng: np.random.Generator | None) -> None:
        """From a copy of `seats`. Where turns come out even at the end, no single trade is ever allowed,
        so a restart (`rng` given) exchanges a turn too (elsewhere the trades already move turns, and an
        exchange at every restart costs more than it frees: measured, sit-out 25 x 8 and 26 x 8 end
        higher with it)."""
        costs = self.costs
        self.seats = seats.copy()
        self.met = meetings(self.seats, costs.player_count) + costs.met_before
        if rng is not None and (taken := _turns_taken(self.seats, costs)) is not None:
            if np.ptp(_turns_so_far(taken, costs)[-1]) == 0:
                _exchange_turns(self.seats, self.met, taken, costs, rng)
        self._cost: float | None = None

    def cost(self) -> float:
        if self._cost is None:
            self._cost = _cost(self.met, self.costs)
        return self._cost

    def apply(self, r: int, p: int, q: int, change: float | None) -> None:
        swap(self.seats[r], p, q, self.met)
        self._cost = None if change is None or self._cost is None else self._cost + change

    def kicks(self, r: int) -> Trades | None:
        gain = _swap_gains(self.seats[r], self.met >= 2, self.met >= 1, self.costs, conflicts_only=False)
        return None if gain is None else Trades(gain[0], gain[0], gain[1])

    def moves(self) -> Iterator[tuple[int, list[Trades]]]:
        """Per round, the swaps and the sit-out trades with their exact change in cost."""
        costs, met = self.costs, self.met
        # Exact marginal costs: one meeting fewer, one meeting more (keep-apart cost on first meeting).
        repeated = (met >= 2) + costs.apart * (met == 1) + costs.clubs
        seen = (met >= 1) + costs.apart * (met == 0) + costs.clubs
        taken = _turns_taken(self.seats, costs)
        ahead = None if taken is None else _ahead(_turns_so_far(taken, costs))
        for r, round_ in enumerate(self.seats):
            blocks = []
            three_ahead = ahead[r] if ahead is not None and costs.three_handed_turns else None
            sitter_ahead = ahead[r] if ahead is not None and costs.sit_out_turns else None
            if (swaps := _swap_gains(round_, repeated, seen, costs, ahead=three_ahead)) is not None:
                blocks.append(Trades(swaps[0], *swaps))
            if sitter_ahead is not None and (trades := _trade_gains(round_, repeated, seen, costs, sitter_ahead)):
                blocks.append(Trades(*trades))
            yield r, blocks


def _cost(met: np.ndarray, costs: Costs) -> float:
    upper = np.triu(met, 1)
    requests = (np.triu(costs.apart, 1) * (upper > 0)).sum() + (np.triu(costs.clubs, 1) * upper).sum()
    return float(repeats_in(met) + requests)


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


def _exchange_turns(seats: Seats, met: np.ndarray, taken: np.ndarray, costs: Costs, rng: np.random.Generator) -> None:
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
    swap(seats[r], p, q, met)
    back = np.flatnonzero(taken[r + 1 :, q] & ~taken[r + 1 :, p])
    if len(back):
        swap(seats[r + 1 + int(back[0])], q, p, met)


def _trade_gains(
    round_: np.ndarray, repeated: np.ndarray, seen: np.ndarray, costs: Costs, ahead: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
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


def _swap_gains(
    round_: np.ndarray,
    repeated: np.ndarray,
    seen: np.ndarray,
    costs: Costs,
    conflicts_only: bool = True,
    ahead: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray] | None:
    """Players seated this round and the change in cost of swapping each pair of them. Only a swap
    that moves a player out of a repeat can lower the cost, so by default only those are weighed.
    With `ahead`, a player at a table of three may trade places with one at a table of four who is
    behind in turns."""
    seated = seated_round(round_)
    players, table_of, sizes, delta = seated.players, seated.table, seated.sizes, seated.change(seen, repeated)
    same = table_of[:, None] == table_of[None, :]
    leave = (repeated[np.ix_(players, players)] * same).sum(axis=1)  # repeats freed by leaving one's table
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
