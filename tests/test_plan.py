import signal
import subprocess
import sys
import time

import pytest

import optimizer
from models import Answer, Event, OddPolicy, Schedule, Status


@pytest.mark.parametrize("players, rounds", [(8, 3), (12, 3), (16, 4), (16, 7), (20, 5), (24, 6), (28, 6)])
def test_plan_is_valid_and_never_worse_than_the_fixed_rule(players, rounds):
    event = Event.with_count(players, rounds)
    result = optimizer.plan(event, time_limit=2, workers=2)
    metrics = optimizer.check(result.schedule)  # the independent checker agrees with the result
    assert metrics.repeats == result.repeats
    assert result.repeats <= result.fixed_repeats
    assert result.bound.repeats <= result.repeats
    assert result.status is (Status.OPTIMAL if result.repeats == result.bound.repeats else Status.FEASIBLE)


def test_sixteen_players_over_six_rounds_is_proven_optimal_at_24():
    result = optimizer.plan(Event.with_count(16, 6), time_limit=5)
    assert result.repeats == 24 and result.status is Status.OPTIMAL


def test_cpsat_proves_a_small_optimum_above_the_counting_bound():
    result = optimizer.plan(Event.with_count(8, 3), time_limit=10, workers=2)
    assert result.status is Status.OPTIMAL and result.repeats == result.bound.repeats == 8


def test_odd_rooms_share_burdens_in_turn():
    for odd in OddPolicy:
        result = optimizer.plan(Event.with_count(11, 4, odd=odd), time_limit=2, workers=2)
        metrics = optimizer.check(result.schedule)
        assert metrics.three_handed_fair and metrics.sit_outs_fair


@pytest.mark.parametrize("players, rounds", [(12, 3), (23, 6)])  # CP-SAT proves; tabu runs out its steps
def test_seeded_single_worker_runs_repeat_exactly(players, rounds):
    event = Event.with_count(players, rounds)
    first = optimizer.plan(event, time_limit=3, seed=7, workers=1)
    second = optimizer.plan(event, time_limit=3, seed=7, workers=1)
    assert first.schedule == second.schedule


def verdict(players, rounds, time_limit=5.0, **settings):
    return optimizer.zero_repeat_verdict(Event.with_count(players, rounds, **settings), time_limit=time_limit, workers=2)


def test_exists_comes_with_a_checked_certificate():
    answer = verdict(16, 5)
    assert answer.answer is Answer.EXISTS
    assert optimizer.check(answer.schedule).repeats == 0 and len(answer.schedule.rounds) == 5


@pytest.mark.parametrize(
    "players, rounds, settings, proof",
    [
        (16, 6, {}, "counting"),
        (12, 2, {}, "pigeonhole"),
        (20, 6, {}, "Ge, Lam, Ling and Shen"),
        (17, 4, {}, "CP-SAT"),  # fair shares of three-handed seats force a repeat
    ],
)
def test_impossible_names_its_proof(players, rounds, settings, proof):
    answer = verdict(players, rounds, **settings)
    assert answer.answer is Answer.IMPOSSIBLE and proof in answer.reason and answer.schedule is None


def test_unknown_when_neither_found_nor_proven_in_time():
    answer = verdict(23, 7, time_limit=0.2)
    assert answer.answer is Answer.UNKNOWN and answer.schedule is None


def test_ctrl_c_returns_checks_and_writes_the_best_schedule(tmp_path):
    out = tmp_path / "plan.json"
    command = [sys.executable, "-m", "rotation.cli", "plan", "--players", "23", "--rounds", "8", "--time-limit", "60", "--json", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(6)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=30)
    assert process.returncode == 0, stderr
    assert "stopped early by Ctrl-C" in stdout
    optimizer.check(Schedule.model_validate_json(out.read_text()))


def test_twenty_players_over_seven_rounds_reach_the_counting_bound():
    result = optimizer.plan(Event.with_count(20, 7), time_limit=20, workers=2)
    assert result.repeats == 20 and result.status is Status.OPTIMAL


def test_tabu_search_keeps_tables_and_counts_repeats_exactly():
    import numpy as np

    from optimizer.constructions.fixed import fixed_seating
    from optimizer.search import Costs, tabu_search
    from optimizer.seats import repeats

    event = Event.with_count(19, 5, odd=OddPolicy.SIT_OUT)
    start = fixed_seating(event)
    best = tabu_search(start, Costs.of(event), time.monotonic() + 1, np.random.default_rng(1))
    for before, after in zip(start, best):  # same table sizes, same players seated
        assert sorted(before[before >= 0]) == sorted(after[after >= 0])
        assert ((before >= 0).sum(axis=1) == (after >= 0).sum(axis=1)).all()
    assert repeats(best, 19) <= repeats(start, 19)
