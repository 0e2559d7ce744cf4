"""Seat letters in the odd rooms: how many three-handed rooms reach the seat spread their turns allow.

`python -m benchmarks.odd_seats [--time-limit S] [--out DIR]` plans every count that is not a multiple
of four, 9 to 63 players over 2 to 8 rounds, under `--odd three-handed` (under `--odd sit-out` every
table has four seats and the equitable colouring gives a spread of at most 1 by construction), checks
each schedule, and compares its seat spread with the bound its seating gives: 1, or 2 where
`forced_seat_spread` proves that seat D cannot go round (optimizer.balance.letters). A room above it is
given to the exact letters model (optimizer.balance.exact_letters) to prove its fewest spread for those
tables. Writes odd_seats.json and odd_seats.md, naming every room above the bound.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

import optimizer
from benchmarks.machine import describe
from benchmarks.odd_counts import COUNTS, ROUNDS
from models import Event, OddPolicy
from optimizer.balance import forced_seat_spread
from optimizer.balance.exact_letters import exact_letters
from optimizer.balance.letters import _sat_at_four
from optimizer.budget import Budget
from optimizer.seats import from_schedule

PROOF_WORK = 20.0  # CP-SAT's deterministic seconds to prove a room's fewest spread for its tables


def measure(players: int, rounds: int, time_limit: float) -> dict:
    result = optimizer.plan(Event.with_count(players, rounds, odd=OddPolicy.THREE_HANDED), time_limit=time_limit)
    assert result.schedule is not None, f"{players} x {rounds}: no schedule"
    spread = optimizer.check(result.schedule).seat_spread
    seats = from_schedule(result.schedule)
    allowed = max(1, forced_seat_spread(seats, players))
    row = {"players": players, "rounds": rounds, "seat_spread": spread, "allowed": allowed, "proven": None}
    if spread > allowed:  # is the spread the fewest these tables allow? CP-SAT decides, given the time
        at_four = _sat_at_four(seats, players)
        found = exact_letters(
            seats, players, np.zeros((players, 4), np.int64), at_four, Budget.of(4 * PROOF_WORK), PROOF_WORK
        )
        row["proven"] = found[1] if found is not None and found[2] else None
    return row


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
    (out / "odd_seats.json").write_text(json.dumps({"machine": machine, "rows": rows}, indent=1), encoding="utf-8")
    lines = [
        "# Seat letters in the three-handed odd rooms",
        "",
        f"`python -m benchmarks.odd_seats --time-limit {args.time_limit:g}`, {machine.get('cpu', '?')}, "
        f"commit {machine.get('commit', '?')}, {machine.get('date', '')}, load {machine.get('load', '?')} at the end.",
        "",
        f"- Rooms: {len(rows)} (every count 9-63 not a multiple of four, 2-8 rounds, `--odd three-handed`).",
        f"- At the bound (1, or a proven 2): {len(rows) - len(above)} of {len(rows)}.",
        f"- Allowed 2, proven (seat D cannot go round, `forced_seat_spread`): {len(forced)} rooms.",
        f"- Above that bound: {len(above)}"
        + (": " + ", ".join(f"{r['players']} x {r['rounds']} ({r['seat_spread']})" for r in above) if above else "."),
        f"- Of those, proven by CP-SAT to be the fewest spread their tables allow (who sits three-handed when, "
        f"as planned; `exact_letters`, {PROOF_WORK:g} s of work): "
        f"{sum(r['proven'] == r['seat_spread'] for r in above)} of {len(above)}.",
        "",
    ]
    (out / "odd_seats.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
