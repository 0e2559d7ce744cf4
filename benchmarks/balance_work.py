"""The balancing stage's work at the frontier's rooms (issue 54): `plan --players P --rounds R --time-limit 1
--workers 1` for every R from 1 to the built rounds, the work the run charged (its work clock, which decides
what runs: the limit it should keep to), its wall time, the repeats and whether seats (spread <= 1) and tables
(no visit above even) came out balanced.

`python -m benchmarks.balance_work [--players 276 360] [--before TREE] [--name NAME]` runs each room in a
fresh interpreter per tree, all its round counts in one process (start-up not counted): with `--before TREE`
(`git archive COMMIT | tar -x -C TREE`) first with that tree on the path and then with this checkout, so the
before and the after are measured side by side in one run. Writes benchmarks/results/NAME.{json,md}.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

RESULTS = Path(__file__).parent / "results"
HERE = Path(__file__).resolve().parents[1]
MAX_ROUNDS = 100  # models.Event's limit on a day


def _room(players: int) -> list[dict]:
    """Every round count of the room, planned in this process."""
    from models import Event
    from optimizer.budget import Budget
    from optimizer.constructions import frontier_rounds
    from optimizer.plan import plan

    rows = []
    for rounds in range(1, min(frontier_rounds(players), MAX_ROUNDS) + 1):
        budget = Budget.for_run(1.0, workers=1)
        start = time.monotonic()
        metrics = plan(Event.with_count(players, rounds), workers=1, budget=budget).metrics
        assert metrics is not None  # a room of fours always gets a checked schedule
        rows.append(
            {
                "rounds": rounds,
                "work": round(budget.clock.now(), 3),
                "wall": round(time.monotonic() - start, 3),
                "repeats": metrics.repeats,
                "seats": metrics.seat_spread <= 1,
                "tables": metrics.table_visits_above_even == 0,
            }
        )
    return rows


def measure(players: int, tree: Path | None) -> list[dict]:
    """The room's rows from a fresh interpreter with `tree` (else this checkout) first on the path."""
    code = (  # this file's _room, the tree's optimizer (ahead of the checkout's editable install's finder)
        "import json, runpy, sys; "
        "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in getattr(f, '__module__', '')]; "
        f"sys.path.insert(0, {str(tree or HERE)!r}); import optimizer; "
        f"assert optimizer.__file__.startswith({str(tree or HERE)!r}), optimizer.__file__; "
        f"print(json.dumps(runpy.run_path({__file__!r})['_room']({players})))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=HERE, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def summary(rows: list[dict]) -> dict:
    work, wall = sorted(r["work"] for r in rows), sorted(r["wall"] for r in rows)
    return {
        "work_max": work[-1],
        "work_median": work[len(work) // 2],
        "over_limit": sum(w > 1.0 for w in work),
        "wall_max": wall[-1],
        "wall_median": wall[len(wall) // 2],
        "repeats_max": max(r["repeats"] for r in rows),
        "seats_balanced": sum(r["seats"] for r in rows),
        "tables_balanced": sum(r["tables"] for r in rows),
        "rounds": len(rows),
    }


HEAD = (
    "| players | tree | work max | work median | runs over 1 s of work | wall max s | wall median s "
    "| most repeats | seats balanced | tables balanced |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.balance_work", description=__doc__)
    parser.add_argument("--players", type=int, nargs="*", default=[276, 360])
    parser.add_argument("--before", type=Path, help="a source tree measured first, beside this checkout")
    parser.add_argument("--name", default="balance_work")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    results, lines = [], [HEAD]
    for players in args.players:
        for label, tree in ([("before", args.before)] if args.before else []) + [("after", None)]:
            rows = measure(players, tree)
            s = summary(rows)
            results.append({"players": players, "tree": label, **s, "plans": rows})
            n = s["rounds"]
            lines.append(
                f"| {players} | {label} | {s['work_max']} | {s['work_median']} | {s['over_limit']} of {n} "
                f"| {s['wall_max']} | {s['wall_median']} | {s['repeats_max']} | {s['seats_balanced']} of {n} "
                f"| {s['tables_balanced']} of {n} |"
            )
    head = (
        "# The balancing stage's work at the frontier's rooms: plan at 1 s of work on one worker, every round count"
        "\n\n"
        f"Load average {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end. Work: the run's work clock "
        f"(what decides what runs; the limit is 1.0). Wall: the plan alone, in a process already started.\n\n"
    )
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.name}.json").write_text(json.dumps(results, indent=1) + "\n")
    (RESULTS / f"{args.name}.md").write_text(head + "\n".join(lines) + "\n")
    print(head + "\n".join(lines))


if __name__ == "__main__":
    main()
