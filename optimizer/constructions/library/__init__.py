"""Zero-repeat days computed ahead by this package's own constructions and search, so the tool answers
instantly.

One JSON file per room: n{players:04d}.json for a room of tables of four, n{players:04d}-{odd}.json
(odd = three-handed or sit-out) for a room that is not a multiple of four; each holds {"players",
"rounds", "method", "seats"} and, for an odd room, "odd". Each file is checked when loaded and refused
otherwise: a room of fours must seat everyone once per round with no pair meeting twice; an odd room's
day goes through the independent checker, which must count no repeat and turns taken fairly after every
round, so the first r rounds of a stored day are a fair repeat-free day of r rounds.
`python -m optimizer.constructions.library` regenerates the entries.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from models import Event, OddPolicy
from optimizer.checking.checker import check
from optimizer.seats import is_repeat_free, to_schedule

HERE = Path(__file__).parent
NAME = re.compile(r"n(\d{4})(?:-(three-handed|sit-out))?\.json")


@dataclass(frozen=True)
class Entry:
    player_count: int
    rounds: int
    method: str
    seats: np.ndarray  # (rounds, tables, 4), EMPTY in seat D of a table of three
    odd: OddPolicy | None = None  # how the room is seated when player_count is not a multiple of four


class BadEntry(ValueError):
    """A stored day that is malformed, has repeats or, in an odd room, unfair turns."""


def path_for(player_count: int, odd: OddPolicy | None = None) -> Path:
    return HERE / (f"n{player_count:04d}.json" if odd is None else f"n{player_count:04d}-{odd.value}.json")


@cache
def load(player_count: int, odd: OddPolicy | None = None) -> Entry | None:
    """The stored day for this room, verified, or None if there is none."""
    path = path_for(player_count, odd)
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    stored_odd = OddPolicy(data["odd"]) if "odd" in data else None
    seats = np.array(data["seats"], dtype=np.int64)
    entry = Entry(data["players"], data["rounds"], data["method"], seats, stored_odd)
    _verify(entry, path.name)
    return entry


def stored_rooms() -> list[tuple[int, OddPolicy | None]]:
    """(players, odd policy or None) of every stored day, smallest room first."""
    rooms = []
    for path in HERE.glob("n*.json"):
        match = NAME.fullmatch(path.name)
        if match:
            rooms.append((int(match[1]), OddPolicy(match[2]) if match[2] else None))
    return sorted(rooms, key=lambda room: (room[0], room[1] is not None, room[1] or ""))


def stored_sizes() -> list[int]:
    """Player counts of the stored rooms of tables of four."""
    return [players for players, odd in stored_rooms() if odd is None]


def save(entry: Entry) -> Path:
    """Write compactly: one round per line."""
    rounds = ",\n  ".join(json.dumps(r.tolist(), separators=(",", ":")) for r in entry.seats)
    head: dict[str, object] = {"players": entry.player_count, "rounds": entry.rounds, "method": entry.method}
    if entry.odd is not None:
        head["odd"] = entry.odd.value
    path = path_for(entry.player_count, entry.odd)
    path.write_text(json.dumps(head)[:-1] + ', "seats": [\n  ' + rounds + "\n]}\n", encoding="utf-8")
    load.cache_clear()
    return path


def _verify(entry: Entry, name: str) -> None:
    room = f"{entry.player_count} players over {entry.rounds} rounds"
    if path_for(entry.player_count, entry.odd).name != name or len(entry.seats) != entry.rounds:
        raise BadEntry(f"{name}: not a stored day of {room}")
    if entry.odd is None:
        if not is_repeat_free(entry.seats, entry.player_count, entry.rounds):
            raise BadEntry(f"{name}: not a repeat-free seating of {room}")
        return
    if not fair_and_repeat_free(entry.seats, entry.player_count, entry.odd):
        raise BadEntry(f"{name}: not a repeat-free day of {room} with turns taken fairly")


def fair_and_repeat_free(seats: np.ndarray, player_count: int, odd: OddPolicy) -> bool:
    """The checker's word on an odd room's day: valid, no repeat, turns fair after every round."""
    try:
        event = Event.with_count(player_count, len(seats), odd=odd)
        metrics = check(to_schedule(event, seats, "library"))
    except ValueError:  # a malformed day (InvalidSchedule, or a room the layout refuses)
        return False
    return metrics.repeats == 0 and metrics.turns_fair
