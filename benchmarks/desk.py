"""The desk's speed: every page of a 200-player, 8-round event, and planning in the desk against the CLI.

`python -m benchmarks.desk [--out DIR] [--time-limit S]` serves a fresh desk file with uvicorn on a
free localhost port (in a thread of this process) and asks it over HTTP:

1. pages: each page and endpoint of one 200-player, 8-round event (planned by the desk itself),
   20 times; the median and the slowest answer, against the 200 ms target;
2. planning: the same rooms planned by `rotation plan` and by the desk (same seed, one worker, so both
   runs do the same work), wall time from the command's start or the plan request to the stored schedule.

Writes desk.md and desk.json.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn

from benchmarks.machine import describe
from models import default_names
from rotation.desk.app import create_app

TARGET_MS = 200.0
ASKS = 20
ROOMS = ((20, 7), (40, 8), (200, 8))


class Desk:
    """A desk over a fresh file, served by uvicorn in a thread."""

    def __init__(self, folder: Path):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        config = uvicorn.Config(create_app(folder / "desk.sqlite3"), host="127.0.0.1", port=port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        self.http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120)
        while not self.server.started:
            time.sleep(0.05)

    def plan(self, players: int, rounds: int, time_limit: float) -> tuple[dict, float]:
        """Create the event, plan it, wait for the stored schedule: (the run, seconds from the request)."""
        event = self.http.post(
            "/api/events",
            json={"names": default_names(players), "rounds": rounds, "time_limit": time_limit, "workers": 1},
        ).json()
        started = time.monotonic()
        run = self.http.post(f"/api/events/{event['id']}/plan", headers={"content-type": "application/json"}).json()
        while run["status"] == "running":
            time.sleep(0.05)
            run = self.http.get(f"/api/runs/{run['id']}").json()
        return run, time.monotonic() - started

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


def pages_of(event_id: int, run_id: int, version_id: int) -> dict[str, str]:
    base = f"/events/{event_id}"
    return {
        "events list": "/",
        "the day (every round)": base,
        "a player's day": f"{base}/players/0",
        "beside the fixed rule": f"{base}/compare",
        "history": f"{base}/history",
        "print options": f"{base}/print-options",
        "settings": f"{base}/edit",
        "an earlier version": f"{base}?version={version_id}",
        "JSON: the event": f"/api{base}",
        "JSON: a run's progress": f"/api/runs/{run_id}",
        "JSON: the schedule": f"/api{base}/schedule",
        "download: schedule.json": f"{base}/download/schedule.json",
        "download: schedule.csv": f"{base}/download/schedule.csv",
        "download: schedule-long.csv": f"{base}/download/schedule-long.csv",
        "the meetings picture (SVG)": f"{base}/meetings.svg",
        "the printable page (every part)": f"{base}/print",
    }


def time_pages(desk: Desk, time_limit: float) -> list[dict]:
    run, _ = desk.plan(200, 8, time_limit)
    event_id = run["event_id"]
    desk.http.post(f"/api/events/{event_id}/played", json={"rounds": 1})  # a second version to look back at
    rows = []
    for name, path in pages_of(event_id, run["id"], run["version_id"]).items():
        times = []
        for _ in range(ASKS):
            started = time.perf_counter()
            response = desk.http.get(path)
            times.append(1000 * (time.perf_counter() - started))
            assert response.status_code == 200, f"{path}: {response.status_code}"
        rows.append(
            {
                "page": name,
                "path": path,
                "first_ms": round(times[0], 1),
                "median_ms": round(statistics.median(times), 1),
                "slowest_ms": round(max(times), 1),
                "bytes": len(response.content),
            }
        )
    return rows


def cli_plan(players: int, rounds: int, time_limit: float, folder: Path) -> tuple[int, float]:
    """`rotation plan` as a director runs it, writing the schedule: (repeats, seconds)."""
    out = folder / f"cli-{players}x{rounds}.json"
    command = [
        sys.executable,
        "-m",
        "rotation.commands.cli",
        "plan",
        "--players",
        str(players),
        "--rounds",
        str(rounds),
    ]
    command += ["--time-limit", str(time_limit), "--seed", "0", "--workers", "1", "--quiet", "--json", str(out)]
    started = time.monotonic()
    subprocess.run(command, check=True, capture_output=True)
    seconds = time.monotonic() - started
    return json.loads(out.read_text(encoding="utf-8"))["provenance"]["repeats"], seconds


def time_planning(desk: Desk, time_limit: float, folder: Path) -> list[dict]:
    rows = []
    for players, rounds in ROOMS:
        cli_repeats, cli_seconds = cli_plan(players, rounds, time_limit, folder)
        run, desk_seconds = desk.plan(players, rounds, time_limit)
        repeats = desk.http.get(f"/api/events/{run['event_id']}/metrics").json()["repeats"]
        rows.append(
            {
                "players": players,
                "rounds": rounds,
                "time_limit": time_limit,
                "cli_seconds": round(cli_seconds, 2),
                "desk_seconds": round(desk_seconds, 2),
                "cli_repeats": cli_repeats,
                "desk_repeats": repeats,
            }
        )
    return rows


def report(pages: list[dict], planning: list[dict], machine: dict, time_limit: float) -> str:
    lines = [
        "# The desk's speed",
        "",
        f"Measured by `python -m benchmarks.desk` on {machine.get('cpu', '?')}, {machine.get('cores', '?')} cores "
        f"(shared with other work), commit {machine.get('commit', '?')}, {machine.get('date', '')}.",
        "",
        f"## Pages of a 200-player, 8-round event (median of {ASKS} over HTTP, target {TARGET_MS:g} ms)",
        "",
        "| page | first ms | median ms | slowest ms | size KB | median under target |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for row in pages:
        ok = "yes" if row["median_ms"] < TARGET_MS else "**no**"
        lines.append(
            f"| {row['page']} | {row['first_ms']} | {row['median_ms']} | {row['slowest_ms']} | "
            f"{row['bytes'] / 1024:.0f} | {ok} |"
        )
    lines += [
        "",
        "The picture and the printable page are drawn once per version and options (a stored version never",
        "changes), so the first answer is the drawing and the others are the desk's copy.",
        "",
        f"## Planning: `rotation plan` against the desk (seed 0, one worker, {time_limit:g} s)",
        "",
        "Wall time from starting the command, or from the desk's plan request, to the schedule written or stored.",
        "",
        "| room | CLI s | desk s | CLI repeats | desk repeats |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for row in planning:
        lines.append(
            f"| {row['players']} x {row['rounds']} | {row['cli_seconds']} | {row['desk_seconds']} | "
            f"{row['cli_repeats']} | {row['desk_repeats']} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="benchmarks/results", help="Folder for desk.md and desk.json.")
    parser.add_argument("--time-limit", type=float, default=10.0, help="Seconds per plan.")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rotation-desk-bench-") as folder:
        desk = Desk(Path(folder))
        try:
            pages = time_pages(desk, args.time_limit)
            planning = time_planning(desk, args.time_limit, Path(folder))
        finally:
            desk.close()
    machine = describe()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data = {"machine": machine, "pages": pages, "planning": planning, "target_ms": TARGET_MS}
    (out / "desk.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    (out / "desk.md").write_text(report(pages, planning, machine, args.time_limit), encoding="utf-8")
    print((out / "desk.md").read_text(encoding="utf-8"))


if __name__ == "__main__":
    main()
