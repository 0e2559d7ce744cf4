"""The whole-day CP-SAT model (optimizer.cpsat.model) and its warm start (optimizer.cpsat.hint):
a seating given as hint is complete and feasible, and the objective counts its repeats."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from models import Event, OddPolicy
from optimizer.checking.checker import measure
from optimizer.constructions.fixed import fixed_seating
from optimizer.cpsat.hint import canonical_form
from optimizer.cpsat.model import SeatingModel
from optimizer.seats import EMPTY, meetings, repeats, to_schedule

# Rooms where the fixed rule shares burdens in turn (so it meets the model's fair-share constraints).
FAIR_FIXED_ROOMS = [
    (8, 3, OddPolicy.THREE_HANDED),  # tables of four only
    (12, 3, OddPolicy.THREE_HANDED),
    (11, 3, OddPolicy.THREE_HANDED),  # two tables of four, one of three
    (6, 3, OddPolicy.THREE_HANDED),  # two tables of three
    (9, 3, OddPolicy.SIT_OUT),
    (11, 3, OddPolicy.SIT_OUT),
]


def solve_fixed_to_hint(model: SeatingModel):
    solver = cp_model.CpSolver()
    solver.parameters.fix_variables_to_their_hinted_value = True
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = 20  # a guard counting work: a fixed hint solves at once
    return solver, solver.solve(model.model)


def hinted_model(event: Event, seats: np.ndarray) -> SeatingModel:
    model = SeatingModel(event)
    model.add_hint(seats)
    return model


def test_the_rooms_used_here_have_a_fair_fixed_rule():
    for players, rounds, odd in FAIR_FIXED_ROOMS:
        event = Event.with_count(players, rounds, odd=odd)
        metrics = measure(to_schedule(event, fixed_seating(event), rule="fixed"))
        assert metrics.three_handed_fair and metrics.sit_outs_fair, (players, rounds, odd)


@pytest.mark.parametrize("players, rounds, odd", FAIR_FIXED_ROOMS)
def test_fixed_rule_hint_is_feasible_and_the_objective_counts_its_repeats(players, rounds, odd):
    """Every variable fixed to its hint (the hint is complete): a solution, whose repeats are the seating's."""
    event = Event.with_count(players, rounds, odd=odd)
    seats = fixed_seating(event)
    model = hinted_model(event, seats)
    solver, status = solve_fixed_to_hint(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert solver.value(model.total_repeats) == repeats(seats, players)
    assert model.repeats_bound(solver.objective_value) == repeats(seats, players)
    # the seating read back is the hint's day: the same meetings up to relabelling, hence the same repeats
    back = model.seating(solver.boolean_value)
    assert repeats(back, players) == repeats(seats, players)
    assert sorted(np.bincount(meetings(back, players).ravel())) == sorted(np.bincount(meetings(seats, players).ravel()))


@pytest.mark.parametrize("players, rounds, odd", FAIR_FIXED_ROOMS)
def test_fixed_rule_hint_gives_every_variable_a_value(players, rounds, odd):
    event = Event.with_count(players, rounds, odd=odd)
    proto = hinted_model(event, fixed_seating(event)).model.Proto()
    hinted = list(proto.solution_hint.vars)
    assert len(hinted) == len(set(hinted))  # no variable hinted twice
    unhinted = [v.name for i, v in enumerate(proto.variables) if i not in set(hinted)]
    assert unhinted == []


@pytest.mark.parametrize("players, rounds, odd", FAIR_FIXED_ROOMS)
def test_fixed_rule_hint_covers_every_seat_sit_out_and_meeting(players, rounds, odd):
    event = Event.with_count(players, rounds, odd=odd)
    model = hinted_model(event, fixed_seating(event))
    proto = model.model.Proto()
    hinted = set(proto.solution_hint.vars)
    decisions = list(model.seat.values()) + list(model.out.values()) + list(model.together.values())
    assert {v.index for v in decisions} <= hinted
    assert len(hinted) == len(proto.solution_hint.vars)  # each once


def random_round(players: int, tables: int, rng) -> np.ndarray:
    return rng.permutation(players).reshape(tables, 4)


@settings(max_examples=10)
@given(players=st.sampled_from([4, 8, 12]), rounds=st.integers(1, 3), seed=st.integers(0, 2**32 - 1))
def test_any_seating_of_tables_of_four_is_a_feasible_hint(players, rounds, seed):
    """Symmetry breaking fixes round one and orders tables; the hint is relabelled to fit, whatever the seating."""
    rng = np.random.default_rng(seed)
    event = Event.with_count(players, rounds)
    seats = np.stack([random_round(players, players // 4, rng) for _ in range(rounds)])
    model = hinted_model(event, seats)
    solver, status = solve_fixed_to_hint(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert solver.value(model.total_repeats) == repeats(seats, players)


def test_hint_relabelling_keeps_the_day_and_reaches_the_symmetry_broken_form():
    event = Event.with_count(11, 3)
    seats = fixed_seating(event)
    relabelled = canonical_form(seats, event.layout.fours, 11)
    assert repeats(relabelled, 11) == repeats(seats, 11)
    assert (relabelled[0, :, :3] == [[0, 1, 2], [4, 5, 6], [8, 9, 10]]).all()  # round one in list order
    assert relabelled[0, 0, 3] == 3 and relabelled[0, 1, 3] == 7 and relabelled[0, 2, 3] == EMPTY
    for round_ in relabelled:  # tables of four ordered by their lowest player; the table of three last
        assert round_[0].min() < round_[1].min()
        assert (round_[2] == EMPTY).sum() == 1


def test_a_staying_player_keeps_the_hinted_table():
    """With a stay request neither players nor tables are relabelled; the hint must be used as it is."""
    base = Event.with_count(8, 2)
    event = Event(players=base.players, rounds=2, stay={"P1": 2})
    seats = np.array([[[1, 2, 3, 4], [0, 5, 6, 7]], [[1, 3, 5, 7], [0, 2, 4, 6]]])
    model = hinted_model(event, seats)
    solver, status = solve_fixed_to_hint(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert (model.seating(solver.boolean_value) == seats).all()
    bad = seats.copy()
    bad[1] = bad[1][::-1]  # P1 at table 1 in round 2: the stay request forbids it
    solver, status = solve_fixed_to_hint(hinted_model(event, bad))
    assert status == cp_model.INFEASIBLE


def test_repeats_bound_reads_repeats_off_the_weighted_objective():
    event = Event.with_count(11, 3)
    model = SeatingModel(event)
    weight = model.repeats_weight
    n, most = model.player_count, event.rounds
    # every lower term at its largest stays below one unit of repeats: the weights are lexicographic
    assert model.fairness_weight * (n - 1) * most + most < weight
    for repeats_ in (0, 1, 7):
        assert model.repeats_bound(repeats_ * weight) == repeats_
        assert model.repeats_bound(repeats_ * weight + weight - 1) == repeats_
        assert model.repeats_bound(repeats_ * weight - 1e-9) == repeats_  # a float bound just below
    assert model.repeats_bound(weight - 1) == 0


def test_objective_bound_of_a_proven_optimum_gives_its_repeats():
    event = Event.with_count(8, 3)  # optimum 8, above the counting bound
    model = SeatingModel(event)
    model.add_hint(fixed_seating(event))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = 20  # a guard counting work: proven in well under a second
    assert solver.solve(model.model) == cp_model.OPTIMAL
    assert model.repeats_bound(solver.best_objective_bound) == solver.value(model.total_repeats) == 8


@pytest.mark.parametrize(
    "players, odd, burdens",
    [
        (8, OddPolicy.THREE_HANDED, None),
        (9, OddPolicy.SIT_OUT, [0] + [1] * 7 + [0]),
    ],  # the fixed rule sits out P9, then P1
)
def test_a_re_plan_hint_is_complete_and_counts_the_meetings_already_played(players, odd, burdens):
    from optimizer.pipeline.state import History
    from optimizer.seats import repeats_in

    event = Event.with_count(players, 2, odd=odd)
    rng = np.random.default_rng(4)
    before = np.triu(rng.integers(0, 3, size=(players, players)), 1)
    before = before + before.T
    history = History(met_before=before, burdens_before=None if burdens is None else np.array(burdens))
    seats = fixed_seating(event)
    model = SeatingModel(event, history=history)
    model.add_hint(seats)
    proto = model.model.Proto()
    assert len(set(proto.solution_hint.vars)) == len(proto.variables)
    solver, status = solve_fixed_to_hint(model)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert solver.value(model.total_repeats) == repeats_in(meetings(seats, players) + before)


@pytest.mark.parametrize(
    "players, rounds, odd",
    [
        (8, 2, OddPolicy.THREE_HANDED),  # tables of four: rounds interchangeable
        (7, 3, OddPolicy.THREE_HANDED),  # a table of three: turns counted round by round
        (6, 3, OddPolicy.SIT_OUT),  # nobody sits out twice: rounds interchangeable
        (6, 5, OddPolicy.SIT_OUT),  # two sit out a round, some twice: ordering rounds would lose every day
    ],
)
@pytest.mark.slow
def test_breaking_symmetry_loses_no_day(players, rounds, odd):
    """The symmetry-broken model reaches the fewest repeats the model that keeps every relabelling does."""
    event = Event.with_count(players, rounds, odd=odd)
    optima = []
    for break_symmetry in (True, False):
        model = SeatingModel(event, break_symmetry=break_symmetry)
        model.model.clear_objective()
        model.model.minimize(model.total_repeats)
        solver = cp_model.CpSolver()
        # one worker counting work, not seconds: the proof never depends on the load (the largest takes
        # about 6 s of CP-SAT's deterministic time; the guard is twenty times that)
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = 0
        solver.parameters.max_deterministic_time = 120
        assert solver.solve(model.model) == cp_model.OPTIMAL
        optima.append(solver.objective_value)
    assert optima[0] == optima[1]


@pytest.mark.parametrize(
    "players, rounds, odd",
    [(6, 5, OddPolicy.SIT_OUT), (7, 3, OddPolicy.THREE_HANDED), (18, 5, OddPolicy.THREE_HANDED)],
)
def test_any_day_of_the_model_is_a_feasible_hint_in_its_symmetry_broken_form(players, rounds, odd):
    """A day found without symmetry breaking, put in canonical form, satisfies every ordering."""
    event = Event.with_count(players, rounds, odd=odd)
    free = SeatingModel(event, break_symmetry=False)
    solver = cp_model.CpSolver()
    solver.parameters.stop_after_first_solution = True
    solver.parameters.random_seed = players
    assert solver.solve(free.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    day = free.seating(solver.boolean_value)
    broken = hinted_model(event, day)
    assert len(broken.interchangeable_stretches) >= 1
    solver, status = solve_fixed_to_hint(broken)
    assert status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert solver.value(broken.total_repeats) == repeats(day, players)
