"""Seat letters in the odd rooms: how many three-handed rooms reach the seat spread their turns allow.

`python -m benchmarks.odd_seats [--time-limit S] [--out DIR]` plans every count that is not a multiple
of four, 9 to 63 players over 2 to 8 rounds, under `--odd three-handed` (under `--odd sit-out` every
table has four seats and the equitable colouring gives a spread of at most 1 by construction), checks
each schedule, and compares its seat spread with the most that can be asked of its seating: 1, or 2 where
`forced_seat_spread` proves that seat D cannot go round (optimizer.balance.seats). Writes odd_seats.json
and odd_seats.md: every room above what its seating allows is named.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

import optimizer
from benchmarks.machine import describe
from benchmarks.odd_counts import COUNTS, ROUNDS
from models import Event, OddPolicy, Schedule
from optimizer.balance import forced_seat_spread


def seats_of(schedule: Schedule) -> np.ndarray:
    """rounds x tables x 4 player indices, -1 for the empty seat D of a table of three."""
    index = {name: i for i, name in enumerate(schedule.players)}
    tables = max(len(round_.tables) for round_ in schedule.rounds)
    seats = np.full((len(schedule.rounds), tables, 4), -1, np.int64)
    for r, round_ in enumerate(schedule.rounds):
        for t, table in enumerate(round_.tables):
            seats[r, t, : len(table.players)] = [index[name] for name in table.players]
    return seats


def measure(players: int, rounds: int, time_limit: float) -> dict:
    result = optimizer.plan(Event.with_count(players, rounds, odd=OddPolicy.THREE_HANDED), time_limit=time_limit)
    assert result.schedule is not None, f"{players} x {rounds}: no schedule"
    spread = optimizer.check(result.schedule).seat_spread
    allowed = max(1, forced_seat_spread(seats_of(result.schedule), players))
    return {"players": players, "rounds": rounds, "seat_spread": spread, "allowed": allowed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--out", default="benchmarks/results")
    args = parser.parse_args(argv)
    rows = [measure(n, r, args.time_limit) for n in COUNTS for r in ROUNDS]
    above = [row for row in rows if row["seat_spread"] > row["allowed"]]
    forced = [row for row in rows if row["allowed"] == 2]
    machine = describe()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "odd_seats.json").write_text(json.dumps({"machine": machine, "rows": rows}, indent=1))
    lines = [
        "# Seat letters in the three-handed odd rooms",
        "",
        f"`python -m benchmarks.odd_seats --time-limit {args.time_limit:g}`, {machine.get('cpu', '?')}, "
        f"commit {machine.get('commit', '?')}, {machine.get('date', '')}, load {machine.get('load', '?')} at the end.",
        "",
        f"- Rooms: {len(rows)} (every count 9-63 not a multiple of four, 2-8 rounds, `--odd three-handed`).",
        f"- At the spread their seating allows: {len(rows) - len(above)} of {len(rows)}.",
        f"- Allowed 2, proven (seat D cannot go round, `forced_seat_spread`): {len(forced)} rooms.",
        f"- Above what the seating allows: {len(above)}"
        + (": " + ", ".join(f"{r['players']} x {r['rounds']} ({r['seat_spread']})" for r in above) if above else "."),
        "",
    ]
    (out / "odd_seats.md").write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
