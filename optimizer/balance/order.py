"""The order of rounds: play the rounds in the order with the fewest back-to-back rematches.

The mathematics. Reordering rounds changes nothing else (meetings, trios, seat letters and table visits
are sums over rounds). A back-to-back rematch is a pair at one table in two consecutive rounds, so with
w(r, s) the number of pairs who share a table in both rounds r and s, the best order is a shortest
Hamiltonian path in the complete graph on rounds weighted by w, starting after the `previous` round
(the last one already played, if any) - a travelling salesman path. For up to EXACT_ROUNDS rounds it is
solved exactly by the Held-Karp dynamic programme over subsets (Held and Karp, "A dynamic programming
approach to sequencing problems", J. SIAM 10, 1962), O(2^R R^2); beyond, a local search (move one round
elsewhere, swap two, reverse a stretch: Or-opt and 2-opt, Croes 1958) from the given order.

Turns. When some players take a burden each round (a three-handed seat or sitting out) and the given
order shares it in turn (after every round, everyone's count differs by at most one), only orders that
keep sharing it in turn are allowed. Whether a first stretch of rounds is fair depends only on which
rounds it holds, not on their order, so the programme simply skips unfair subsets. Players seated in no
round (not at the event) and `exempt` players (those who stay, under the three-handed rule) are left out
of the turns. The original order is kept whenever it is already among the best.

A day whose given order does not take turns may still have one that does: `fair_order` looks for it depth
first, growing a fair first stretch one round at a time and remembering (by the rounds they hold) the
stretches that cannot be completed, so it visits each set of rounds at most once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from optimizer.balance._day import players_in
from optimizer.budget import Abandoned, Budget
from optimizer.seats import table_of, turns_fair, turns_taken

EXACT_ROUNDS = 16
# Subsets times players beyond which the fair-turns table of the exact programme gets too large.
EXACT_CELLS = 8_000_000
# First stretches fair_order grows before it gives up (it needs far fewer unless no fair order exists).
FAIR_ORDER_STEPS = 1_000
# A repeatable run's budget is charged one second of work for this many pairs of rounds compared and for
# this many orders weighed by the local search: half the CPU of an earlier measurement (20 to 85
# microseconds a pair, about 20 + 0.05 x players; 13 microseconds an order at 17 to 100 rounds), as measured
# at 22 to 100 rounds and 68 to 300 players (`python -m benchmarks.balance_work --sites`, work_clock.md).
ROUND_PAIRS_PER_SECOND = 100_000
PLAYER_ROUND_PAIRS_PER_SECOND = 40_000_000
ORDERS_PER_SECOND = 150_000


def back_to_back(seats: np.ndarray, previous: np.ndarray | None = None, player_count: int | None = None) -> int:
    """Pairs who share a table in consecutive rounds, counted per round (and after `previous`)."""
    n = _players(seats, previous, player_count)
    weights, start = _rematches(seats, previous, n)
    return int(start[0] + sum(weights[r, r + 1] for r in range(len(seats) - 1)))


def order_rounds(
    seats: np.ndarray,
    previous: np.ndarray | None = None,
    player_count: int | None = None,
    exempt: np.ndarray | None = None,
    burdens_so_far: np.ndarray | None = None,
    budget: Budget | None = None,
) -> np.ndarray:
    """The same rounds in the order with the fewest back-to-back rematches (after `previous`, a
    (tables, 4) round already played), keeping three-handed seats and sit-outs shared in turn when the
    given order shares them. `burdens_so_far` counts each player's burdens in rounds already played;
    the local search (long days) stops improving once `budget` is spent. The budget is charged the work
    (order_work, and the orders weighed); a stop while the rounds are compared keeps the given order."""
    n = _players(seats, previous, player_count)
    budget = budget or Budget.unlimited()
    budget.charge(order_work(seats, n))
    try:
        weights, start = _rematches(seats, previous, n, budget.poller())
    except Abandoned:
        return seats.copy()
    so_far = np.zeros(n, np.int64) if burdens_so_far is None else np.asarray(burdens_so_far, np.int64)
    burden, so_far = _burdens(seats, n, exempt, so_far)
    in_turns = _fair(burden, so_far) if burden is not None else None
    if in_turns is not None and not in_turns(np.arange(len(seats))):
        burden = in_turns = None  # the given order does not take turns, so there is nothing to keep
    identity = np.arange(len(seats))
    best = (
        _exact(weights, start, burden, so_far)
        if _small(seats, n)
        else _local(weights, start, identity, in_turns, budget)
    )
    if best is None or _length(weights, start, best) >= _length(weights, start, identity):
        return seats.copy()
    return seats[best]


def fair_order(seats: np.ndarray, player_count: int | None = None) -> np.ndarray | None:
    """An order of the rounds in which three-handed seats and sit-outs are taken in turn (after every
    round everyone's count differs by at most one), or None if there is none (or none within
    FAIR_ORDER_STEPS). A day not shared fairly in the end has none."""
    n = _players(seats, None, player_count)
    burden, so_far = _burdens(seats, n, None, np.zeros(n, np.int64))
    if burden is None:
        return np.arange(len(seats))
    day = so_far + burden.sum(axis=0)
    if not turns_fair(day):
        return None
    steps = iter(range(FAIR_ORDER_STEPS))
    dead: set[int] = set()  # first stretches, as masks of rounds, that no order completes

    def grow(order: list[int], held: int, counts: np.ndarray) -> list[int] | None:
        if len(order) == len(burden):
            return order
        if held in dead or next(steps, None) is None:
            return None
        after = counts + burden  # row r: the counts if round r comes next
        for r in map(int, np.flatnonzero(turns_fair(after))):
            found = None if held >> r & 1 else grow(order + [r], held | 1 << r, after[r])
            if found is not None:
                return found
        dead.add(held)
        return None

    found = grow([], 0, so_far)
    return None if found is None else np.array(found)


def _players(seats: np.ndarray, previous: np.ndarray | None, player_count: int | None) -> int:
    if player_count is not None:
        return player_count
    return max(players_in(seats), 0 if previous is None else players_in(previous[None]))


def order_work(seats: np.ndarray, player_count: int) -> float:
    """Seconds of work charged for comparing every two rounds of a day (before the order is searched)."""
    pairs = len(seats) * (len(seats) + 1) // 2
    return pairs / ROUND_PAIRS_PER_SECOND + pairs * player_count / PLAYER_ROUND_PAIRS_PER_SECOND


def _rematches(
    seats: np.ndarray, previous: np.ndarray | None, n: int, poll: Callable[[], None] = lambda: None
) -> tuple[np.ndarray, np.ndarray]:
    """weights[r, s]: pairs sharing a table in both rounds r and s; start[s]: in `previous` and round s.
    `poll` is called round by round (a stop: it raises)."""
    where = table_of(seats, n)
    rounds = len(seats)
    weights = np.zeros((rounds, rounds), np.int64)
    for r in range(rounds):
        poll()
        for s in range(r + 1, rounds):
            weights[r, s] = weights[s, r] = _pairs_in_both(where[r], where[s], seats.shape[1])
    start = np.zeros(rounds, np.int64)
    if previous is not None:
        before = table_of(previous[None], n)[0]
        start[:] = [_pairs_in_both(before, where[s], max(previous.shape[0], seats.shape[1])) for s in range(rounds)]
    return weights, start


def _pairs_in_both(first: np.ndarray, second: np.ndarray, tables: int) -> int:
    """Pairs at one table in `first` and one table in `second` (tables per player, -1 sitting out)."""
    both = (first >= 0) & (second >= 0)
    _, groups = np.unique(first[both] * tables + second[both], return_counts=True)  # not tables^2 counters
    return int((groups * (groups - 1) // 2).sum())


def _burdens(
    seats: np.ndarray, n: int, exempt: np.ndarray | None, so_far: np.ndarray
) -> tuple[np.ndarray | None, np.ndarray]:
    """rounds x players: who sits three-handed or sits out, for the players who take turns (None if
    nobody), and those players' burdens so far."""
    burden = turns_taken(seats, n)
    taking_turns = (table_of(seats, n) >= 0).any(axis=0)
    if exempt is not None:
        taking_turns &= ~np.asarray(exempt, bool)
    burden = burden[:, taking_turns]
    return (burden.astype(np.int64) if burden.any() else None), so_far[taking_turns]


