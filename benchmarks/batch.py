"""`python -m benchmarks.balance --batch`: repeats where a repeat-free day is known, the code at HEAD beside
`--old`, on a busy machine (issue 40).

Rooms go in chunks of `--chunk`; each chunk is planned by both versions at once, each in one spawned
interpreter (measure.plan_rooms), so the two versions run side by side, each beside the other and beside
whatever else the shared machine runs: its load is recorded as every room starts. Writes repeats.json
(rewritten after every chunk), repeats.csv (room by room) and repeats.md (the headline, the rooms with a
known repeat-free day that came back with repeats, the balance figures room by room).
"""

from __future__ import annotations

import csv
import shutil
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks import balance, machine, measure, run

SIDES = ("new", "old")


def run_batch(rooms: list[tuple[int, int, str]], args) -> int:
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    new = run.snapshot(args.code)
    old_label, old_folder = run.extract(args.old)
    rows: list[dict] = []
    command = "python -m benchmarks.balance " + " ".join(sys.argv[1:])
    data = {
        "machine": {**machine.describe(), "code": new["code"], "old_code": old_label},
        "settings": {"rooms": len(rooms), "time_limit_per_room": args.time_limit, "workers": args.workers,
                     "seed": args.seed, "chunk": args.chunk, "old_revision": args.old, "command": command},
        "complete": False,
        "rooms": rows,
    }  # fmt: skip
    codes = {"new": None, "old": str(old_folder)}
    try:
        for first in range(0, len(rooms), args.chunk):
            chunk = rooms[first : first + args.chunk]
            kwargs = dict(rooms=chunk, time_limit=args.time_limit, seed=args.seed, workers=args.workers)
            guard = len(chunk) * (3 * args.time_limit + 10) + 120
            with ThreadPoolExecutor(2) as pool:
                futures = {
                    side: pool.submit(measure.in_fresh_process, measure.plan_rooms, kwargs, guard, code=codes[side])
                    for side in SIDES
                }
                done = {side: future.result() for side, future in futures.items()}
            rows += _rows(chunk, done)
            data["wall_seconds"] = time.monotonic() - started
            run.save_json(out / "repeats.json", data)
            missed = [row["key"] for row in rows[-len(chunk) :] if _missed(row, "new")]
            print(f"[{len(rows)}/{len(rooms)}] new misses a known repeat-free day in: {missed}", flush=True)
        data["complete"] = True
        run.save_json(out / "repeats.json", data)
    finally:
        shutil.rmtree(old_folder, ignore_errors=True)
        if new["path"] != str(run.REPO):
            shutil.rmtree(new["path"], ignore_errors=True)
    return write_report(data, out)


def _rows(chunk: list[tuple[int, int, str]], done: dict[str, dict]) -> list[dict]:
    """One row per room with both sides, in balance.py's shape (key, players, rounds, new, old)."""
    rows = []
    for k, (players, rounds, odd) in enumerate(chunk):
        row: dict = {"key": f"{players}x{rounds}" + ("" if odd == "three-handed" else f" {odd}"), "players": players,
               "rounds": rounds, "odd": odd, "known_repeat_free": _known(players, rounds, odd)}  # fmt: skip
        for side in SIDES:
            answer = done[side]
            row[side] = {"error": answer["error"]} if "error" in answer else answer["rooms"][k]
        row["load"] = row["new"].get("load", row["old"].get("load"))
        rows.append(row)
    return rows


def _known(players: int, rounds: int, odd: str) -> bool:
    """Tables of four: balance.known_repeat_free; an odd room is asked for only when its day is known."""
    return balance.known_repeat_free(players, rounds) if players % 4 == 0 else True


def _missed(row: dict, side: str) -> bool:
    """A room with a known repeat-free day that came back with repeats (or without a schedule)."""
    return row["known_repeat_free"] and (row[side].get("repeats") or 0) != 0 or "error" in row[side]


def _reached(row: dict) -> bool:
    """Whether the new side's day came from data the old side lacks: difference rows, or a library day."""
    new, old = (row[side].get("method") or "" for side in SIDES)
    return any(word in new and word not in old for word in ("difference rows", "library"))


