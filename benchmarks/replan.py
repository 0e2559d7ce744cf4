"""Re-plans on the tournament day: the fewest-moves re-plan against re-seating everyone.

`python -m benchmarks.replan [--time-limit S] [--seeds N] [--grid-time-limit S] [--per-room N] [--out DIR]`
writes replan.md and replan.json:
1. the target: 40 players over 8 rounds, after round 3 two leave and one arrives, for several seeds:
   whole-day repeats and moves under both reseat choices, rounds 1-3 unchanged, time, and beside it the
   same remaining rounds planned without counting the meetings already played;
2. a sampled grid: rooms of 16 to 120 players over 6 rounds under both odd policies, each with
   `--per-room` scenarios drawn (seeded) from 1-3 leaving, 0-2 arriving, after round 1-5; moves and
   repeats of the fewest-moves re-plan and of re-seating everyone, each a run of `--grid-time-limit`,
   median and worst;
3. the change list at the room limit: 20 000 players over 10 rounds, two fixed-rule days with every
   player moved after round 2 (issue 30: it took 784 s when it rebuilt a room's map for each player).

`python -m benchmarks.replan --against-repair [--per-room N] [--grid-time-limit S] [--proof-time-limit S]`
(issue 40) writes replan_repair.md and replan_repair.json instead: rooms of 16 to 200 players over
8 rounds under both odd policies, each day with a keep-apart pair and a player staying at table 1,
scenarios drawn (seed 0) from 1-3 leaving, 0-2 arriving, after round 0-5, and issue 40's own room (120
players, sit-outs, one arrival from round 1). Each: the moves of the repair start (optimizer.moves.repair),
of the fewest-moves proposal at the desk's default (10 s a re-plan, half of it for this proposal, one
worker) and of a longer run (`--proof-time-limit`, one worker) with its proven bound: the fewest moves.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from pathlib import Path

import optimizer
from benchmarks.machine import describe
from models import Event, OddPolicy, Reseat

PLAYERS, ROUNDS, PLAYED = 40, 8, 3
DROP, ADD = ("P05", "P17"), ("Zoe",)
GRID_PLAYERS = (16, 21, 30, 37, 40, 58, 83, 120)
GRID_ROUNDS = 6
ARRIVALS = ("New1", "New2")
REPAIR_PLAYERS, REPAIR_ROUNDS = (16, 37, 58, 83, 120, 161, 200), 8


def replanned(day, played: int, drop, add, reseat: Reseat, time_limit: float, seed: int, workers: int = 2) -> dict:
    """One re-plan's figures: whole-day repeats, moves (seat changes) and players moved, proofs, time."""
    started = time.monotonic()
    outcome = optimizer.replan(
        day,
        played,
        drop=drop,
        add=add,
        reseat=reseat,
        other_way=False,
        time_limit=time_limit,
        seed=seed,
        workers=workers,
    )
    runtime = time.monotonic() - started
    result = outcome.result
    if result.schedule is None:
        return {"found": False, "status": result.status.value, "runtime": round(runtime, 3)}
    moves = outcome.moves
    assert moves is not None
    return {
        "found": True,
        "repeats": optimizer.check(result.schedule).repeats,
        "moves": moves.moves,
        "players_moved": moves.players,
        "moves_bound": moves.bound,
        "moves_proven": moves.proven,
        "repeats_proven_for_moves": moves.repeats_proven,
        "played_rounds_unchanged": result.schedule.rounds[:played] == day.rounds[:played],
        "runtime": round(runtime, 3),
    }


def measure(day, seed: int, time_limit: float) -> dict:
    fewest, everyone = (replanned(day, PLAYED, DROP, ADD, r, time_limit, seed) for r in (Reseat.FEWEST, Reseat.ALL))
    assert fewest["found"] and everyone["found"], f"seed {seed}: a re-plan found no schedule"
    return {"seed": seed, "fewest": fewest, "all": everyone, "ignoring_played": _ignoring_played(day, seed, time_limit)}


def _ignoring_played(day, seed: int, time_limit: float) -> int:
    """Whole-day repeats when the remaining rounds are planned as if nobody had met yet."""
    players = tuple(n for n in day.players if n not in DROP) + ADD
    fresh = optimizer.plan(Event(players=players, rounds=ROUNDS - PLAYED), time_limit=time_limit, seed=seed, workers=2)
    assert fresh.schedule is not None, f"seed {seed}: no fresh schedule ({fresh.status.value})"
    glued = day.model_copy(
        update={
            "players": day.players + ADD,
            "rounds": day.rounds[:PLAYED] + fresh.schedule.rounds,
            "arrivals": {name: PLAYED + 1 for name in ADD},
            "departures": {name: PLAYED + 1 for name in DROP},
        }
    )
    return optimizer.check(glued).repeats


