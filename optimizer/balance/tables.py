"""Table numbers: which number each table of a round gets, so that nobody keeps coming back to one table.

The mathematics. Renumbering the tables of a round changes where players sit, never whom they meet. A
player who plays k rounds in a room of T tables ideally visits each table at most ceil(k / T) times; the
figure minimised is the sum over players (those who stay at one table exempt) and tables of the visits
beyond that. With every other round fixed, numbering one round is a linear assignment problem: giving
table row i the number j raises the figure by the number of players at row i who already visit table j
their even share, and those costs add up independently over rows (Kuhn, "The Hungarian method for the
assignment problem", Naval Res. Logist. Q. 2, 1955; solved here by OR-Tools' SimpleLinearSumAssignment).
Rows are permuted among tables of the same size only (tables of four among themselves, three-handed
tables among themselves, so tables of three stay numbered last), and a row holding a staying (pinned)
player keeps its number.

The search re-solves one round at a time against all the others (block coordinate descent) and stops
after a pass over every round that finds no gain. The assignment cost adds, below one visit above even,
the visits the players already have at that number (the rise of the sum of squared visits, halved), so
ties of the 0/1 figure are broken towards even visits. Each solve is optimal for its round and a round is
renumbered only when that strictly lowers (figure, tie-break), so the descent ends and never raises the
figure. Then an iterated local search: shuffle the numbers of one to three rounds of the best, descend,
keep it if the figure is no higher (`kicks` times, seeded by `rng`). The result is never worse than the
input; it is a local optimum, not proven optimal (CP-SAT proves 6 optimal for the polished 16 x 6 day,
where this finds 6, and finds 0 on the polished 24 x 9 day where this finds 1). About 0.1 s at 1000
players x 10 rounds (250 x 250 assignments), up to about 1.5 s with all kicks at 64 x 15.

What numbering cannot do. The figure is bounded below by the grouping itself (`forced_table_visits`:
64 players seated by five directions of one plane of AG(3, 4) have at least 16 whatever the numbers,
and this descent finds those 16; CP-SAT proves in 0.4 s there that no numbering reaches 0). A small
exact model over all rounds (CP-SAT on x[round, table, number], 2 workers, hinted with this descent's
numbering, `optimizer.balance.exact_numbers`) matched or trailed the descent in a run's seconds on the
target rooms, so plans run it last, in the time left; it also proves what a day's groups allow. Below such a bound
only regrouping helps: `optimizer.balance.polish.regroup_for_tables` regroups with the numbers as they
stand and calls this numbering again.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
from ortools.graph.python import linear_sum_assignment

from optimizer.balance._day import players_in
from optimizer.budget import Budget
from optimizer.seats import table_of

MAX_PASSES = 20
# Restarts from the best numbering with a few rounds shuffled; each costs one descent (milliseconds).
KICKS = 200
# Choices of rounds from a longer repeat-free design that rounds_for_tables races.
ROUND_CHOICES = 60
# Up to this many choices rounds_for_tables tries them all and races them (C(10, 5): 32 players), beyond
# it draws ROUND_CHOICES and keeps the best after one descent (racing draws left the regrouping too little
# time: 64 x 15 at 5 s, 62 -> 74 table visits above even).
ENUMERATED_CHOICES = 252
# A repeatable run's budget (optimizer.budget) is charged one second of work for this many rounds numbered
# (one assignment each): a descent of 8 rounds takes a few passes, and 400 descents about 2 s at 32 players
# on this project's loaded 2-core machine; past about 35 tables a round's cost matrix (tables x tables) is
# what takes the time, one second for this many of its cells (measured in CPU time: 0.2 microseconds a
# cell at 75, 250 and 500 tables, 13 ms a round at 1000 players), whichever is more.
ROUNDS_NUMBERED_PER_SECOND = 4000
CELLS_NUMBERED_PER_SECOND = 5_000_000
# The restarts each survivor of the race gets in its first heat (twice as many after).
SURVIVOR_KICKS = 4


def balance_table_numbers(
    seats: np.ndarray,
    pinned: np.ndarray | None = None,
    visits_so_far: np.ndarray | None = None,
    player_count: int | None = None,
    rng: np.random.Generator | None = None,
    kicks: int = KICKS,
    budget: Budget | None = None,
) -> np.ndarray:
    """The same seating with tables renumbered within each round to lower the table visits above even.
    `pinned` (bool per player) marks players who stay: their table keeps its number and they are not
    counted. `visits_so_far` (players x tables) counts the rounds already played, in a re-plan.
    After the descent, `kicks` times: shuffle the numbers of a few rounds of the best, descend again, and
    keep the result if it is no worse (`rng` seeds the shuffles; the same seed repeats the result), while
    `budget` lasts (one descent at least)."""
    budget = budget or Budget.unlimited()
    n = players_in(seats, player_count)
    tables = seats.shape[1]
    fixed = np.zeros(n, bool) if pinned is None else np.asarray(pinned, bool)
    so_far = np.zeros((n, tables), np.int64) if visits_so_far is None else np.asarray(visits_so_far, np.int64)
    rng = np.random.default_rng(0) if rng is None else rng
    best = _descend(seats.copy(), so_far, fixed, n, budget)
    best_figure = table_visits_above_even(best, fixed, so_far, n)
    for _ in range(kicks if best_figure else 0):
        if budget.done():
            break
        tried = _descend(_shuffle_rounds(best, fixed, rng), so_far, fixed, n, budget)
        figure = table_visits_above_even(tried, fixed, so_far, n)
        if figure <= best_figure:
            best, best_figure = tried, figure
        if best_figure == 0:
            break
    return best


def _shuffle_rounds(seats: np.ndarray, fixed: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The seating with the movable tables of one to three random rounds given random numbers."""
    out = seats.copy()
    for r in rng.choice(len(out), size=min(len(out), int(rng.integers(1, 4))), replace=False):
        sizes = (out[r] >= 0).sum(axis=1)
        holds_pinned = (fixed[np.maximum(out[r], 0)] & (out[r] >= 0)).any(axis=1)
        for size in np.unique(sizes[sizes > 0]):
            rows = np.flatnonzero((sizes == size) & ~holds_pinned)
            out[r, rows] = out[r, rng.permutation(rows)]
    return out


