"""Seat one room in a fresh process and measure it: E, bound, times, peak memory, the checker's word.

Each measurement runs in its own spawned interpreter, so the peak resident memory read from
`resource.getrusage(RUSAGE_SELF)` in the child belongs to that room alone.
"""

from __future__ import annotations

import multiprocessing as mp
import statistics
import sys
import time
import traceback
from typing import Literal

SPAWN = mp.get_context("spawn")


def _event(players: int, rounds: int, odd: str):
    from models import Event, OddPolicy

    return Event.with_count(players, rounds, odd=OddPolicy(odd))


def _peak_mib() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def plan_room(
    players: int,
    rounds: int,
    odd: str,
    time_limit: float,
    seed: int,
    workers: int,
    warm_start: bool,
    repeats: int,
    repeat_below: float,
) -> dict:
    """Plan the room once, and `repeats - 1` more times if it was fast (timing noise matters there).
    Every schedule passes the independent checker, and its E must be the E the planner reported."""
    import optimizer

    event = _event(players, rounds, odd)
    fixed = optimizer.fixed_schedule(event)
    fixed_e = optimizer.check(fixed).repeats
    runs = []
    while True:
        result = optimizer.plan(event, time_limit=time_limit, seed=seed, workers=workers, warm_start=warm_start)
        checked, metrics = None, None
        if result.schedule is not None:
            metrics = optimizer.check(result.schedule)
            checked = metrics.repeats
            assert checked == result.repeats, f"checker says E={checked}, planner said {result.repeats}"
        assert result.fixed_repeats == fixed_e, "fixed rule E differs between plan and the checker"
        runs.append(
            {
                **_outcome(result),
                "time_to_first": result.time_to_first,
                "time_to_best": result.time_to_best,
                "time_to_proof": result.runtime if result.status.value == "optimal" else None,
                "checked": checked is not None,
                **balance_figures(metrics),
            }
        )
        if len(runs) >= repeats or runs[0]["runtime"] >= repeat_below:
            break
    static_bound = optimizer.lower_bound(event)
    return {
        "fixed_repeats": fixed_e,
        "static_bound": static_bound.repeats,
        "static_proof": static_bound.proof,
        "runs": runs,
        "peak_mib": _peak_mib(),
    }


# Named here, not imported from rotation/: a child may run the optimizer of an older commit.
BALANCE = ("seat_spread", "table_visits_above_even", "trios_again", "back_to_back")


def _outcome(result) -> dict:
    """What a plan run reports about itself, as plain values."""
    return {
        "status": result.status.value,
        "repeats": result.repeats,
        "bound": result.bound.repeats,
        "proof": result.bound.proof,
        "method": result.method,
        "runtime": result.runtime,
    }


def balance_figures(metrics) -> dict:
    """What players notice beyond repeats, as the checker measures it (None where a checker older than
    issue 11 does not measure it, or there is no schedule)."""
    return {name: getattr(metrics, name, None) for name in BALANCE}


def plan_schedule(players: int, rounds: int, odd: str, time_limit: float, seed: int, workers: int) -> dict:
    """Plan the room once and send the schedule back as JSON, so the parent can measure it with its own
    checker (the code planning here may be older than the parent's, see in_fresh_process's `code`)."""
    import optimizer

    event = _event(players, rounds, odd)
    result = optimizer.plan(event, time_limit=time_limit, seed=seed, workers=workers)
    return {
        "code_file": optimizer.__file__,
        **_outcome(result),
        "schedule": None if result.schedule is None else result.schedule.model_dump_json(),
        "peak_mib": _peak_mib(),
    }


def verdict_room(players: int, rounds: int, time_limit: float, seed: int, workers: int) -> dict:
    import optimizer

    event = _event(players, rounds, "three-handed")
    verdict = optimizer.zero_repeat_verdict(event, time_limit=time_limit, seed=seed, workers=workers)
    if verdict.schedule is not None:
        assert optimizer.check(verdict.schedule).repeats == 0, "a zero-repeat certificate failed the checker"
    return {
        "answer": verdict.answer.value,
        "reason": verdict.reason,
        "runtime": verdict.runtime,
        "checked": verdict.schedule is not None,
        "peak_mib": _peak_mib(),
    }


