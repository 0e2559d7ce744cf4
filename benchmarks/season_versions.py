"""The league season of benchmarks.season, side by side on two or more source trees: figures and CPU a night.

`python -m benchmarks.season_versions --tree before=/tmp/before --tree after=. [--seeds 44 45 46]
[--half-life 4 inf] [--out DIR]` runs, for each league (seed) and half-life, the season method of each
tree in turn, one fresh process each with PYTHONPATH at that tree (so that the tree's own optimizer and
benchmarks.season are measured), and writes season_versions.md and season_versions.json. Per run: the
season's figures (benchmarks.season.season_figures) and the CPU seconds a night (time.process_time, mean
over the nights) of the night's plan and of its descent (optimizer.season.night._spread: the descent, the
seat letters and the check). Every run is repeatable (one worker, work counted): its figures do not
depend on the load, its CPU seconds little (a wall-clock second on a shared machine would)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.machine import describe

FIGURES = (
    "repeats",
    "met_the_week_before",
    "most_meetings",
    "pairs_above_even",
    "pairs_never_met",
    "squared_pair_counts",
    "seat_spread",
    "three_handed_spread",
)
HEADS = ("repeats", "again", "most", "above even", "never met", "squares", "seats", "3-handed")


def one_run(seed: int, half_life: float) -> dict:
    """The season method of the tree on PYTHONPATH on one league: its figures and CPU a night."""
    import optimizer.season.night as night
    from benchmarks import season

    cpu = {"plan": 0.0, "descent": 0.0}

    def timed(part: str, function):
        def run(*args, **kwargs):
            started = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                cpu[part] += time.process_time() - started

        return run

    night.plan, night._spread = timed("plan", night.plan), timed("descent", night._spread)
    weeks, members = season.attendance(12, 40, seed), season.member_names(40)
    nights, _ = season.run_method("season", weeks, members, 4, 2.0, seed, half_life=half_life, level_share=0.5)
    figures = season.season_figures(nights, members)
    return {
        "figures": [figures[name] for name in FIGURES],
        "plan_cpu": round(cpu["plan"] / len(nights), 4),
        "descent_cpu": round(cpu["descent"] / len(nights), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", required=True, help="label=path of a source tree")
    parser.add_argument("--seeds", type=int, nargs="+", default=[44, 45, 46])
    parser.add_argument("--half-life", type=float, nargs="+", default=[4.0, float("inf")])
    parser.add_argument("--out", default="benchmarks/results")
    parser.add_argument("--one", nargs=2, type=float, help=argparse.SUPPRESS)  # a child: seed, half-life
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_run(int(args.one[0]), args.one[1])))
        return
    trees = dict(tree.split("=", 1) for tree in args.tree)
    runs = []
    for seed in args.seeds:
        for half_life in args.half_life:
            for label, path in trees.items():
                root = Path(path).resolve()
                child = [
                    sys.executable,
                    str(Path(__file__).resolve()),
                    "--tree",
                    "x=.",
                    "--one",
                    str(seed),
                    str(half_life),
                ]
                out = subprocess.run(
                    child,
                    cwd=root,
                    env={**os.environ, "PYTHONPATH": str(root)},
                    capture_output=True,
                    text=True,
                    check=True,
                )
                run = {"tree": label, "seed": seed, "half_life": half_life, **json.loads(out.stdout.splitlines()[-1])}
                print(json.dumps(run), flush=True)
                runs.append(run)
    report = {"machine": describe(), "trees": trees, "runs": runs}
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "season_versions.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (out_dir / "season_versions.md").write_text(_markdown(report), encoding="utf-8")
    print(f"wrote {out_dir / 'season_versions.md'} and {out_dir / 'season_versions.json'}")


def _markdown(report: dict) -> str:
    trees = list(report["trees"])
    lines = [
        f"# The league season on {', '.join(trees)} side by side",
        "",
        f"Trees: {report['trees']}. Machine: {report['machine']}.",
        "",
        "| tree | seed | half-life | " + " | ".join(HEADS) + " | plan CPU s a night | descent CPU s a night |",
        "| --- | ---: | ---: | " + "---: | " * len(HEADS) + "---: | ---: |",
    ]
    for run in report["runs"]:
        cells = [
            run["tree"],
            run["seed"],
            f"{run['half_life']:g}",
            *run["figures"],
            run["plan_cpu"],
            run["descent_cpu"],
        ]
        lines.append("| " + " | ".join(str(cell) for cell in cells) + " |")
    lines += ["", "Mean CPU seconds a night over every run (plan, descent):", ""]
    for tree in trees:
        mine = [run for run in report["runs"] if run["tree"] == tree]
        plan = sum(run["plan_cpu"] for run in mine) / len(mine)
        descent = sum(run["descent_cpu"] for run in mine) / len(mine)
        lines.append(f"- {tree}: {plan:.3f}, {descent:.3f}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
