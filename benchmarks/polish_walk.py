"""The polish's walk at two commits, side by side (issue 46: the polish moved onto the one tabu search).

    python -m benchmarks.polish_walk --old 7a3b73d --new HEAD --steps 300 --seeds 5

Each version (optimizer/ and models/ as committed, extracted with `git archive`) polishes the same days:
per room and seed, a greedy start improved by 300 steps of the tabu search (which both versions take
alike), then polish with a budget of `--steps` steps on the work clock (repeatable). The figures it
lowers (trios again, then back-to-back rematches, never more repeats) are summed per room over the seeds.
The two versions run one after the other in fresh interpreters; nothing here reads the wall clock.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from benchmarks.same_plans import extract

ROOMS = ((16, 5), (16, 6), (20, 6), (20, 7), (24, 6), (24, 9), (28, 7), (32, 8), (40, 8), (48, 7))

CHILD = """
import hashlib, json, sys
import numpy as np
from models import Event
from optimizer.balance.order import back_to_back
from optimizer.balance.polish import STEPS_PER_SECOND, polish, trios_again
from optimizer.budget import Budget
from optimizer.constructions.greedy import greedy_seating
from optimizer.search import Costs, tabu_search
from optimizer.search.tabu import TABU_STEPS_PER_SECOND
from optimizer.seats import repeats

rooms, seeds, steps = json.loads(sys.argv[1])
rows = []
for players, rounds in rooms:
    event = Event.with_count(players, rounds)
    digest = hashlib.sha1()
    figures = {"repeats": 0, "trios_again": 0, "back_to_back": 0, "trios_before": 0, "back_to_back_before": 0}
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        costs = Costs.of(event)
        searched = Budget.of(300 / TABU_STEPS_PER_SECOND, repeatable=True)
        day = tabu_search(greedy_seating(event, costs, rng), costs, searched, rng)
        figures["trios_before"] += trios_again(day)
        figures["back_to_back_before"] += back_to_back(day)
        polished = polish(day, rng, budget=Budget.of(steps / STEPS_PER_SECOND, repeatable=True))
        assert repeats(polished, players) <= repeats(day, players)
        digest.update(polished.tobytes())
        figures["repeats"] += repeats(polished, players)
        figures["trios_again"] += trios_again(polished)
        figures["back_to_back"] += back_to_back(polished)
    rows.append({"room": f"{players}x{rounds}", **figures, "days": digest.hexdigest()})
print(json.dumps(rows))
"""


def run(revision: str, seeds: int, steps: int) -> tuple[str, list[dict]]:
    commit, code = extract(revision)
    env = {**os.environ, "PYTHONPATH": str(code)}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps([ROOMS, seeds, steps])],
        env=env, cwd=code, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return commit, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", default="main")
    parser.add_argument("--new", default="HEAD")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=300)
    args = parser.parse_args()
    old_commit, old = run(args.old, args.seeds, args.steps)
    new_commit, new = run(args.new, args.seeds, args.steps)
    print(f"polish, {args.steps} steps, seeds 0-{args.seeds - 1}: {old_commit} -> {new_commit} (sums over seeds)")
    print(
        f"{'room':>6} {'trios: start':>12} {'old':>4} {'new':>4} {'rematches: start':>16} {'old':>4} {'new':>4}  days"
    )
    for a, b in zip(old, new, strict=True):
        print(
            f"{a['room']:>6} {a['trios_before']:>12} {a['trios_again']:>4} {b['trios_again']:>4} "
            f"{a['back_to_back_before']:>16} {a['back_to_back']:>4} {b['back_to_back']:>4}  "
            f"{'identical' if a['days'] == b['days'] else 'different'}"
        )
    total = {
        key: (sum(r[key] for r in old), sum(r[key] for r in new)) for key in ("trios_again", "back_to_back", "repeats")
    }
    print(
        "total: "
        + ", ".join(f"{key} {o} -> {n}" for key, (o, n) in total.items())
        + f" (load {os.getloadavg()[0]:.1f})"
    )


if __name__ == "__main__":
    main()
