"""The direct GF(q) designs (optimizer.constructions.direct, over optimizer.constructions.fields) and the
weighting (optimizer.constructions.weighting): checked by the independent checker, and the verdict's word."""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

from models import Answer, Event
from models.event import MAX_ROUNDS
from optimizer.checking.checker import check
from optimizer.constructions import frontier_rounds, instant_seating, weighting
from optimizer.constructions.direct import base_round, develop, direct_seating, multiplier
from optimizer.constructions.fields import galois_field
from optimizer.constructions.weighting import groups, rtd, weighted_day
from optimizer.plan import plan
from optimizer.proof.verdict import zero_repeat_verdict
from optimizer.seats import meetings, to_schedule


def checked(seats: np.ndarray, players: int):
    """The checker's metrics of the seating as a schedule (it refuses anyone unseated or seated twice)."""
    return check(to_schedule(Event.with_count(players, len(seats)), seats, "design"), indirect=False)


@pytest.mark.parametrize("q", [8, 9, 25, 27])
def test_the_field_tables_obey_the_field_laws(q):
    field, a = galois_field(q), np.arange(q)
    for x in range(1, q):
        assert sorted(field.mul[x, 1:]) == list(range(1, q))  # every nonzero element has an inverse
    left = field.mul[a[:, None, None], field.add[a[None, :, None], a[None, None, :]]]
    right = field.add[field.mul[a[:, None, None], a[None, :, None]], field.mul[a[:, None, None], a[None, None, :]]]
    assert (left == right).all()
    powers = {field.power(field.primitive, n) for n in range(q - 1)}
    assert powers == set(range(1, q))


@pytest.mark.parametrize("players", [28, 244])
def test_the_direct_design_meets_every_pair_exactly_once_by_the_checkers_count(players):
    rounds = (players - 1) // 3
    seats = direct_seating(players, rounds)
    assert seats is not None
    metrics = checked(seats, players)
    assert metrics.repeats == 0 and metrics.max_meetings == 1
    assert int((meetings(seats, players) > 0).sum()) // 2 == comb(players, 2)


def test_a_multiplier_with_e_squared_minus_one_a_square_makes_a_pair_meet_twice():
    field = galois_field(81)
    square = field.squares()
    bad = next(e for e in range(2, 81) if not square[e] and square[field.sub(int(field.mul[e, e]), 1)])
    assert multiplier(field) != bad
    assert checked(develop(base_round(field, bad), field, 81), 244).repeats > 0


@pytest.mark.parametrize("m", [4, 9, 36])
def test_the_resolvable_transversal_design_joins_each_pair_of_groups_once(m):
    design = rtd(m)  # (rounds, tables, groups)
    for round_ in design:
        assert all(sorted(round_[:, i]) == list(range(m)) for i in range(4))  # each round covers each group
    for i, j in combinations(range(4), 2):
        codes = design[..., i].ravel() * m + design[..., j].ravel()
        assert sorted(codes) == list(range(m * m))


@pytest.mark.parametrize(
    "players, how",
    [
        (208, "on 52 times a resolvable TD(4,4)"),
        (288, "on 36 times a resolvable TD(4,8), groups of 24"),
        (252, "on 28 less its last round times a resolvable TD(4,9), groups of 36"),
        (308, "on 28 less its last round times a resolvable TD(4,11), groups of 44"),
        (392, "on 28 less its last round times a resolvable TD(4,14), groups of 56"),  # the quasi-difference matrix
    ],
)
def test_the_weighted_day_reaches_the_counting_bound_by_the_checkers_count(players, how):
    rounds = (players - 1) // 3
    made = instant_seating(players, rounds)
    assert made is not None and how in str(made.made) and frontier_rounds(players) == rounds
    metrics = checked(made.seats[:MAX_ROUNDS], players)  # a day holds 100 rounds: 308's last 2 by meetings
    assert metrics.repeats == 0 and metrics.max_meetings == 1
    met = meetings(made.seats, players)
    assert met.max() == 1
    unmet = (met == 0).sum(axis=1) - 1
    assert set(unmet) == {(players - 1) % 3}  # 288, 252: 4-RGDDs of type 3^96, 3^84; 308, 392: of type 2^154, 2^196


def test_groups_are_refused_when_the_never_met_players_are_not_cliques():
    master = instant_seating(24, 7).seats  # a 4-RGDD of type 3^8: eight triangles of players who never meet
    assert groups(master, 24).shape == (8, 3)
    assert groups(master[:6], 24) is None  # a round less: nine unmet players each, not a union of cliques


def test_groups_of_players_who_met_in_the_master_make_the_fill_repeat_a_meeting():
    master = instant_seating(52, 17).seats  # every pair meets: the only groups are single players
    assert groups(master, 52).shape == (52, 1)
    met_pairs = np.arange(52).reshape(26, 2)  # players 0 and 1 met in the master day
    mixed = np.array([[[0, 1, 4, 5], [2, 3, 6, 7]]])  # (0, y) beside (1, y'): they met in a weighted round
    seats = weighted_day(master, 52, 4, met_pairs, mixed)
    assert checked(seats, 208).repeats > 0
    assert checked(weighted_day(master, 52, 4, groups(master, 52), instant_seating(4, 1).seats), 208).repeats == 0


@pytest.mark.parametrize(
    "players, rounds, how",
    [
        (244, 81, "resolvable design over GF(81)"),
        (28, 9, "rotational Z_9"),
        (208, 69, "weighting"),
        (144, 47, "weighting"),
        (252, 83, "less its last round"),
    ],
)
def test_the_verdict_answers_constructed_with_a_checked_schedule(players, rounds, how):
    verdict = zero_repeat_verdict(Event.with_count(players, rounds), time_limit=2, workers=1)
    assert verdict.answer is Answer.EXISTS and verdict.schedule is not None
    assert verdict.reason.startswith("constructed: ") and how in verdict.reason


def test_fewer_rounds_are_a_prefix_of_the_weighted_day():
    made = instant_seating(208, 40)
    assert made is not None and "weighting" in str(made.made)
    assert weighting(208) == (69, 4, 52, 17)
    assert np.array_equal(made.seats, instant_seating(208, 69).seats[:40])


def test_a_room_that_is_not_three_times_a_prime_power_plus_one_has_no_direct_design():
    assert direct_seating(100, 33) is None and direct_seating(64, 21) is None  # q = 33, q = 21


def test_a_plan_starts_from_the_weighted_day_and_keeps_it_repeat_free():
    result = plan(Event.with_count(208, 69), time_limit=1, workers=1)
    assert result.repeats == 0 and "weighting" in result.method
    assert result.metrics is not None and result.metrics.repeats == 0  # the checker's count
