"""An exported event's cost to the desk: peak memory and time of a big export, and a phone's wait during it,
for the code before and after a change, side by side in one run.

`python -m benchmarks.exports [--before REVISION] [--out DIR] [--versions K] [--repeats R] [--port P]` plans
a 200-player, 3-round event (2 s) in a fresh desk file, releases round 1 and gives the event K more schedule
versions (copies of the current one, each the parent of the next: a long day's history). Then, R times, for
the code committed at REVISION (its rotation/, models/ and optimizer/ extracted by `git archive` and put
first on PYTHONPATH: the code before) and for this tree's code in turn, each in its own processes started in
a folder of their own: `rotation serve` is started, one phone polls `/e/<id>/me/state.json` back to back
while `GET /api/events/<id>/export` is read (streamed to a file), and the serving process's peak resident
memory (VmHWM) is read before and after; then `rotation export` writes the same event, its peak memory taken
from wait4. Reports the file's size, each export's median time and highest peak memory, the phone's median,
99th percentile and slowest answer over every poll, and whether every file is the same bytes but for its
`exported` time. Writes exports.md and exports.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from benchmarks.imports import figures, polled_during, polls, serve
from benchmarks.machine import describe
from benchmarks.room import released_event
from benchmarks.run import extract


def long_day(db: Path, event_id: int, versions: int) -> None:
    """`versions` more schedule versions of the event, each a copy of the current one and the next's parent."""
    with sqlite3.connect(db) as file:
        columns = [row[1] for row in file.execute("PRAGMA table_info(versions)") if row[1] not in ("id", "parent")]
        parent = file.execute("SELECT current_version FROM events WHERE id = ?", (event_id,)).fetchone()[0]
        listed = ", ".join(columns)
        for _ in range(versions):
            parent = file.execute(
                f"INSERT INTO versions ({listed}, parent) SELECT {listed}, ? FROM versions WHERE id = ?",
                (parent, parent),
            ).lastrowid
        file.execute("UPDATE events SET current_version = ? WHERE id = ?", (parent, event_id))


def peak_mb(pid: int) -> float:
    """The process's peak resident memory so far (Linux's VmHWM), in MB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return round(int(re.search(r"VmHWM:\s+(\d+) kB", status)[1]) / 1024, 1)  # type: ignore[index]


def fingerprint(path: Path) -> str:
    """The file's SHA-256 but for its `exported` time (read in pieces: the file may be big)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        head = handle.read(4096)
        digest.update(re.sub(rb'"exported": "[^"]*"', b"", head))
        for piece in iter(lambda: handle.read(1 << 20), b""):
            digest.update(piece)
    return digest.hexdigest()


def measure(db: Path, event_id: int, public_id: str, port: int, env: dict[str, str], out: Path) -> dict:
    """One code's figures: the desk's export with a phone polling, then `rotation export`."""
    process, url = serve(db, port, env, cwd=out)  # not this tree's folder: `-m` puts the folder first on sys.path
    try:
        path = f"/e/{public_id}/me/state.json"
        polls(url, path, threading.Event(), seconds=1.0)  # the phone's page read once: not the export's
        before = peak_mb(process.pid)

        def exporting() -> int:
            with httpx.stream("GET", f"{url}/api/events/{event_id}/export", timeout=600) as response:
                with (out / "desk.rotation.json").open("wb") as handle:
                    for piece in response.iter_bytes():
                        handle.write(piece)
            return response.status_code

        answer, during = polled_during(url, path, exporting)
        assert answer["status"] == 200, answer
        desk = {"seconds": answer["seconds"], "peak_mb_before": before, "peak_mb": peak_mb(process.pid)}
    finally:
        process.terminate()
        process.wait(timeout=15)
    command = [sys.executable, "-m", "rotation.commands.cli", "export", "--db", str(db), str(event_id)]
    started = time.perf_counter()
    cli = subprocess.Popen([*command, str(out / "cli.rotation.json")], stderr=subprocess.DEVNULL, env=env, cwd=out)
    _, status, usage = os.wait4(cli.pid, 0)
    cli.returncode = os.waitstatus_to_exitcode(status)
    assert cli.returncode == 0, cli.returncode
    where = [sys.executable, "-c", "import rotation; print(rotation.__file__)"]
    return {
        "code": subprocess.run(where, env=env, cwd=out, capture_output=True, text=True, check=True).stdout.strip(),
        "desk": desk,
        "polls": during,
        "cli": {"seconds": round(time.perf_counter() - started, 2), "peak_mb": round(usage.ru_maxrss / 1024, 1)},
        "files": {name: fingerprint(out / f"{name}.rotation.json") for name in ("desk", "cli")},
    }


