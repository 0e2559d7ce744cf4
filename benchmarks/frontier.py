"""`make bench-frontier` (`python -m benchmarks.frontier --plan`): for every multiple of four from 16 to 400,
the most repeat-free rounds built at once (optimizer.constructions.frontier_rounds), the theorem's value
floor((v - 1) / 3) and what the literature says (optimizer.constructions.theorems), the seconds `exists` takes
at the built rounds (capped at the day's 100) on one worker, and, with --plan, a plan of those rounds at
--time-limit on one worker, each in its own process ended at --kill seconds, with whether seats (seat spread
<= 1) and tables (no visit above even) came out balanced. Writes benchmarks/results/frontier.{json,md}, with
the machine and its load before and after. With --every, each room is planned at every number of rounds from
1 to the built rounds instead (a prefix of the design each time), and the summary per room is the slowest and
median plan, the most repeats and the round counts whose seats and tables came out balanced.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.machine import describe
from models import Event
from optimizer.constructions import frontier_rounds
from optimizer.constructions.theorems import design_theorem
from optimizer.proof.verdict import zero_repeat_verdict

RESULTS = Path(__file__).parent / "results"
MAX_ROUNDS = 100  # models.Event's limit on a day


def _plan(players: int, rounds: int, time_limit: float, out) -> None:
    from optimizer.plan import plan

    result = plan(Event.with_count(players, rounds), time_limit=time_limit, workers=1)
    metrics = result.metrics
    assert metrics is not None  # a plan of a room of fours always returns a checked schedule
    out.send((metrics.repeats, metrics.seat_spread <= 1, metrics.table_visits_above_even == 0))


def measure_plan(players: int, rounds: int, time_limit: float, kill: float) -> dict:
    receive, send = multiprocessing.Pipe(duplex=False)
    process = multiprocessing.Process(target=_plan, args=(players, rounds, time_limit, send))
    start = time.monotonic()
    process.start()
    got = receive.poll(kill)
    seconds = time.monotonic() - start
    if not got:
        process.kill()
        process.join()
        return {"plan_seconds": round(seconds, 2), "plan": f"ended at {kill:g} s"}
    repeats, seats, tables = receive.recv()
    process.join()
    return {"plan_seconds": round(seconds, 2), "repeats": repeats, "seats_balanced": seats, "tables_balanced": tables}


def measure(players: int, args) -> dict:
    built = frontier_rounds(players)
    theorem = design_theorem(players)
    row: dict = {"players": players, "built": built, "bound": (players - 1) // 3}
    row["theorem"] = theorem.rounds if theorem else None
    rounds = min(built, MAX_ROUNDS)
    if rounds:
        start = time.monotonic()
        verdict = zero_repeat_verdict(Event.with_count(players, rounds), time_limit=args.time_limit, workers=1)
        row["exists_seconds"] = round(time.monotonic() - start, 2)
        row["exists"] = verdict.answer.value
        if args.plan:
            row.update(measure_plan(players, rounds, args.time_limit, args.kill))
    return row


def measure_every(players: int, args) -> dict:
    """Plans of 1, 2, ..., built rounds (capped at the day's 100), each in its own process."""
    rounds = min(frontier_rounds(players), MAX_ROUNDS)
    plans = [measure_plan(players, r, args.time_limit, args.kill) for r in range(1, rounds + 1)]
    seconds = sorted(p["plan_seconds"] for p in plans)
    return {
        "players": players,
        "rounds": rounds,
        "plan_seconds_max": seconds[-1],
        "plan_seconds_median": seconds[len(seconds) // 2],
        "repeats_max": max(p.get("repeats", -1) for p in plans),  # -1: every plan was ended at --kill
        "ended": sum("plan" in p for p in plans),
        "seats_balanced": sum(bool(p.get("seats_balanced")) for p in plans),
        "tables_balanced": sum(bool(p.get("tables_balanced")) for p in plans),
        "plans": plans,
    }


HEAD = ["players", "built", "floor((v-1)/3)", "theorem", "exists s", "plan s", "seats", "tables"]
EVERY_HEAD = ["players", "rounds planned", "slowest s", "median s", "most repeats", "ended at --kill"]
EVERY_HEAD += ["seats balanced", "tables balanced"]


def cells(r: dict) -> list:
    """A row of frontier.md."""
    plan = [r.get("plan_seconds", "-"), r.get("seats_balanced", r.get("plan", "-")), r.get("tables_balanced", "-")]
    return [r["players"], r["built"], r["bound"], r["theorem"] or "-", r.get("exists_seconds", "-"), *plan]


def every_cells(r: dict) -> list:
    """A row of the --every table."""
    seconds = [r["plan_seconds_max"], r["plan_seconds_median"]]
    counts = [f"{r['seats_balanced']} of {r['rounds']}", f"{r['tables_balanced']} of {r['rounds']}"]
    return [r["players"], f"1-{r['rounds']}", *seconds, r["repeats_max"], r["ended"], *counts]


def write(rows: list[dict], name: str, head: list[str], row: Callable[[dict], list], machine: dict) -> None:
    """benchmarks/results/<name>.json, and .md as the machine (its load before and after) and a table of
    `head` with one `row` a room."""
    text = json.dumps({"machine": machine, "rooms": rows}, indent=1)
    (RESULTS / f"{name}.json").write_text(text + "\n", encoding="utf-8")
    lines = ["| " + " | ".join(map(str, line)) + " |\n" for line in [head, *map(row, rows)]]
    lines.insert(1, "|" + "---|" * len(head) + "\n")
    about = ", ".join(f"{key}: {value}" for key, value in machine.items())
    (RESULTS / f"{name}.md").write_text(f"Machine: {about}.\n\n" + "".join(lines), encoding="utf-8")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.frontier", description=__doc__)
    parser.add_argument("--players", type=int, nargs="*", default=list(range(16, 401, 4)))
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--plan", action="store_true", help="also plan each room (slow past 100 players)")
    parser.add_argument("--kill", type=float, default=10.0, help="seconds before a plan's process is ended")
    parser.add_argument("--every", action="store_true", help="plan each room at every round count up to the built")
    parser.add_argument("--name", default="frontier")
    args = parser.parse_args(argv)
    machine = describe()  # its "load": before the run
    rows = []
    for players in args.players:
        rows.append(measure_every(players, args) if args.every else measure(players, args))
        print(json.dumps({k: v for k, v in rows[-1].items() if k != "plans"}), flush=True)
    machine["load after"] = [round(figure, 2) for figure in os.getloadavg()]
    write(rows, args.name, *((EVERY_HEAD, every_cells) if args.every else (HEAD, cells)), machine)


if __name__ == "__main__":
    main()
