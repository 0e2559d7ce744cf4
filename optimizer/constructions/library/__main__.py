"""Regenerate the library: `python -m optimizer.constructions.library [--players 16 20 ...] [--time-limit 60]`
for rooms of tables of four, `... --odd three-handed --rounds 6 [--players 22 ...] [--steps N] [--seeds S]`
for rooms that are not a multiple of four. Without --players, every stored room of that kind.

For a room of fours it starts at the counting limit floor((N - 1) / 3) and steps down until a construction
(affine, speeds, the doubling, then the rotational search; never the library itself) gives a repeat-free
seating, then stores it. For an odd room it runs tabu search (optimizer.search.tabu_search, which keeps
turns fair) from greedy starts, seed 0, 1, ..., a fixed number of steps each, so a run repeats itself
exactly; the first day the checker finds repeat-free and fair is stored. No list of known results is
used: what is stored is what the code reaches.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from models import Event, OddPolicy
from optimizer.budget import Budget
from optimizer.constructions import from_affine, from_doubling, from_speeds, instant_seating, library
from optimizer.constructions.doubling import doubled_design_seating
from optimizer.constructions.greedy import greedy_seating
from optimizer.constructions.library import Entry, fair_and_repeat_free
from optimizer.constructions.rotational import rotational_seating
from optimizer.constructions.turned import search_representatives, turned_design
from optimizer.pipeline.stages import Start
from optimizer.search import Costs, tabu_search
from optimizer.search.tabu import TABU_STEPS_PER_SECOND
from optimizer.seats import is_repeat_free


def build(player_count: int, time_limit: float, seed: int) -> tuple[int, Start] | None:
    """The most rounds reached and how, trying each round count from the counting limit down."""
    for rounds in range((player_count - 1) // 3, 0, -1):
        made = (
            from_affine(player_count, rounds)
            or from_speeds(player_count, rounds)
            or from_doubling(player_count, rounds, seed=seed)
            or _doubled_design(player_count, rounds, seed)
            or _turned(player_count, rounds, seed, time_limit)
        )
        if made is None:
            made = rotational_seating(player_count, rounds, Budget.of(time_limit), seed=seed)
        if made is not None and is_repeat_free(made.seats, player_count, rounds):
            return rounds, made
    return None


def _doubled_design(player_count: int, rounds: int, seed: int) -> Start | None:
    """The signed doubling of two designs of n = player_count / 2 (optimizer.constructions.doubling): the
    whole day of (player_count - 2) / 3 rounds, or nothing."""
    n = player_count // 2
    if player_count % 2 or n % 12 != 4 or rounds != (player_count - 2) // 3:
        return None
    design = instant_seating(n, (n - 1) // 3)
    seats = None if design is None else doubled_design_seating(design.seats, seed=seed)
    return (
        None if seats is None else Start.built(seats, f"signed doubling of two resolvable designs of {n}, seed {seed}")
    )


def _turned(player_count: int, rounds: int, seed: int, time_limit: float) -> Start | None:
    """A resolvable design over Z_q with its classes turned (optimizer.constructions.turned), whose
    doubling the stored designs' tables of two and two classes forbid: the whole day of q rounds, or nothing."""
    q, rest = divmod(player_count - 1, 3)
    if rest or q % 4 != 1 or rounds != q:
        return None
    reps = search_representatives(q, seed, time_limit)
    return None if reps is None else Start.built(turned_design(q, reps), f"turned design over Z_{q}, seed {seed}")


def build_odd(player_count: int, rounds: int, odd: OddPolicy, steps: int, seeds: int) -> Start | None:
    """A repeat-free day with fair turns from the first seed whose tabu search reaches one."""
    event = Event.with_count(player_count, rounds, odd=odd)
    costs = Costs.of(event)
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        seats = tabu_search(
            greedy_seating(event, costs, rng), costs, Budget.of(steps / TABU_STEPS_PER_SECOND, repeatable=True), rng
        )
        if fair_and_repeat_free(seats, player_count, odd):
            return Start.built(seats, f"tabu search from a greedy start, seed {seed}")
    return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m optimizer.constructions.library", description=__doc__)
    parser.add_argument("--players", dest="player_count", type=int, nargs="*")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per round count tried")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--odd", type=OddPolicy, help="regenerate rooms seated this way (with --rounds)")
    parser.add_argument("--rounds", type=int, help="rounds of an odd room's day (default: the stored day's)")
    parser.add_argument("--steps", type=int, default=200_000, help="tabu steps per seed in an odd room")
    parser.add_argument("--seeds", type=int, default=8, help="seeds tried in an odd room")
    args = parser.parse_args(argv)
    stored = [players for players, odd in library.stored_rooms() if odd == args.odd]
    for player_count in args.player_count or stored:
        start = time.monotonic()
        found = _odd(player_count, args) if args.odd else build(player_count, args.time_limit, args.seed)
        took = time.monotonic() - start
        if found is None:
            print(f"{player_count:4d} players: nothing found ({took:.1f} s)", flush=True)
            continue
        rounds, made = found
        method = str(made.made)
        library.save(Entry(player_count, rounds, method, made.seats, args.odd))
        print(f"{player_count:4d} players: {rounds:2d} rounds, {method} ({took:.1f} s)", flush=True)


def _odd(player_count: int, args: argparse.Namespace) -> tuple[int, Start] | None:
    entry = library.load(player_count, args.odd)
    rounds = args.rounds or (entry.rounds if entry else None)
    if rounds is None:
        raise SystemExit(f"{player_count} players: no stored day, so --rounds is needed")
    made = build_odd(player_count, rounds, args.odd, args.steps, args.seeds)
    return None if made is None else (rounds, made)


if __name__ == "__main__":
    main()