def change_list_seconds(players: int = 20_000, rounds: int = 10, played: int = 2) -> tuple[int, float]:
    """Players listed and seconds for the change list between two fixed-rule days of one room."""
    from optimizer.replan import _changes

    event = Event.with_count(players, rounds)
    old = optimizer.fixed_schedule(event)
    new = optimizer.fixed_schedule(Event(players=tuple(reversed(event.players)), rounds=rounds))
    new = new.model_copy(update={"players": old.players})
    started = time.monotonic()
    changes = _changes(old, new, played)
    return len(changes), time.monotonic() - started


def grid(per_room: int, time_limit: float, seed: int) -> list[dict]:
    """The sampled grid of drop/add scenarios, each re-planned both ways."""
    rng = random.Random(seed)
    rows = []
    for odd in OddPolicy:
        for players in GRID_PLAYERS:
            day = optimizer.plan(
                Event.with_count(players, GRID_ROUNDS, odd=odd), time_limit=time_limit, workers=2
            ).schedule
            assert day is not None
            for _ in range(per_room):
                played, leave, arrive = rng.randint(1, GRID_ROUNDS - 1), rng.randint(1, 3), rng.randint(0, 2)
                drop, add = tuple(rng.sample(day.players, leave)), ARRIVALS[:arrive]
                scenario = {"odd": odd.value, "players": players, "played": played, "leave": leave, "arrive": arrive}
                both = {r.value: replanned(day, played, drop, add, r, time_limit, seed) for r in Reseat}
                rows.append({**scenario, **both})
                print(_row(rows[-1]), flush=True)
    return rows


def repair_moves(day, played: int, drop, add) -> tuple[int, bool]:
    """Moves of the repair start alone (the old plan with its seats kept and turns traded fair), and
    whether the checker passes it with fair turns (else it is no start, and the search has none)."""
    from optimizer.checking.checker import InvalidSchedule
    from optimizer.moves import OldPlan
    from optimizer.moves.repair import repaired
    from optimizer.replan import _history, _remaining_event

    event = _remaining_event(day, played, drop, add)
    history = _history(day, played, event, drop, add, 0)
    old = OldPlan.of(day, played, event.players)
    start = old.keep_letters(repaired(old, event, history.burdens_before), history.letters_before)
    try:
        valid = optimizer.check(history.whole_day(event, start)).turns_fair
    except InvalidSchedule:
        valid = False
    return int(old.moved(start).sum()), valid


def requested_day(players: int, odd: OddPolicy, time_limit: float):
    """A day of REPAIR_ROUNDS rounds with a keep-apart pair and a player staying at table 1."""
    names = Event.with_count(players, REPAIR_ROUNDS, odd=odd).players
    event = Event(players=names, rounds=REPAIR_ROUNDS, odd=odd, apart=(names[:2],), stay={names[2]: 1})
    day = optimizer.plan(event, time_limit=time_limit, workers=1).schedule
    assert day is not None
    return day


def against_repair(per_room: int, time_limit: float, proof_time_limit: float, seed: int) -> list[dict]:
    """Issue 40's room, then the sampled scenarios: repair start, desk-default proposal, longer run."""
    rng = random.Random(seed)
    scenarios = [(120, OddPolicy.SIT_OUT, 0, 0, 1)]  # issue 40: one arrival from round 1
    for odd in OddPolicy:
        for players in REPAIR_PLAYERS:
            scenarios += [
                (players, odd, rng.randint(0, 5), rng.randint(1, 3), rng.randint(0, 2)) for _ in range(per_room)
            ]
    days: dict = {}
    rows = []
    for players, odd, played, leave, arrive in scenarios:
        if (players, odd) not in days:
            days[players, odd] = requested_day(players, odd, time_limit)
        day = days[players, odd]
        drop, add = tuple(rng.sample(day.players[3:], leave)), ARRIVALS[:arrive]  # the requests' players stay
        row: dict = {"odd": odd.value, "players": players, "played": played, "leave": leave, "arrive": arrive,
               "load": os.getloadavg()[0]}  # fmt: skip
        row["repair"], row["repair_valid"] = repair_moves(day, played, drop, add)
        for name, seconds in (("desk", time_limit), ("long", proof_time_limit)):
            row[name] = replanned(day, played, drop, add, Reseat.FEWEST, seconds, seed, workers=1)
        rows.append(row)
        print(_repair_row(row), flush=True)
    return rows


