"""Resolvable TD(4, m) from stored difference matrices (optimizer.constructions.matrices) and the rooms the
weighting reaches with them, checked by the independent checker."""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest

import optimizer.constructions.matrices as matrices
from models import Answer, Event
from optimizer.checking.checker import check
from optimizer.constructions import frontier_rounds, instant_seating
from optimizer.constructions.matrices.__main__ import find
from optimizer.constructions.weighting import rtd
from optimizer.proof.verdict import zero_repeat_verdict
from optimizer.seats import to_schedule


@pytest.mark.parametrize("m", [*sorted(matrices.stored_matrices()), 60])
def test_the_resolvable_transversal_design_joins_each_pair_of_groups_once(m):
    design = rtd(m)  # (rounds, tables, groups); 60 = the stored 12 times the field's 5
    assert design.shape == (m, m, 4)
    for round_ in design:
        assert all(sorted(round_[:, i]) == list(range(m)) for i in range(4))  # each round covers each group
    for i, j in combinations(range(4), 2):
        assert sorted(design[..., i].ravel() * m + design[..., j].ravel()) == list(range(m * m))


def test_240_players_reach_the_counting_bound_by_the_checkers_count():
    made = instant_seating(240, 79)
    assert made is not None and "TD(4,15)" in str(made.made) and frontier_rounds(240) == 79
    metrics = check(to_schedule(Event.with_count(240, 79), made.seats, "weighting"), indirect=False)
    assert metrics.repeats == 0 and metrics.max_meetings == 1


def test_the_verdict_for_240_players_is_exists_up_to_79_rounds_and_impossible_past():
    verdict = zero_repeat_verdict(Event.with_count(240, 79), time_limit=5, workers=1)
    assert verdict.answer is Answer.EXISTS and verdict.schedule is not None and "TD(4,15)" in verdict.reason
    assert zero_repeat_verdict(Event.with_count(240, 80), time_limit=5, workers=1).answer is Answer.IMPOSSIBLE


def test_228_players_reach_the_counting_bound_with_the_td_of_15_by_the_checkers_count():
    made = instant_seating(228, 75)  # 228 = 15 x 15 + 3: the frame needs the resolvable TD(4, 15)
    assert made is not None and "TD(4,15)" in str(made.made) and frontier_rounds(228) == 75
    metrics = check(to_schedule(Event.with_count(228, 75), made.seats, "framing"), indirect=False)
    assert metrics.repeats == 0 and metrics.max_meetings == 1


@pytest.mark.slow
@pytest.mark.parametrize("m", sorted(matrices.stored_matrices()))
def test_the_stored_matrix_is_what_the_generator_reaches(m):
    group, rows, status = find(m)
    stored = json.loads(matrices.MATRICES_FILE.read_text(encoding="utf-8"))["matrices"][str(m)]
    assert status == "OPTIMAL" and group == stored["group"] and rows == stored["rows"]


def test_the_quasi_difference_matrix_holds_inf_once_a_row_and_develops_with_the_block_of_infs():
    group, rows = matrices.stored_matrices()[14]
    assert group == [13] and rows.shape == (5, 15)
    assert ((rows == matrices.INFINITY).sum(axis=1) == 1).all() and ((rows == matrices.INFINITY).sum(axis=0) <= 1).all()
    blocks = matrices.development(group, rows)
    assert blocks.shape == (196, 5) and (blocks[-1] == 13).all()


def test_an_odd_groups_matrix_is_odd_with_the_identity_for_row_1():
    group, rows = matrices.stored_matrices()[15]
    negative = (-np.arange(15)) % 15
    assert rows[1].tolist() == list(range(15)) and (rows[:, negative] == (-rows) % 15).all()


@pytest.mark.parametrize("m, row, columns", [(12, 2, (1, 2)), (14, 1, (1, 3))])  # 14: the quasi-difference matrix
def test_a_matrix_whose_differences_repeat_is_refused_when_loaded(tmp_path, monkeypatch, m, row, columns):
    entry = json.loads(matrices.MATRICES_FILE.read_text(encoding="utf-8"))["matrices"][str(m)]
    cells, (a, b) = entry["rows"][row], columns
    cells[a], cells[b] = cells[b], cells[a]  # two entries of the group swapped: some two rows now differ twice alike
    bad = tmp_path / "matrices.json"
    bad.write_text(json.dumps({"matrices": {str(m): entry}}), encoding="utf-8")
    monkeypatch.setattr(matrices, "MATRICES_FILE", bad)
    matrices.stored_matrices.cache_clear()
    with pytest.raises(matrices.BadMatrix, match=f"m = {m}"):
        matrices.stored_matrices()
    matrices.stored_matrices.cache_clear()
