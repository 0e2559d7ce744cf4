"""Every command at the room limits: wall time and peak memory beside its time limit.

`python -m benchmarks.limits [--out DIR] [--only "NAME;..."] [--rooms | --longer | --signals | --startup]
[--python PATH] [--before TREE] [--timeout S] [--runs N] [--name NAME]` runs each command
as the director would (`rotation ...` in a fresh process, one at a time; `--python` another checkout's
interpreter, for a before/after) and writes limits.md and limits.json: the wall time
(start-up, search, check and writing), the run's own clock where the command reports one ("Planned in"),
its CPU time and peak resident memory (from wait4), and the exit status. `--rooms` runs the large rooms of
issue 54 instead (plan and exists at 300 x 100, 1000 x 100, 124 x 41, 2000 x 8 and 112 x 37: at 1 s on the
wall clock (2 workers) and on one worker's work clock (repeatable), plan also at 5 s of work to show that
more time gives no worse a day, and both stopped by SIGTERM 3 s into a 10 s run): each should end within its
limit plus a second's tidy-up, in under 1 GB; a stopped one within a second of the signal. `--runs N` runs
each case N times and reports the medians (wall, CPU, after the signal, peak) beside every run's figures;
the repeats found are read from the report ("Repeats: N"). `--longer` runs plan at 1, 5 and 10 s side by
side (limits_longer.md: rooms whose answer still improves with time, on one worker's work clock and on the
wall clock), the cases in turn within each run, first on the machine as found and then beside two busy
processes that it starts and ends: more time should never give a worse day, and a repeatable run the same
day whatever the load. `--signals` sends SIGTERM and Ctrl-C (SIGINT) to plan and exists on the large rooms
at 0.3 to 3 s after the start (in start-up, the construction of the starts, the first check, the search):
each should end within a second of the signal (limits_signals.md). `--startup` runs commands whose own work is
a few milliseconds (`--help`, exists and plan on rooms the library answers, check of a small file), so that
their CPU time is the program's start-up (limits_startup.md). `--before TREE` runs each case with
that source tree first on the path (`git archive COMMIT | tar -x -C TREE`) and then with this checkout,
in turn, so that the before and the after are measured side by side in one run. The input files a command
reads are made first and not timed. The machine's load average is recorded before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.machine import describe

ROTATION = [sys.executable, "-m", "rotation"]  # --python: another checkout's interpreter, for a before/after


@dataclass(frozen=True)
class Case:
    name: str
    args: tuple[str, ...]
    time_limit: float | None  # None: the command has no time limit
    setup: tuple[tuple[str, ...], ...] = ()  # commands that make its input files, untimed
    terminate_after: float | None = None  # SIGTERM (or `stop_signal`) this many seconds after the start
    stop_signal: str = "SIGTERM"


def _apart_files(folder: Path) -> None:
    names = [f"P{i}" for i in range(1, 4001)]
    (folder / "names4k.txt").write_text("\n".join(names) + "\n", encoding="utf-8")
    (folder / "apart300.txt").write_text(
        "\n".join(", ".join(names[g * 10 : g * 10 + 10]) for g in range(300)) + "\n", encoding="utf-8"
    )


CASES = (
    Case("plan 300 x 100", ("plan", "--players", "300", "--rounds", "100", "--time-limit", "1", "-q"), 1),
    Case("plan 1000 x 100", ("plan", "--players", "1000", "--rounds", "100", "--time-limit", "5", "-q"), 5),
    Case("plan 5000 x 30", ("plan", "--players", "5000", "--rounds", "30", "--time-limit", "5", "-q"), 5),
    Case("plan 20000 x 10", ("plan", "--players", "20000", "--rounds", "10", "--time-limit", "5", "-q"), 5),
    Case(
        "plan 20000 x 50 --json",
        ("plan", "--players", "20000", "--rounds", "50", "--time-limit", "5", "--json", "p.json", "-q"),
        5,
    ),
    Case(
        "plan 20000 x 50, default limit",
        ("plan", "--players", "20000", "--rounds", "50", "--json", "p.json", "-q"),
        30,
    ),
    Case(
        "plan 4000 x 10 --apart (300 groups of 10)",
        ("plan", "--names", "names4k.txt", "--rounds", "10", "--apart", "apart300.txt", "-q"),
        30,
    ),
    Case("exists 20000 x 2", ("exists", "--players", "20000", "--rounds", "2", "--time-limit", "1"), 1),
    Case("compare 20000 x 2", ("compare", "--players", "20000", "--rounds", "2", "--time-limit", "1"), 1),
    Case(
        "check 8000 x 30",
        ("check", "f.json"),
        None,
        (("fixed", "--players", "8000", "--rounds", "30", "--json", "f.json", "-q"),),
    ),
    Case(
        "replan 20000 x 10 (round 3 played, one leaves)",
        ("replan", "r.json", "--played", "3", "--drop", "P00007", "--time-limit", "5", "--json", "rp.json", "-q"),
        5,
        (("plan", "--players", "20000", "--rounds", "10", "--time-limit", "5", "--json", "r.json", "-q"),),
    ),
    Case(
        "print 17000 x 10, one round of walls",
        ("print", "w.json", "--html", "w.html", "--rounds", "1", "--only", "walls"),
        None,
        (("fixed", "--players", "17000", "--rounds", "10", "--json", "w.json", "-q"),),
    ),
    Case(
        "print 17000 x 10, every part, --svg",
        ("print", "w.json", "--html", "w.html", "--svg", "w.svg"),
        None,
        (("fixed", "--players", "17000", "--rounds", "10", "--json", "w.json", "-q"),),
    ),
)


ROOMS = ((300, 100), (1000, 100), (124, 41), (2000, 8), (112, 37), (400, 100))
LONGER_ROOMS = ((300, 100), (100, 40))  # rooms whose answer still improves with time
LONGER_LIMITS = (1, 5, 10)
SIGNAL_ROOMS = ((300, 100), (1000, 100), (124, 41), (2000, 8))
# Seconds after the start: start-up (imports, about 0.4 s of CPU since limits_startup.md, 0.8 s before), the
# starts' construction and the first check, the search and the checks of its days.
SIGNAL_TIMES = (0.3, 0.8, 1.2, 1.6, 2.0, 3.0, 5.0)
BUSY = "while 1: pass"  # a process that keeps one core busy


def _room_cases() -> tuple[Case, ...]:
    """plan and exists on the large rooms: at 1 s on the wall clock and on one worker's work clock, plan
    at 5 s of work too, and each stopped by SIGTERM 3 s into a 10 s repeatable run."""
    cases = []
    for players, rounds in ROOMS:
        room = ("--players", str(players), "--rounds", str(rounds))
        for command in ("plan", "exists"):
            quiet = ("-q",) if command == "plan" else ()
            for limit, workers in ((1, "2"), (1, "1"), (5, "1")) if command == "plan" else ((1, "2"), (1, "1")):
                args = (command, *room, "--time-limit", str(limit), "--workers", workers, *quiet)
                clock = "wall clock, 2 workers" if workers == "2" else "work clock, 1 worker"
                cases.append(Case(f"{command} {players} x {rounds}, {limit} s, {clock}", args, limit))
            args = (command, *room, "--time-limit", "10", "--workers", "1", *quiet)
            cases.append(Case(f"{command} {players} x {rounds}, SIGTERM at 3 s", args, 10, terminate_after=3))
    return tuple(cases)


STARTUP_CASES = (
    Case("--help", ("--help",), None),
    Case("exists 16 x 5", ("exists", "--players", "16", "--rounds", "5", "--time-limit", "1"), 1),
    Case(
        "plan 16 x 5, 1 s, work clock, 1 worker",
        ("plan", "--players", "16", "--rounds", "5", "--time-limit", "1", "--workers", "1", "-q"),
        1,
    ),
    Case(
        "plan 124 x 41, 1 s, work clock, 1 worker",
        ("plan", "--players", "124", "--rounds", "41", "--time-limit", "1", "--workers", "1", "-q"),
        1,
    ),
    Case(
        "check 16 x 5",
        ("check", "s.json"),
        None,
        (("plan", "--players", "16", "--rounds", "5", "--time-limit", "1", "--json", "s.json", "-q"),),
    ),
)


def _longer_cases() -> tuple[Case, ...]:
    """plan at 1, 5 and 10 s on one worker's work clock (repeatable) and on the wall clock (2 workers)."""
    cases = []
    for players, rounds in LONGER_ROOMS:
        for workers, clock in (("1", "work clock, 1 worker"), ("2", "wall clock, 2 workers")):
            for limit in LONGER_LIMITS:
                room = ("--players", str(players), "--rounds", str(rounds))
                args = ("plan", *room, "--time-limit", str(limit), "--workers", workers, "-q")
                cases.append(Case(f"plan {players} x {rounds}, {limit} s, {clock}", args, limit))
    return tuple(cases)