def _child(conn, function, kwargs, code: str | None = None) -> None:
    try:
        if code is not None:
            # Another version of optimizer/ and models/ (run.extract): first on the path, before anything
            # imports them; the spawned interpreter has not (this module and the main one import neither).
            assert "optimizer" not in sys.modules and "models" not in sys.modules, "the code was imported too early"
            sys.path.insert(0, code)
        conn.send(("ok", function(**kwargs)))
    except BaseException:  # reported to the parent, which records it and carries on
        conn.send(("error", traceback.format_exc()))
    finally:
        conn.close()


def in_fresh_process(function, kwargs: dict, timeout: float, code: str | None = None) -> dict:
    """Run `function(**kwargs)` in a new interpreter; a hang past `timeout` is killed and recorded.
    `code`: a folder holding optimizer/ and models/ (run.extract) that the child imports instead of the
    parent's."""
    parent, child = SPAWN.Pipe(duplex=False)
    process = SPAWN.Process(target=_child, args=(child, function, kwargs, code), daemon=True)
    started = time.monotonic()
    process.start()
    child.close()
    # What _child sends: ("ok", the function's dict) or ("error", a traceback).
    outcome: tuple[Literal["ok"], dict] | tuple[Literal["error"], str]
    outcome = ("error", f"no answer within {timeout:g} s; the process was stopped")
    if parent.poll(timeout):
        try:
            outcome = parent.recv()
        except EOFError:
            outcome = ("error", "the process died without an answer")
    process.join(5)
    if process.is_alive():
        process.kill()
        process.join()
    wall = time.monotonic() - started
    if outcome[0] == "error":
        return {"error": outcome[1], "wall": wall}
    return {**outcome[1], "wall": wall}


def summarise(measured: dict) -> dict:
    """Medians over the timing repeats; E is the median too (CP-SAT with several workers is not
    deterministic), with the spread kept."""
    runs = measured.get("runs") or []
    if not runs:
        return {}

    def median(key):
        values = [run[key] for run in runs if run[key] is not None]
        return statistics.median(values) if values else None

    repeats = [run["repeats"] for run in runs if run["repeats"] is not None]
    statuses = [run["status"] for run in runs]
    # The balance figures of a run whose E is the median (runs from before they were measured lack them).
    typical = next((run for run in runs if repeats and run["repeats"] == statistics.median_low(repeats)), runs[0])
    return {
        "repeats": statistics.median_low(repeats) if repeats else None,
        "repeats_range": [min(repeats), max(repeats)] if repeats else None,
        "bound": max(run["bound"] for run in runs),
        "proof": max(runs, key=lambda run: run["bound"])["proof"],
        "status": max(set(statuses), key=statuses.count),
        "method": runs[0]["method"],
        "runtime": median("runtime"),
        "time_to_first": median("time_to_first"),
        "time_to_best": median("time_to_best"),
        "time_to_proof": median("time_to_proof"),
        "timing_runs": len(runs),
        "peak_mib": measured["peak_mib"],
        **{name: typical.get(name) for name in BALANCE},
    }


def plan_rooms(rooms: list[tuple[int, int, str]], time_limit: float, seed: int, workers: int) -> dict:
    """Plan rooms one after another in this interpreter (no start-up per room), each measured by the
    checker of the code planning it: repeats, bound, method, time, balance figures, and the machine's
    1-minute load as the room started. A room that fails is recorded and the next one runs."""
    import os

    import optimizer

    rows = []
    for players, rounds, odd in rooms:
        row: dict = {"players": players, "rounds": rounds, "odd": odd, "load": os.getloadavg()[0]}
        try:
            result = optimizer.plan(_event(players, rounds, odd), time_limit=time_limit, seed=seed, workers=workers)
            metrics = None if result.schedule is None else optimizer.check(result.schedule)
            if metrics is not None:
                assert metrics.repeats == result.repeats, f"checker says E={metrics.repeats}, planner {result.repeats}"
            row |= {**_outcome(result), **balance_figures(metrics)}
        except Exception:  # recorded against the room; the batch carries on
            row["error"] = traceback.format_exc()
        rows.append(row)
    return {"code_file": optimizer.__file__, "rooms": rows, "peak_mib": _peak_mib()}
