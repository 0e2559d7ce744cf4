"""The rotational day for the table numbers (optimizer.balance.rotational_day), checked by the checker."""

import importlib

import pytest

from models import Event
from optimizer import plan
from optimizer.balance import order_rounds
from optimizer.balance.rotational_day import rotational_day
from optimizer.budget import CPSAT_WORK_PER_SECOND, Budget
from optimizer.checking.checker import check
from optimizer.pipeline.stages import Starts
from optimizer.seats import to_schedule

pytestmark = pytest.mark.slow


def _measured(seats, players: int):
    event = Event(players=tuple(f"P{k + 1:02d}" for k in range(players)), rounds=len(seats))
    return check(to_schedule(event, seats, rule="variety"))


def _day(players: int, rounds: int, **asked):
    # one worker on deterministic work (2 deterministic seconds): the same day on any machine
    work = Budget.of(2.0 / CPSAT_WORK_PER_SECOND, repeatable=True)
    return rotational_day(players, rounds, budget=work, workers=1, seed=0, **asked)


def test_20_players_over_10_rounds_at_the_fewest_repeats_with_nobody_at_a_table_more_than_twice():
    day = _day(20, 10, repeats=110, no_trios=True, no_back_to_back=True, below=16, most_above=0)
    assert day is not None
    metrics = _measured(day, 20)
    assert metrics.repeats == 110  # the counting bound: 300 meetings among 190 pairs
    assert (metrics.table_visits_above_even, metrics.trios_again, metrics.back_to_back) == (0, 0, 0)


def test_16_players_over_6_rounds_below_the_published_table_visits():
    day = _day(16, 6, repeats=24, no_trios=True, below=5, most_above=1)
    assert day is not None
    metrics = _measured(order_rounds(day, player_count=16), 16)
    assert metrics.repeats == 24
    assert metrics.table_visits_above_even < 5  # the published table's figure
    assert (metrics.trios_again, metrics.back_to_back) == (0, 0)


@pytest.mark.parametrize("players, rounds, below", [(18, 4, 5), (36, 4, 5), (16, 3, 0)])
def test_no_day_outside_its_rooms_or_without_a_figure_to_beat(players, rounds, below):
    assert _day(players, rounds, repeats=0, no_trios=False, below=below) is None


def test_a_repeatable_plan_takes_the_rotational_day_where_it_numbers_better():
    event = Event(players=tuple(f"P{k + 1:02d}" for k in range(16)), rounds=6)
    result = plan(event, time_limit=15, seed=0, workers=1)
    metrics = check(result.schedule)
    assert metrics.repeats == 24 and metrics.trios_again == 0 and metrics.back_to_back == 0
    assert metrics.table_visits_above_even <= 4  # the regrouped days before it: 6, proven the fewest theirs allow
    assert "rotational day" in result.method


def test_after_a_stop_the_plan_runs_no_cp_sat_balancing(monkeypatch):
    # Ctrl-C in the search: the best so far is ordered, numbered and lettered at once, not searched on
    # (16 x 12: the fixed rule's day keeps table visits above even, which both steps would take on).
    planning = importlib.import_module("optimizer.plan")

    def not_now(*args, **kwargs):
        raise AssertionError("a CP-SAT balancing step ran after the stop")

    def stopped(run, *args) -> Starts:  # the stop token set before the starts, so before any search
        run.budget.stop.set()
        return Starts()

    other_days = importlib.import_module("optimizer.balance.other_days")
    monkeypatch.setattr(planning, "_starts", stopped)
    monkeypatch.setattr(other_days, "rotational_day", not_now)
    monkeypatch.setattr(other_days, "fewest_table_visits", not_now)
    event = Event(players=tuple(f"P{k + 1:02d}" for k in range(16)), rounds=12)
    result = plan(event, time_limit=30, seed=0, workers=2)
    assert result.interrupted and check(result.schedule).repeats == result.repeats
