"""Joining (optimizer.constructions.joining): repeat-free days for sit-out rooms, a design for the tables
of four joined by the players who sit out in turn."""

from __future__ import annotations

import pytest

import optimizer
from models import Event, OddPolicy
from optimizer.checking.checker import check
from optimizer.constructions.joining import joining_seating
from optimizer.seats import table_of, to_schedule

OUT = OddPolicy.SIT_OUT


@pytest.mark.parametrize(
    "players, rounds, joined",
    [
        (25, 7, 1),  # every newcomer of the library's 24 x 7 must sit out once
        (29, 8, 1),
        (26, 7, 2),
        (27, 7, 3),  # more steps than any other room of 9-63 players over 2-8 rounds
        (18, 4, 2),
        (63, 8, 3),
    ],
)
def test_a_joined_day_has_no_repeats_and_nobody_sits_out_twice(players, rounds, joined):
    made = joining_seating(players, rounds)
    assert made is not None
    seats, method = made.seats, str(made.made)
    metrics = check(to_schedule(Event.with_count(players, rounds, odd=OUT), seats, rule=method))
    assert metrics.repeats == 0 and metrics.sit_outs_fair
    assert ((table_of(seats, players) == -1).sum(axis=0) <= 1).all()  # nobody sits out twice
    assert f"joined by {joined} player" in method
    assert (seats == joining_seating(players, rounds).seats).all()  # deterministic


@pytest.mark.parametrize(
    "players, rounds",
    [
        (17, 5),  # AG(2,4): a newcomer seated four times meets someone twice
        (19, 5),  # the step cap
        (25, 8),  # the design of 24 has only 7 repeat-free rounds
        (13, 2),  # the design of 12 has one
        (24, 3),  # nobody to join
    ],
)
def test_joining_answers_none_where_it_cannot(players, rounds):
    assert joining_seating(players, rounds) is None


def test_a_newcomer_sits_out_once_where_taking_a_seat_every_round_cannot_work():
    seats = joining_seating(25, 7).seats  # no choice of 7 seats in the library's 24 x 7 keeps player 24 from a repeat
    assert (table_of(seats, 25)[:, 24] == -1).sum() == 1


def test_plan_reaches_no_repeats_for_25_players_over_7_rounds():
    result = optimizer.plan(Event.with_count(25, 7, odd=OUT), time_limit=2, workers=1)
    assert result.repeats == 0
    assert "joined by 1 player" in result.method
