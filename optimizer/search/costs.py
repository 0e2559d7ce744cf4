"""The one cost model of the local searches (the search's and the polish's): what a seating costs
besides its own meetings, that is the director's requests and, in a re-plan, the rounds already played.

A pair that has met costs 1 per further meeting (a repeat); a little more per meeting spreads repeats
out. Seating a keep-apart pair together costs more than any number of repeats in a round; a meeting
of club-mates costs less than any repeat, so spreading club-mates never adds one. The polish reads the
same requests as rules instead (keep-apart pairs never join, club meetings never rise), and weighs
back-to-back rematches with `previous`, the round played just before the first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from models import Event
from optimizer.requests import apart_pairs, club_mates, pinned
from optimizer.seats import meetings, repeats_in

SPREAD = 0.01
APART_COST = 1_000.0
CLUB_COST = 1e-3


def pair_cost(met: np.ndarray) -> np.ndarray:
    return np.minimum(met, 1) + SPREAD * met


@dataclass(frozen=True)
class Costs:
    """The cost model of one event: what a seating costs besides its own meetings."""

    player_count: int
    met_before: np.ndarray  # meetings in rounds already played (a re-plan), else zeros
    burdens_before: np.ndarray  # per player: turns taken in rounds already played, else zeros
    apart: np.ndarray  # keep-apart costs
    clubs: np.ndarray  # club-mate meeting costs (the soft spread request)
    pinned: np.ndarray  # players who keep their table
    three_handed_turns: bool  # tables of three are taken in turn
    sit_out_turns: bool  # sitting out is taken in turn
    previous: np.ndarray | None = None  # the round played just before the first (tables, 4), if any

    @classmethod
    def of(
        cls,
        event: Event,
        met_before: np.ndarray | None = None,
        burdens_before: np.ndarray | None = None,
        previous: np.ndarray | None = None,
    ) -> Costs:
        return cls.of_room(
            len(event.players),
            met_before=met_before,
            burdens_before=burdens_before,
            apart=apart_pairs(event),
            clubs=club_mates(event),
            pinned=pinned(event),
            previous=previous,
            three_handed_turns=event.layout.threes > 0,
            sit_out_turns=event.layout.sit_outs > 0,
        )

    @classmethod
    def of_room(
        cls,
        player_count: int,
        *,
        met_before: np.ndarray | None = None,
        burdens_before: np.ndarray | None = None,
        apart: np.ndarray | None = None,
        clubs: np.ndarray | None = None,
        pinned: np.ndarray | None = None,
        previous: np.ndarray | None = None,
        three_handed_turns: bool = False,
        sit_out_turns: bool = False,
    ) -> Costs:
        """From the room's matrices: `apart` and `clubs` players x players, nonzero (or True) for a pair
        in one group; `pinned` players keep their table. What is not given is nothing."""
        n = player_count
        apart, clubs = (np.zeros((n, n)) if m is None else np.array(m, float) for m in (apart, clubs))
        np.fill_diagonal(apart, 0)  # nobody is kept apart from, or a club-mate of, themselves
        np.fill_diagonal(clubs, 0)
        return cls(
            player_count=n,
            met_before=np.zeros((n, n), np.int64) if met_before is None else met_before,
            burdens_before=np.zeros(n, np.int64) if burdens_before is None else burdens_before,
            apart=APART_COST * apart,
            clubs=CLUB_COST * clubs,
            pinned=np.zeros(n, bool) if pinned is None else np.asarray(pinned, bool),
            three_handed_turns=three_handed_turns,
            sit_out_turns=sit_out_turns,
            previous=previous,
        )

    def of_meeting(self, met: np.ndarray) -> np.ndarray:
        """players x players: what seating each pair together costs, given the meetings so far."""
        return pair_cost(met + self.met_before) + self.apart + self.clubs

    def repeats(self, met: np.ndarray) -> int:
        """E of the whole day (played rounds included) given this seating's meetings."""
        return repeats_in(met + self.met_before)

    @cached_property
    def apart_pairs(self) -> np.ndarray:
        """bool players x players: the pairs that must never share a table."""
        return self.apart > 0

    @cached_property
    def club_pairs(self) -> np.ndarray:
        """0/1 players x players: the club-mates."""
        return (self.clubs > 0).astype(np.int64)

    @cached_property
    def met_previous(self) -> np.ndarray | None:
        """players x players: who shared a table in the round played just before the first."""
        return None if self.previous is None else meetings(self.previous[None], self.player_count)
