"""What the local search weighs: repeats, with the director's requests and a re-plan's history.

A pair that has met costs 1 per further meeting (a repeat); a little more per meeting spreads repeats
out. Seating a keep-apart pair together costs more than any number of repeats in a round; a meeting
of club-mates costs less than any repeat, so spreading club-mates never adds one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models import Event
from optimizer.requests import apart_pairs, club_mates, pinned
from optimizer.seats import repeats_in

SPREAD = 0.01
APART_COST = 1_000.0
CLUB_COST = 1e-3


def pair_cost(met: np.ndarray) -> np.ndarray:
    return np.minimum(met, 1) + SPREAD * met


@dataclass(frozen=True)
class Costs:
    """The search's cost model of one event: what a seating costs besides its own meetings."""

    player_count: int
    met_before: np.ndarray  # meetings in rounds already played (a re-plan), else zeros
    burdens_before: np.ndarray  # per player: turns taken in rounds already played, else zeros
    apart: np.ndarray  # keep-apart costs
    clubs: np.ndarray  # club-mate meeting costs (the soft spread request)
    pinned: np.ndarray  # players who keep their table
    three_handed_turns: bool  # tables of three are taken in turn
    sit_out_turns: bool  # sitting out is taken in turn

    @classmethod
    def of(cls, event: Event, met_before: np.ndarray | None = None, burdens_before: np.ndarray | None = None) -> Costs:
        n = len(event.players)
        return cls(
            player_count=n,
            met_before=np.zeros((n, n), np.int64) if met_before is None else met_before,
            burdens_before=np.zeros(n, np.int64) if burdens_before is None else burdens_before,
            apart=APART_COST * apart_pairs(event),
            clubs=CLUB_COST * club_mates(event),
            pinned=pinned(event),
            three_handed_turns=event.layout.threes > 0,
            sit_out_turns=event.layout.sit_outs > 0,
        )

    def of_meeting(self, met: np.ndarray) -> np.ndarray:
        """players x players: what seating each pair together costs, given the meetings so far."""
        return pair_cost(met + self.met_before) + self.apart + self.clubs

    def repeats(self, met: np.ndarray) -> int:
        """E of the whole day (played rounds included) given this seating's meetings."""
        return repeats_in(met + self.met_before)
