"""Every count that is not a multiple of four, from 9 to 63 players, 2 to 8 rounds, under both policies.

`python -m benchmarks.odd_counts [--time-limit S] [--open-time-limit S2] [--out DIR]` plans each room in
this process (short limits; the grid in benchmarks.run measures single rooms in fresh processes), checks
every schedule, and writes odd_counts.json and odd_counts.md: rooms at the bound, fair shares, and E
against the fixed rule on the same count and policy (marking where the fixed rule itself does not share
turns). With --open-time-limit, the rooms not proven optimal in the first pass are planned again with
that longer limit, keeping the better E and the higher bound of the two runs (a room proven optimal
in the first pass needs no more time): what the longer limit reaches, at a fraction of its cost.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import optimizer
from benchmarks.machine import describe
from models import Event, OddPolicy

COUNTS = [n for n in range(9, 64) if n % 4]
ROUNDS = range(2, 9)


def measure(players: int, rounds: int, odd: OddPolicy, time_limit: float) -> dict:
    event = Event.with_count(players, rounds, odd=odd)
    result = optimizer.plan(event, time_limit=time_limit, workers=2)
    assert result.schedule is not None, f"{players} players x {rounds} rounds: no schedule ({result.status.value})"
    metrics = optimizer.check(result.schedule)
    fixed = optimizer.check(optimizer.fixed_schedule(event))
    return {
        "players": players,
        "rounds": rounds,
        "odd": odd.value,
        "repeats": metrics.repeats,
        "bound": result.bound.repeats,
        "fixed": fixed.repeats,
        "fixed_fair": fixed.turns_fair,
        "fair": metrics.turns_fair,
        "runtime": round(result.runtime, 3),
    }


def report(rows: list[dict], settings: dict) -> str:
    lines = [f"# Odd counts: {len(rows)} rooms ({settings['counts']}, rounds 2-8, both policies)", ""]
    again = settings.get("open_time_limit")
    longer = f", then {again} s for each room not proven optimal" if again else ""
    lines.append(f"Time limit {settings['time_limit']} s per room{longer}, 2 CP-SAT workers; {settings['machine']}.")
    lines.append("")
    for odd in OddPolicy:
        part = [r for r in rows if r["odd"] == odd.value]
        worse = [r for r in part if r["repeats"] > r["fixed"]]
        zero_missed = [r for r in part if r["bound"] == 0 and r["repeats"] > 0]
        lines += [
            f"## {odd.value}",
            "",
            f"- rooms: {len(part)}; valid and checked: {len(part)}; fair shares held in {sum(r['fair'] for r in part)}",
            f"- at the lower bound (proven optimal): {sum(r['repeats'] == r['bound'] for r in part)}",
            f"- better than the fixed rule: {sum(r['repeats'] < r['fixed'] for r in part)}; equal: "
            f"{sum(r['repeats'] == r['fixed'] for r in part)}; worse: {len(worse)}"
            + (
                f" (all where the fixed rule does not share turns: {all(not r['fixed_fair'] for r in worse)})"
                if worse
                else ""
            ),
            f"- bound 0 but repeats left: {len(zero_missed)}"
            + (
                ": " + ", ".join(f"{r['players']}x{r['rounds']} (E {r['repeats']})" for r in zero_missed[:20])
                if zero_missed
                else ""
            ),
            f"- median time {statistics.median(r['runtime'] for r in part):.2f} s, worst "
            f"{max(r['runtime'] for r in part):.1f} s",
            "",
        ]
        if worse:
            lines.append(
                "Worse than the fixed rule: "
                + ", ".join(
                    f"{r['players']}x{r['rounds']} ({r['repeats']} vs {r['fixed']}{'' if r['fixed_fair'] else '*'})"
                    for r in worse
                )
            )
            lines.append("")
    lines.append("`*` the fixed rule does not take the tables of three in turn there.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=2.0)
    parser.add_argument("--open-time-limit", type=float, default=None, help="seconds for rooms left open")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = parser.parse_args(argv)
    started, rows = time.monotonic(), []
    for odd in OddPolicy:
        for players in COUNTS:
            for rounds in ROUNDS:
                rows.append(measure(players, rounds, odd, args.time_limit))
    if args.open_time_limit:
        rows = [_again(row, args.open_time_limit) for row in rows]
    settings = {"time_limit": args.time_limit, "counts": "9-63 not divisible by 4", "machine": _machine()}
    settings["open_time_limit"] = args.open_time_limit
    settings["wall_seconds"] = round(time.monotonic() - started)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "odd_counts.json").write_text(
        json.dumps({"settings": settings, "rooms": rows}, indent=1), encoding="utf-8"
    )
    (args.out / "odd_counts.md").write_text(report(rows, settings), encoding="utf-8")
    print(f"wrote {args.out / 'odd_counts.md'} in {settings['wall_seconds']} s")
    return 0


def _again(row: dict, time_limit: float) -> dict:
    """A room not proven optimal, planned again with the longer limit; the better E and bound are kept."""
    if row["repeats"] == row["bound"]:
        return row
    longer = measure(row["players"], row["rounds"], OddPolicy(row["odd"]), time_limit)
    print(
        f"{row['players']}x{row['rounds']} {row['odd']}: E {row['repeats']} -> {longer['repeats']}, "
        f"bound {row['bound']} -> {longer['bound']}",
        flush=True,
    )
    best = min(row, longer, key=lambda r: r["repeats"])
    return {**best, "bound": max(row["bound"], longer["bound"]), "runtime": row["runtime"] + longer["runtime"]}


def _machine() -> str:
    machine = describe()
    return f"{machine.get('cpu', '')}, {machine.get('cores', '')} cores, OR-Tools {machine.get('ortools', '')}"


if __name__ == "__main__":
    raise SystemExit(main())
