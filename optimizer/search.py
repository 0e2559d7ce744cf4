"""Local search with numpy: seat one round at a time so that it repeats as few earlier meetings as possible.

A round is improved by swapping two players between tables while that lowers the round's cost;
the gain of every swap is computed at once from the players-by-tables cost matrix. Swaps only
exchange players at tables of the same size, so who is three-handed or sits out never changes and
the fair shares of the start are kept.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from models import Event
from optimizer.requests import CLUB_COST, apart_cost, club_mates, pinned, place_stayers
from optimizer.seating import EMPTY, meetings

# A pair that has met costs 1 (a repeat); more meetings cost a little more, to spread repeats out.
SPREAD = 0.01


def pair_cost(met: np.ndarray) -> np.ndarray:
    return np.minimum(met, 1) + SPREAD * met


def reseat_round(
    tables: np.ndarray, cost: np.ndarray, rng: np.random.Generator, kicks: int = 20, pinned: np.ndarray | None = None
) -> np.ndarray:
    """The round's tables with players swapped to lower the summed cost of pairs at a table;
    pinned players keep their table."""
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
        table_of = _descend(local, table_of, sizes, fixed)
        current = _round_cost(local, table_of)
        if current < best_cost - 1e-9:
            best, best_cost = table_of.copy(), current
        if best_cost < 1e-9:
            break
    return _as_tables(players, best, sizes, tables.shape)


def _round_cost(local: np.ndarray, table_of: np.ndarray) -> float:
    same = table_of[:, None] == table_of[None, :]
    return float((local * same).sum() / 2)


def _descend(local: np.ndarray, table_of: np.ndarray, sizes: np.ndarray, fixed: np.ndarray) -> np.ndarray:
    """Best-improvement swaps until none helps."""
    groups = len(sizes)
    together = local @ np.eye(groups)[table_of]  # player x table: cost of sitting at that table
    movable_with = sizes[table_of][:, None] == sizes[table_of][None, :]
    movable_with &= ~fixed[:, None] & ~fixed[None, :]
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


def _kick(table_of: np.ndarray, sizes: np.ndarray, fixed: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A few random swaps between tables of the same size, to leave a local minimum."""
    for _ in range(max(2, len(table_of) // 8)):
        i, j = rng.choice(len(table_of), size=2, replace=False)
        if sizes[table_of[i]] == sizes[table_of[j]] and not (fixed[i] or fixed[j]):
            table_of[i], table_of[j] = table_of[j], table_of[i]
    return table_of


def _as_tables(players: np.ndarray, table_of: np.ndarray, sizes: np.ndarray, shape) -> np.ndarray:
    tables = np.full(shape, EMPTY, dtype=np.int64)
    for t, size in enumerate(sizes):
        tables[t, :size] = np.sort(players[table_of == t])
    return tables


@dataclass(frozen=True)
class Room:
    """What the local search weighs besides this schedule's own meetings."""

    players: int
    played: np.ndarray  # meetings in rounds already played (a re-plan)
    requests: np.ndarray  # keep-apart costs
    clubs: np.ndarray  # club-mate meeting costs (the soft spread request)
    pinned: np.ndarray  # players who keep their table
    three_handed_turns: bool  # tables of three are taken in turn

    @classmethod
    def of(cls, event: Event, played: np.ndarray | None = None) -> Room:
        n = len(event.players)
        played = np.zeros((n, n), np.int64) if played is None else played
        return cls(
            players=n,
            played=played,
            requests=apart_cost(event),
            clubs=CLUB_COST * club_mates(event),
            pinned=pinned(event),
            three_handed_turns=event.layout.threes > 0,
        )

    def cost(self, met: np.ndarray) -> np.ndarray:
        return pair_cost(met + self.played) + self.requests + self.clubs

    def repeats(self, met: np.ndarray) -> int:
        return int(np.maximum(met + self.played - 1, 0).sum() // 2)

    def reseat(self, tables: np.ndarray, met: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return reseat_round(tables, self.cost(met), rng, pinned=self.pinned)


def improve(seats: np.ndarray, room: Room, deadline: float, rng: np.random.Generator, on_better=None) -> np.ndarray:
    """Reseat one round at a time against all the others' meetings until the deadline or three
    passes that find nothing better."""
    seats = seats.copy()
    met = meetings(seats, room.players)
    best = room.repeats(met)
    stale = 0
    while time.monotonic() < deadline and best > 0 and stale < 3:
        for r in rng.permutation(len(seats)):
            others = met - meetings(seats[r : r + 1], room.players)
            seats[r] = room.reseat(seats[r], others, rng)
            met = others + meetings(seats[r : r + 1], room.players)
            if time.monotonic() >= deadline:
                break
        now = room.repeats(met)
        stale = stale + 1 if now >= best else 0
        if now < best:
            best = now
            if on_better:
                on_better(seats)
    return seats


def extend(seats: np.ndarray, rounds: int, room: Room, rng: np.random.Generator) -> np.ndarray:
    """Add rounds after the given ones, each seated against every meeting so far."""
    met = meetings(seats, room.players)
    added = []
    for _ in range(rounds - len(seats)):
        round_ = room.reseat(seats[rng.integers(len(seats))].copy(), met, rng)
        met = met + meetings(round_[None], room.players)
        added.append(round_)
    return np.concatenate([seats[:rounds]] + ([np.stack(added)] if added else []))


def take_turns(event: Event, so_far: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """rounds x players: who takes each round's burden (a three-handed seat, or sitting out).
    The fewest so far go first, so nobody takes it twice before everyone has once; ties are drawn
    at random, so the same players do not share every turn. Staying players keep their table, so
    they are exempt from three-handed turns."""
    layout, n = event.layout, len(event.players)
    per_round = layout.sit_outs or 3 * layout.threes
    exempt = np.array([name in event.stay for name in event.players]) & (layout.sit_outs == 0)
    counts = so_far.astype(np.int64).copy()
    burden = np.zeros((event.rounds, n), dtype=bool)
    for r in range(event.rounds):
        order = np.lexsort((rng.permutation(n), counts + exempt * (event.rounds + 1)))
        burden[r, order[:per_round]] = True
        counts += burden[r]
    return burden


def greedy_seating(
    event: Event, room: Room, rng: np.random.Generator, burdens_so_far: np.ndarray | None = None
) -> np.ndarray:
    """Seat round after round against the meetings so far, burdens taken in turn: fair by construction."""
    layout, n = event.layout, len(event.players)
    so_far = np.zeros(n, np.int64) if burdens_so_far is None else burdens_so_far
    burden = take_turns(event, so_far, rng) if (layout.threes or layout.sit_outs) else np.zeros((event.rounds, n), bool)
    met = np.zeros((n, n), dtype=np.int64)
    rounds = []
    for r in range(event.rounds):
        light = rng.permutation(np.flatnonzero(~burden[r]))
        heavy = rng.permutation(np.flatnonzero(burden[r])) if layout.threes else np.empty(0, np.int64)
        tables = np.full((layout.tables, 4), EMPTY, dtype=np.int64)
        tables[: layout.fours] = light.reshape(layout.fours, 4)
        tables[layout.fours :, :3] = heavy.reshape(layout.threes, 3)
        tables = room.reseat(place_stayers(tables[None], event)[0], met, rng)
        met = met + meetings(tables[None], n)
        rounds.append(tables)
    return np.stack(rounds)