def together(runs: list[dict]) -> dict:
    """A code's runs as one: median times, highest peaks, every poll."""
    return {
        "code": runs[0]["code"],
        "desk": {
            "seconds": round(statistics.median(run["desk"]["seconds"] for run in runs), 2),
            "peak_mb_before": max(run["desk"]["peak_mb_before"] for run in runs),
            "peak_mb": max(run["desk"]["peak_mb"] for run in runs),
        },
        "phone": figures([time for run in runs for time in run["polls"]]),
        "cli": {
            "seconds": round(statistics.median(run["cli"]["seconds"] for run in runs), 2),
            "peak_mb": max(run["cli"]["peak_mb"] for run in runs),
        },
        "files": sorted({file for run in runs for file in run["files"].values()}),
        "runs": [{key: run[key] for key in ("desk", "cli")} for run in runs],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", metavar="REVISION", help="The code before, as committed at this git revision.")
    parser.add_argument("--out", default="benchmarks/results", help="Folder for exports.md and exports.json.")
    parser.add_argument("--versions", type=int, default=2400)
    parser.add_argument("--port", type=int, default=8822)
    parser.add_argument("--repeats", type=int, default=3, help="Runs of each code (times are their medians).")
    args = parser.parse_args(argv)
    codes, tree, label = {"after": dict(os.environ)}, None, ""
    if args.before:
        label, tree = extract(args.before, ("rotation", "models", "optimizer"))
        path = os.pathsep.join(filter(None, [str(tree), os.environ.get("PYTHONPATH")]))
        codes = {"before": {**os.environ, "PYTHONPATH": path}, **codes}
    try:
        results = measured(codes, args)
    finally:
        if tree is not None:
            shutil.rmtree(tree)
    if args.before:
        results["before"]["revision"] = label
    report(results, list(codes), args)


def measured(codes: dict[str, dict[str, str]], args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory(prefix="rotation-export-bench-") as folder:
        db = Path(folder) / "desk.sqlite3"
        process, url = serve(db, args.port)
        try:
            public_id, _ = released_event(url)
            event_id = httpx.get(f"{url}/api/events").json()[0]["id"]
        finally:
            process.terminate()
            process.wait(timeout=15)
        long_day(db, event_id, args.versions)
        runs: dict[str, list[dict]] = {name: [] for name in codes}
        for _ in range(args.repeats):  # the codes in turn, so a busier minute falls on both
            for name, env in codes.items():
                out = Path(folder) / name
                out.mkdir(exist_ok=True)
                runs[name].append(measure(db, event_id, public_id, args.port, env, out))
        results: dict = {name: together(runs[name]) for name in codes}
        results["file_mb"] = round((Path(folder) / "after" / "cli.rotation.json").stat().st_size / 2**20, 1)
    prints = {file for name in codes for file in results[name]["files"]}
    results["same_bytes"] = len(prints) == 1
    return results


def report(results: dict, codes: list[str], args: argparse.Namespace) -> None:
    machine = describe()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "exports.json").write_text(json.dumps({"machine": machine, **results}, indent=2), encoding="utf-8")
    lines = [
        "# A big event exported: peak memory, time, and a phone's wait meanwhile",
        "",
        f"Measured by `python -m benchmarks.exports{' --before ' + str(args.before) if args.before else ''}` on "
        f"{machine.get('cpu', '?')}, {machine.get('cores', '?')} cores (shared with other work), commit "
        f"{machine.get('commit', '?')}, {machine.get('date', '')}, load average {machine.get('load', '?')} at the "
        f"end. {args.repeats} runs of each code in turn (times: medians; peaks: the highest; the phone: every "
        f"poll of the runs). A {results['file_mb']} MB exported event ({args.versions} more versions of a "
        "200-player day), "
        "exported by the desk (`GET /api/events/<id>/export`, one `rotation serve` process on loopback, one phone "
        "polling back to back meanwhile) and by `rotation export`, with each code in its own processes, one "
        "after the other. Peak memory is the process's peak resident set (VmHWM; wait4's ru_maxrss for the CLI); "
        "the desk's peak before the export is its own after start-up and one phone's page.",
        "",
        "| code | desk's peak before MB | desk's peak exporting MB | desk's export s | phone median ms "
        "| phone p99 ms | phone slowest ms | `rotation export` peak MB | `rotation export` s |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name in codes:
        desk, phone, cli = results[name]["desk"], results[name]["phone"], results[name]["cli"]
        lines.append(
            f"| {name} | {desk['peak_mb_before']} | {desk['peak_mb']} | {desk['seconds']} | {phone['median_ms']} "
            f"| {phone['p99_ms']} | {phone['slowest_ms']} | {cli['peak_mb']} | {cli['seconds']} |"
        )
    lines += [
        "",
        *(
            f"The code {name}: {results[name]['code']} ({results[name].get('revision', 'this tree')})."
            for name in codes
        ),
    ]
    same = "the same bytes" if results["same_bytes"] else "NOT the same bytes"
    lines += ["", f"Every file written ({', '.join(codes)}; desk and CLI) is {same}, but for its `exported` time."]
    (out / "exports.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
