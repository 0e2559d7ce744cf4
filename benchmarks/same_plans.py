"""Whether two versions of the code plan the same days, byte for byte, in repeatable runs (issue 46).

    python -m benchmarks.same_plans                      # main beside HEAD, the default rooms, seed 0
    python -m benchmarks.same_plans --old 7a3b73d --new HEAD --seed 3 --out /tmp/same

A refactoring that should change nothing is checked here: each version (its whole tree as committed,
extracted with `git archive`) runs `python -m rotation plan ... --seed S --workers 1` on every room, so
that the time limit counts work and never the wall clock (optimizer.budget), with SOURCE_DATE_EPOCH set
so that the recorded time is the same; the last rooms re-plan the first room's day with a player gone
(fewest moves, and everyone reseated). The files written must be equal byte for byte. Prints one line
per room and exits 1 if any differ.
The runs are repeatable, so the machine's load changes how long they take, never what they write.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# (label, the plan command's arguments): rooms of four, tables of three, sit-outs, a room past the tabu
# search's size (local search round by round), at limits that reach the search, CP-SAT and balancing.
ROOMS = (
    ("16x5", ["--players", "16", "--rounds", "5", "--time-limit", "3"]),
    ("16x6", ["--players", "16", "--rounds", "6", "--time-limit", "15"]),  # a rotational day for the tables
    ("20x6", ["--players", "20", "--rounds", "6", "--time-limit", "3"]),
    ("24x9", ["--players", "24", "--rounds", "9", "--time-limit", "10"]),
    ("37x6 three-handed", ["--players", "37", "--rounds", "6", "--time-limit", "3", "--odd", "three-handed"]),
    ("40x8", ["--players", "40", "--rounds", "8", "--time-limit", "3"]),
    ("57x7 three-handed", ["--players", "57", "--rounds", "7", "--time-limit", "3", "--odd", "three-handed"]),
    ("83x6 sit-outs", ["--players", "83", "--rounds", "6", "--time-limit", "3", "--odd", "sit-out"]),
    ("121x8", ["--players", "121", "--rounds", "8", "--time-limit", "4"]),
)
REPLANNED = "16x5"  # the room whose day is re-planned after round 2, its third player gone


def extract(revision: str) -> tuple[str, Path]:
    """The whole tree as committed at `revision`, in a new temporary folder: (its short commit, the folder)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{revision}^{{commit}}"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.strip()
    folder = Path(tempfile.mkdtemp(prefix="rotation-same-"))
    archive = subprocess.run(["git", "archive", commit], cwd=REPO, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return commit[:10], folder


def rotation(code: Path, args: list[str]) -> None:
    """`python -m rotation ARGS` with the code in `code` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(code), "SOURCE_DATE_EPOCH": "1764720000"}
    subprocess.run([sys.executable, "-m", "rotation", *args], cwd=code, env=env, check=True, capture_output=True)


def plans(code: Path, out: Path, seed: int) -> dict[str, Path]:
    """Every room planned (and the re-plan) by the code in `code`: label -> the file written."""
    repeatable = ["--seed", str(seed), "--workers", "1", "--quiet"]
    files = {}
    for label, args in ROOMS:
        files[label] = out / f"{label.replace(' ', '_')}.json"
        rotation(code, ["plan", *args, *repeatable, "--json", str(files[label])])
    day = files[REPLANNED]
    gone = json.loads(day.read_text(encoding="utf-8"))["players"][2]
    drop = ["--played", "2", "--drop", gone, "--time-limit", "3"]
    for reseat in ("fewest", "all"):  # the fewest moves (optimizer.moves), or the plan with a history
        label = f"{REPLANNED} re-plan {reseat}"
        files[label] = out / f"replan_{reseat}.json"
        rotation(code, ["replan", str(day), *drop, "--reseat", reseat, *repeatable, "--json", str(files[label])])
    return files


def digest(file: Path) -> str:
    return hashlib.sha256(file.read_bytes()).hexdigest()[:12]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default="main", help="the revision before (default: main)")
    parser.add_argument("--new", default="HEAD", help="the revision after (default: HEAD)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="keep the files here (default: a temporary folder)")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="rotation-same-out-"))
    found = {}
    for side, revision in (("old", args.old), ("new", args.new)):
        commit, code = extract(revision)
        (out / side).mkdir(parents=True, exist_ok=True)
        print(f"{side}: {revision} {commit}", flush=True)
        found[side] = plans(code, out / side, args.seed)
    differ = 0
    for label, old in found["old"].items():
        new = found["new"][label]
        same = old.read_bytes() == new.read_bytes()
        differ += not same
        method = json.loads(new.read_text(encoding="utf-8"))["provenance"]["method"]
        print(f"{label:20} {digest(old)} {digest(new)} {'same' if same else 'DIFFERENT'}  {method}")
    print(f"{len(found['old']) - differ} of {len(found['old'])} the same (seed {args.seed}); files in {out}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
