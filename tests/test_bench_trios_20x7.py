"""The 20 x 7 shapes of `benchmarks.trios_20x7_quads`: the model is built on orbits and refuses what it must."""

from ortools.sat.python import cp_model

from benchmarks.trios_20x7_quads import SHAPES, main, symmetric_day


def test_a_shape_keeps_one_boolean_per_orbit_of_round_and_table():
    _, chosen = symmetric_day(*SHAPES["z3-fixed"])
    orbits = len(set(chosen.values()))
    assert len(chosen) == 7 * 4845
    # Burnside over the group of order 3: fixed sets of four are an orbit of three plus a fixed player.
    assert orbits == 7 * (4845 + 2 * 6 * 2) // 3


def test_two_fixed_players_in_fixed_rounds_never_meet_so_the_shape_is_impossible(capsys):
    model, _ = symmetric_day(*SHAPES["z3-fixed"])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(model) == cp_model.INFEASIBLE
    assert main(["z3-fixed", "--seconds", "10"]) == 0
    assert "INFEASIBLE" in capsys.readouterr().out
