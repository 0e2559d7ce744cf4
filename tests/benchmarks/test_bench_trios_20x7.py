"""The 20 x 7 shapes of `benchmarks.trios_20x7_quads`: the model is built on orbits and refuses what it must."""

import pytest

from benchmarks.trios_20x7_quads import SHAPES, main, symmetric_day

pytestmark = pytest.mark.slow


def test_a_shape_keeps_one_boolean_per_orbit_of_round_and_table():
    _, chosen = symmetric_day(*SHAPES["z3-fixed"])
    orbits = len(set(chosen.values()))
    assert len(chosen) == 7 * 4845
    # Burnside over the group of order 3: fixed sets of four are an orbit of three plus a fixed player.
    assert orbits == 7 * (4845 + 2 * 6 * 2) // 3


def test_two_fixed_players_in_fixed_rounds_never_meet_so_the_shape_is_impossible(capsys):
    assert main(["z3-fixed", "--seconds", "10"]) == 0
    assert "shape z3-fixed, E = 20, no trio again: INFEASIBLE" in capsys.readouterr().out
