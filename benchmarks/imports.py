"""A phone's wait while the desk imports a big event file: the same polling measured idle and during the import.

`python -m benchmarks.imports [--out DIR] [--versions K] [--port P]` starts `rotation serve` (its own process)
on 127.0.0.1:P over a fresh file, plans a 200-player, 3-round event (2 s), releases round 1 and exports it;
the exported file gets K more schedule versions (copies of the current one, each the parent of the next:
a long day's history) and its room another public id, so it imports as an event of its own. Then one phone
polls `/e/<id>/me/state.json` back to back, first for as long as the import will take with the desk idle,
then while the file is imported (`POST /api/events/import`, read and checked in a worker thread). Reports
the file's size, the import's time and, for each phase, the polls' median, 99th percentile and slowest
answer. Writes imports.md and imports.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from benchmarks.machine import describe
from benchmarks.room import released_event


def serve(
    db: Path, port: int, env: dict[str, str] | None = None, cwd: Path | None = None
) -> tuple[subprocess.Popen, str]:
    command = [sys.executable, "-m", "rotation.commands.cli", "serve", "--db", str(db), "--port", str(port)]
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the desk did not start")


def big_file(http: httpx.Client, event_id: int, versions: int) -> bytes:
    exported = http.get(f"/api/events/{event_id}/export").json()
    rows = exported["rows"]
    current = next(row for row in rows["versions"] if row["id"] == rows["events"][0]["current_version"])
    top = max(row["id"] for row in rows["versions"])
    for number in range(1, versions + 1):
        rows["versions"].append(
            {**current, "id": top + number, "parent": top + number - 1 if number > 1 else current["id"]}
        )
    rows["events"][0]["current_version"] = top + versions
    rows["rooms"][0]["public_id"] = "benchmark0000000"[:16]
    return json.dumps(exported).encode()


def polls(url: str, path: str, until: threading.Event, seconds: float | None = None) -> list[float]:
    """One phone asking back to back (ms per answer) until `until` is set or `seconds` have passed."""
    times: list[float] = []
    end = time.monotonic() + seconds if seconds is not None else None
    with httpx.Client(base_url=url, timeout=120) as phone:
        while not until.is_set() and (end is None or time.monotonic() < end):
            started = time.perf_counter()
            assert phone.get(path).status_code == 200
            times.append(1000 * (time.perf_counter() - started))
    return times


def polled_during(url: str, path: str, work: Callable[[], int]) -> tuple[dict[str, float], list[float]]:
    """`work` (returning an HTTP status) in a thread of its own while one phone polls `path` back to back:
    ({status, seconds} of the work, the polls' times in ms)."""
    done, answer = threading.Event(), dict[str, float]()

    def working() -> None:
        started = time.perf_counter()
        answer.update(status=work(), seconds=round(time.perf_counter() - started, 2))
        done.set()

    thread = threading.Thread(target=working)
    thread.start()
    during = polls(url, path, done)
    thread.join()
    return answer, during


def figures(times: list[float]) -> dict:
    ordered = sorted(times)
    return {
        "answers": len(ordered),
        "median_ms": round(statistics.median(ordered), 1),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1),
        "slowest_ms": round(ordered[-1], 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="benchmarks/results", help="Folder for imports.md and imports.json.")
    parser.add_argument("--versions", type=int, default=300)
    parser.add_argument("--port", type=int, default=8821)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rotation-import-bench-") as folder:
        process, url = serve(Path(folder) / "desk.sqlite3", args.port)
        try:
            public_id, _ = released_event(url)
            http = httpx.Client(base_url=url, timeout=600)
            event_id = http.get("/api/events").json()[0]["id"]
            data = big_file(http, event_id, args.versions)
            path = f"/e/{public_id}/me/state.json"
            headers = {"content-type": "application/json"}
            answer, during = polled_during(
                url, path, lambda: http.post("/api/events/import", content=data, headers=headers).status_code
            )
            assert answer["status"] == 201, answer
            idle = polls(url, path, threading.Event(), seconds=answer["seconds"])
        finally:
            process.terminate()
            process.wait(timeout=15)
    machine = describe()
    results: dict = {
        "file_mb": round(len(data) / 2**20, 1),
        "import": answer,
        "idle": figures(idle),
        "during": figures(during),
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "imports.json").write_text(json.dumps({"machine": machine, **results}, indent=2), encoding="utf-8")
    lines = [
        "# A phone's wait while a big event file is imported",
        "",
        f"Measured by `python -m benchmarks.imports` on {machine.get('cpu', '?')}, {machine.get('cores', '?')} cores "
        f"(shared with other work), commit {machine.get('commit', '?')}, {machine.get('date', '')}, load average "
        f"{machine.get('load', '?')} at the end. One `rotation serve` process on loopback; a {results['file_mb']} MB "
        f"exported event ({args.versions} more versions of a 200-player day) imported in {answer['seconds']} s "
        "while one phone polls back to back, and the same polling as long with the desk idle.",
        "",
        "| the desk | polls | median ms | 99th percentile ms | slowest ms |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for what, words in (("idle", "idle"), ("during", "importing the file")):
        row = results[what]
        lines.append(f"| {words} | {row['answers']} | {row['median_ms']} | {row['p99_ms']} | {row['slowest_ms']} |")
    (out / "imports.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