def write_report(data: dict, out: Path) -> int:
    rows = data["rooms"]
    (out / "repeats.md").write_text(markdown(data), encoding="utf-8")
    with (out / "repeats.csv").open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        figures = ("repeats", *balance.PRIORITY, "runtime", "method")
        writer.writerow(["room", "odd", "known_repeat_free", "load", *[f"{s}_{f}" for s in SIDES for f in figures]])
        for row in rows:
            cells = [row[s].get(f) for s in SIDES for f in figures]
            cells = [round(c, 2) if isinstance(c, float) else c for c in cells]
            room = f"{row['players']}x{row['rounds']}"
            writer.writerow([room, row["odd"], row["known_repeat_free"], round(row["load"] or 0, 1), *cells])
    print(f"wrote {out / 'repeats.md'} and repeats.csv ({data.get('wall_seconds', 0):.0f} s)")
    errors = [row["key"] for row in rows for side in SIDES if "error" in row[side]]
    for key in errors:
        print(f"FAILED: {key}", file=sys.stderr)
    return 1 if errors else 0


def markdown(data: dict) -> str:
    m, st, rows = data["machine"], data["settings"], data["rooms"]
    known = [row for row in rows if row["known_repeat_free"]]
    loads = [row["load"] for row in rows if row.get("load") is not None]
    lines = [
        f"# Repeats where a repeat-free day is known: {m['code']} beside {m['old_code']}\n",
        f"`{st['command']}`\n",
        f"{st['rooms']} rooms, {st['time_limit_per_room']:g} s a room, {st['workers']} CP-SAT worker(s), seed "
        f"{st['seed']}; both versions at once, {st['chunk']} rooms per interpreter; {m['cores']} cores "
        f"({m['cpu']}), load average {min(loads, default=0):.1f} to {max(loads, default=0):.1f} (median "
        f"{statistics.median(loads) if loads else 0:.1f}) as rooms started. Measured {m['date']}.\n",
        "| | new | old |",
        "|---|---|---|",
    ]
    for label, count in (
        ("rooms with a known repeat-free day", lambda side: len(known)),
        ("... planned with 0 repeats", lambda side: sum(not _missed(row, side) for row in known)),
        ("... planned with repeats", lambda side: sum(_missed(row, side) for row in known)),
        ("repeats in those rooms", lambda side: sum(row[side].get("repeats") or 0 for row in known)),
    ):
        lines.append(f"| {label} | {count('new')} | {count('old')} |")
    for side in SIDES:
        missed = [f"{row['key']} ({row[side].get('repeats', 'error')})" for row in known if _missed(row, side)]
        lines.append(f"\n{side} code, known repeat-free rooms with repeats: {', '.join(missed) or 'none'}")
    reached = [row for row in rows if _reached(row)]
    lines.append("\n## Room by room, new against old (E, then the balance figures)\n")
    lines.append(
        f"Rooms the new stored data reaches ({len(reached)}: the new side's day came from stored difference rows "
        "or a library day the old side's did not):\n"
    )
    lines += [f"- {line}" for line in balance.room_by_room(reached)]
    lines.append(
        f"\nThe other {len(rows) - len(reached)} rooms (the same code path in both versions, so what differs is "
        "where the clock stopped each stage on a busy machine):\n"
    )
    lines += [f"- {line}" for line in balance.room_by_room([row for row in rows if not _reached(row)])]
    t = {side: balance.totals(rows, side) for side in SIDES}
    lines.append(
        "\nTotals new (old): table visits above even "
        f"{t['new']['visits']} ({t['old']['visits']}), trios again {t['new']['trios']} ({t['old']['trios']}), "
        f"back-to-back {t['new']['back_to_back']} ({t['old']['back_to_back']}), seat spread at most 1 in "
        f"{t['new']['spread_ok']} ({t['old']['spread_ok']}) rooms; median time {t['new']['median_time']:.2f} s "
        f"({t['old']['median_time']:.2f} s). Every room: repeats.csv."
    )
    return "\n".join(lines) + "\n"