def _repair_row(row: dict) -> str:
    def cell(run: dict) -> str:
        if not run["found"]:
            return f"none ({run['status']})"
        proof = "" if run["moves_proven"] else f" (>= {run['moves_bound']})"
        return f"{run['moves']}{proof}"

    return (
        f"| {row['odd']} | {row['players']} | {row['played']} | {row['leave']} | {row['arrive']} | {row['load']:.1f} "
        f"| {row['repair']}{'' if row['repair_valid'] else ' (refused)'} | {cell(row['desk'])} | {cell(row['long'])} |"
    )


def repair_report(rows: list[dict], args, seconds: float) -> list[str]:
    machine = describe()
    found = [r for r in rows if r["desk"]["found"] and r["long"]["found"]]
    fewest = [min(r["long"]["moves"], r["desk"]["moves"]) for r in found]
    valid = [r for r in rows if r["repair_valid"]]
    above_repair = [r for r in valid if not r["desk"]["found"] or r["desk"]["moves"] > r["repair"]]
    proven = [r for r in found if r["long"]["moves_proven"] or r["desk"]["moves_proven"]]
    at_fewest = [r for r in proven if r["desk"]["moves"] == min(r["long"]["moves"], r["desk"]["moves"])]
    loads = [r["load"] for r in rows]
    return [
        "# Fewest-moves re-plans against their repair start and the proven fewest (issue 40)",
        "",
        f"`python -m benchmarks.replan --against-repair --per-room {args.per_room} --grid-time-limit "
        f"{args.grid_time_limit:g} --proof-time-limit {args.proof_time_limit:g}`",
        "",
        f"{len(rows)} scenarios: issue 40's room (120 players, sit-outs, a keep-apart pair, a player staying at "
        f"table 1, one arrival from round 1), then {args.per_room} a room drawn (seed 0) from 1-3 leaving, 0-2 "
        f"arriving, after round 0-5, rooms of {', '.join(map(str, REPAIR_PLAYERS))} players over "
        f"{REPAIR_ROUNDS} rounds under both odd policies, each day with a keep-apart pair and a stayer. The "
        f"proposal at the desk's default: {args.grid_time_limit:g} s (the desk gives a re-plan 10 s, half to "
        f"each proposal), one worker; the longer run {args.proof_time_limit:g} s, one worker. "
        f"{machine['cpu']}, {machine['cores']} cores shared with other jobs: load average {min(loads):.1f} to "
        f"{max(loads):.1f} (median {statistics.median(loads):.1f}) as scenarios started; commit "
        f"{machine['commit']}; {seconds:.0f} s in all.",
        "",
        f"- repair starts the checker passes: {len(valid)} of {len(rows)}; proposals with more moves than their "
        f"repair start (or none), where it passes: {len(above_repair)} of {len(valid)}",
        f"- moves, repair start: {_spread([r['repair'] for r in rows])}; proposal: "
        f"{_spread([r['desk']['moves'] for r in found])}; fewest found (either run): {_spread(fewest)}",
        f"- proposal at the fewest: {len(at_fewest)} of the {len(proven)} scenarios whose fewest is proven; "
        f"proposal above the fewest found by {_spread([r['desk']['moves'] - f for r, f in zip(found, fewest)])}",
        "",
        "| odd | players | after round | leave | arrive | load | repair start | proposal (desk default) | longer run |",
        "|---|---|---|---|---|---|---|---|---|",
        *map(_repair_row, rows),
        "",
        "'(>= b)': not proven fewest; b is the proven fewest moves of any re-plan. '(refused)': the repair "
        "start breaks a request or fair turns, so the checker refuses it and it is no start.",
        "",
    ]


def _row(row: dict) -> str:
    def cell(run: dict) -> str:
        if not run["found"]:
            return f"none ({run['status']}) | | "
        proof = "" if run["moves_proven"] else f" (>= {run['moves_bound']})"
        return f"{run['moves']}{proof} / {run['players_moved']} | {run['repeats']} | {run['runtime']:.1f}"

    return (
        f"| {row['odd']} | {row['players']} | {row['played']} | {row['leave']} | {row['arrive']} | "
        f"{cell(row['fewest'])} | {cell(row['all'])} |"
    )


def _spread(values: list[float]) -> str:
    return f"median {statistics.median(values):.3g}, worst {max(values):.3g}" if values else "none"


