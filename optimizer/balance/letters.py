"""Seat letters: who sits in A, B, C and D at each table, so that every player's letters come out even.

The mathematics. Seating letters is edge colouring. Take the bipartite multigraph with a vertex for
every player and for every table of four in every round, and an edge for every seat taken; a letter is
a colour, and a table must see each of its four letters once, so the colouring must be proper at the
tables. De Werra ("Balanced schedules", INFOR 9, 1971; "Equitable colorations of graphs", RAIRO 5, 1971)
proved that every bipartite multigraph has an equitable k-edge-colouring: at every vertex the number
of edges of each colour differs by at most one. The construction here is the classical one:

1. Split each player who plays d rounds at tables of four into ceil(d/4) copies, floor(d/4) of them
   holding four of the player's seats and the last d mod 4. Every vertex now has degree at most 4.
2. A bipartite multigraph of maximum degree 4 has a proper 4-edge-colouring (Koenig, 1916). Find it by
   two Euler partitions (Gabow, "Using Euler partitions to edge color bipartite multigraphs", Int. J.
   Comput. Inf. Sci. 5, 1976): join every odd-degree vertex to a dummy vertex of the other side (and the
   two dummies to each other if both are odd), so every degree is even; walk closed trails, colouring
   edges alternately 0, 1. A closed trail of a bipartite graph has even length, so every vertex gets half
   its edges in each class: degree 4 becomes 2 + 2, and splitting each class again gives 1 + 1 + 1 + 1.
3. Each copy sees every letter at most once and each full copy sees every letter exactly once, so a
   player seen d times at tables of four sits floor(d/4) or ceil(d/4) times in each letter: spread <= 1.

Tables of three have letters A-C only and are left out of the graph. Each is then given, round by round,
the order of its three players that suits their counts best, and a local search follows: at every table
in turn, try every order of its players (24 at a table of four, 6 at a table of three) and take the one
that lowers the room's cost, sum over players of 1000 x max(0, spread - 1) + sum of squared letter
counts, never pushing a player whose spread is at most 1 past 1. The same search takes `letters_so_far`
(the counts from rounds already played, in a re-plan) into the counts.

Guaranteed: with no letters so far (or all zero), every player who sits only at tables of four ends with
spread <= 1, and no player whose spread is at most 1 after the construction ends above 1. Players at
tables of three (counting A-C if they never sat at a four, A-D otherwise) and re-plans get the local
search's best, or, given the time, the exact model's where that is lower (optimizer.balance.exact_letters,
up to EXACT_MAX_SEATS seats). Time: linear in seats (two walks over the edges, then a few vectorised
passes), under 0.1 s at 1000 players x 10 rounds; the exact model takes the work it is given.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from optimizer.balance._day import players_in
from optimizer.balance.exact_letters import exact_letters
from optimizer.budget import Abandoned, Budget
from optimizer.seats import EMPTY

# Weight of one unit of spread beyond 1 against the sum of squares: spread first, evenness second.
SPREAD_WEIGHT = 1000
MAX_PASSES = 20
# The exact lettering: seats at most (about 60 players over 15 rounds), and the clock it needs at least.
EXACT_MAX_SEATS = 4 * 1000
EXACT_MIN_SECONDS = 0.05
# A repeatable run's budget is charged one second of work for lettering this many seats (5.0 to 5.6
# microseconds of CPU time a seat at 400 x 100, 2000 x 8 and 124 x 41: `python -m benchmarks.balance_work
# --sites`, work_clock.md; 8 to 14 in an earlier measurement, before the colouring was quickened).
SEATS_LETTERED_PER_SECOND = 180_000
# The colouring polls the stop every this many trail origins (a few milliseconds of walking).
POLL_VERTICES = 1024
_ORDERS = {
    4: np.array([p for p in np.ndindex(4, 4, 4, 4) if len(set(p)) == 4]),
    3: np.array([p for p in np.ndindex(3, 3, 3) if len(set(p)) == 3]),
}


def balance_letters(
    seats: np.ndarray,
    letters_so_far: np.ndarray | None = None,
    player_count: int | None = None,
    max_passes: int = MAX_PASSES,
    budget: Budget | None = None,
    work: float = 0.0,
) -> np.ndarray:
    """The same seating with players permuted within each table so that every player's seat letters are
    as even as possible (spread <= 1 for players only at tables of four, see the module docstring).
    Nobody changes table. `letters_so_far` is players x 4: letters from rounds already played. Within
    `budget`, a day with tables of three that the local search leaves above a spread of 1 (or the 2
    `forced_seat_spread` proves) is lettered exactly (optimizer.balance.exact_letters, at most `work`
    seconds of CP-SAT's deterministic time) when that finds a lower spread."""
    n = players_in(seats, player_count)
    so_far = np.zeros((n, 4), np.int64) if letters_so_far is None else np.asarray(letters_so_far, np.int64)
    if budget is not None:
        budget.charge(letters_work(seats))
    try:  # the colouring is whole or nothing: a stop inside it keeps the letters as they were
        out = _colour_tables_of_four(seats, n, budget.poller() if budget is not None else lambda: None)
    except Abandoned:
        return seats.copy()
    at_four = _sat_at_four(seats, n) | (so_far[:, 3] > 0)  # A-D counted, as the checker counts them
    out = _seat_tables_of_three(out, so_far, at_four, n)
    halt = (lambda: budget.stopped) if budget is not None else (lambda: False)
    out = _improve(out, so_far, at_four, n, max_passes, halt)
    spread = seat_spread(out, n, so_far)  # the checker's count: A-D for anyone who sat at a table of four
    if (
        budget is not None
        and work > 0
        and budget.afford(EXACT_MIN_SECONDS)
        and spread > max(1, forced_seat_spread(seats, n))
        and seats.size <= EXACT_MAX_SEATS
    ):
        found = exact_letters(out, n, so_far, at_four, budget, work)
        if found is not None and found[1] < spread:
            return found[0]
    return out


def reletter(seats: np.ndarray, letters_so_far: np.ndarray, player_count: int | None = None) -> np.ndarray:
    """The seat letters of a day lettered before and changed since by players trading seats (the season's
    descent: each takes the other's seat): the better, by seat spread and then the local search's cost, of
    `balance_letters` afresh and the day's own letters improved by the local search. Afresh alone lost
    what the lettering before had found (the plan's exact letters): the season's seat spread rose 3 -> 4
    in two of six benchmark seasons (benchmarks/results/issue56_descent)."""
    n = players_in(seats, player_count)
    so_far = np.asarray(letters_so_far, np.int64)
    afresh = balance_letters(seats, letters_so_far=so_far, player_count=n)
    at_four = _sat_at_four(seats, n) | (so_far[:, 3] > 0)
    kept = _improve(seats, so_far, at_four, n, MAX_PASSES, lambda: False)

    def worse(out: np.ndarray) -> tuple[int, int]:
        return seat_spread(out, n, so_far), int(_cost(so_far + letter_counts(out, n), at_four).sum())

    return kept if worse(kept) < worse(afresh) else afresh


def letters_work(seats: np.ndarray) -> float:
    """Seconds of work charged for lettering a day (SEATS_LETTERED_PER_SECOND)."""
    return int((seats >= 0).sum()) / SEATS_LETTERED_PER_SECOND


def letter_counts(seats: np.ndarray, player_count: int | None = None) -> np.ndarray:
    """players x 4: rounds in each seat letter A-D."""
    n = players_in(seats, player_count)
    counts = np.zeros((n, 4), np.int64)
    _, _, s = np.nonzero(seats >= 0)
    np.add.at(counts, (seats[seats >= 0], s), 1)
    return counts


def seat_spread(seats: np.ndarray, player_count: int | None = None, letters_so_far: np.ndarray | None = None) -> int:
    """The worst player's (most - fewest) rounds in one letter, as the checker counts it."""
    n = players_in(seats, player_count)
    counts = letter_counts(seats, n) + (0 if letters_so_far is None else letters_so_far)
    played = counts.sum(axis=1) > 0
    at_four = _sat_at_four(seats, n) | (counts[:, 3] > 0)
    return int(_spread(counts, at_four)[played].max(initial=0))


def forced_seat_spread(seats: np.ndarray, player_count: int | None = None) -> int:
    """A lower bound on the seat spread of every lettering of this seating (who sits three-handed when
    is fixed by it): 2 when seat D cannot go round, else 0 (no claim).

    The proof. A player who sits at a table of four counts all of A-D; with k seats and spread at most
    1 every count is floor(k/4) or ceil(k/4), so D at least floor(k/4). Only tables of four have a D,
    one each, so the day has (tables of four) x (rounds) D seats. If the players at tables of four need
    more than that, sum of floor(k/4) > D seats, some player has D <= floor(k/4) - 1 and spread >= 2.
    Three-handed 45 x 9: everyone plays 9 rounds, at least one of them at a table of four, and needs
    2 D seats (90), but 9 tables of four x 9 rounds hold 81: every fair day has a spread of 2."""
    n = players_in(seats, player_count)
    seated = letter_counts(seats, n).sum(axis=1)
    needed = int((seated[_sat_at_four(seats, n)] // 4).sum())
    return 2 if needed > int((seats[:, :, 3] >= 0).sum()) else 0


def _sat_at_four(seats: np.ndarray, n: int) -> np.ndarray:
    full = np.zeros(n, bool)
    fours = seats[(seats >= 0).all(axis=2)]
    full[fours.ravel()] = True
    return full


def _spread(counts: np.ndarray, at_four: np.ndarray) -> np.ndarray:
    """Most minus fewest over the letters a player has: A-D after any table of four, else A-C."""
    allowed = np.ones(counts.shape, bool)
    allowed[..., 3] = at_four
    fewest = np.where(allowed, counts, np.iinfo(np.int64).max).min(axis=-1)
    return counts.max(axis=-1) - fewest


def _cost(counts: np.ndarray, at_four: np.ndarray) -> np.ndarray:
    return SPREAD_WEIGHT * np.maximum(_spread(counts, at_four) - 1, 0) + (counts**2).sum(axis=-1)


# --- step 1 and 2: the equitable colouring of the tables of four -----------------------------------------


def _colour_tables_of_four(seats: np.ndarray, n: int, poll: Callable[[], None]) -> np.ndarray:
    r, t = np.nonzero((seats >= 0).all(axis=2))
    if len(r) == 0:
        return seats.copy()
    player = seats[r, t].ravel()  # one edge per seat at a table of four
    table = np.repeat(np.arange(len(r)), 4)
    copy = _player_copies(player, np.repeat(r, 4), n)
    half = _euler_split(copy, table, poll)
    letter = np.zeros(len(player), np.int64)
    for side in (0, 1):
        edges = np.flatnonzero(half == side)
        letter[edges] = 2 * side + _euler_split(copy[edges], table[edges], poll)
    out = seats.copy()
    out[r[table], t[table], letter] = player
    return out


def _player_copies(player: np.ndarray, round_: np.ndarray, n: int) -> np.ndarray:
    """Each edge's copy of its player: the player's seats in round order, four to a copy."""
    order = np.lexsort((round_, player))
    first = np.searchsorted(player[order], np.arange(n))
    rank = np.empty(len(player), np.int64)
    rank[order] = np.arange(len(player)) - first[player[order]]
    per_player = -(-np.bincount(player, minlength=n) // 4)
    base = np.concatenate([[0], np.cumsum(per_player)[:-1]])
    return base[player] + rank // 4


def _euler_split(left: np.ndarray, right: np.ndarray, poll: Callable[[], None] = lambda: None) -> np.ndarray:
    """0 or 1 per edge of a bipartite multigraph so that every vertex has half its edges (rounded either
    way) in each class: alternate colours along closed trails after evening out degrees with dummies.
    `poll` is called every POLL_VERTICES trail origins (it raises to give up)."""
    left_ids, left = np.unique(left, return_inverse=True)
    right_ids, right = np.unique(right, return_inverse=True)
    nl, nr = len(left_ids), len(right_ids)
    odd_left = np.flatnonzero(np.bincount(left, minlength=nl) % 2)
    odd_right = np.flatnonzero(np.bincount(right, minlength=nr) % 2)
    # Dummy left vertex nl joins odd right vertices; dummy right vertex nr joins odd left vertices.
    a = np.concatenate([left, np.full(len(odd_right), nl), odd_left])
    b = np.concatenate([right, odd_right, np.full(len(odd_left), nr)])
    if len(odd_right) % 2:
        a, b = np.append(a, nl), np.append(b, nr)
    b = b + nl + 1  # one numbering for both sides
    colour = _alternate_on_trails(a, b, nl + nr + 2, poll)
    return colour[: len(left)]


def _alternate_on_trails(a: np.ndarray, b: np.ndarray, vertices: int, poll: Callable[[], None]) -> np.ndarray:
    ends = np.concatenate([a, b])
    incident = np.argsort(ends, kind="stable") % len(a)  # edges at each vertex, vertex by vertex
    start = np.searchsorted(ends[np.argsort(ends, kind="stable")], np.arange(vertices + 1)).tolist()
    nxt, stop = start[:-1], start[1:]
    incident, a_, b_ = incident.tolist(), a.tolist(), b.tolist()
    used = bytearray(len(a_))
    colour = bytearray(len(a_))
    for origin in range(vertices):
        if origin % POLL_VERTICES == 0:
            poll()
        # Every degree is even, so a walk can only get stuck where it began: one closed trail per origin
        # uses up all of the origin's edges, and it has even length, so parities alternate at every vertex.
        v, parity = origin, 0
        while True:
            i = nxt[v]
            while i < stop[v] and used[incident[i]]:
                i += 1
            nxt[v] = i
            if i == stop[v]:
                break
            e = incident[i]
            used[e], colour[e] = 1, parity
            parity ^= 1
            v = b_[e] if a_[e] == v else a_[e]
    return np.frombuffer(bytes(colour), np.uint8).astype(np.int64)


# --- tables of three and the local search -----------------------------------------------------------------


def _seat_tables_of_three(seats: np.ndarray, so_far: np.ndarray, at_four: np.ndarray, n: int) -> np.ndarray:
    """Round by round, each table of three takes the order of its players that suits their counts best."""
    out = seats.copy()
    counts = so_far + letter_counts(out, n)
    for r in range(len(out)):
        threes = np.flatnonzero((out[r] >= 0).sum(axis=1) == 3)
        if len(threes):
            counts -= letter_counts(out[r : r + 1, threes], n)
            out[r, threes] = _best_orders(out[r, threes], counts, at_four, 3, guard=False)
            counts += letter_counts(out[r : r + 1, threes], n)
    return out


def _improve(
    seats: np.ndarray, so_far: np.ndarray, at_four: np.ndarray, n: int, max_passes: int, halt: Callable[[], bool]
) -> np.ndarray:
    """Alternate the table-by-table search with swaps along alternating chains until neither helps, or
    until `halt` says so (polled round by round and chain by chain: every step leaves a valid lettering)."""
    out = seats.copy()
    for _ in range(max_passes):
        if halt():
            break
        before = _cost(so_far + letter_counts(out, n), at_four).sum()
        out = _orders_pass(out, so_far, at_four, n, halt)
        out = _chains(out, so_far, at_four, n, halt)
        if _cost(so_far + letter_counts(out, n), at_four).sum() >= before:
            break
    return out


def _orders_pass(
    seats: np.ndarray, so_far: np.ndarray, at_four: np.ndarray, n: int, halt: Callable[[], bool]
) -> np.ndarray:
    out = seats.copy()
    counts = so_far + letter_counts(out, n)
    for _ in range(MAX_PASSES):
        before = _cost(counts, at_four).sum()
        for r in range(len(out)):
            if halt():
                return out
            sizes = (out[r] >= 0).sum(axis=1)
            for size in (4, 3):
                rows = np.flatnonzero(sizes == size)
                if len(rows):
                    counts -= letter_counts(out[r : r + 1, rows], n)
                    out[r, rows] = _best_orders(out[r, rows], counts, at_four, size, guard=True)
                    counts += letter_counts(out[r : r + 1, rows], n)
        if _cost(counts, at_four).sum() >= before:
            break
    return out


def _chains(seats: np.ndarray, so_far: np.ndarray, at_four: np.ndarray, n: int, halt: Callable[[], bool]) -> np.ndarray:
    """Pass a surplus along an alternating chain (a Kempe chain of two letters): a player with two more
    rounds in letter `hi` than in `lo` swaps seats with the `lo` player at one of their tables, who swaps
    on at another table, and so on until the chain reaches a player with more `lo` than `hi`. Players inside
    the chain keep their counts; the two ends each move one round from their heavier letter to their
    lighter one, so the sum of squares falls by at least 2 and no spread grows."""
    out = seats.copy()
    counts = so_far + letter_counts(out, n)
    for _ in range(4 * n):  # each chain lowers the sum of squares, so this only bounds the work
        if halt():
            return out
        for hi, lo in ((h, low) for h in range(4) for low in range(4) if h != low):
            path = _chain(out, counts, at_four, hi, lo)
            if path:
                break
        else:
            return out
        for r, t in path:
            out[r, t, [hi, lo]] = out[r, t, [lo, hi]]
        counts = so_far + letter_counts(out, n)
    return out


def _chain(seats: np.ndarray, counts: np.ndarray, at_four: np.ndarray, hi: int, lo: int) -> list[tuple[int, int]]:
    """The tables (round, table) of the shortest chain from a player heavy in `hi` to one heavy in `lo`."""
    r, t = np.nonzero((seats[:, :, hi] >= 0) & (seats[:, :, lo] >= 0))
    if len(r) == 0:
        return []
    allowed = at_four if 3 in (hi, lo) else np.ones(len(counts), bool)
    sources = np.flatnonzero((counts[:, hi] - counts[:, lo] >= 2) & allowed)
    if len(sources) == 0:
        return []
    targets = (counts[:, lo] - counts[:, hi] >= 1) & allowed
    step_from, step_to = seats[r, t, hi], seats[r, t, lo]  # the hi player gives the seat to the lo player
    order = np.argsort(step_from, kind="stable")
    first = np.searchsorted(step_from[order], np.arange(len(counts) + 1)).tolist()
    order_, step_to_ = order.tolist(), step_to.tolist()
    parent: dict[int, tuple[int, int]] = {int(p): (-1, -1) for p in sources}
    frontier = [int(p) for p in sources]
    while frontier:
        following = []
        for u in frontier:
            for k in order_[first[u] : first[u + 1]]:
                v = step_to_[k]
                if v in parent:
                    continue
                parent[v] = (u, k)
                if targets[v]:
                    return _trace(parent, v, r, t)
                following.append(v)
        frontier = following
    return []


def _trace(parent: dict[int, tuple[int, int]], v: int, r: np.ndarray, t: np.ndarray) -> list[tuple[int, int]]:
    path = []
    while parent[v][0] >= 0:
        v, k = parent[v]
        path.append((int(r[k]), int(t[k])))
    return path


def _best_orders(tables: np.ndarray, rest: np.ndarray, at_four: np.ndarray, size: int, guard: bool) -> np.ndarray:
    """Each table's players in the order (over all orders of the table) with the lowest cost, given
    everyone's counts without this round's tables. The current order wins ties; with `guard`, an
    order that takes a player from spread <= 1 past 1 is refused."""
    orders = _ORDERS[size]  # orders[k, s]: the seat that the player now at seat s would take
    who = tables[:, :size]  # (tables, size)
    base = rest[who]  # (tables, size, 4)
    four = at_four[who][:, None, :]
    now = base + np.eye(4, dtype=np.int64)[:size]  # everyone where they sit
    moved = base[:, None] + np.eye(4, dtype=np.int64)[orders]  # (tables, orders, size, 4)
    cost = _cost(moved, four).sum(axis=2)
    if guard:
        was_even = _spread(now, at_four[who]) <= 1
        breaks = (_spread(moved, four) > 1) & was_even[:, None, :]
        cost = np.where(breaks.any(axis=2), np.iinfo(np.int64).max, cost)
    keep = _cost(now, at_four[who]).sum(axis=1)
    best = cost.argmin(axis=1)
    better = cost[np.arange(len(who)), best] < keep
    out = tables.copy()
    rows = np.flatnonzero(better)
    out[rows[:, None], orders[best[rows]]] = who[rows]
    if size == 3:
        out[:, 3] = EMPTY
    return out