def _descend(out: np.ndarray, so_far: np.ndarray, fixed: np.ndarray, n: int, budget: Budget) -> np.ndarray:
    """Re-solve one round at a time against the others until a pass over every round gains nothing
    or the budget cannot afford another round (each step keeps the numbering valid and no worse)."""
    tables = out.shape[1]
    visits = so_far + visits_of(out, n)
    even = -(-visits.sum(axis=1) // tables)
    work = round_work(tables)
    step = 0.0  # what one round's assignment cost: the next is not started if it would overrun
    for _ in range(MAX_PASSES):
        improved = False
        for r in range(len(out)):
            if not budget.afford(step):
                return out
            took = Budget.stopwatch()
            visits -= visits_of(out[r : r + 1], n)
            numbered = _number_round(out[r], visits, even, fixed)
            improved |= numbered is not None
            if numbered is not None:
                out[r] = numbered
            visits += visits_of(out[r : r + 1], n)
            budget.charge(work)
            step = work if budget.repeatable else took()
        if not improved:
            break
    return out


def round_work(tables: int) -> float:
    """Seconds of work charged for numbering one round of `tables` tables (one assignment)."""
    return max(1 / ROUNDS_NUMBERED_PER_SECOND, tables * tables / CELLS_NUMBERED_PER_SECOND)


def table_visits_above_even(
    seats: np.ndarray,
    pinned: np.ndarray | None = None,
    visits_so_far: np.ndarray | None = None,
    player_count: int | None = None,
) -> int:
    """Sum over players (pinned exempt) and tables of visits beyond ceil(rounds played / tables)."""
    n = players_in(seats, player_count)
    visits = visits_of(seats, n) + (0 if visits_so_far is None else visits_so_far)
    return int(_above_even(visits, -(-visits.sum(axis=1) // seats.shape[1]), pinned).sum())


def rounds_for_tables(
    design: np.ndarray,
    rounds: int,
    rng: np.random.Generator,
    tries: int = ROUND_CHOICES,
    budget: Budget | None = None,
) -> tuple[list[int], np.ndarray]:
    """`rounds` of the design's rounds (in the design's order) and their numbering with the fewest table
        visits above even found: the first `rounds` unless another choice is strictly better.

        Any rounds of a repeat-free design are a repeat-free day, and which ones are taken decides what the
        numbering can reach: 64 players over 11 of the 21 rounds of AG(3, 4) have 39 visits above even after
        one descent on the first 11 and 19 on the best of 60 other choices. All choices are tried when there
        are at most ENUMERATED_CHOICES (the designs of 24 to 32 players), else the first and `tries` drawn by
        `rng`, each numbered by one descent while `budget` lasts (the first as far as it reaches: its rounds
    numbered as they come where it cannot descend).

        Where every choice is tried, one descent ranks them poorly: of the 45 ways to take 8 of the 10
        rounds of 32 players, the best after one descent has 34 and stays there, while choices with 40
        after one descent reach 30. So those choices are raced by successive halving (Jamieson and
        Talwalkar, "Non-stochastic best arm identification and hyperparameter optimization", AISTATS 2016):
        after the descents, each survivor gets SURVIVOR_KICKS restarts of its numbering
        (balance_table_numbers), the better half goes on with twice the restarts, until one is left or the
        budget is spent (a repeatable budget counts rounds numbered, so a seeded run repeats exactly)."""
    budget = budget or Budget.unlimited()
    choices = math.comb(len(design), rounds)
    if choices <= 1:
        return list(range(rounds)), design[:rounds].copy()
    enumerated = choices <= ENUMERATED_CHOICES
    if enumerated:
        candidates = [list(c) for c in combinations(range(len(design)), rounds)]
    else:
        drawn = [sorted(rng.choice(len(design), rounds, replace=False).tolist()) for _ in range(tries)]
        candidates = [list(range(rounds)), *drawn]
    n = players_in(design)
    fixed = np.zeros(n, bool)
    so_far = np.zeros((n, design.shape[1]), np.int64)
    pool: list[tuple[int, int, np.ndarray]] = []  # (figure, candidate, numbered), the first choice first
    for k, chosen in enumerate(candidates):
        if k and (budget.done() or any(figure == 0 for figure, *_ in pool)):
            break
        numbered = _descend(design[chosen].copy(), so_far, fixed, n, budget)
        pool.append((table_visits_above_even(numbered), k, numbered))
    kicks = SURVIVOR_KICKS
    pool.sort(key=lambda entry: entry[:2])
    while enumerated and len(pool) > 1 and pool[0][0] and not budget.done():  # drawn choices are not raced
        raced = []
        for _, k, numbered in pool:
            numbered = balance_table_numbers(numbered, rng=rng, kicks=kicks, budget=budget)
            raced.append((table_visits_above_even(numbered), k, numbered))
        raced.sort(key=lambda entry: entry[:2])
        pool, kicks = raced[: -(-len(raced) // 2)], 2 * kicks
    _, k, numbered = pool[0]
    return candidates[k], numbered


def forced_table_visits(seats: np.ndarray, player_count: int | None = None) -> int:
    """A lower bound on the table visits above even of every numbering of this grouping (nobody staying,
    no rounds played before): numbering alone cannot go below it, only regrouping can.

    The bound. Let every player play at most as many rounds as there are tables T, so that even is one
    visit and a player's visits above even at a number t are (v - 1)+, v the player's tables numbered t.
    Split the players into closed rooms: the groups that only ever share tables among themselves (the
    components of the graph of pairs who ever share a table). Take a closed room in which any two of its
    tables from different rounds share a player (in a closed room of 16 seated by the affine plane of
    order 4, any two lines of different parallel classes meet in a point), holding C tables over the day.
    A number t is given to at most one table a round, so it receives c_t of the room's tables, every two
    sharing a player. Join those tables by the room's players at them: each player at v of them is a
    hyperedge of v tables; the c_t tables are connected, and a hyperedge of v tables merges at most v - 1
    components, so the players' (v - 1)+ add up to at least c_t - 1. Summed over the T numbers, the room
    has at least sum_t (c_t - 1)+ >= C - T visits above even; closed rooms share no player, so their
    bounds add. Examples: 16 players over 2 rounds where every second-round table holds a player from
    each first-round table (one room, C = 8, T = 4: at least 4); 64 players seated by five directions of
    one plane of AG(3, 4) (four closed rooms of 16, each C = 20 and T = 16: at least 16). Otherwise 0."""
    n = players_in(seats, player_count)
    rounds, tables = seats.shape[:2]
    where = table_of(seats, n)
    if ((where >= 0).sum(axis=0) > tables).any():
        return 0
    room = _closed_rooms(where, n)
    forced = 0
    for members in (np.flatnonzero(room == k) for k in np.unique(room)):
        held = [(r, t) for r in range(rounds) for t in np.unique(where[r, members]) if t >= 0]
        if _tables_meet(seats, held):
            forced += max(0, len(held) - tables)
    return forced


def _closed_rooms(where: np.ndarray, n: int) -> np.ndarray:
    """Per player, a label of the group of players who only ever share tables among themselves."""
    label = np.arange(n)
    for _ in range(n):  # labels spread along shared tables until every group carries its smallest
        changed = False
        for row in where:
            seated = row >= 0
            low = np.full(int(row.max(initial=-1)) + 1, n)
            np.minimum.at(low, row[seated], label[seated])
            lowered = np.minimum(label[seated], low[row[seated]])
            changed |= bool((lowered < label[seated]).any())
            label[seated] = lowered
        if not changed:
            break
    return label


def _tables_meet(seats: np.ndarray, held: list[tuple[int, int]]) -> bool:
    """Do any two of these (round, table) from different rounds share a player?"""
    groups = [(r, set(seats[r, t][seats[r, t] >= 0].tolist())) for r, t in held]
    return all(a & b for (r, a), (s, b) in combinations(groups, 2) if r != s)


def visits_of(seats: np.ndarray, n: int) -> np.ndarray:
    """players x tables: rounds each player spends at each table number (the one count of it; the
    polish keeps it in step move by move)."""
    where = table_of(seats, n)
    counts = np.zeros((n, seats.shape[1]), np.int64)
    r, p = np.nonzero(where >= 0)
    np.add.at(counts, (p, where[r, p]), 1)
    return counts


def _above_even(visits: np.ndarray, even: np.ndarray, pinned: np.ndarray | None) -> np.ndarray:
    above = np.maximum(visits - even[:, None], 0)
    if pinned is not None:
        above[np.asarray(pinned, bool)] = 0
    return above


def _number_round(round_: np.ndarray, others: np.ndarray, even: np.ndarray, fixed: np.ndarray) -> np.ndarray | None:
    """The round with its movable tables renumbered by a linear assignment, or None if that gains nothing.
    `others` is players x tables: visits in every other round."""
    sizes = (round_ >= 0).sum(axis=1)
    holds_pinned = (fixed[np.maximum(round_, 0)] & (round_ >= 0)).any(axis=1)
    out = round_.copy()
    gained = False
    for size in np.unique(sizes[sizes > 0]):
        rows = np.flatnonzero((sizes == size) & ~holds_pinned)
        if len(rows) < 2:
            continue
        cost = _cost_of_numbers(round_[rows], rows, others, even, fixed)
        now = int(np.trace(cost))
        mate = _assign(cost)
        if int(cost[np.arange(len(rows)), mate].sum()) < now:
            out[rows[mate]] = round_[rows]
            gained = True
    return out if gained else None


def _cost_of_numbers(
    tables: np.ndarray, numbers: np.ndarray, others: np.ndarray, even: np.ndarray, fixed: np.ndarray
) -> np.ndarray:
    """cost[i, j]: SMOOTHING x (players of table i who would go above their even share at table number
    numbers[j]) + their visits there so far. The second term (the rise in the sum of squared visits,
    halved) breaks the many ties of the first, so the descent drifts towards even visits instead of
    stopping on a plateau; it never outweighs one visit above even."""
    seated = tables >= 0
    who = np.where(seated, tables, 0)
    visits = others[who][:, :, numbers]  # (tables, seats, numbers)
    at_share = visits >= even[who][:, :, None]
    counted = (seated & ~fixed[who])[:, :, None]
    weight = 4 * int(others.max(initial=0)) + 4 + 1
    return (weight * (at_share & counted) + visits * counted).sum(axis=1).astype(np.int64)


def _assign(cost: np.ndarray) -> np.ndarray:
    """For each row, its column in a minimum-cost perfect assignment."""
    k = len(cost)
    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    rows, cols = np.divmod(np.arange(k * k, dtype=np.int32), np.int32(k))
    solver.add_arcs_with_cost(rows.astype(np.int32), cols.astype(np.int32), cost.ravel().astype(np.int64))
    if solver.solve() != solver.OPTIMAL:
        return np.arange(k)
    return np.array([solver.right_mate(i) for i in range(k)], dtype=np.int64)
