"""Joining: repeat-free days for sit-out rooms, a design for the tables of four joined by the extra players.

The mathematics. A room of n = 4 T + s players (s = 1, 2 or 3 sit out each round) takes a repeat-free
design for its 4 T players (from `instant_seating`) and s newcomers. Each round every newcomer takes the
seat of a design player, who sits out, or (once in the day at most) sits out itself. The design's own
pairs never repeat and newcomers sit at different tables of a round, so never meet each other: the day is
repeat-free exactly when each newcomer's tablemates over the day are all different. Nobody sits out twice,
so after every round everyone's count of sit-outs is 0 or 1, fair in any order (this needs
s (rounds - 1) <= 4 T). Two tables of different rounds share at most one player, and a newcomer who sits
at both must take that player's seat at one of them. The sit-outs are searched depth first, round by
round and newcomer by newcomer, dropping a choice that leaves a newcomer more rounds without a seat it
may take than it may sit out; the steps are capped, so a room with no such choice answers None quickly
(AG(2,4) for 17 players over 5 rounds: any two tables of different rounds share a player, and a
newcomer seated in four rounds meets someone twice).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

import numpy as np

from optimizer.constructions import frontier_rounds, instant_seating
from optimizer.pipeline.stages import Start
from optimizer.seats import EMPTY, Seats, table_of

# Choices of sit-outs (complete or not) the search visits; the rooms of 9-63 players over 2-8 rounds that
# joining seats take at most 740.
MAX_STEPS = 5_000
# Seats weighed over the search, each step weighing every newcomer's seats in the rounds after it (about
# 20 ns a seat): big rooms over many rounds get fewer steps.
MAX_SEATS_WEIGHED = 10_000_000

SitOuts = tuple[int, ...]
"""Who sits out for each newcomer, round by round: entry k for newcomer k % s in round k // s, either
the design player whose seat the newcomer takes or the newcomer itself (numbered 4 T + k % s)."""


@dataclass(frozen=True)
class _Joining:
    """The design for the tables of four, each player's table in it round by round (EMPTY for the
    newcomers, who are not in it), and how many newcomers join."""

    design: Seats
    table: np.ndarray
    newcomers: int

    @property
    def player_count(self) -> int:
        return self.table.shape[1]

    def newcomer(self, k: int) -> int:
        """Newcomer k's player number, after the design's players."""
        return self.player_count - self.newcomers + k


def joining_seating(player_count: int, rounds: int) -> Start | None:
    """A repeat-free seating of a sit-out room where nobody sits out twice, or None if joining finds none."""
    newcomers = player_count % 4
    design_size = player_count - newcomers
    if not newcomers or rounds < 1 or newcomers * (rounds - 1) > design_size or frontier_rounds(design_size) < rounds:
        return None
    made = instant_seating(design_size, rounds)
    if made is None:
        return None
    design, method = made.seats, made.made
    room = _Joining(design, table_of(design, player_count), newcomers)
    steps = min(MAX_STEPS, MAX_SEATS_WEIGHED // (newcomers * design.size))
    for sit_outs in islice(_steps(room, (), np.zeros((newcomers, player_count), bool)), steps):
        if len(sit_outs) == newcomers * rounds:
            players = f"{newcomers} player{'s' * (newcomers > 1)}"
            return Start.built(
                _join(room, sit_outs), f"repeat-free design of {design_size} ({method}) joined by {players}"
            )
    return None


def _steps(room: _Joining, sit_outs: SitOuts, met: np.ndarray) -> Iterator[SitOuts]:
    """Every step of the search, depth first: the sit-outs so far, then each way to go on.
    `met`: newcomers x players, whom each newcomer has sat with so far."""
    yield sit_outs
    round_, newcomer = divmod(len(sit_outs), room.newcomers)
    if round_ == len(room.design):
        return
    for player in _choices(room, round_, newcomer, sit_outs, met[newcomer]):
        now_met = met.copy()
        table = room.table[round_, player]
        if table != EMPTY:
            players = room.design[round_, table]
            now_met[newcomer, players[players != player]] = True
        if _can_go_on(room, round_ + 1, sit_outs + (player,), now_met):
            yield from _steps(room, sit_outs + (player,), now_met)


def _choices(room: _Joining, round_: int, newcomer: int, sit_outs: SitOuts, met: np.ndarray) -> Iterator[int]:
    """Whose seat the newcomer may take this round, at a table no other newcomer has (table by table,
    seat by seat), then the newcomer itself sitting out."""
    sat_out = _sat_out(room, sit_outs)
    seats = _open_seats(room.design[round_], met, sat_out)
    tables_taken = room.table[round_, list(sit_outs[round_ * room.newcomers :])]
    seats[tables_taken[tables_taken != EMPTY]] = False
    yield from map(int, room.design[round_][seats])
    if not sat_out[room.newcomer(newcomer)]:
        yield room.newcomer(newcomer)


def _open_seats(players: np.ndarray, met: np.ndarray, sat_out: np.ndarray) -> np.ndarray:
    """Whether a newcomer who has sat with `met` (players, or newcomers x players) may take each seat
    of `players` (..., tables, 4): its player has not sat out, and the newcomer meets nobody again there
    (at a table with one player met, only that player's seat will do)."""
    seen = np.take(met, players, axis=-1)
    count = seen.sum(axis=-1, keepdims=True)
    return np.where(count == 1, seen, count == 0) & ~sat_out[players]


def _can_go_on(room: _Joining, round_: int, sit_outs: SitOuts, met: np.ndarray) -> bool:
    """Whether every newcomer has a seat it may take in every round from `round_` on, but one if it has
    not sat out yet (other newcomers' seats aside)."""
    sat_out = _sat_out(room, sit_outs)
    open_seats = _open_seats(room.design[round_:], met, sat_out)  # newcomers x rounds x tables x 4
    seatless = ~open_seats.any(axis=(2, 3))
    may_sit_out = ~sat_out[room.newcomer(0) :]
    return bool((seatless.sum(axis=1) <= may_sit_out).all())


def _sat_out(room: _Joining, sit_outs: SitOuts) -> np.ndarray:
    sat_out = np.zeros(room.player_count, bool)
    sat_out[list(sit_outs)] = True
    return sat_out


def _join(room: _Joining, sit_outs: SitOuts) -> Seats:
    """The design with each newcomer in the seats it takes."""
    seats = room.design.copy()
    for k, player in enumerate(sit_outs):
        round_ = seats[k // room.newcomers]
        round_[round_ == player] = room.newcomer(k % room.newcomers)  # no seat if the newcomer sat out
    return seats
