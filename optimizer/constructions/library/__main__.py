"""Regenerate the library: `python -m optimizer.constructions.library [--players 16 20 ...] [--time-limit 60]`.

For each room it starts at the counting limit floor((N - 1) / 3) and steps down until a construction
(affine, speeds, the doubling, then the rotational search; never the library itself) gives a
repeat-free seating, then stores it. No list of known results is used: what is stored is what the code reaches.
"""

from __future__ import annotations

import argparse
import time

from optimizer.constructions import from_affine, from_doubling, from_speeds, library
from optimizer.constructions.library import Entry
from optimizer.constructions.rotational import rotational_seating
from optimizer.seats import is_repeat_free


def build(player_count: int, time_limit: float, seed: int):
    """The most rounds reached and how, trying each round count from the counting limit down."""
    for rounds in range((player_count - 1) // 3, 0, -1):
        made = (
            from_affine(player_count, rounds)
            or from_speeds(player_count, rounds)
            or from_doubling(player_count, rounds, seed=seed)
        )
        if made is None:
            made = rotational_seating(player_count, rounds, time_limit=time_limit, seed=seed)
        if made is not None and is_repeat_free(made[0], player_count, rounds):
            return rounds, made
    return None


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimizer.constructions.library", description=__doc__)
    parser.add_argument("--players", dest="player_count", type=int, nargs="*", default=list(range(16, 65, 4)))
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per round count tried")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for player_count in args.player_count:
        start = time.monotonic()
        found = build(player_count, args.time_limit, args.seed)
        took = time.monotonic() - start
        if found is None:
            print(f"{player_count:4d} players: nothing found ({took:.1f} s)", flush=True)
            continue
        rounds, (seats, method) = found
        library.save(Entry(player_count, rounds, method, seats))
        print(f"{player_count:4d} players: {rounds:2d} rounds, {method} ({took:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
