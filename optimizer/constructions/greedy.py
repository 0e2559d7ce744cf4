"""Greedy round-by-round seating: each round seated against every meeting before it.

Burdens (a three-handed seat, or sitting out) are taken in turn, so the seating is fair by
construction; every round is then improved by the one-round local search (optimizer.search).
"""

from __future__ import annotations

import numpy as np

from models import Event
from optimizer.budget import Budget
from optimizer.constructions.stayers import place_stayers
from optimizer.requests import turn_exempt
from optimizer.search import Costs, reseat
from optimizer.seats import EMPTY, Seats, meetings


def take_turns(event: Event, so_far: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """rounds x players: who takes each round's burden (a three-handed seat, or sitting out).
    The fewest so far go first, so nobody takes it twice before everyone has once; ties are drawn
    at random, so the same players do not share every turn."""
    layout, n = event.layout, len(event.players)
    per_round = layout.turns
    exempt = turn_exempt(event)
    counts = so_far.astype(np.int64).copy()
    burden = np.zeros((event.rounds, n), dtype=bool)
    for r in range(event.rounds):
        order = np.lexsort((rng.permutation(n), counts + exempt * (event.rounds + 1)))
        burden[r, order[:per_round]] = True
        counts += burden[r]
    return burden


def greedy_seating(
    event: Event,
    costs: Costs | None,
    rng: np.random.Generator,
    burdens_so_far: np.ndarray | None = None,
    budget: Budget | None = None,
) -> Seats:
    """Seat round after round against the meetings so far, burdens taken in turn. Without a cost
    model (a room too big for one) or once `budget` is spent, rounds are seated at random: still fair."""
    budget = budget or Budget.unlimited()
    layout, n = event.layout, len(event.players)
    so_far = np.zeros(n, np.int64) if burdens_so_far is None else burdens_so_far
    burden = take_turns(event, so_far, rng) if (layout.threes or layout.sit_outs) else np.zeros((event.rounds, n), bool)
    met = np.zeros((n, n), dtype=np.int64) if costs is not None else None
    group = _apart_group(event)
    rounds = []
    for r in range(event.rounds):
        light = _dealt(np.flatnonzero(~burden[r]), group, rng)
        heavy = _dealt(np.flatnonzero(burden[r]), group, rng) if layout.threes else np.empty(0, np.int64)
        tables = np.full((layout.tables, 4), EMPTY, dtype=np.int64)
        tables[: layout.fours] = light.reshape(4, layout.fours).T  # the i-th dealt to table i mod tables
        tables[layout.fours :, :3] = heavy.reshape(3, layout.threes).T
        tables = place_stayers(tables[None], event)[0]
        if costs is not None and not budget.done():
            assert met is not None  # set above whenever there is a cost model
            tables = reseat(tables, met, costs, rng, budget)
            met += meetings(tables[None], len(met))
        rounds.append(tables)
    return np.stack(rounds)


def _apart_group(event: Event) -> np.ndarray:
    """Per player, the keep-apart group it is dealt with (its first), or -1."""
    index = {name: p for p, name in enumerate(event.players)}
    group = np.full(len(index), -1, np.int64)
    for g, names in reversed(list(enumerate(event.apart))):
        group[[index[name] for name in names]] = g
    return group


def _dealt(players: np.ndarray, group: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The players in random order, each keep-apart group's members next to one another (groups in
    random order), so that dealing them round the tables puts a group no bigger than the tables at
    different tables: a start that keeps the requests even where the search has no time to (but for
    members of one group together among the few players of the tables of three)."""
    shuffled = rng.permutation(players)
    groups = group[shuffled]
    rank = rng.permutation(int(groups.max(initial=-1)) + 2)[groups + 1]  # -1 (no group) is a group too
    return shuffled[np.argsort(rank, kind="stable")]
