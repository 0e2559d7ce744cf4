"""The orbit day for the table numbers (optimizer.balance.orbit_day), checked by the checker."""

import pytest

from models import Event
from optimizer.balance.orbit_day import orbit_day
from optimizer.budget import CPSAT_WORK_PER_SECOND, Budget
from optimizer.checking.checker import check
from optimizer.seats import to_schedule

pytestmark = pytest.mark.slow


def _measured(seats, players: int):
    event = Event(players=tuple(f"P{k + 1:02d}" for k in range(players)), rounds=len(seats))
    return check(to_schedule(event, seats, rule="variety"))


def _day(players: int, rounds: int, **asked):
    # one worker on deterministic work (10 deterministic seconds): the same day on any machine
    asked = dict(no_trios=True, no_back_to_back=True, below=1) | asked
    work = Budget.of(10.0 / CPSAT_WORK_PER_SECOND, repeatable=True)
    return orbit_day(players, rounds, budget=work, workers=1, seed=0, **asked)


def test_20_players_over_9_rounds_at_the_fewest_repeats_with_nobody_at_a_table_more_than_twice():
    day = _day(20, 9, repeats=80)
    assert day is not None
    metrics = _measured(day, 20)
    assert metrics.repeats == 80  # the counting bound: 270 meetings among 190 pairs
    # the published table's 0 visits above even; our regrouped and rotational days kept 7
    assert (metrics.table_visits_above_even, metrics.trios_again, metrics.back_to_back) == (0, 0, 0)


def test_16_players_over_11_rounds_with_no_visit_above_even_and_no_rematch_running():
    day = _day(16, 11, repeats=144)
    assert day is not None
    metrics = _measured(day, 16)
    assert metrics.repeats == 144  # our regrouped days: 2 visits above even
    assert (metrics.table_visits_above_even, metrics.trios_again, metrics.back_to_back) == (0, 0, 0)


def test_a_room_the_shape_cannot_seat_so_is_answered_none():
    # 16 x 6: CP-SAT proves within a second that no day of this shape has E = 24 and no visit above even
    assert _day(16, 6, repeats=24) is None


@pytest.mark.parametrize(
    "players, rounds, orbits", [(28, 9, None), (18, 6, None), (20, 9, (6,)), (20, 9, (5, 5)), (20, 9, ())]
)
def test_no_day_outside_its_rooms(players, rounds, orbits):
    # past 24 players, not tables of four, an orbit longer than the tables, orbits longer than the day, none
    assert _day(players, rounds, repeats=10**6, orbits=orbits) is None
