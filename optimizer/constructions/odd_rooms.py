"""Repeat-free days with fair turns for rooms that are not a multiple of four: a bigger design with
players deleted (optimizer.constructions.deletion), else, when players sit out, a smaller design joined
by them (optimizer.constructions.joining)."""

from __future__ import annotations

from models import OddPolicy
from optimizer.constructions import Made
from optimizer.constructions.deletion import deletion_seating
from optimizer.constructions.joining import joining_seating


def odd_room_seating(player_count: int, rounds: int, odd: OddPolicy) -> Made | None:
    found = deletion_seating(player_count, rounds, odd)
    if found is None and odd is OddPolicy.SIT_OUT:
        found = joining_seating(player_count, rounds)
    return found
