"""Repeat-free days with fair turns for rooms that are not a multiple of four: a bigger design with
players deleted (optimizer.constructions.deletion), else, when players sit out, a smaller design joined
by them (optimizer.constructions.joining), else a day stored in the library (optimizer.constructions.
library, found ahead by the tool's own search). The designs come first where they reach the rounds: their
structure numbered tables better (22 players sitting out over 4 rounds, 1 s runs on a busy machine: 2
table visits above even as the designs gave them, 8 from the stored day's first rounds). As for the
zero-repeat seatings of optimizer.constructions, every seating handed out is counted here first, so a
builder bug can only cost a None (fair turns are the checker's to vouch for)."""

from __future__ import annotations

from models import OddPolicy
from optimizer.constructions import library
from optimizer.constructions.deletion import deletion_seating
from optimizer.constructions.joining import joining_seating
from optimizer.pipeline.stages import Start
from optimizer.seats import repeats


def odd_room_seating(player_count: int, rounds: int, odd: OddPolicy) -> Start | None:
    found = deletion_seating(player_count, rounds, odd)
    if found is None and odd is OddPolicy.SIT_OUT:
        found = joining_seating(player_count, rounds)
    found = found or from_odd_library(player_count, rounds, odd)
    return found if found is not None and repeats(found.seats, player_count) == 0 else None


def from_odd_library(player_count: int, rounds: int, odd: OddPolicy) -> Start | None:
    """The first rounds of a stored day: turns fair after every round make every prefix fair."""
    entry = library.load(player_count, odd)
    if entry is None or entry.rounds < rounds:
        return None
    return Start.built(entry.seats[:rounds].copy(), f"{entry.method} (library)")
