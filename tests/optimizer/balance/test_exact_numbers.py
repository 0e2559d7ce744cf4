"""The exact table numbering (CP-SAT over all rounds): what a day's groups allow."""

import numpy as np
import pytest

from models import Event
from optimizer import PlanConfig, check, plan
from optimizer.balance import balance_table_numbers, forced_table_visits, table_visits_above_even
from optimizer.balance.exact_numbers import fewest_table_visits
from optimizer.budget import Budget
from optimizer.constructions.affine import affine_seating

pytestmark = pytest.mark.slow


def _tables(round_: np.ndarray) -> set[frozenset[int]]:
    return {frozenset(t[t >= 0].tolist()) for t in round_}


# The proofs count work on one worker (no load ends them first): the most, the scrambled day, takes 1.2 s of 20.


def test_the_fewest_visits_of_16_players_over_2_rounds_are_the_forced_ones():
    day = affine_seating(2, 2)
    found = fewest_table_visits(day, budget=Budget.of(20, repeatable=True), workers=1)
    assert found.proven and found.figure == found.bound == forced_table_visits(day) == 4
    assert found.seats is not None and table_visits_above_even(found.seats) == 4
    assert all(_tables(a) == _tables(b) for a, b in zip(found.seats, day))  # renumbered, never regrouped


def test_a_target_below_what_the_groups_allow_is_proven_out_of_reach():
    found = fewest_table_visits(affine_seating(2, 2), at_most=3, budget=Budget.of(20, repeatable=True), workers=1)
    assert found.proven and found.seats is None and found.bound == 4


def test_the_model_renumbers_a_scrambled_day_to_the_descents_figure_or_better():
    rng = np.random.default_rng(1)
    scrambled = np.stack([rng.permutation(20).reshape(5, 4) for _ in range(7)])  # 20 players, 7 random rounds
    found = fewest_table_visits(scrambled, budget=Budget.of(20, repeatable=True), workers=1)
    descent = table_visits_above_even(balance_table_numbers(scrambled, kicks=0))
    assert found.seats is not None and found.figure == table_visits_above_even(found.seats) <= descent
    assert all(_tables(a) == _tables(b) for a, b in zip(found.seats, scrambled))
    assert (found.seats[0] == scrambled[0]).all()  # the first round keeps its numbers


def test_a_repeatable_plan_numbers_its_day_exactly_in_the_time_left_and_repeats_it():
    # 24 x 9 on one worker: the descent alone leaves visits above even that the day's groups do not force
    # (the search's own day: the room has a day stored, which the run would take)
    event = Event(players=tuple(f"P{k + 1:02d}" for k in range(24)), rounds=9)
    first, second = (plan(event, time_limit=10, seed=0, workers=1, computed_ahead=False) for _ in range(2))
    assert first.schedule == second.schedule and "tables numbered exactly" in first.method
    never = PlanConfig(exact_numbering_min_seconds=float("inf"))  # the figure that gates the step, changed
    without = check(plan(event, time_limit=10, seed=0, workers=1, computed_ahead=False, config=never).schedule)
    metrics = check(first.schedule)
    assert metrics.table_visits_above_even < without.table_visits_above_even  # measured: 3 against 4
    assert (metrics.repeats, metrics.trios_again, metrics.back_to_back) == (48, 0, 0)
