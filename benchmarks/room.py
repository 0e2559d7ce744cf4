"""300 phones at once: the players' polling endpoint and their page, on this machine's loopback.

`python -m benchmarks.room [--out DIR] [--phones N] [--waves K]` starts `rotation serve` (its own process)
over a fresh file, plans a 200-player, 3-round event (2 s), releases round 1, then, K times, lets N phones
(one connection each) ask at the same moment: first the small JSON a phone polls, then (as after a
release) each phone's whole page for its player. Reports the median, the 99th percentile and the slowest
answer of each, and the desk's own processor time per answer (read from /proc before and after): the
clients share this machine and cost more than the desk, so the waits measure both, the last column the
desk alone. Writes room.md and room.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from benchmarks.machine import describe
from models import default_names

PLAYERS, ROUNDS = 200, 3


def processor_seconds(pid: int) -> float:
    """User plus system time the process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def serve(db: Path) -> tuple[subprocess.Popen, str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "rotation.commands.cli", "serve", "--db", str(db), "--port", str(port)]
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
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


def released_event(url: str) -> tuple[str, list[str]]:
    """A planned event with round 1 released: (its public id, its players)."""
    http = httpx.Client(base_url=url, timeout=60)
    names = default_names(PLAYERS)
    event = http.post("/api/events", json={"names": names, "rounds": ROUNDS, "time_limit": 2, "workers": 1}).json()
    run = http.post(f"/api/events/{event['id']}/plan", headers={"content-type": "application/json"}).json()
    while run["status"] == "running":
        time.sleep(0.2)
        run = http.get(f"/api/runs/{run['id']}").json()
    assert run["version_id"], run
    room = http.post(f"/api/events/{event['id']}/release", json={"round": 1}).json()
    return room["public_id"], names


async def wave(url: str, paths: list[str]) -> list[float]:
    """Every path asked at the same moment, one connection each: each answer's time in ms."""
    limits = httpx.Limits(max_connections=len(paths), max_keepalive_connections=len(paths))
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:

        async def ask(path: str) -> float:
            started = time.perf_counter()
            response = await client.get(path)
            assert response.status_code == 200, (path, response.status_code)
            return 1000 * (time.perf_counter() - started)

        await asyncio.gather(*(ask(path) for path in paths[:5]))  # the connections opened first
        return await asyncio.gather(*(ask(path) for path in paths))


def figures(times: list[float], desk_seconds: float, asked: int) -> dict:
    ordered = sorted(times)
    return {
        "answers": len(ordered),
        "desk_ms_per_answer": round(1000 * desk_seconds / asked, 2),
        "median_ms": round(statistics.median(ordered), 1),
        "p99_ms": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1),
        "slowest_ms": round(ordered[-1], 1),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="benchmarks/results", help="Folder for room.md and room.json.")
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--waves", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="rotation-room-bench-") as folder:
        process, url = serve(Path(folder) / "desk.sqlite3")
        try:
            public_id, names = released_event(url)
            polls = [f"/e/{public_id}/me/state.json"] * args.phones
            pages = [f"/e/{public_id}/me?player={names[i % len(names)]}" for i in range(args.phones)]
            results = {}
            for what, paths in (("poll", polls), ("page", pages)):
                times: list[float] = []
                used = processor_seconds(process.pid)
                for _ in range(args.waves):
                    times += asyncio.run(wave(url, paths))
                asked = args.waves * (len(paths) + min(5, len(paths)))  # each wave opens 5 connections first
                results[what] = figures(times, processor_seconds(process.pid) - used, asked)
        finally:
            process.terminate()
            process.wait(timeout=15)
    machine = describe()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "room.json").write_text(
        json.dumps({"machine": machine, "phones": args.phones, **results}, indent=2), encoding="utf-8"
    )
    lines = [
        "# 300 phones at once",
        "",
        f"Measured by `python -m benchmarks.room` on {machine.get('cpu', '?')}, {machine.get('cores', '?')} cores "
        f"(shared with other work; the clients run on the same machine), commit {machine.get('commit', '?')}, "
        f"{machine.get('date', '')}, load average {machine.get('load', '?')} at the end. "
        f"One `rotation serve` process on loopback; {args.phones} phones, one "
        f"connection each, ask at the same moment, {args.waves} times; a {PLAYERS}-player event, round 1 released.",
        "",
        "| what each phone asks | answers | median ms | 99th percentile ms | slowest ms | desk's CPU ms per answer |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    words = {"poll": "the polling JSON (`/e/<id>/me/state.json`)", "page": "its player's page (after a release)"}
    for what, row in results.items():
        lines.append(
            f"| {words[what]} | {row['answers']} | {row['median_ms']} | {row['p99_ms']} | {row['slowest_ms']} "
            f"| {row['desk_ms_per_answer']} |"
        )
    (out / "room.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