def _grid_summary(rows: list[dict]) -> list[str]:
    lines = []
    for odd in [None, *OddPolicy]:
        part = [r for r in rows if odd is None or r["odd"] == odd.value]
        both = [r for r in part if r["fewest"]["found"] and r["all"]["found"]]
        title = "all scenarios" if odd is None else odd.value
        figures = {
            "moves, fewest": [r["fewest"]["moves"] for r in both],
            "moves, everyone re-seated": [r["all"]["moves"] for r in both],
            "repeats, fewest": [r["fewest"]["repeats"] for r in both],
            "repeats, everyone re-seated": [r["all"]["repeats"] for r in both],
            "repeats the fewest moves cost": [r["fewest"]["repeats"] - r["all"]["repeats"] for r in both],
        }
        proven = sum(r["fewest"]["moves_proven"] for r in both)
        found = {k: sum(r[k]["found"] for r in part) for k in ("fewest", "all")}
        lines += [
            f"- {title} ({len(part)} scenarios; schedules found: fewest {found['fewest']}, everyone {found['all']}; "
            f"move count proven fewest in {proven} of {len(both)}):",
            *(f"  - {name}: {_spread(values)}" for name, values in figures.items()),
        ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--grid-time-limit", type=float, default=4.0)
    parser.add_argument("--per-room", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    parser.add_argument("--against-repair", action="store_true", help="issue 40's grid (see the module's help)")
    parser.add_argument("--proof-time-limit", type=float, default=30.0)
    args = parser.parse_args(argv)
    started = time.monotonic()
    if args.against_repair:
        rows = against_repair(args.per_room, args.grid_time_limit, args.proof_time_limit, seed=0)
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "replan_repair.json").write_text(
            json.dumps({"machine": describe(), "rows": rows}, indent=1), encoding="utf-8"
        )
        (args.out / "replan_repair.md").write_text(
            "\n".join(repair_report(rows, args, time.monotonic() - started)), encoding="utf-8"
        )
        return 0
    day = optimizer.plan(Event.with_count(PLAYERS, ROUNDS), time_limit=args.time_limit).schedule
    target = [measure(day, seed, args.time_limit) for seed in range(args.seeds)]
    rows = grid(args.per_room, args.grid_time_limit, seed=0)
    listed, seconds = change_list_seconds()
    machine = describe()
    fewest, everyone = ([t[k] for t in target] for k in ("fewest", "all"))
    lines = [
        "# Re-plans: the fewest moves against re-seating everyone",
        "",
        f"2 CP-SAT workers; {machine['cpu']}, {machine['cores']} cores (shared), OR-Tools {machine['ortools']}, "
        f"commit {machine['commit']}; {time.monotonic() - started:.0f} s in all. A move is one player in one round "
        "whose table or seat letter differs from the old plan; 'moves / players' counts both; '(>= b)' is the "
        "proven fewest moves of any re-plan where the count is not proven fewest.",
        "",
        f"## {PLAYERS} players, {ROUNDS} rounds, after round {PLAYED}; "
        f"{', '.join(DROP)} leave, {', '.join(ADD)} arrives",
        "",
        f"Time limit {args.time_limit:g} s each, {args.seeds} seeds.",
        "",
        f"- fewest moves: moves {[r['moves'] for r in fewest]} (players {[r['players_moved'] for r in fewest]}, "
        f"proven fewest {[r['moves_proven'] for r in fewest]}), repeats {[r['repeats'] for r in fewest]}",
        f"- everyone re-seated: moves {[r['moves'] for r in everyone]}, repeats {[r['repeats'] for r in everyone]}",
        f"- rounds 1-{PLAYED} unchanged in every run: {all(r['played_rounds_unchanged'] for r in fewest + everyone)}",
        f"- time: fewest {_spread([r['runtime'] for r in fewest])} s; "
        f"everyone {_spread([r['runtime'] for r in everyone])} s",
        f"- the same rounds planned without counting played meetings: repeats {[t['ignoring_played'] for t in target]}",
        "",
        f"## A sampled grid: {GRID_ROUNDS} rounds, {', '.join(map(str, GRID_PLAYERS))} players, both odd policies",
        "",
        f"{args.per_room} scenarios a room drawn from 1-3 leaving, 0-2 arriving, after round 1-{GRID_ROUNDS - 1} "
        f"(seed 0); each re-plan {args.grid_time_limit:g} s, the day itself planned in {args.grid_time_limit:g} s.",
        "",
        *_grid_summary(rows),
        "",
        "## The change list at the room limit",
        "",
        f"20 000 players over 10 rounds, every player moved after round 2: {listed} players listed in "
        f"{seconds:.1f} s (one pass over the rounds).",
        "",
        "## Every scenario of the grid",
        "",
        "| odd | players | after round | leave | arrive | fewest: moves / players | repeats | s "
        "| everyone: moves / players | repeats | s |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        *map(_row, rows),
        "",
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    change_list = {"players": 20_000, "rounds": 10, "played": 2, "listed": listed, "seconds": round(seconds, 2)}
    results = {"machine": machine, "target": target, "grid": rows, "change_list": change_list}
    (args.out / "replan.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    (args.out / "replan.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
