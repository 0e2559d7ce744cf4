"""Regenerate the stored days: `python -m optimizer.balance.ahead [--rooms 20x9 16x11 ...] [--seeds 8]`.

Each room is searched as ROOMS says, at its fewest repeats (`optimizer.bounds.lower_bound`), with no trio
again and no back-to-back (a rotational day above 0 visits: in its best order, as plans order it), on one
worker and deterministic work, seed 0, 1, ... in turn, so a run repeats
itself exactly; the first day found is stored with how it was found. Rooms without a day are said so.
"""

from __future__ import annotations

import argparse
import time
from functools import partial

import numpy as np

from models import Event
from optimizer.balance.ahead import Entry, save
from optimizer.balance.orbit_day import orbit_day
from optimizer.balance.rotational_day import rotational_day
from optimizer.bounds import lower_bound

WORK = 20.0  # deterministic seconds a seed
# (players, rounds) -> (the model, fewer table visits above even than this): the rooms where the model
# reached fewer visits than plans do at 5 s (benchmarks/README.md, issue 29's fifth part).
ROOMS = {
    (20, 9): ("orbit", 1),
    (16, 11): ("orbit", 1),
    (16, 15): ("orbit", 1),
    (20, 10): ("rotational", 1),
    (16, 6): ("rotational", 5),
}


def search(player_count: int, rounds: int, seed: int) -> np.ndarray | None:
    model, below = ROOMS[player_count, rounds]
    repeats = lower_bound(Event.with_count(player_count, rounds)).repeats
    deadline = time.monotonic() + 10 * WORK  # a guard: the work decides
    find = orbit_day if model == "orbit" else partial(rotational_day, most_above=0 if below == 1 else 1)
    no_back_to_back = model == "orbit" or below == 1
    return find(
        player_count, rounds, repeats=repeats, below=below, no_trios=True, no_back_to_back=no_back_to_back,
        deadline=deadline, work=WORK, workers=1, seed=seed,
    )  # fmt: skip


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimizer.balance.ahead", description=__doc__)
    parser.add_argument("--rooms", nargs="*", help="rooms as PLAYERSxROUNDS (default: every room of ROOMS)")
    parser.add_argument("--seeds", type=int, default=8, help="seeds tried a room, one after another")
    args = parser.parse_args(argv)
    rooms = [tuple(map(int, room.split("x"))) for room in args.rooms] if args.rooms else list(ROOMS)
    for player_count, rounds in rooms:
        if (player_count, rounds) not in ROOMS:
            parser.error(f"{player_count}x{rounds} is not a room of ROOMS")
        for seed in range(args.seeds):
            started = time.monotonic()
            seats = search(player_count, rounds, seed)
            if seats is not None:
                model = ROOMS[player_count, rounds][0]
                method = f"{model} day (CP-SAT, seed {seed}, 1 worker, {WORK:g} s deterministic work)"
                path = save(Entry(player_count, rounds, method, seats))
                print(f"{player_count}x{rounds}: wrote {path.name} ({time.monotonic() - started:.1f} s)")
                break
        else:
            print(f"{player_count}x{rounds}: no day in {args.seeds} seeds")


if __name__ == "__main__":
    main()