def _fair(burden: np.ndarray, so_far: np.ndarray) -> Callable[[np.ndarray], bool]:
    """A test of an order (array of round indices): is the burden shared in turn after every round?"""

    def in_turns(order: np.ndarray) -> bool:
        counts = np.cumsum(burden[order], axis=0) + so_far
        return bool(turns_fair(counts).all())

    return in_turns


def _small(seats: np.ndarray, n: int) -> bool:
    rounds = len(seats)
    return rounds <= EXACT_ROUNDS and (2**rounds) * max(n, rounds * rounds) <= EXACT_CELLS


def _length(weights: np.ndarray, start: np.ndarray, order: np.ndarray) -> int:
    return int(start[order[0]] + weights[order[:-1], order[1:]].sum())


def _exact(weights: np.ndarray, start: np.ndarray, burden: np.ndarray | None, so_far: np.ndarray) -> np.ndarray | None:
    """Held-Karp: best[mask, last] is the fewest rematches over orders of the rounds in mask ending at last."""
    rounds = len(weights)
    full = (1 << rounds) - 1
    fair = _fair_subsets(burden, so_far, rounds)
    best = np.full((full + 1, rounds), np.iinfo(np.int64).max // 4, np.int64)
    singles = 1 << np.arange(rounds)
    best[singles, np.arange(rounds)] = np.where(fair[singles], start, best[0, 0])
    masks = np.arange(full + 1)
    size = sum((masks >> j) & 1 for j in range(rounds))
    for k in range(1, rounds):
        layer = masks[size == k]
        # reach[m, j]: the fewest rematches of an order of mask m followed by round j
        reach = (best[layer][:, :, None] + weights[None]).min(axis=1)
        for j in range(rounds):
            open_ = layer[(layer >> j) & 1 == 0]
            grown = open_ | (1 << j)
            ok = fair[grown]
            np.minimum.at(best[:, j], grown[ok], reach[np.searchsorted(layer, open_[ok]), j])
    if best[full].min() >= best[0, 0]:
        return None  # no order keeps the turns (cannot happen when the given order does)
    return _trace(best, weights, full)


def _fair_subsets(burden: np.ndarray | None, so_far: np.ndarray, rounds: int) -> np.ndarray:
    """fair[mask]: the rounds in mask, played first in any order, leave the burden shared in turn."""
    masks = np.arange(1 << rounds)
    if burden is None:
        return np.ones(len(masks), bool)
    counts = np.zeros((len(masks), burden.shape[1]), np.int64) + so_far
    for j in range(rounds):
        counts += ((masks >> j) & 1)[:, None] * burden[j][None]
    return turns_fair(counts)


def _trace(best: np.ndarray, weights: np.ndarray, full: int) -> np.ndarray:
    last = int(best[full].argmin())
    order, mask = [last], full
    while mask != 1 << last:
        rest = mask ^ (1 << last)
        candidates = best[rest] + weights[:, last]
        previous = int(np.flatnonzero(candidates == best[mask, last])[0])
        order.append(previous)
        mask, last = rest, previous
    return np.array(order[::-1])


def _local(
    weights: np.ndarray,
    start: np.ndarray,
    order: np.ndarray,
    in_turns: Callable[[np.ndarray], bool] | None,
    budget: Budget,
) -> np.ndarray:
    """Or-opt, swap and 2-opt moves from the given order, first improvement, until none helps or the
    budget is spent, polled at each move weighed (3 x rounds^2 of them in a pass: seconds at 100 rounds),
    each charged (ORDERS_PER_SECOND)."""
    order = order.copy()
    length = _length(weights, start, order)
    improved = True
    while improved and not budget.done():
        improved = False
        for candidate in _neighbours(order):
            if budget.done():
                return order
            budget.charge(1 / ORDERS_PER_SECOND)
            if length and _length(weights, start, candidate) < length and (in_turns is None or in_turns(candidate)):
                order, length, improved = candidate, _length(weights, start, candidate), True
                break
    return order


def _neighbours(order: np.ndarray) -> Iterator[np.ndarray]:
    rounds = len(order)
    for i in range(rounds):
        for j in range(rounds):
            if i != j:
                moved = np.insert(np.delete(order, i), j, order[i])
                yield moved
                if i < j:
                    swapped = order.copy()
                    swapped[[i, j]] = swapped[[j, i]]
                    yield swapped
                    reversed_ = order.copy()
                    reversed_[i : j + 1] = reversed_[i : j + 1][::-1]
                    yield reversed_
