import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import threading
import time
from itertools import combinations

import pytest

import optimizer
from models import Answer, Event, OddPolicy, Schedule, Status
from rotation.commands.cli import main

pytestmark = pytest.mark.slow


def repeats_from_names(schedule: Schedule) -> int:
    """E counted pair by pair from the names in the schedule: sum of max(0, meetings - 1)."""
    tables = [set(t.players) for r in schedule.rounds for t in r.tables]
    return sum(max(0, sum(a in t and b in t for t in tables) - 1) for a, b in combinations(schedule.players, 2))


@pytest.mark.parametrize("players, rounds", [(8, 3), (12, 3), (16, 4), (16, 7), (20, 5), (24, 6), (28, 6)])
def test_plan_is_valid_and_never_worse_than_the_fixed_rule(players, rounds):
    event = Event.with_count(players, rounds)
    result = optimizer.plan(event, time_limit=2, workers=2)
    # The schedule as written to a file, read back and checked, against a count from names alone.
    written = Schedule.model_validate_json(result.schedule.model_dump_json())
    assert optimizer.check(written).repeats == repeats_from_names(written) == result.repeats
    assert result.repeats <= result.fixed_repeats
    assert result.bound.repeats <= result.repeats
    assert result.status is (Status.OPTIMAL if result.repeats == result.bound.repeats else Status.FEASIBLE)


# The proofs below count work on one seeded worker (optimizer.budget), so the wall clock of a loaded machine never
# ends them first; each limit is several times the work measured to reach the proof.


def test_sixteen_players_over_six_rounds_is_proven_optimal_at_24():
    result = optimizer.plan(Event.with_count(16, 6), time_limit=2, seed=0, workers=1)  # proven at 0.02 s of work
    assert result.repeats == 24 and result.status is Status.OPTIMAL


def test_cpsat_proves_a_small_optimum_above_the_counting_bound():
    result = optimizer.plan(Event.with_count(8, 3), time_limit=2.5, seed=0, workers=1)  # proven within 0.5 s of work
    assert result.status is Status.OPTIMAL and result.repeats == result.bound.repeats == 8


def test_odd_rooms_share_burdens_in_turn():
    for odd in OddPolicy:
        result = optimizer.plan(Event.with_count(11, 4, odd=odd), time_limit=2, seed=0, workers=1)
        metrics = optimizer.check(result.schedule)
        assert metrics.three_handed_fair and metrics.sit_outs_fair


# CP-SAT proves (within 10 s of work, so the wall clock of a loaded machine does not end it first); tabu runs out
# its steps
@pytest.mark.parametrize("players, rounds, seconds", [(12, 3, 10.0), (23, 6, 3.0)])
def test_seeded_single_worker_runs_repeat_exactly(players, rounds, seconds):
    event = Event.with_count(players, rounds)
    first = optimizer.plan(event, time_limit=seconds, seed=7, workers=1)
    second = optimizer.plan(event, time_limit=seconds, seed=7, workers=1)
    assert first.schedule == second.schedule


def test_seeded_single_worker_runs_repeat_exactly_through_the_race_of_round_choices():
    event = Event.with_count(32, 8)  # 8 of the 10 rounds of a repeat-free design, all 45 choices raced
    first = optimizer.plan(event, time_limit=10, seed=7, workers=1)
    second = optimizer.plan(event, time_limit=10, seed=7, workers=1)
    assert "rounds chosen for the table numbers" in first.method
    assert first.schedule == second.schedule


def test_seeded_single_worker_runs_repeat_exactly_when_the_proof_is_split():
    event = Event.with_count(13, 4, odd=OddPolicy.SIT_OUT)  # split by round 2, and not proven in 3 s
    first = optimizer.plan(event, time_limit=3, seed=7, workers=1)
    second = optimizer.plan(event, time_limit=3, seed=7, workers=1)
    assert first.schedule == second.schedule and first.bound == second.bound


def verdict(players, rounds, time_limit=5.0, **settings):
    # one seeded worker counting work: EXISTS, IMPOSSIBLE and UNKNOWN are the same on any load (every answer
    # below but the CP-SAT proof takes no work at all; that one takes 3.2 s of its 60)
    return optimizer.zero_repeat_verdict(
        Event.with_count(players, rounds, **settings), time_limit=time_limit, seed=0, workers=1
    )


@pytest.mark.parametrize(
    "players, rounds, settings, made",
    [
        (16, 5, {}, "affine"),
        (23, 7, {}, "deleted"),  # three-handed
        (25, 7, {"odd": OddPolicy.SIT_OUT}, "joined"),
        (22, 5, {}, "library"),  # three-handed: the first rounds of a stored day
    ],
)
def test_exists_comes_with_a_checked_certificate(players, rounds, settings, made):
    answer = verdict(players, rounds, **settings)
    assert answer.answer is Answer.EXISTS and made in answer.reason
    metrics = optimizer.check(answer.schedule)
    assert metrics.repeats == 0 and len(answer.schedule.rounds) == rounds
    assert metrics.three_handed_fair and metrics.sit_outs_fair


