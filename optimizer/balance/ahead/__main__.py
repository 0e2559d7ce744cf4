"""Regenerate the stored days: `python -m optimizer.balance.ahead [--rooms 20x9 16x11 ...] [--seeds 8]`.

Each room is searched as ROOMS says, at its fewest repeats (`optimizer.proof.bounds.lower_bound`), with no trio
again and no back-to-back (a rotational day above 0 visits: in its best order, as plans order it), on one
worker and deterministic work, seed 0, 1, ... in turn, so a run repeats
itself exactly; the first day found is stored with how it was found. Rooms without a day are said so.
A "plan" room is planned as a 5 s run on one worker plans it (without the stored days), and its groups
are then numbered exactly (`optimizer.balance.exact_numbers`) for longer than such a run has.
"""

from __future__ import annotations

import argparse
import time
from functools import partial

import numpy as np

from models import Event
from optimizer.balance import balance_table_numbers
from optimizer.balance.ahead import Entry, save
from optimizer.balance.exact_numbers import fewest_table_visits
from optimizer.balance.orbit_day import orbit_day
from optimizer.balance.rotational_day import rotational_day
from optimizer.budget import CPSAT_WORK_PER_SECOND, Budget
from optimizer.plan import plan
from optimizer.proof.bounds import lower_bound
from optimizer.seats import from_schedule

WORK = 20.0  # deterministic seconds a seed
# A "plan" room: the run, as the benchmarks' short runs, then the exact numbering's deterministic seconds
# (24 x 9 at 0 visits: none in 8 seeds of 20 s, in the fourth seed of 60 s).
PLAN_SECONDS, PLAN_WORK = 5.0, 60.0
# (players, rounds) -> (the model, fewer table visits above even than this): the rooms where the model
# reached fewer visits than plans do at 5 s (benchmarks/README.md, issue 29's fifth and sixth parts).
ROOMS = {
    (20, 9): ("orbit", 1),
    (16, 11): ("orbit", 1),
    (16, 15): ("orbit", 1),
    (20, 10): ("rotational", 1),
    (16, 6): ("rotational", 5),
    (20, 8): ("plan", 1),
    (24, 9): ("plan", 1),
    (24, 11): ("plan", 12),
}


def search(player_count: int, rounds: int, seed: int) -> np.ndarray | None:
    model, below = ROOMS[player_count, rounds]
    repeats = lower_bound(Event.with_count(player_count, rounds)).repeats
    if model == "plan":
        return planned_day(player_count, rounds, repeats=repeats, below=below, seed=seed)
    find = orbit_day if model == "orbit" else partial(rotational_day, most_above=0 if below == 1 else 1)
    no_back_to_back = model == "orbit" or below == 1
    return find(
        player_count, rounds, repeats=repeats, below=below, no_trios=True, no_back_to_back=no_back_to_back,
        budget=Budget.of(WORK / CPSAT_WORK_PER_SECOND, repeatable=True), workers=1, seed=seed,
    )  # fmt: skip


def planned_day(player_count: int, rounds: int, *, repeats: int, below: int, seed: int) -> np.ndarray | None:
    """A short run's day, its groups numbered exactly: kept at `repeats` with no trio again and no
    back-to-back (the numbering changes neither), with the fewest visits found, fewer than `below`."""
    result = plan(
        Event.with_count(player_count, rounds), time_limit=PLAN_SECONDS, seed=seed, workers=1, computed_ahead=False
    )
    metrics = result.metrics
    if (
        result.schedule is None
        or metrics is None
        or (metrics.repeats, metrics.trios_again, metrics.back_to_back) != (repeats, 0, 0)
    ):
        return None
    # numbered afresh from the groups (the run's own numbering may stop at its clock): tables in the order
    # of their first player, the descent with its restarts (no clock), then the exact model from there
    seats = from_schedule(result.schedule)
    seats = np.stack([round_[np.argsort(round_.min(axis=1))] for round_ in seats])
    seats = balance_table_numbers(seats, rng=np.random.default_rng(seed))
    work = Budget.of(PLAN_WORK / CPSAT_WORK_PER_SECOND, repeatable=True)  # PLAN_WORK deterministic seconds
    return fewest_table_visits(seats, budget=work, at_most=below - 1, workers=1, seed=seed).seats


def how_found(model: str, seed: int) -> str:
    if model == "plan":
        work = f"CP-SAT, 1 worker, {PLAN_WORK:g} s deterministic work"
        return f"{PLAN_SECONDS:g} s plan (seed {seed}, 1 worker), tables numbered exactly ({work})"
    return f"{model} day (CP-SAT, seed {seed}, 1 worker, {WORK:g} s deterministic work)"


def main(argv: list[str] | None = None) -> None:
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
                method = how_found(ROOMS[player_count, rounds][0], seed)
                path = save(Entry(player_count, rounds, method, seats))
                print(f"{player_count}x{rounds}: wrote {path.name} ({time.monotonic() - started:.1f} s)")
                break
        else:
            print(f"{player_count}x{rounds}: no day in {args.seeds} seeds")


if __name__ == "__main__":
    main()
