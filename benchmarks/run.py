"""One command: seat every room of the grid, the zero-repeat frontier and the rooms past it; write
benchmarks/results/ (results.json, results.md, PNG plots).

    python -m benchmarks.run --quick            # a representative subset, a few minutes
    python -m benchmarks.run --full             # the whole grid, 60 s per room
    python -m benchmarks.run --quick --time-limit 2 --out /tmp/bench

Each room is planned in a fresh spawned interpreter (so peak memory is the room's own), with the warm
start and again without it. Every schedule passes optimizer.check inside the runner; a room whose
schedule fails is recorded and the run exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import grid, machine, measure

RESULTS = Path(__file__).resolve().parent / "results"
REPO = Path(__file__).resolve().parent.parent


def extract(revision: str, parts: tuple[str, ...] = ("optimizer", "models")) -> tuple[str, Path]:
    """optimizer/ and models/ (or `parts`) as committed at a git revision, extracted with `git archive` into
    a new temporary folder: (a label naming the commit, the folder). Nothing is put on sys.path here."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{revision}^{{commit}}"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="rotation-bench-"))
    archive = subprocess.run(["git", "archive", commit, *parts], cwd=REPO, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return f"git {revision} {commit[:10]}", folder


def snapshot(code: str) -> dict:
    """Measure committed code: extract optimizer/ and models/ at HEAD into a temporary folder and put it
    first on sys.path (spawned children inherit it), so edits in progress in the working tree cannot
    change or break a long run halfway. `--code worktree` measures the working tree as it is instead."""
    if code == "worktree":
        return {"code": "working tree", "path": str(REPO)}
    label, folder = extract("HEAD")
    sys.path.insert(0, str(folder))
    return {"code": label, "path": str(folder)}


def _say(text: str) -> None:
    print(text, flush=True)


def _guard(time_limit: float) -> float:
    """How long a child may take before it is stopped: the limit, the fixed work around it, imports."""
    return 3 * time_limit + 120


def plan_room(room: grid.Room, settings: grid.Settings, warm_start: bool, repeats: int) -> dict:
    kwargs = dict(
        players=room.players,
        rounds=room.rounds,
        odd=room.odd,
        time_limit=settings.time_limit,
        seed=settings.seed,
        workers=settings.workers,
        warm_start=warm_start,
        repeats=repeats,
        repeat_below=settings.repeat_below,
    )
    measured = measure.in_fresh_process(measure.plan_room, kwargs, _guard(settings.time_limit))
    return {**measured, "summary": measure.summarise(measured)}


def run_grid(settings: grid.Settings, rooms, save, rows: list[dict]) -> list[dict]:
    total = len(settings.grid) + len(settings.extra)
    for room in rooms:
        index = len(rows) + 1
        warm = plan_room(room, settings, warm_start=True, repeats=settings.repeats)
        cold = plan_room(room, settings, warm_start=False, repeats=1) if settings.cold(room) else None
        row = {"room": room.as_dict(), "key": room.key, "warm": warm, "cold": cold}
        rows.append(row)
        w = warm.get("summary") or {}
        c = (cold or {}).get("summary") or {}
        _say(
            f"[{index}/{total}] {room.key:>20}: fixed {warm.get('fixed_repeats')} "
            f"variety {w.get('repeats')} bound {w.get('bound')} {w.get('status')} "
            f"{w.get('runtime') or 0:.2f}s x{w.get('timing_runs')} {w.get('peak_mib') or 0:.0f}MiB"
            + (f" | cold {c.get('repeats')} {c.get('runtime') or 0:.2f}s" if cold else "")
            + (" ERROR" if "error" in warm or (cold and "error" in cold) else "")
        )
        save()
    return rows


def run_frontier(settings: grid.Settings, save, rows: list[dict]) -> list[dict]:
    """For each size, the most rounds with a zero-repeat schedule the tool finds. Rounds above the
    counting limit floor((N-1)/3) are impossible. Walk down from the limit with quick probes
    (constructions answer at once) until one exists, then walk up from there with the full per-room
    limit until the tool says anything other than 'exists'."""
    quick_probe = min(5.0, settings.frontier_time_limit)
    for players in settings.frontier_sizes:
        limit = (players - 1) // 3
        attempts: list[dict] = []
        started = time.monotonic()

        def ask(rounds, time_limit, players=players, attempts=attempts):
            """One probe in a fresh process, recorded in attempts; players and attempts bound per size."""
            kwargs = dict(
                players=players, rounds=rounds, time_limit=time_limit, seed=settings.seed, workers=settings.workers
            )
            answer = measure.in_fresh_process(measure.verdict_room, kwargs, _guard(time_limit))
            attempts.append({"rounds": rounds, "time_limit": time_limit, **answer})
            return answer.get("answer")

        found = None
        for rounds in range(limit, 0, -1):
            if ask(rounds, quick_probe) == "exists":
                found = rounds
                break
        if found is not None and settings.frontier_time_limit > quick_probe:
            for rounds in range(found + 1, limit + 1):
                if any(a["rounds"] == rounds and a.get("answer") == "impossible" for a in attempts):
                    break  # proven: no need to ask again
                if ask(rounds, settings.frontier_time_limit) != "exists":
                    break
                found = rounds
        best = next((a for a in attempts if a["rounds"] == found and a.get("answer") == "exists"), None)
        row = {
            "players": players,
            "counting_limit": limit,
            "literature": grid.LITERATURE_FRONTIER.get(players),
            "reached": found,
            "time_at_reached": best["runtime"] if best else None,
            "how": best["reason"] if best else None,
            "search_wall": time.monotonic() - started,
            "attempts": attempts,
        }
        rows.append(row)
        _say(
            f"frontier {players}: reached {found} (literature {row['literature']}, limit {limit}) "
            f"{row['time_at_reached'] or 0:.2f}s, search {row['search_wall']:.0f}s; "
            + ", ".join(f"{a['rounds']}:{a.get('answer', 'error')}" for a in attempts)
        )
        save()
    return rows


def run_past_frontier(settings: grid.Settings, grid_rows: list[dict], save, rows: list[dict]) -> list[dict]:
    """Rooms past the frontier, taken from the grid when the grid has them, measured here otherwise."""
    by_key = {row["key"]: row for row in grid_rows}
    for players, rounds, target, kind in settings.past_frontier:
        room = grid.Room(players, rounds)
        source = "grid"
        measured = (by_key.get(room.key) or {}).get("warm")
        if measured is None:
            measured, source = plan_room(room, settings, warm_start=True, repeats=settings.repeats), "own run"
        s = measured.get("summary") or {}
        meets = s.get("repeats") is not None and s["repeats"] <= target
        rows.append(
            {
                "key": room.key,
                "players": players,
                "rounds": rounds,
                "target": target,
                "target_kind": kind,
                "source": source,
                "measured": measured,
                "meets_target": meets,
            }
        )
        _say(
            f"past frontier {room.key}: E {s.get('repeats')} (target {kind} {target}) bound {s.get('bound')} "
            f"{s.get('status')} {s.get('runtime') or 0:.2f}s"
        )
        save()
    return rows


def save_json(path: Path, data: dict) -> None:
    """Rewrite a results file whole: a run stopped halfway still leaves a readable file."""
    path.with_suffix(".tmp").write_text(json.dumps(data, indent=1), encoding="utf-8")
    path.with_suffix(".tmp").replace(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.split("\n\n")[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="a representative subset, a few minutes (default)")
    size.add_argument("--full", action="store_true", help="the whole grid, 60 s per room")
    parser.add_argument("--time-limit", type=float, help="seconds per room (default 5 quick, 60 full)")
    parser.add_argument("--out", type=Path, default=RESULTS, help=f"output folder (default {RESULTS})")
    parser.add_argument("--workers", type=int, default=8, help="CP-SAT workers, as plan() defaults to (8)")
    parser.add_argument(
        "--code",
        choices=["head", "worktree"],
        default="head",
        help="measure optimizer/ and models/ as committed at HEAD (default) or the working tree",
    )
    parser.add_argument(
        "--only",
        choices=["grid", "frontier", "past"],
        action="append",
        help="run only these parts (repeatable); the default runs all three",
    )
    parser.add_argument(
        "--report-only",
        type=Path,
        metavar="RESULTS_JSON",
        help="only rewrite results.md and the plots from a results.json (also a partial one)",
    )
    args = parser.parse_args(argv)
    if args.report_only:
        data = json.loads(args.report_only.read_text(encoding="utf-8"))
        return _write_report(data, args.out)

    settings = (grid.full if args.full else grid.quick)(args.time_limit, workers=args.workers)
    parts = set(args.only or ["grid", "frontier", "past"])
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    code = snapshot(args.code)
    data = {
        "machine": {**machine.describe(), "code": code["code"]},
        "settings": settings.describe(),
        "complete": False,
        "grid": [],
        "frontier": [],
        "past_frontier": [],
    }

    def save() -> None:
        data["wall_seconds"] = time.monotonic() - started
        save_json(out / "results.json", data)

    _say(f"measuring {code['code']} ({code['path']})")
    _say(
        f"{settings.name} run: {len(settings.grid) + len(settings.extra)} rooms, {settings.time_limit:g} s per room, "
        f"{settings.workers} CP-SAT workers, output in {out}"
    )
    if "grid" in parts:
        run_grid(settings, settings.grid, save, data["grid"])
    if "frontier" in parts:
        run_frontier(settings, save, data["frontier"])
    if "grid" in parts:
        run_grid(settings, settings.extra, save, data["grid"])
    if "past" in parts:
        run_past_frontier(settings, data["grid"], save, data["past_frontier"])
    data["complete"] = True
    save()
    return _write_report(data, out)


def _write_report(data: dict, out: Path) -> int:
    from benchmarks import plots, report

    out.mkdir(parents=True, exist_ok=True)
    (out / "results.md").write_text(report.markdown(data), encoding="utf-8")
    for path in plots.draw(data, out):
        _say(f"wrote {path}")
    _say(f"wrote {out / 'results.md'}; the whole run took {data.get('wall_seconds', 0):.0f} s")
    failures = report.failures(data)
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
