"""Regenerate the library: `python -m optimizer.library [--players 16 20 ...] [--time-limit 60]`.

For each room it starts at the counting limit floor((N - 1) / 3) and steps down until a construction
(affine, speeds or the rotational search, never the library itself) gives a repeat-free seating,
then stores it. No list of known results is used: what is stored is what the code reaches.
"""

from __future__ import annotations

import argparse
import time

from optimizer import library
from optimizer.constructions import is_repeat_free
from optimizer.library import Entry


def build(players: int, time_limit: float, seed: int):
    """The most rounds reached and how, trying each round count from the counting limit down."""
    from optimizer.constructions import _from_affine, _from_speeds
    from optimizer.rotational import rotational_seating

    for rounds in range((players - 1) // 3, 0, -1):
        made = _from_affine(players, rounds) or _from_speeds(players, rounds)
        if made is None:
            made = rotational_seating(players, rounds, time_limit=time_limit, seed=seed)
        if made is not None and is_repeat_free(made[0], players, rounds):
            return rounds, made
    return None


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimizer.library", description=__doc__)
    parser.add_argument("--players", type=int, nargs="*", default=list(range(16, 65, 4)))
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per round count tried")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for players in args.players:
        start = time.monotonic()
        found = build(players, args.time_limit, args.seed)
        took = time.monotonic() - start
        if found is None:
            print(f"{players:4d} players: nothing found ({took:.1f} s)", flush=True)
            continue
        rounds, (seats, method) = found
        library.save(Entry(players, rounds, method, seats))
        print(f"{players:4d} players: {rounds:2d} rounds, {method} ({took:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
