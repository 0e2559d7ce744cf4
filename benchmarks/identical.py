"""Do two commits plan byte-identical schedules? (issue 46: one local search, one cost model)

    python -m benchmarks.identical --old main --new HEAD
    python -m benchmarks.identical --old 7a3b73d --new HEAD --time-limit 2 --seed 3 --out /tmp/identical

Both versions (optimizer/, models/ and rotation/ as committed, extracted with `git archive`) plan every
room of ROOMS in repeatable mode (`--seed S --workers 1`: the time limit is counted as work, so the file
depends on the code and the seed only) and re-plan the first room with a player leaving; the JSON files
are compared byte for byte (`SOURCE_DATE_EPOCH` fixes their `created` time). A refactoring that keeps
every move, in the same order under the same random draws, writes the same files.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOMS = ("16x5", "20x6", "24x9", "37x6:three-handed", "40x8", "57x7:sit-out", "83x6:three-handed", "121x8")
REPLAN = ("20x6", 3)  # the old version's day re-planned after round 3 with its first player gone


def extract(revision: str) -> tuple[str, Path]:
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{revision}^{{commit}}"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="rotation-identical-"))
    archive = subprocess.run(
        ["git", "archive", commit, "optimizer", "models", "rotation"], cwd=REPO, capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return commit[:10], folder


def rotation(code: Path, *args: str) -> float:
    """Run the CLI of the extracted code; the seconds it took."""
    env = {**os.environ, "PYTHONPATH": str(code), "SOURCE_DATE_EPOCH": "0"}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rotation", *args], env=env, check=True, capture_output=True, cwd=code)
    return time.perf_counter() - start


def plan_all(code: Path, out: Path, seed: int, limit: float, source: Path) -> dict[str, float]:
    """Plan every room into `out`, and re-plan `source` (the first version's day: both re-plan the same)."""
    out.mkdir(parents=True, exist_ok=True)
    repeatable = ["--seed", str(seed), "--workers", "1", "--time-limit", str(limit)]
    took = {}
    for room in ROOMS:
        size, _, odd = room.partition(":")
        players, rounds = size.split("x")
        extra = ["--odd", odd] if odd else []
        took[room] = rotation(
            code,
            "plan",
            "--players",
            players,
            "--rounds",
            rounds,
            *extra,
            *repeatable,
            "--json",
            str(out / f"{size}.json"),
        )
    first = json.loads(source.read_text())["players"][0]
    took["replan"] = rotation(
        code, "replan", str(source), "--played", str(REPLAN[1]), "--drop", first, *repeatable,
        "--json", str(out / "replan.json"),
    )  # fmt: skip
    return took


FIGURES = ("repeats", "trios_again", "back_to_back", "seat_spread", "table_visits_above_even")


def _figures(folders: dict[str, Path], name: str) -> str:
    """The checker's figures of both versions' files, old -> new."""
    from models import Schedule
    from optimizer.checker import measure

    old, new = (measure(Schedule.model_validate_json((folders[s] / name).read_text())) for s in ("old", "new"))
    return ", ".join(f"{key} {getattr(old, key)} -> {getattr(new, key)}" for key in FIGURES)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", default="main")
    parser.add_argument("--new", default="HEAD")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=2.0)
    parser.add_argument("--out", type=Path, default=Path(tempfile.mkdtemp(prefix="identical-")))
    args = parser.parse_args()
    folders = {}
    for side, revision in (("old", args.old), ("new", args.new)):
        commit, code = extract(revision)
        folders[side] = args.out / commit  # a commit planned before into the same --out is not planned again
        if not (folders[side] / "replan.json").exists():
            source = folders["old"] / f"{REPLAN[0]}.json"
            took = plan_all(code, folders[side], args.seed, args.time_limit, source)
            print(f"{side} {revision} ({commit}): " + ", ".join(f"{k} {v:.1f}s" for k, v in took.items()), flush=True)
    same = 0
    files = sorted(p.name for p in folders["old"].glob("*.json"))
    for name in files:
        equal = (folders["old"] / name).read_bytes() == (folders["new"] / name).read_bytes()
        same += equal
        print(f"{name:>12}: {'identical' if equal else 'DIFFERENT ' + _figures(folders, name)}")
    print(f"{same} of {len(files)} files identical ({folders['old'].name} vs {folders['new'].name}, seed {args.seed}, "
          f"--time-limit {args.time_limit} --workers 1; load {os.getloadavg()[0]:.1f})")  # fmt: skip
    sys.exit(0 if same == len(files) else 1)


if __name__ == "__main__":
    main()
