"""Greedy round-by-round seating: each round seated against every meeting before it.

Burdens (a three-handed seat, or sitting out) are taken in turn, so the seating is fair by
construction; every round is then improved by the one-round local search (optimizer.search).
"""

from __future__ import annotations

import math

import numpy as np

from models import Event
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
    deadline: float = math.inf,
) -> Seats:
    """Seat round after round against the meetings so far, burdens taken in turn. Without a cost
    model (a room too big for one) or past the deadline, rounds are seated at random: still fair."""
    layout, n = event.layout, len(event.players)
    so_far = np.zeros(n, np.int64) if burdens_so_far is None else burdens_so_far
    burden = take_turns(event, so_far, rng) if (layout.threes or layout.sit_outs) else np.zeros((event.rounds, n), bool)
    met = np.zeros((n, n), dtype=np.int64) if costs is not None else None
    rounds = []
    for r in range(event.rounds):
        light = rng.permutation(np.flatnonzero(~burden[r]))
        heavy = rng.permutation(np.flatnonzero(burden[r])) if layout.threes else np.empty(0, np.int64)
        tables = np.full((layout.tables, 4), EMPTY, dtype=np.int64)
        tables[: layout.fours] = light.reshape(layout.fours, 4)
        tables[layout.fours :, :3] = heavy.reshape(layout.threes, 3)
        tables = place_stayers(tables[None], event)[0]
        if costs is not None:
            assert met is not None  # set above whenever there is a cost model
            tables = reseat(tables, met, costs, rng, deadline)
            met = met + meetings(tables[None], n)
        rounds.append(tables)
    return np.stack(rounds)
