"""Days for the table numbers computed ahead by this package's own searches, so a run of any length has them.

The orbit day (`optimizer.balance.orbit_day`) and the rotational day (`optimizer.balance.rotational_day`)
find, in some small rooms, days at the fewest repeats with fewer table visits above even than the regrouping
reaches; but they take 2 to 10 s of CP-SAT after the search, which a 5 s run does not have.
Elsewhere (20 x 8, 24 x 9, 24 x 11) a short run's own groups allow fewer visits than it has time to find, and the exact
numbering (`optimizer.balance.exact_numbers`) takes up to a minute to find them, for some seeds of the run
only. Each such day is stored here once: one JSON file per room, n{players:04d}-r{rounds:02d}.json, holding
{"players", "rounds", "method", "seats"}. A stored day is checked when loaded and refused otherwise: the
checker must pass it and count the room's fewest repeats (`optimizer.proof.bounds.lower_bound`), so a stored day
never costs a repeat. Plans offer it like any other day (the checker and the rank decide).
`python -m optimizer.balance.ahead` regenerates the entries: what is stored is what the code reaches.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from models import Event
from optimizer.checking.checker import InvalidSchedule, check
from optimizer.proof.bounds import lower_bound
from optimizer.seats import to_schedule

HERE = Path(__file__).parent
NAME = re.compile(r"n(\d{4})-r(\d{2})\.json")


@dataclass(frozen=True)
class Entry:
    player_count: int
    rounds: int
    method: str
    seats: np.ndarray  # (rounds, tables, 4)


class BadEntry(ValueError):
    """A stored day that is malformed, refused by the checker, or above the room's fewest repeats."""


def path_for(player_count: int, rounds: int) -> Path:
    return HERE / f"n{player_count:04d}-r{rounds:02d}.json"


@cache
def load(player_count: int, rounds: int) -> Entry | None:
    """The stored day of this room, verified, or None if there is none."""
    path = path_for(player_count, rounds)
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    entry = Entry(data["players"], data["rounds"], data["method"], np.array(data["seats"], dtype=np.int64))
    _verify(entry, path.name)
    return entry


def stored_rooms() -> list[tuple[int, int]]:
    """(players, rounds) of every stored day."""
    return sorted((int(m[1]), int(m[2])) for path in HERE.glob("n*.json") if (m := NAME.fullmatch(path.name)))


def save(entry: Entry) -> Path:
    """Write compactly: one round per line."""
    rounds = ",\n  ".join(json.dumps(r.tolist(), separators=(",", ":")) for r in entry.seats)
    head = {"players": entry.player_count, "rounds": entry.rounds, "method": entry.method}
    path = path_for(entry.player_count, entry.rounds)
    path.write_text(json.dumps(head)[:-1] + ', "seats": [\n  ' + rounds + "\n]}\n", encoding="utf-8")
    load.cache_clear()
    return path


def _verify(entry: Entry, name: str) -> None:
    room = f"{entry.player_count} players over {entry.rounds} rounds"
    if path_for(entry.player_count, entry.rounds).name != name or entry.seats.shape[0] != entry.rounds:
        raise BadEntry(f"{name}: not a stored day of {room}")
    event = Event.with_count(entry.player_count, entry.rounds)
    try:
        repeats = check(to_schedule(event, entry.seats, "stored"), indirect=False).repeats
    except (InvalidSchedule, IndexError) as refused:
        raise BadEntry(f"{name}: not a day of {room} ({refused})") from refused
    if repeats > lower_bound(event).repeats:
        raise BadEntry(f"{name}: {repeats} repeats, more than the fewest {room} allow")
