"""What a day's groups allow the table numbers (issue 29): plan a room as bench-balance does, then
number that day exactly (optimizer.balance.exact_numbers, CP-SAT over all rounds).

    python -m benchmarks.tables_exact                       # the rooms still above the published figure
    python -m benchmarks.tables_exact --rooms 16x6,20x9 --seconds 20

Per room: the plan's table visits above even; 'can these groups reach the published figure?' (a
decision, proven yes with a numbering, proven no, or unknown within `--seconds`); and the fewest visits
found by minimising from the plan's numbering, with CP-SAT's lower bound for the groups. Writes
tables_exact.json and tables_exact.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from benchmarks import balance, machine, measure, run
from optimizer.seats import from_schedule

ROOMS = "16x6,20x8,20x9,20x10,24x9,32x8"


def measure_room(players: int, rounds: int, args) -> dict:
    from models import Schedule
    from optimizer.balance import table_visits_above_even
    from optimizer.balance.exact_numbers import fewest_table_visits
    from optimizer.budget import Budget

    kwargs = dict(players=players, rounds=rounds, odd="three-handed", time_limit=args.time_limit, seed=0, workers=2)
    raw = measure.in_fresh_process(measure.plan_schedule, kwargs, run._guard(args.time_limit))
    if "error" in raw or raw.get("schedule") is None:
        return {"error": raw.get("error", "no schedule")}
    seats = from_schedule(Schedule.model_validate_json(raw["schedule"]))
    published = balance.PUBLISHED_TARGETS[(players, rounds)]["table_visits_above_even"]
    reach = fewest_table_visits(seats, at_most=published, budget=Budget.of(args.seconds))
    least = fewest_table_visits(seats, budget=Budget.of(args.seconds))
    return {
        "repeats": raw["repeats"],
        "planned": table_visits_above_even(seats),
        "published": published,
        "reach": "yes" if reach.seats is not None else ("no" if reach.proven else "unknown"),
        "reach_seconds": args.seconds,
        "fewest": least.figure,
        "bound": max(least.bound, reach.bound),
        "proven": least.proven,
        "load": os.getloadavg()[0],  # the 1-minute load as the room's questions end
    }


def markdown(data: dict) -> str:
    m = data["machine"]
    lines = [
        "# What the day's groups allow the table numbers (issue 29)\n",
        f"{m['date']}; git {m['commit']}; {m['cpu']}, {m['usable_cores']} cores (shared with other developers' "
        f"jobs); OR-Tools {m['ortools']}. Each room planned as bench-balance does ({data['time_limit']:g} s, "
        f"2 CP-SAT workers, seed 0), then its day numbered by CP-SAT over all rounds (2 workers, "
        f"{data['seconds']:g} s for each question). Regenerate with `python -m benchmarks.tables_exact`.\n",
        "| room | E | planned | published | groups reach published? | fewest found | bound for the groups "
        "| load after |",
        "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |",
    ]
    for key, row in data["rooms"].items():
        if "error" in row:
            lines.append(f"| {key} | error: {row['error'].strip().splitlines()[-1]} | | | | | | |")
            continue
        fewest = f"{row['fewest']}{' (optimal)' if row['proven'] else ''}" if row["fewest"] is not None else "-"
        lines.append(
            f"| {key} | {row['repeats']} | {row['planned']} | {row['published']} | {row['reach']} | {fewest} "
            f"| {row['bound']} | {row['load']:.1f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tables_exact", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=balance.parse_rooms, default=balance.parse_rooms(ROOMS), metavar="NxR,...")
    parser.add_argument("--time-limit", type=float, default=5.0, help="the plan's seconds (default 5)")
    parser.add_argument("--seconds", type=float, default=20.0, help="CP-SAT's seconds per question (default 20)")
    parser.add_argument("--out", type=Path, default=run.RESULTS)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    data = {"machine": machine.describe(), "time_limit": args.time_limit, "seconds": args.seconds, "rooms": {}}
    for players, rounds in args.rooms:
        data["rooms"][f"{players}x{rounds}"] = row = measure_room(players, rounds, args)
        print(f"{players}x{rounds}: {row}", flush=True)
        run.save_json(args.out / "tables_exact.json", data)
    (args.out / "tables_exact.md").write_text(markdown(data), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
