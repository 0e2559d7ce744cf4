"""The one cost model of the local searches (the search's, the re-seat's, the polish's and the season's
descent): what a seating costs besides its own meetings, that is the director's requests and the rounds
already played (in a re-plan, or a league's earlier nights).

A pair that has met costs 1 per further meeting (a repeat); a little more per meeting spreads repeats
out. Seating a keep-apart pair together costs APART_COST, more than any number of repeats in a round; a
meeting of club-mates costs less than any repeat, so spreading club-mates never adds one. The polish and
the season's descent read keep-apart pairs as a rule instead (they never join), the polish club meetings
too (they never rise), and the polish weighs back-to-back rematches with `previous`, the round played just
before the first.

The season's descent (optimizer.season.descent) weighs pairs by the season's measure instead of repeats:
`season_total` and `season_steps`, with `met_before` the pairs' earlier meetings and `recency` their
recency (optimizer.season.earlier), the mathematics in that module's docstring.
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
# The season's measure: a meeting that takes a pair past the season's most meetings so far costs this much
# more (squared in the excess): more than a meeting elsewhere costs at this scale (2 (m + t) + 1 + 2b, some
# 15 in a 12-week league). 10 left single pairs at 5 in the benchmark's league where 100 did not.
TOP_WEIGHT = 100.0


def pair_cost(met: np.ndarray) -> np.ndarray:
    return np.minimum(met, 1) + SPREAD * met


_ONE_MORE_HERE_FEWER = np.array([1, 0, -1])[:, None, None]


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
    recency: np.ndarray | None = None  # the season's: players x players, the recency of earlier meetings

    @classmethod
    def of(
        cls,
        event: Event,
        met_before: np.ndarray | None = None,
        burdens_before: np.ndarray | None = None,
        previous: np.ndarray | None = None,
        recency: np.ndarray | None = None,
    ) -> Costs:
        return cls.of_room(
            len(event.players),
            met_before=met_before,
            burdens_before=burdens_before,
            apart=apart_pairs(event),
            clubs=club_mates(event),
            pinned=pinned(event),
            previous=previous,
            recency=recency,
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
        recency: np.ndarray | None = None,
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
            recency=recency,
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

    def season_shape(self, c: np.ndarray) -> np.ndarray:
        """F(c) = c^2 + TOP_WEIGHT max(0, c - top)^2 for every pair, top the most earlier meetings of a pair."""
        return c**2 + TOP_WEIGHT * np.maximum(0.0, c - self.season_top) ** 2

    @cached_property
    def season_top(self) -> float:
        """The most earlier meetings of one pair."""
        return float(self.met_before.max(initial=0))

    def season_total(self, met: np.ndarray) -> float:
        """The season's cost of a seating from its meetings `met`: sum over pairs of F(m + t) + 2 b t, m the
        earlier meetings, b the recency, t = met, and APART_COST a meeting of a keep-apart pair."""
        recency = 0.0 if self.recency is None else self.recency
        cost = self.season_shape(self.met_before + met) + (2 * recency + APART_COST * self.apart_pairs) * met
        return float(np.triu(cost, 1).sum())

    def season_steps(self, met: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(gain, loss): what one more meeting, and one fewer, of each pair costs the season (diagonal 0)."""
        # F at c + 1, c and max(c - 1, 0) in one stack: a third of the array operations (a step of the season's
        # descent is mostly their overhead on small arrays)
        more, here, fewer = self.season_shape(np.maximum(self.met_before + met + _ONE_MORE_HERE_FEWER, 0))
        gain = more - here + self.season_step_cost
        loss = fewer - here - self.season_step_cost
        np.fill_diagonal(gain, 0)
        np.fill_diagonal(loss, 0)
        return gain, loss

    @cached_property
    def season_step_cost(self) -> np.ndarray:
        """What a meeting costs besides the shape: twice the recency, and APART_COST for a keep-apart pair."""
        return (0.0 if self.recency is None else 2 * self.recency) + APART_COST * self.apart_pairs