@pytest.mark.parametrize(
    "players, rounds, settings, proof",
    [
        (16, 6, {}, "counting"),
        (12, 2, {}, "pigeonhole"),
        (20, 6, {}, "Ge, Lam, Ling and Shen"),
        (19, 6, {}, "three-handed twice"),  # a 20th player at the table of three would make 20 x 6
        (17, 4, {}, "taken in turn"),  # fair shares of three-handed seats force rematches
        # found by the symmetry-broken model in about 2.5 s with one worker, whose budget is counted in
        # deterministic work, not wall time: a loaded machine takes longer but finds the same proof
        (18, 6, {"time_limit": 60.0}, "CP-SAT"),
        (18, 6, {"odd": OddPolicy.SIT_OUT}, "per player"),
    ],
)
def test_impossible_names_its_proof(players, rounds, settings, proof):
    answer = verdict(players, rounds, **settings)
    assert answer.answer is Answer.IMPOSSIBLE and proof in answer.reason and answer.schedule is None


def test_unknown_when_neither_found_nor_proven_in_time():
    answer = verdict(21, 7, time_limit=0.2)  # three-handed: no construction or stored day applies
    assert answer.answer is Answer.UNKNOWN and answer.schedule is None


# Seconds a subprocess test waits for a process before calling it hung: a guard, never a measure of speed
# (beside two CPU-bound processes, starting Python and OR-Tools alone takes several seconds).
PATIENCE = 600


def read_until(fd: int, pattern: bytes, seen: bytearray, timeout: float) -> bool:
    """Read a pseudo-terminal into `seen` until `pattern` (a regex) shows, or the timeout passes."""
    deadline = time.monotonic() + timeout
    while not re.search(pattern, seen):
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                seen.extend(os.read(fd, 4096))
            except OSError:  # the child closed the terminal
                return False
    return True


@pytest.mark.parametrize(
    "players, rounds",
    [
        (23, 8),  # Ctrl-C reaches the tabu search
        (20, 6),  # Ctrl-C reaches the rotational search for a sixth repeat-free round (CP-SAT, up to 10 s)
    ],
)
@pytest.mark.subprocess
def test_ctrl_c_returns_checks_and_writes_the_best_schedule(tmp_path, players, rounds):
    """The live line shows only on a terminal: stderr is a pseudo-terminal, and Ctrl-C is sent once
    the line reports a schedule found (a number after "best repeats", not the "-" it starts with)."""
    out = tmp_path / "plan.json"
    room = ["--players", str(players), "--rounds", str(rounds)]
    command = [sys.executable, "-m", "rotation.commands.cli", "plan", *room, "--time-limit", "60", "--json", str(out)]
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "xterm"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=slave, text=True, env=env)
    os.close(slave)
    seen = bytearray()
    try:
        shown = read_until(master, rb"best repeats \d+\s+lower bound \d+", seen, timeout=PATIENCE)
        assert shown, f"no progress line on the terminal: {seen.decode(errors='replace')!r}"
        process.send_signal(signal.SIGINT)
        drain = threading.Thread(target=read_until, args=(master, rb"\0never", seen, PATIENCE), daemon=True)
        drain.start()  # keep reading the terminal so the child never blocks writing to it
        stdout, _ = process.communicate(timeout=PATIENCE)
        drain.join(timeout=10)  # the terminal closes with the child
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
    assert process.returncode == 0, seen.decode(errors="replace")
    assert "stopped early by Ctrl-C" in stdout
    optimizer.check(Schedule.model_validate_json(out.read_text(encoding="utf-8")))


def test_twenty_players_over_seven_rounds_reach_the_counting_bound():
    result = optimizer.plan(Event.with_count(20, 7), time_limit=5, seed=0, workers=1)  # optimal within 1 s of work
    assert result.repeats == 20 and result.status is Status.OPTIMAL


@pytest.mark.parametrize("players, rounds", [(16, 6), (24, 9), (28, 10)])
def test_variety_rotation_spreads_seats_tables_trios_and_rematches_at_the_fewest_repeats(players, rounds):
    # Each room's E is at the counting bound; the best published tables have no trio again and at most
    # six back-to-back rematches there.
    result = optimizer.plan(Event.with_count(players, rounds), time_limit=10, seed=0, workers=1)
    metrics = optimizer.check(result.schedule)
    assert result.status is Status.OPTIMAL and metrics.repeats == result.bound.repeats
    assert metrics.seat_spread <= 1 and metrics.trios_again == 0 and metrics.back_to_back <= 6


def test_the_fixed_rule_keeps_its_seat_letters():
    schedule = optimizer.fixed_schedule(Event.with_count(16, 4))
    letters = [{name: seat for t in r.tables for seat, name in enumerate(t.players)} for r in schedule.rounds]
    assert all(day == letters[0] for day in letters)  # nobody ever changes letter
    assert optimizer.check(schedule).seat_spread == 4


@pytest.mark.parametrize("players, rounds", [(12, 3), (20, 6)])
def test_a_seeded_single_worker_run_writes_the_same_file_twice(tmp_path, monkeypatch, players, rounds):
    # Both rooms go past the instant constructions to the rotational search (CP-SAT), then tabu search,
    # the whole-day CP-SAT model and every balancing stage, the regrouping for table numbers included.
    # Counted in work alone, the run never reads the clock: the files are the same byte for byte, the
    # time they record set by SOURCE_DATE_EPOCH.
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764720000")
    files = [tmp_path / f"{k}.json" for k in (1, 2)]
    for file in files:
        argv = ["plan", "--players", str(players), "--rounds", str(rounds), "--time-limit", "3"]
        assert main([*argv, "--seed", "5", "--workers", "1", "--json", str(file), "--quiet"]) == 0
    assert files[0].read_bytes() == files[1].read_bytes()
    assert json.loads(files[0].read_text(encoding="utf-8"))["provenance"]["created"] == "2025-12-03T00:00:00+00:00"
