"""Deletion (optimizer.constructions.deletion): repeat-free days for rooms that are not a multiple of
four, cut from a design for the next multiple by deleting players who never meet."""

from __future__ import annotations

import pytest

import optimizer
from models import Event, OddPolicy
from optimizer.checking.checker import check
from optimizer.constructions.deletion import deletion_seating
from optimizer.seats import to_schedule

THREE, OUT = OddPolicy.THREE_HANDED, OddPolicy.SIT_OUT


@pytest.mark.parametrize(
    "players, rounds, odd, deleted",
    [
        (23, 7, THREE, 1),
        (27, 8, THREE, 1),
        (30, 8, THREE, 2),
        (19, 5, THREE, 1),
        (33, 5, THREE, 3),  # fair only in another order of the rounds
        (23, 7, OUT, 1),
        (27, 8, OUT, 1),
    ],
)
def test_a_deletion_day_has_no_repeats_and_takes_turns(players, rounds, odd, deleted):
    made = deletion_seating(players, rounds, odd)
    assert made is not None
    seats, method = made.seats, str(made.made)
    metrics = check(to_schedule(Event.with_count(players, rounds, odd=odd), seats, rule=method))
    assert metrics.repeats == 0 and metrics.three_handed_fair and metrics.sit_outs_fair
    assert f"with {deleted} player" in method
    assert (seats == deletion_seating(players, rounds, odd).seats).all()  # deterministic


@pytest.mark.parametrize(
    "players, rounds, odd",
    [
        (21, 7, THREE),  # fair in the end for some deleted players, but in no order of the rounds
        (22, 6, THREE),  # no two players to delete leave fair turns
        (23, 8, THREE),  # the design of 24 has only 7 repeat-free rounds
        (22, 6, OUT),  # two sit out a round: deleting players makes three
        (13, 3, OUT),
    ],
)
def test_deletion_answers_none_where_it_cannot_keep_turns(players, rounds, odd):
    assert deletion_seating(players, rounds, odd) is None


@pytest.mark.parametrize("odd", list(OddPolicy))
def test_plan_reaches_no_repeats_for_23_players_over_7_rounds(odd):
    result = optimizer.plan(Event.with_count(23, 7, odd=odd), time_limit=2, workers=1)
    assert result.repeats == 0
    assert "deleted" in result.method
