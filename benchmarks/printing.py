"""Printouts: how many sheets each part takes with long names, and how long laying them out takes.

`python -m benchmarks.printing [--out DIR]` writes printing.md and printing.json: the sheets per part for
37 and 120 players (4, 6 and 8 rounds, every part), and the seconds to lay out one round's wall charts,
find-your-table lists and slips at 2000 and 20 000 players (the layout only, no browser).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

import optimizer
from benchmarks.machine import describe
from models import Event, OddPolicy
from rotation.printing.lookup import lookup_pages
from rotation.printing.options import PARTS, Options
from rotation.printing.pages import sheets
from rotation.printing.slips import slip_sheets
from rotation.printing.walls import day_wall_charts

FIRST_NAMES = (
    "Mei-Ling", "José", "Ahmed", "Łucja", "Zoë", "Anna-Katharina", "Bartholomew", "Siobhán", "Oluwaseun",
    "Hiroshi", "Émilie", "Maximilian", "Nguyễn", "Ólafur", "Krzysztof", "Ana", "Li", "Dmitri", "Søren", "Giovanni",
)  # fmt: skip
SURNAMES = (
    "Kierkegaard", "Papadopoulos-Richardson", "Wolfeschlegelsteinhausen", "Zellweger",
    "Featherstonehaugh-Cholmondeley", "Ó Súilleabháin", "Nakamura", "van der Merwe", "Smith", "Abernathy-Wolcott",
    "Żółć", "Rimsky-Korsakova", "Okonkwo", "Fernández de la Peña", "Lee", "Schwarzenegger", "Ivanova", "Dubois",
    "Christodoulopoulos", "Brown",
)  # fmt: skip


def room_names(count: int) -> tuple[str, ...]:
    """Up to 400 different names, long words and hyphens among them: the names that broke wall charts."""
    if count > len(FIRST_NAMES) * len(SURNAMES):
        raise ValueError(f"room_names: at most {len(FIRST_NAMES) * len(SURNAMES)} names")
    return tuple(f"{FIRST_NAMES[i % 20]} {SURNAMES[(i // 20 + i) % 20]}" for i in range(count))


def big_names(count: int) -> tuple[str, ...]:
    """The 400 names, numbered past the first 400: a room of any size with the same long words."""
    base = room_names(400)
    return tuple(base[i] if i < 400 else f"{base[i % 400]} {i // 400}" for i in range(count))


def pages(players: int, rounds: int) -> dict:
    schedule = optimizer.fixed_schedule(Event(players=room_names(players), rounds=rounds, odd=OddPolicy.SIT_OUT))
    kinds = Counter(sheet.kind for sheet in sheets(schedule, Options(only=PARTS)))
    return {"players": players, "rounds": rounds, "sheets": sum(kinds.values()), **kinds}


def timing(players: int) -> dict:
    schedule = optimizer.fixed_schedule(Event(players=big_names(players), rounds=1, odd=OddPolicy.SIT_OUT))
    out: dict = {"players": players}
    for part, lay_out in (
        ("walls", lambda: day_wall_charts(schedule, range(1))),
        ("lookup", lambda: lookup_pages(schedule, 0)),
        ("slips", lambda: slip_sheets(schedule, range(1))),
    ):
        started = time.monotonic()
        lay_out()
        out[part] = round(time.monotonic() - started, 2)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="benchmarks/results", help="folder for printing.md and printing.json")
    args = parser.parse_args(argv)
    machine = describe()
    counts = [pages(players, rounds) for players in (37, 120) for rounds in (4, 6, 8)]
    times = [timing(players) for players in (2000, 20000)]
    out = Path(args.out)
    (out / "printing.json").write_text(
        json.dumps({"machine": machine, "pages": counts, "seconds": times}, indent=1), encoding="utf-8"
    )
    lines = [
        "# Printouts: sheets per part with long names, and layout time",
        "",
        f"{machine}",
        "",
        "| players | rounds | sheets | walls | lookup | slips | score sheets |",
        "|---|---|---|---|---|---|---|",
        *(
            f"| {c['players']} | {c['rounds']} | {c['sheets']} | {c.get('wall', 0)} | {c.get('lookup', 0)} "
            f"| {c.get('slips', 0)} | {c.get('scores', 0)} |"
            for c in counts
        ),
        "",
        "| players | walls (s) | lookup (s) | slips (s) |",
        "|---|---|---|---|",
        *(f"| {t['players']} | {t['walls']} | {t['lookup']} | {t['slips']} |" for t in times),
    ]
    (out / "printing.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
