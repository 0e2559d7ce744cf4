"""Zero-repeat designs computed ahead by this package's own constructions, so the tool answers instantly.

One JSON file per room size, n{players:04d}.json: {"players", "rounds", "method", "seats"}. Each file
is checked when loaded (everyone seated once per round, no pair meets twice) and refused otherwise.
`python -m optimizer.constructions.library` regenerates every entry from the constructions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from optimizer.seats import is_repeat_free

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Entry:
    player_count: int
    rounds: int
    method: str
    seats: np.ndarray  # (rounds, player_count / 4, 4)


class BadEntry(ValueError):
    """A stored design that is malformed or has repeats."""


def path_for(player_count: int) -> Path:
    return HERE / f"n{player_count:04d}.json"


@cache
def load(player_count: int) -> Entry | None:
    """The stored design for this room, verified, or None if there is none."""
    path = path_for(player_count)
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    entry = Entry(data["players"], data["rounds"], data["method"], np.array(data["seats"], dtype=np.int64))
    _verify(entry, path.name)
    return entry


def stored_sizes() -> list[int]:
    return sorted(int(p.stem[1:]) for p in HERE.glob("n*.json"))


def save(entry: Entry) -> Path:
    """Write compactly: one round per line."""
    rounds = ",\n  ".join(json.dumps(r.tolist(), separators=(",", ":")) for r in entry.seats)
    head = json.dumps({"players": entry.player_count, "rounds": entry.rounds, "method": entry.method})
    path = path_for(entry.player_count)
    path.write_text(head[:-1] + ', "seats": [\n  ' + rounds + "\n]}\n")
    load.cache_clear()
    return path


def _verify(entry: Entry, name: str) -> None:
    if path_for(entry.player_count).name != name or not is_repeat_free(entry.seats, entry.player_count, entry.rounds):
        raise BadEntry(f"{name}: not a repeat-free seating of {entry.player_count} players over {entry.rounds} rounds")
