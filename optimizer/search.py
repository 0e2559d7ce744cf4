"""Local search with numpy: seat one round at a time so that it repeats as few earlier meetings as possible.

A round is improved by swapping two players between tables while that lowers the round's cost;
the gain of every swap is computed at once from the players-by-tables cost matrix. Swaps only
exchange players at tables of the same size, so who is three-handed or sits out never changes and
the fair shares of the start are kept.
"""

from __future__ import annotations

import time

import numpy as np

from models import Event
from optimizer.seating import EMPTY, meetings

# A pair that has met costs 1 (a repeat); more meetings cost a little more, to spread repeats out.
SPREAD = 0.01


def pair_cost(met: np.ndarray) -> np.ndarray:
    return np.minimum(met, 1) + SPREAD * met


def reseat_round(tables: np.ndarray, cost: np.ndarray, rng: np.random.Generator, kicks: int = 20) -> np.ndarray:
    """The round's tables with players swapped to lower the summed cost of pairs at a table."""
    sizes = (tables >= 0).sum(axis=1)
    seated = tables[tables >= 0]
    table_of = np.repeat(np.arange(len(tables)), sizes)
    order = np.argsort(tables[tables >= 0], kind="stable")
    players, table_of = seated[order], table_of[order]
    local = cost[np.ix_(players, players)]
    best = table_of.copy()
    best_cost = _round_cost(local, best)
    if best_cost < 1e-9:
        return tables
    for kick in range(kicks + 1):
        if kick:
            table_of = _kick(best.copy(), sizes, rng)
        table_of = _descend(local, table_of, sizes)
        current = _round_cost(local, table_of)
        if current < best_cost - 1e-9:
            best, best_cost = table_of.copy(), current
        if best_cost < 1e-9:
            break
    return _as_tables(players, best, sizes, tables.shape)


def _round_cost(local: np.ndarray, table_of: np.ndarray) -> float:
    same = table_of[:, None] == table_of[None, :]
    return float((local * same).sum() / 2)


def _descend(local: np.ndarray, table_of: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Best-improvement swaps until none helps."""
    groups = len(sizes)
    together = local @ np.eye(groups)[table_of]  # player x table: cost of sitting at that table
    movable_with = sizes[table_of][:, None] == sizes[table_of][None, :]
    while True:
        joining = together[:, table_of]  # [i, j]: cost for i at j's table
        own = together[np.arange(len(table_of)), table_of]
        gain = joining + joining.T - 2 * local - own[:, None] - own[None, :]
        gain[~movable_with | (table_of[:, None] == table_of[None, :])] = np.inf
        i, j = np.unravel_index(np.argmin(gain), gain.shape)
        if gain[i, j] >= -1e-9:
            return table_of
        gi, gj = table_of[i], table_of[j]
        together[:, gi] += local[:, j] - local[:, i]
        together[:, gj] += local[:, i] - local[:, j]
        table_of[i], table_of[j] = gj, gi


def _kick(table_of: np.ndarray, sizes: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A few random swaps between tables of the same size, to leave a local minimum."""
    for _ in range(max(2, len(table_of) // 8)):
        i, j = rng.choice(len(table_of), size=2, replace=False)
        if sizes[table_of[i]] == sizes[table_of[j]]:
            table_of[i], table_of[j] = table_of[j], table_of[i]
    return table_of


def _as_tables(players: np.ndarray, table_of: np.ndarray, sizes: np.ndarray, shape) -> np.ndarray:
    tables = np.full(shape, EMPTY, dtype=np.int64)
    for t, size in enumerate(sizes):
        tables[t, :size] = np.sort(players[table_of == t])
    return tables


def improve(
    seats: np.ndarray,
    players: int,
    deadline: float,
    rng: np.random.Generator,
    fixed_rounds: int = 0,
    on_better=None,
) -> np.ndarray:
    """Reseat one round at a time against all the others' meetings until the deadline or a pass
    that changes nothing. Rounds before `fixed_rounds` are kept as they are."""
    seats = seats.copy()
    met = meetings(seats, players)
    best = _repeats(met)
    stale = 0
    while time.monotonic() < deadline and best > 0 and stale < 3:
        for r in rng.permutation(np.arange(fixed_rounds, len(seats))):
            own = meetings(seats[r : r + 1], players)
            others = met - own
            seats[r] = reseat_round(seats[r], pair_cost(others), rng)
            met = others + meetings(seats[r : r + 1], players)
            if time.monotonic() >= deadline:
                break
        now = _repeats(met)
        stale = stale + 1 if now >= best else 0
        if now < best:
            best = now
            if on_better:
                on_better(seats, best)
    return seats


def _repeats(met: np.ndarray) -> int:
    return int(np.maximum(met - 1, 0).sum() // 2)


def extend(seats: np.ndarray, rounds: int, players: int, rng: np.random.Generator) -> np.ndarray:
    """Add rounds after the given ones, each seated against every meeting so far."""
    extra = rounds - len(seats)
    if extra <= 0:
        return seats[:rounds]
    met = meetings(seats, players)
    added = []
    for _ in range(extra):
        start = seats[rng.integers(len(seats))].copy()
        round_ = reseat_round(start, pair_cost(met), rng)
        met = met + meetings(round_[None], players)
        added.append(round_)
    return np.concatenate([seats, np.stack(added)])


def burden_rounds(event: Event) -> np.ndarray:
    """rounds x players: True where a player takes the round's burden (a three-handed seat or a
    sit-out), taken in turn through the list so that nobody takes it twice before everyone once."""
    layout, n = event.layout, len(event.players)
    per_round = layout.sit_outs or 3 * layout.threes
    burden = np.zeros((event.rounds, n), dtype=bool)
    for r in range(event.rounds):
        burden[r, (np.arange(per_round) + r * per_round) % n] = True
    return burden


def greedy_seating(event: Event, rng: np.random.Generator) -> np.ndarray:
    """Seat round after round against the meetings so far, burdens taken in turn: fair by construction."""
    layout, n = event.layout, len(event.players)
    burden = burden_rounds(event) if (layout.threes or layout.sit_outs) else np.zeros((event.rounds, n), bool)
    met = np.zeros((n, n), dtype=np.int64)
    rounds = []
    for r in range(event.rounds):
        light = rng.permutation(np.flatnonzero(~burden[r]))
        heavy = rng.permutation(np.flatnonzero(burden[r])) if layout.threes else np.empty(0, np.int64)
        tables = np.full((layout.tables, 4), EMPTY, dtype=np.int64)
        tables[: layout.fours] = light.reshape(layout.fours, 4)
        tables[layout.fours :, :3] = heavy.reshape(layout.threes, 3)
        tables = reseat_round(tables, pair_cost(met), rng)
        met = met + meetings(tables[None], n)
        rounds.append(tables)
    return np.stack(rounds)
