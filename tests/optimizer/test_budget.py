"""The one budget (optimizer.budget): its two clocks, sub-budgets, the stop token, and the CP-SAT runner."""

from __future__ import annotations

import threading

from ortools.sat.python import cp_model

from optimizer.budget import CPSAT_WORK_PER_SECOND, STOP, Budget, Stop, WallClock, WorkClock, solve


def test_a_repeatable_budget_counts_work_alone():
    budget = Budget.of(10, repeatable=True)
    assert budget.repeatable and isinstance(budget.clock, WorkClock)
    assert budget.left() == 10 and not budget.done()
    budget.charge(4)
    assert budget.left() == 6 and budget.afford(6) and not budget.afford(6.5)
    budget.charge(6)
    assert budget.done()


def test_a_budget_on_the_wall_clock_ignores_charges():
    budget = Budget.of(1000)
    assert isinstance(budget.clock, WallClock) and not budget.repeatable
    budget.charge(999)
    assert 999 < budget.left() <= 1000


def test_sub_budgets_share_the_clock_and_end_within_their_parent():
    budget = Budget.of(10, repeatable=True)
    half = budget.share(0.5)
    assert half.left() == 5
    half.charge(2)  # work done in a sub-stage counts for the whole run
    assert budget.left() == 8 and half.left() == 3
    assert budget.within(100).left() == 8  # never past the parent's end
    assert budget.share(0.1, at_least=4).left() == 4
    assert budget.before(1).left() == 7


def test_the_stop_token_ends_every_budget_below_it():
    parent = Stop()
    budget = Budget.of(10, repeatable=True, stop=Stop(parent))
    sub = budget.share(0.5)
    parent.set()
    assert budget.stopped and budget.done() and sub.done() and not sub.afford(0)
    assert budget.left() == 0.0
    parent.clear()
    assert not budget.done()


def test_a_run_token_is_below_the_process_token():
    budget = Budget.of(10)
    try:
        STOP.set()
        assert budget.done()
    finally:
        STOP.clear()
    assert not budget.done()
    budget.stop.set()  # a run's own stop leaves the process's token alone
    assert budget.done() and not STOP.is_set()


def _queens(n: int) -> cp_model.CpModel:
    model = cp_model.CpModel()
    queens = [model.new_int_var(0, n - 1, f"q{i}") for i in range(n)]
    model.add_all_different(queens)
    model.add_all_different(q + i for i, q in enumerate(queens))
    model.add_all_different(q - i for i, q in enumerate(queens))
    return model


def test_the_runner_charges_a_repeatable_run_with_the_work_done():
    budget = Budget.of(5, repeatable=True)
    solved = solve(_queens(12), budget, workers=1, seed=0)
    assert solved.found and not solved.stopped
    assert budget.left() == 5 - solved.solver.deterministic_time / CPSAT_WORK_PER_SECOND
    assert solved.solver.parameters.max_deterministic_time == 5 * CPSAT_WORK_PER_SECOND
    assert solved.solver.parameters.num_workers == 1 and not solved.solver.parameters.catch_sigint_signal


def test_the_runner_takes_the_smaller_of_the_work_cap_and_the_budget():
    solved = solve(_queens(8), Budget.of(5, repeatable=True), workers=1, seed=3, work=0.5)
    assert solved.solver.parameters.max_deterministic_time == 0.5
    assert solved.solver.parameters.random_seed == 3
    on_the_clock = solve(_queens(8), Budget.of(5), workers=2, seed=0, work=0.5)
    assert on_the_clock.solver.parameters.max_deterministic_time == 0.5
    assert 0 < on_the_clock.solver.parameters.max_time_in_seconds <= 5


def _slow_to_prove() -> cp_model.CpModel:
    """The shortest Golomb ruler of 12 marks: quick to find a ruler, minutes on one worker to prove the shortest."""
    model = cp_model.CpModel()
    marks = [model.new_int_var(0, 200, f"m{i}") for i in range(12)]
    model.add(marks[0] == 0)
    for a, b in zip(marks, marks[1:]):
        model.add(a < b)
    gaps = [b - a for i, a in enumerate(marks) for b in marks[i + 1 :]]
    model.add_all_different(gaps)
    model.minimize(marks[-1])
    return model


def test_the_runner_stops_when_the_token_is_set():
    budget = Budget.of(60)
    threading.Timer(0.2, budget.stop.set).start()
    solved = solve(_slow_to_prove(), budget, workers=1, seed=0)
    assert solved.stopped and not solved.closed


def test_the_runner_does_not_search_once_stopped():
    budget = Budget.of(60)
    budget.stop.set()
    solved = solve(_slow_to_prove(), budget, workers=1, seed=0)
    assert solved.stopped and not solved.closed


def test_an_allowance_counts_steps_alike_on_either_clock():
    for budget in (Budget.of(1000), Budget.of(1000, repeatable=True)):
        allowance = budget.allowance(0.3)
        assert allowance.repeatable == budget.repeatable
        steps = 0
        while not allowance.done():
            allowance.charge(1 / 1000)
            steps += 1
        assert steps == 300  # float sums counted exactly
    parent = Budget.of(1, repeatable=True)
    allowance = parent.allowance(5)
    allowance.charge(1)  # charged to the parent too, which ends it
    assert parent.done() and allowance.done()
