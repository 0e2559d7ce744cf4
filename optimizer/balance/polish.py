"""Polish: regroup players to lower trios again, then back-to-back rematches, never raising repeats.

The mathematics. A move swaps two players between two tables of the same size in one round (pinned
players never move, keep-apart pairs never join), the neighbourhood of the tabu searches for the social
golfer problem (Dotu and Van Hentenryck, "Scheduling social golfers locally", CPAIOR 2005). Every figure
that matters changes by terms of the two players alone, so the change of every swap of a round comes
from a few matrix products. For a swap of p (table a) with q (table b) in round r:

- repeats E = sum over pairs of max(0, meetings - 1), meetings counting `met_before` (rounds already
  played) too: p leaving frees each pair (p, x), x at a, that met at least twice; p joining repeats each
  pair (p, y), y at b other than q, that met before; the same for q. With M = [met >= 1], H the players
  x tables incidence of round r: join[p, q] = (M H)[p, b] - M[p, q]; and the change is join[p, q] +
  join[q, p] minus the leave terms. Club-mate meetings and back-to-back rematches (pairs at one table in
  round r - 1 or r + 1, or in `previous` before the first round) follow the same pattern with other pair
  matrices.
- trios again = sum over triples of max(0, rounds together - 1): p leaving a frees each triple (p, x, y),
  {x, y} a pair at a, that was together at least twice; p joining b repeats each triple (p, x, y),
  {x, y} a pair at b without q, that was together before. With tri[k, p] = rounds in which pair k of the
  round and p share a table (a sum over rounds of products of same-table indicators), the join term is
  (the sum of [tri >= 1] over the pairs at b) minus (the pairs at b that hold q).

Search: a tabu search on the cost 1000 x trios again + back-to-back rematches. Club-mate meetings may
never rise above the start. Repeats may rise up to REPEAT_SLACK above the start during the walk, each
one costing more than any number of trios (in rooms at the fewest repeats every single swap may add
repeats, and only a second swap takes them back), but a schedule is kept as the best only at or below
the starting repeats, so the result never has more repeats nor club meetings than the input. The walk is
the one tabu search of optimizer.search.swaps (best non-tabu move over every round, aspiration, restarts
from the best after STALL_STEPS steps without a new best, each step charged 1 / STEPS_PER_SECOND seconds
of work so that a seeded run repeats exactly) with this objective. It stops at zero or once its budget
is spent. It is a heuristic: zero is not guaranteed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, pairwise
from typing import NamedTuple

import numpy as np

from optimizer.balance._day import players_in
from optimizer.balance.tables import table_visits_above_even, visits_of
from optimizer.budget import Budget
from optimizer.search.costs import Costs
from optimizer.search.swaps import Trades, Walk, joins_apart, seated_at, swap, swap_change, tabu_walk
from optimizer.seats import EMPTY, meetings, repeats_in, table_of, together

TRIO_WEIGHT = 1000  # one trio again outweighs any number of back-to-back rematches
# Repeats may rise this far above the start during the walk (never in the result): in rooms at the fewest
# repeats no single swap may keep them, and two swaps in a row can. Each repeat above costs REPEAT_WEIGHT.
REPEAT_SLACK = 2
REPEAT_WEIGHT = 20 * TRIO_WEIGHT
STALL_STEPS = 200
TENURE = (3, 9)  # a moved player may move again 3 to 8 steps later
# Regrouping for table numbers renumbers after this many polish steps, and stops after this many
# renumberings in a row that gain nothing.
TABLE_ROUND_STEPS = 300
# A repeatable run is charged one second of work for this many steps, or in big rooms this much a swap
# weighed (optimizer.search.swaps.Walk.step_work): measured 1.2-1.5e-7 s of CPU a swap at 121-300 players
# (one round of 300 x 100 weighs 90 000 swaps in 0.012 s) on this project's 2-core machine under load.
STEPS_PER_SECOND = 1_000
SECONDS_PER_SWAP = 1e-7
TABLE_STALL_ROUNDS = 3


class Weights(NamedTuple):
    """What one unit of each figure costs in the search."""

    repeat: int
    trio: int
    rematch: int
    visit: int


def polish(
    seats: np.ndarray,
    rng: np.random.Generator,
    costs: Costs | None = None,
    *,
    budget: Budget | None = None,
    weigh_tables: bool = False,
    visits_so_far: np.ndarray | None = None,
) -> np.ndarray:
    """The seating with the fewest (trios again, back-to-back rematches) found, lexicographically, with
    repeats (counting the meetings of rounds already played, `costs.met_before`) and club-mate meetings no
    higher than the input's, keep-apart pairs never seated together and pinned players at their tables
    (the cost model `costs`, by default a room of the seated players without requests). Rematches count
    `costs.previous`, the round played just before the first. With `weigh_tables`, the tables keep their
    numbers (a row's index) and table visits above even (counting `visits_so_far`, players x tables) come
    third, lexicographically. Each step is charged 1 / STEPS_PER_SECOND seconds of work to `budget` (no
    budget: until zero)."""
    budget = budget or Budget.unlimited()
    costs = costs or Costs.of_room(players_in(seats))
    room = _Room(costs)
    if weigh_tables:
        room.weigh_tables(seats, visits_so_far)
    walk = Walk(TENURE, STALL_STEPS, STEPS_PER_SECOND, ties="moves", seconds_per_cell=SECONDS_PER_SWAP)
    return tabu_walk(_Polish(seats.copy(), room), walk, budget, rng)


def regroup_for_tables(
    seats: np.ndarray,
    rng: np.random.Generator,
    number: Callable[[np.ndarray], np.ndarray],
    costs: Costs | None = None,
    *,
    visits_so_far: np.ndarray | None = None,
    budget: Budget | None = None,
) -> np.ndarray:
    """Fewer table visits above even by regrouping, at no cost to any figure before them. Alternate: the
    polish with the tables' numbers as they stand (`weigh_tables`, TABLE_ROUND_STEPS steps), then
    renumbering the result (`number`, a seating to a seating: the table numbering with the room's
    stayers); a round is kept only if it lowers the table visits, and it stops after TABLE_STALL_ROUNDS
    rounds in a row that do not, at zero, or once `budget` is spent (no budget: until it stalls). Repeats,
    club-mate meetings, trios again and rematches never rise, since polish keeps them (lexicographically
    before the visits)."""
    budget = budget or Budget.unlimited()
    costs = costs or Costs.of_room(players_in(seats))
    n, pinned = costs.player_count, costs.pinned
    best = seats.copy()
    best_figure = table_visits_above_even(best, pinned, visits_so_far, n)
    stalled = 0
    while best_figure and stalled < TABLE_STALL_ROUNDS and not budget.done():
        chunk = budget.allowance(TABLE_ROUND_STEPS / STEPS_PER_SECOND)
        regrouped = polish(best, rng, costs, budget=chunk, weigh_tables=True, visits_so_far=visits_so_far)
        tried = number(regrouped)
        figure = table_visits_above_even(tried, pinned, visits_so_far, n)
        stalled = 0 if figure < best_figure else stalled + 1
        if figure < best_figure:
            best, best_figure = tried, figure
    return best


def trios_again(seats: np.ndarray) -> int:
    """Sum over every three players of max(0, rounds all three share a table - 1)."""
    counts: dict[tuple[int, int, int], int] = {}
    for table in seats.reshape(-1, 4).tolist():
        for trio in combinations(sorted(p for p in table if p != EMPTY), 3):
            counts[trio] = counts.get(trio, 0) + 1
    return sum(c - 1 for c in counts.values())


class _Room:
    """The cost model (optimizer.search.costs) as the polish reads it, and what it weighs each figure."""

    def __init__(self, costs: Costs):
        self.n = n = costs.player_count
        self.met_before = np.array(costs.met_before, np.int64)
        np.fill_diagonal(self.met_before, 0)  # a player never repeats against themselves
        self.apart = costs.apart_pairs
        self.clubs = costs.club_pairs
        self.pinned = costs.pinned
        self.before = costs.met_previous
        self.weights = Weights(REPEAT_WEIGHT, TRIO_WEIGHT, 1, 0)
        self.visits_so_far = np.zeros((n, 0), np.int64)
        self.even = np.zeros(n, np.int64)

    def weigh_tables(self, seats: np.ndarray, visits_so_far: np.ndarray | None) -> None:
        """Weigh table visits above even last (weight 1), each rematch above all of them and each trio
        above all rematches: a day has fewer than players x rounds visits above even and at most
        6 x tables x rounds rematches."""
        rounds, count = seats.shape[:2]
        rematch = self.n * rounds + 1
        trio = rematch * (6 * count * rounds + 1)
        self.weights = Weights(20 * trio, trio, rematch, 1)
        so_far = np.zeros((self.n, count), np.int64) if visits_so_far is None else np.asarray(visits_so_far, np.int64)
        self.visits_so_far = so_far
        played = (table_of(seats, self.n) >= 0).sum(axis=0) + so_far.sum(axis=1)
        self.even = -(-played // count)


class _State:
    """A seating with its players' tables, meetings and visits to each table number, kept in step by `swap`."""

    def __init__(self, seats: np.ndarray, room: _Room):
        self.seats, self.room = seats, room
        self.where = table_of(seats, room.n)
        self.met = room.met_before + meetings(seats, room.n)
        self.visits = np.zeros((room.n, seats.shape[1]), np.int64)
        if room.weights.visit:
            self.visits = visits_of(seats, room.n) + room.visits_so_far
        self._together: dict[int, np.ndarray] = {}  # each round's `together`, until a swap in it

    def together(self, r: int) -> np.ndarray:
        """Who shares a table in round r (optimizer.seats.together): every step weighs each round's two
        neighbours, and a step changes one round."""
        if r not in self._together:
            self._together[r] = together(self.where, r)
        return self._together[r]

    def repeats(self) -> int:
        return repeats_in(self.met)

    def club_meetings(self) -> int:
        return int((self.met * self.room.clubs).sum() // 2)

    def back_to_back(self) -> int:
        rounds = [self.together(r) for r in range(len(self.seats))]
        count = sum(int((a & b).sum()) for a, b in pairwise(rounds)) // 2
        if self.room.before is not None:
            count += int((self.room.before.astype(bool) & rounds[0]).sum()) // 2
        return count

    def table_visits(self) -> int:
        """Visits above even to the table numbers as they stand (pinned players exempt)."""
        above = np.maximum(self.visits - self.room.even[:, None], 0)
        return int(above[~self.room.pinned].sum())

    def cost(self, limits: tuple[int, int]) -> int:
        w = self.room.weights
        above = max(0, self.repeats() - limits[0])
        visits = self.table_visits() if w.visit else 0
        return w.repeat * above + w.trio * trios_again(self.seats) + w.rematch * self.back_to_back() + visits

    def neighbours(self, r: int) -> np.ndarray:
        """players x players: pairs at one table in the round before or after round r (or `previous`)."""
        near = np.zeros((self.room.n, self.room.n), np.int64)
        if r > 0:
            near += self.together(r - 1)
        elif self.room.before is not None:
            near += self.room.before
        if r + 1 < len(self.seats):
            near += self.together(r + 1)
        return near

    def swap(self, r: int, p: int, q: int) -> None:
        a, b = self.where[r, p], self.where[r, q]
        swap(self.seats[r], p, q, self.met)
        self.where[r, p], self.where[r, q] = b, a
        self._together.pop(r, None)
        self.visits[[p, q], [a, b]] -= 1
        self.visits[[p, q], [b, a]] += 1


def _pair_change(matrix: np.ndarray, at: np.ndarray, table: np.ndarray, leave: np.ndarray | None = None) -> np.ndarray:
    """[p, q]: the change in the sum of `matrix` over pairs at a table when p and q swap tables
    (optimizer.search.swaps.swap_change, `at` the round's seated_at); the leave terms use `leave`
    (default: `matrix`). Entries of a player sitting out mean nothing: `_round_moves` never allows them."""
    change = swap_change(matrix, matrix if leave is None else leave, table, at)
    return change.astype(np.int64)


def _trio_change(state: _State, r: int, incidence: np.ndarray, table: np.ndarray) -> np.ndarray:
    """[p, q]: the change in trios again when p and q swap tables in round r. tri[k, p] (rounds in which
    pair k of round r and p share a table) is counted over the rounds where the pair meets alone, from
    their tables' seats: a pair meets in a few rounds, so this is pairs x meetings x 4, not rounds x pairs
    x players."""
    n = state.room.n
    rows = state.seats[r]
    pairs = [(x, y, t) for t, row in enumerate(rows.tolist()) for x, y in combinations([u for u in row if u >= 0], 2)]
    if not pairs:
        return np.zeros((n, n), np.int64)
    x, y, pair_table = (np.array(column) for column in zip(*pairs))
    where = state.where
    met_in, k = np.nonzero((where[:, x] == where[:, y]) & (where[:, x] >= 0))  # (round, pair) where it meets
    mates = state.seats[met_in, where[met_in, x[k]]]  # (meetings, 4): the seats of its table then
    seated = mates >= 0
    cell = (np.repeat(k, mates.shape[1]) * n + mates.ravel())[seated.ravel()]
    tri = np.bincount(cell, minlength=len(x) * n).reshape(len(x), n)
    again = (tri >= 1).astype(np.int64)  # joining repeats a trio that was ever together
    twice = (tri >= 2).astype(np.int64)  # leaving frees a trio that is together this round and another
    tables = incidence.shape[1]
    # [p, q]: the trios p joining q's table would repeat, less those of the pairs holding q (who leaves it)
    join = (_sum_by(pair_table, again, tables)[table] - _sum_by(x, again, n) - _sum_by(y, again, n)).T
    pair_at = np.arange(len(x))
    held = np.bincount(x, twice[pair_at, x], minlength=n) + np.bincount(y, twice[pair_at, y], minlength=n)
    own = _sum_by(pair_table, twice, tables)[table, np.arange(n)] - held.astype(np.int64)
    return join + join.T - own[:, None] - own[None, :]


def _sum_by(group: np.ndarray, rows: np.ndarray, groups: int) -> np.ndarray:
    """(groups, columns): the rows of `rows` summed by their group. Counted with bincount, not a product of
    matrices: a float product goes to BLAS, whose threads on a busy 2-core machine took ten times the CPU
    (100 x 40: 12.5 s of CPU for a second's polish)."""
    columns = rows.shape[1]
    cells = (group[:, None] * columns + np.arange(columns)).ravel()
    return np.bincount(cells, rows.ravel(), minlength=groups * columns).reshape(groups, columns).astype(np.int64)


def _round_moves(state: _State, r: int, limits: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(cost change, allowed) for every swap of round r, players x players."""
    room = state.room
    table = state.where[r]
    seated = table >= 0
    incidence = seated_at(table, state.seats.shape[1])
    sizes = (state.seats[r] >= 0).sum(axis=1)
    size = np.where(seated, sizes[np.maximum(table, 0)], 0)
    allowed = seated[:, None] & seated[None, :] & (size[:, None] == size[None, :]) & (table[:, None] != table[None, :])
    allowed &= ~room.pinned[:, None] & ~room.pinned[None, :]
    met = state.met
    repeats = _pair_change((met >= 1).astype(np.int64), incidence, table, leave=(met >= 2).astype(np.int64))
    now = state.repeats()
    allowed &= now + repeats <= limits[0] + REPEAT_SLACK
    w = room.weights
    above = w.repeat * (np.maximum(now + repeats - limits[0], 0) - max(now - limits[0], 0))
    if room.clubs.any():
        allowed &= _pair_change(room.clubs, incidence, table) <= limits[1] - state.club_meetings()
    if room.apart.any():
        allowed &= ~joins_apart(room.apart.astype(np.int64), table, incidence)
    trios = _trio_change(state, r, incidence, table)
    change = above + w.trio * trios + w.rematch * _pair_change(state.neighbours(r), incidence, table)
    if w.visit:
        change = change + _visit_change(state, table)
    return change, allowed


def _visit_change(state: _State, table: np.ndarray) -> np.ndarray:
    """[p, q]: the change in table visits above even when p and q swap tables (numbers as they stand):
    p leaving table a frees a visit above even if p is above even there, joining b adds one if p is at
    even there already; the same for q."""
    visits, even = state.visits, state.room.even[:, None]
    counted = ~state.room.pinned[:, None]
    joins = ((visits >= even) & counted).astype(np.int64)[:, np.maximum(table, 0)]  # [p, q]: p joins q's table
    leaves = ((visits > even) & counted).astype(np.int64)[np.arange(len(table)), np.maximum(table, 0)]
    return joins + joins.T - leaves[:, None] - leaves[None, :]


class _Polish:
    """The polish's objective for the one tabu search (optimizer.search.swaps): swaps of same-sized tables
    within the limits (repeats at most REPEAT_SLACK above the start, club meetings not above it)."""

    def __init__(self, seats: np.ndarray, room: _Room):
        self.room, self.player_count = room, room.n
        self.state = _State(seats, room)
        self.limits = (self.state.repeats(), self.state.club_meetings())
        self.everyone = np.arange(room.n)
        self.upper = np.triu(np.ones((room.n, room.n), bool), 1)  # each swap once: p < q

    @property
    def seats(self) -> np.ndarray:
        return self.state.seats

    def cost(self) -> float:
        return self.state.cost(self.limits)

    def moves(self) -> Iterator[tuple[int, list[Trades]]]:
        for r in range(len(self.seats)):
            change, allowed = _round_moves(self.state, r, self.limits)
            allowed &= self.upper
            yield r, [Trades(self.everyone, self.everyone, np.where(allowed, change, np.inf))] if allowed.any() else []

    def kicks(self, r: int) -> Trades | None:
        _, allowed = _round_moves(self.state, r, self.limits)
        allowed &= self.upper
        return Trades(self.everyone, self.everyone, np.where(allowed, 0.0, np.inf)) if allowed.any() else None

    def apply(self, r: int, p: int, q: int, change: float | None) -> None:
        self.state.swap(r, p, q)

    def restart(self, seats: np.ndarray, rng: np.random.Generator) -> None:
        self.state = _State(seats.copy(), self.room)