def _signal_cases() -> tuple[Case, ...]:
    """plan and exists on the large rooms, a 10 s repeatable run stopped by SIGTERM and by Ctrl-C (SIGINT) at
    each of SIGNAL_TIMES: in start-up, in the construction of the starts and the first check, in the search."""
    cases = []
    for players, rounds in SIGNAL_ROOMS:
        room = ("--players", str(players), "--rounds", str(rounds))
        for command in ("plan", "exists"):
            quiet = ("-q",) if command == "plan" else ()
            args = (command, *room, "--time-limit", "10", "--workers", "1", *quiet)
            for name in ("SIGTERM", "SIGINT"):
                for at in SIGNAL_TIMES:
                    label = f"{command} {players} x {rounds}, {name} at {at:g} s"
                    cases.append(Case(label, args, 10, terminate_after=at, stop_signal=name))
    return tuple(cases)


def run_one(case: Case, folder: Path, timeout: float, tree: str | None = None) -> dict:
    """One run of `case`; with `tree`, the rotation of that source tree (first on the path: a before)."""
    env = None if tree is None else {**os.environ, "PYTHONPATH": tree}
    for setup in case.setup:
        subprocess.run([*ROTATION, *setup], cwd=folder, check=True, capture_output=True, env=env)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        child = subprocess.Popen([*ROTATION, *case.args], cwd=folder, stdout=out, stderr=err, env=env)
        stop = threading.Timer(timeout, child.kill)  # a run far past its limit is cut short, and says so
        stop.start()
        signalled: list[float] = []

        def terminate() -> None:
            signalled.append(time.monotonic())
            child.send_signal(getattr(signal, case.stop_signal))

        term = threading.Timer(case.terminate_after or 0.0, terminate)
        if case.terminate_after is not None:
            term.start()
        _, status, usage = os.wait4(child.pid, 0)  # this child's own peak memory, not the largest so far
        wall = time.monotonic() - started
        stop.cancel()
        term.cancel()
        child.returncode = code = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        said, complaint = out.read().decode(errors="replace"), err.read().decode(errors="replace").strip()
    planned = re.search(r"Planned in ([0-9.]+) s", said)
    repeats = re.search(r"^Repeats: ([0-9]+)", said, re.MULTILINE)
    return {
        "name": case.name,
        "command": "rotation " + " ".join(case.args),
        "time_limit": case.time_limit,
        "wall_seconds": round(wall, 2),
        "run_seconds": float(planned.group(1)) if planned else None,
        "repeats": int(repeats.group(1)) if repeats else None,
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2),
        "after_signal_seconds": round(started + wall - signalled[0], 2) if signalled else None,
        "peak_mib": round(usage.ru_maxrss / 1024, 1),
        "exit": code,
        "error": f"stopped after {timeout:g} s"
        if code == -9
        else complaint.splitlines()[-1]
        if code and complaint
        else "",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="benchmarks/results")
    parser.add_argument("--only", default="", help="case names separated by ; (default: all)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds before a command is stopped")
    parser.add_argument("--python", default=sys.executable, help="the interpreter whose rotation is measured")
    parser.add_argument("--rooms", action="store_true", help="the large rooms of issue 54 (limits_rooms.md)")
    parser.add_argument("--longer", action="store_true", help="1, 5 and 10 s side by side, quiet and busy")
    parser.add_argument("--signals", action="store_true", help="SIGTERM and Ctrl-C at every stage of the rooms")
    parser.add_argument("--startup", action="store_true", help="commands whose CPU is their start-up")
    parser.add_argument(
        "--before", metavar="TREE", help="a source tree of the version before: each case run with it, then without"
    )
    parser.add_argument("--runs", type=int, default=1, help="runs of each case; the medians are reported")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE.json", "AFTER.json"), help="write their side by side")
    parser.add_argument("--name", default="", help="the results' file name (default: limits or limits_rooms)")
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(Path(path).read_text(encoding="utf-8")) for path in args.compare)
        out = Path(args.out) / f"{args.name or 'limits_rooms_compare'}.md"
        out.write_text(side_by_side(before, after, *args.compare), encoding="utf-8")
        return
    ROTATION[0] = args.python
    # Ctrl-C reaches the commands as a terminal's would, even when this was started in the background (a
    # shell's `&` ignores SIGINT, the commands then keep it ignored): a handled signal is default after exec.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    cases = (
        _longer_cases()
        if args.longer
        else _signal_cases()
        if args.signals
        else _room_cases()
        if args.rooms
        else STARTUP_CASES
        if args.startup
        else CASES
    )
    chosen = [c for c in cases if not args.only or c.name in args.only.split(";")]
    load_before = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory(prefix="rotation-limits-") as tmp:
        folder = Path(tmp)
        _apart_files(folder)
        if args.longer:
            rows = [*measure_beside(chosen, folder, args, busy=0), *measure_beside(chosen, folder, args, busy=2)]
        for case in [] if args.longer else chosen:
            for version, tree in (("before", args.before), ("after", None)) if args.before else (("", None),):
                row = median_of([run_one(case, folder, args.timeout, tree) for _ in range(args.runs)])
                row["version"] = version
                print(json.dumps(row), flush=True)
                rows.append(row)
    record = {
        "machine": describe(),
        "python": args.python,
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "runs": args.runs,
        "before": args.before,
        "rows": rows,
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    kind = (
        "limits_longer"
        if args.longer
        else "limits_signals"
        if args.signals
        else "limits_rooms"
        if args.rooms
        else "limits_startup"
        if args.startup
        else "limits"
    )
    name = args.name or kind
    (out / f"{name}.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    text = longer_report(record) if args.longer else signals_report(record) if args.signals else report(record)
    if args.before and not args.signals:
        text = in_one_run(record)
    (out / f"{name}.md").write_text(text, encoding="utf-8")


def measure_beside(cases: list[Case], folder: Path, args: argparse.Namespace, busy: int) -> list[dict]:
    """Each case `args.runs` times, the cases taken in turn within each run (so that a change in the
    machine's load falls on all of them), beside `busy` processes that keep a core busy each (killed after)."""
    others = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(busy)]
    try:
        load = os.getloadavg()
        runs = [[run_one(case, folder, args.timeout) for case in cases] for _ in range(args.runs)]
        ended = os.getloadavg()
    finally:
        for other in others:
            other.kill()
            other.wait()
    rows = [median_of([run[i] for run in runs]) for i in range(len(cases))]
    for row in rows:
        row.update(busy=busy, load_at_start=load, load_at_end=ended)
        print(json.dumps(row), flush=True)
    return rows


def longer_report(record: dict) -> str:
    """Repeats at 1, 5 and 10 s side by side, each room and clock a line, quiet and beside busy processes."""
    m = record["machine"]
    lines = [
        "# More time never gives a worse day: plan at 1, 5 and 10 s side by side",
        "",
        f"Machine: {m.get('cpu')}, {m.get('cores_usable', m.get('cores'))} cores usable. Commit {m.get('commit')}, "
        f"{m.get('date')}. {record['runs']} runs of each case, the cases in turn within a run. 'Busy': two more "
        "processes `python -c 'while 1: pass'` beside every run. Repeats: each run's (the checker's count), in "
        "the order run; CPU and wall: medians (s), start-up, check and writing included. Load: the 1-minute load "
        "average as the phase began (busy processes show in it only after a minute) and as it ended.",
        "",
        "| room, clock | load | "
        + " | ".join(f"repeats at {t} s" for t in LONGER_LIMITS)
        + " | "
        + " | ".join(f"CPU / wall at {t} s" for t in LONGER_LIMITS)
        + " |",
        "|---|---|" + "---:|" * (2 * len(LONGER_LIMITS)),
    ]
    for busy in (0, 2):
        rows = [r for r in record["rows"] if r["busy"] == busy]
        for name in dict.fromkeys(r["name"].replace(f", {r['time_limit']:g} s", "") for r in rows):
            by_limit = {r["time_limit"]: r for r in rows if r["name"].replace(f", {r['time_limit']:g} s", "") == name}
            at = [by_limit[t] for t in LONGER_LIMITS]
            ended = at[0].get("load_at_end", [float("nan")])[0]
            load = f"{'busy' if busy else 'as found'} ({at[0]['load_at_start'][0]:.1f} -> {ended:.1f})"
            repeats = [", ".join(str(run["repeats"]) for run in r["runs"]) for r in at]
            times = [f"{r['cpu_seconds']:g} / {r['wall_seconds']:g}" for r in at]
            lines.append(f"| {name} | {load} | " + " | ".join(repeats + times) + " |")
    return "\n".join(lines) + "\n"


MEDIANS = ("wall_seconds", "run_seconds", "cpu_seconds", "after_signal_seconds", "peak_mib")


def median_of(runs: list[dict]) -> dict:
    """The first run's row with the medians of the figures over every run (and each run's, under "runs")."""
    row = dict(runs[0])
    for key in MEDIANS:
        values = [r[key] for r in runs if r[key] is not None]
        row[key] = round(statistics.median(values), 2) if values else None
    row["runs"] = [{key: r[key] for key in (*MEDIANS, "repeats", "exit")} for r in runs]
    row["repeats"] = max((r["repeats"] for r in runs if r["repeats"] is not None), default=None)
    row["exit"] = max((r["exit"] for r in runs), key=abs)
    row["error"] = next((r["error"] for r in runs if r["error"]), "")
    return row


def report(record: dict) -> str:
    m = record["machine"]
    load = ", ".join(f"{x:.2f}" for x in record["load_before"]) + " before; "
    load += ", ".join(f"{x:.2f}" for x in record["load_after"]) + " after"
    lines = [
        "# Every command at the room limits: time and memory beside the limit",
        "",
        f"Machine: {m.get('cpu')}, {m.get('cores_usable', m.get('cores'))} cores usable; load average (1, 5, 15 min): "
        f"{load}. Commit {m.get('commit')}, {m.get('date')}; measured: {record['python']}.",
        "",
        "Wall: the whole command in a fresh process (start-up, search, the checker, writing). Run: the planner's own",
        "clock ('Planned in'), from the start of the search to the schedule kept. CPU: user and system seconds.",
        "After signal: seconds from SIGTERM to the exit. Peak: the process's resident memory. Repeats: the",
        f"schedule's (the worst of the runs). Medians of {record.get('runs', 1)} runs each.",
        "",
        "| command | limit (s) | wall (s) | run (s) | CPU (s) | after signal (s) | peak (MiB) | repeats | exit |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in record["rows"]:
        limit = "-" if r["time_limit"] is None else f"{r['time_limit']:g}"
        run = "-" if r["run_seconds"] is None else f"{r['run_seconds']:g}"
        exit_ = str(r["exit"]) + (f" ({r['error']})" if r["error"] else "")
        cpu = "-" if r.get("cpu_seconds") is None else f"{r['cpu_seconds']:g}"
        after = "-" if r.get("after_signal_seconds") is None else f"{r['after_signal_seconds']:g}"
        repeats = "-" if r.get("repeats") is None else str(r["repeats"])
        figures = f"{r['wall_seconds']:g} | {run} | {cpu} | {after} | {r['peak_mib']:g} | {repeats}"
        stopped = f" ({r['name'].split(', ')[-1]})" if "SIGTERM" in r["name"] else ""
        lines.append(f"| `{r['command']}`{stopped} | {limit} | {figures} | {exit_} |")
    return "\n".join(lines) + "\n"


def in_one_run(record: dict) -> str:
    """The rows of a run that measured each case before and then after (`--before`), side by side."""
    rows = record["rows"]
    before = {**record, "rows": [r for r in rows if r["version"] == "before"]}
    after = {**record, "rows": [r for r in rows if r["version"] == "after"]}
    commit = record["machine"].get("commit")
    lines = side_by_side(
        before, after, f"the tree {record['before']}", "this checkout", title="in one run"
    ).splitlines()
    lines[2] = (
        f"Before: the source tree {record['before']}; after: this checkout ({commit}); each case run with one and "
        f"then the other, in turn, in one run (load {record['load_before'][0]:.2f} at its start, "
        f"{record['load_after'][0]:.2f} at its end). Run: the planner's own clock ('Planned in'); wall and CPU: "
        "the whole command, start-up included."
    )
    return "\n".join(lines) + "\n"


def signals_report(record: dict) -> str:
    """Seconds from the signal to the exit, each room, command and signal a line, at each time of sending;
    before -> after where the run measured both."""
    m = record["machine"]
    both = bool(record.get("before"))
    lines = [
        "# Ctrl-C and SIGTERM end any run within a second: seconds from the signal to the exit",
        "",
        f"Machine: {m.get('cpu')}, {m.get('cores_usable', m.get('cores'))} cores usable; load (1 min) "
        f"{record['load_before'][0]:.2f} before, {record['load_after'][0]:.2f} after. Commit {m.get('commit')}, "
        f"{m.get('date')}. Each command a 10 s repeatable run (`--time-limit 10 --workers 1`) in a fresh process, "
        "sent the signal this many seconds after its start (start-up takes about 0.4 s of CPU, 0.8 s before "
        f"limits_startup.md, more on a busy machine); medians of {record['runs']} run(s). "
        + (
            f"Before -> after: the tree {record['before']} and this checkout, each case run with one and then "
            "the other, in one run. "
            if both
            else ""
        )
        + "Exit: the after's statuses (130 a Ctrl-C during start-up, 143 SIGTERM, 0 Ctrl-C with the best "
        "written, 1 a Ctrl-C before a first schedule; an exists may end by itself first: 'ended', its verdict's "
        "status).",
        "",
        "| command, signal | " + " | ".join(f"at {t:g} s" for t in SIGNAL_TIMES) + " | most | exits |",
        "|---|" + "---:|" * (len(SIGNAL_TIMES) + 2),
    ]
    after = [r for r in record["rows"] if r.get("version", "") in ("", "after")]
    before = {r["name"]: r for r in record["rows"] if r.get("version") == "before"}
    for key in dict.fromkeys(r["name"].rsplit(" at ", 1)[0] for r in after):
        at = [r for r in after if r["name"].rsplit(" at ", 1)[0] == key]
        cells, most_before = [], 0.0
        for t in SIGNAL_TIMES:
            r = next((r for r in at if r["name"].endswith(f" at {t:g} s")), None)
            b = before.get(r["name"]) if r else None
            most_before = max(most_before, (b["after_signal_seconds"] or 0.0) if b else 0.0)
            cells.append((f"{_after_signal(b)} -> " if b else "") + ("-" if r is None else _after_signal(r)))
        most = max(r["after_signal_seconds"] or 0.0 for r in at)
        exits = ", ".join(sorted({str(r["exit"]) for r in at}))
        lines.append(
            f"| {key} | " + " | ".join(cells) + f" | {f'{most_before:g} -> ' if before else ''}{most:g} | {exits} |"
        )
    return "\n".join(lines) + "\n"


def _after_signal(row: dict) -> str:
    """Seconds from the signal to the exit; 'ended' where the run ended by itself before the signal."""
    seconds = row["after_signal_seconds"]
    return "ended" if seconds is None else f"{seconds:g}"


def side_by_side(before: dict, after: dict, before_name: str, after_name: str, title: str = "") -> str:
    """The medians of two measurements of the same cases, before -> after, row by row."""
    lines = [
        "# The room limits before and after" + (f" {title}" if title else "") + ": medians, before -> after",
        "",
        f"Before: {before_name} ({before['machine'].get('commit')}, load {before['load_before'][0]:.2f} at its start); "
        f"after: {after_name} ({after['machine'].get('commit')}, load {after['load_before'][0]:.2f} at its start).",
        "",
        "| case | wall (s) | run (s) | CPU (s) | after signal (s) | peak (MiB) | repeats |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    earlier = {r["name"]: r for r in before["rows"]}
    for r in after["rows"]:
        b = earlier.get(r["name"])
        if b is None:
            continue
        cells = [
            f"{'-' if b.get(k) is None else f'{b[k]:g}'} -> {'-' if r.get(k) is None else f'{r[k]:g}'}"
            for k in ("wall_seconds", "run_seconds", "cpu_seconds", "after_signal_seconds", "peak_mib", "repeats")
        ]
        lines.append(f"| {r['name']} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
