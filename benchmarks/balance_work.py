"""The balancing stage's work at the frontier's rooms (issue 54): `plan --players P --rounds R --time-limit 1
--workers 1` for every R from 1 to the built rounds, the work the run charged (its work clock, which decides
what runs: the limit it should keep to), its wall time, the repeats and whether seats (spread <= 1) and tables
(no visit above even) came out balanced.

`python -m benchmarks.balance_work [--players 276 360] [--before TREE] [--name NAME]` runs each room in a
fresh interpreter per tree, all its round counts in one process (start-up not counted): with `--before TREE`
(`git archive COMMIT | tar -x -C TREE`) first with that tree on the path and then with this checkout, so the
before and the after are measured side by side in one run. Writes benchmarks/results/NAME.{json,md}.

`python -m benchmarks.balance_work --sites 124x41 300x100 ... [--limit S] [--before TREE] [--name NAME]` weighs
the work clock against the CPU it stands for: each room planned at `--limit` seconds of work on one worker
(`plan --workers 1`, a fresh interpreter per room and tree), every step that charges work (SITES) wrapped to
count the CPU time spent inside it (process time, CP-SAT's thread included; a step's own, without the steps
it calls) beside the work charged while it ran. A work second should cost about a second of CPU, which is a
second of wall clock on a quiet machine: the ratio CPU / work of each step, at every size, is what the rates
of work (optimizer/budget.py, "A repeatable run") are set by. What no step charges (the constructions, the
schedule's assembly) shows as the plan's own CPU.
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


# The steps that charge a repeatable run's work (module, qualified name), and the plan around them.
SITES = (
    ("optimizer.plan", "plan"),
    ("optimizer.pipeline.state", "Incumbent.offer"),
    ("optimizer.search.reseat", "_descend"),
    ("optimizer.search.swaps", "tabu_walk"),
    ("optimizer.balance.polish", "polish"),
    ("optimizer.balance.polish", "regroup_for_tables"),
    ("optimizer.balance.tables", "_descend"),
    ("optimizer.balance.order", "order_rounds"),
    ("optimizer.balance.letters", "balance_letters"),
    ("optimizer.budget", "solve"),
)


def _sites(players: int, rounds: int, limit: float) -> dict:
    """The room planned at `limit` seconds of work on one worker, each site's own CPU and work charged."""
    import importlib

    from models import Event
    from optimizer.budget import Budget

    spent: dict[str, list[float]] = {}  # path of sites -> [own CPU, work charged while innermost]
    stack: list[list] = []  # [path, CPU at entry, CPU of the sites it called]

    def wrapped(name: str, inner):
        def site(*args, **kwargs):
            path = f"{stack[-1][0]} > {name}" if stack else name
            stack.append([path, time.process_time(), 0.0])
            try:
                return inner(*args, **kwargs)
            finally:
                path, began, called = stack.pop()
                took = time.process_time() - began
                spent.setdefault(path, [0.0, 0.0])[0] += took - called
                if stack:
                    stack[-1][2] += took

        return site

    for module_name, name in SITES:
        module = importlib.import_module(module_name)
        owner, _, attribute = name.rpartition(".")
        holder = getattr(module, owner) if owner else module
        inner = getattr(holder, attribute)
        setattr(holder, attribute, wrapped(f"{module_name.rsplit('.', 1)[-1]}.{name}", inner))
        for other in list(sys.modules.values()):  # the modules that imported it by name
            for key, value in list(getattr(other, "__dict__", {}).items()):
                if value is inner and other is not holder:
                    setattr(other, key, getattr(holder, attribute))
    charge = Budget.charge
    depth = [0]

    def charged(self: Budget, work: float) -> None:
        if depth[0] == 0 and stack:  # a sub-budget's charge passes it to its parent: counted once
            spent.setdefault(stack[-1][0], [0.0, 0.0])[1] += work
        depth[0] += 1
        try:
            charge(self, work)
        finally:
            depth[0] -= 1

    Budget.charge = charged  # type: ignore[method-assign]
    budget = Budget.for_run(limit, workers=1)
    started = time.process_time()
    plan = importlib.import_module("optimizer.plan").plan  # wrapped
    result = plan(Event.with_count(players, rounds), workers=1, budget=budget)
    return {
        "room": f"{players}x{rounds}",
        "work": round(budget.clock.now(), 3),
        "cpu": round(time.process_time() - started, 3),
        "repeats": None if result.metrics is None else result.metrics.repeats,
        "sites": {path: [round(cpu, 4), round(work, 4)] for path, (cpu, work) in sorted(spent.items())},
    }


def _in_fresh(call: str, tree: Path | None) -> object:
    """What `call` (an expression over this file's functions) returns, from a fresh interpreter with `tree`
    (else this checkout) first on the path."""
    code = (  # this file's functions, the tree's optimizer (ahead of the checkout's editable install's finder)
        "import json, runpy, sys; "
        "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in getattr(f, '__module__', '')]; "
        f"sys.path.insert(0, {str(tree or HERE)!r}); import optimizer; "
        f"assert optimizer.__file__.startswith({str(tree or HERE)!r}), optimizer.__file__; "
        f"here = runpy.run_path({__file__!r}); print(json.dumps(eval({call!r}, here)))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=HERE, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def measure(players: int, tree: Path | None) -> list[dict]:
    """The room's rows from a fresh interpreter with `tree` (else this checkout) first on the path."""
    rows = _in_fresh(f"_room({players})", tree)
    assert isinstance(rows, list)
    return rows


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
    parser.add_argument("--name", default="")
    parser.add_argument("--sites", nargs="*", metavar="PxR", help="rooms whose steps' CPU and work are weighed")
    parser.add_argument("--limit", type=float, default=1.0, help="--sites: the seconds of work of each plan")
    args = parser.parse_args()
    if args.sites:
        sites_main(args)
        return
    args.name = args.name or "balance_work"
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


def sites_main(args: argparse.Namespace) -> None:
    """Each room's steps, CPU beside work, before and after side by side (`--before`)."""
    load = os.getloadavg()[0]
    trees = ([("before", args.before)] if args.before else []) + [("after", None)]
    results, lines = [], []
    for room in args.sites:
        players, rounds = map(int, room.split("x"))
        for label, tree in trees:
            found = _in_fresh(f"_sites({players}, {rounds}, {args.limit})", tree)
            assert isinstance(found, dict)
            results.append({"tree": label, **found})
            total = found["cpu"] / found["work"] if found["work"] else float("inf")
            lines.append(
                f"| {room} | {label} | plan, in all | {found['work']} | {found['cpu']} | {total:.2f} "
                f"| {found['repeats']} |"
            )
            for path, (cpu, work) in found["sites"].items():
                ratio = f"{cpu / work:.2f}" if work else "-"
                lines.append(f"| | | {path} | {work} | {cpu} | {ratio} | |")
    head = (
        f"# A repeatable run's work against its CPU: plan at {args.limit:g} s of work on one worker\n\n"
        f"Load average {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end. Work: seconds charged to the "
        "run's work clock while the step ran (its own, not the steps it called); CPU: the step's own process time "
        "(s). A ratio of 1 is a work second costing a CPU second.\n\n"
        "| room | tree | step | work (s) | CPU (s) | CPU / work | repeats |\n|---|---|---|---:|---:|---:|---:|\n"
    )
    name = args.name or "work_clock"
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{name}.json").write_text(json.dumps({"load": load, "rows": results}, indent=1) + "\n")
    (RESULTS / f"{name}.md").write_text(head + "\n".join(lines) + "\n")
    print(head + "\n".join(lines))


if __name__ == "__main__":
    main()
