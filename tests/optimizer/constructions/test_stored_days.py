"""Days computed ahead for the table numbers (optimizer.balance.ahead): verified on load, taken by short runs."""

import json

import numpy as np
import pytest

from models import Event
from optimizer import plan
from optimizer.balance import ahead
from optimizer.balance.ahead.__main__ import ROOMS, planned_day
from optimizer.checking.checker import check
from optimizer.proof.bounds import lower_bound
from optimizer.seats import to_schedule

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("players, rounds", ahead.stored_rooms())
def test_every_stored_day_is_at_the_fewest_repeats_with_no_trio_again(players, rounds):
    entry = ahead.load(players, rounds)
    assert entry is not None and entry.seats.shape == (rounds, players // 4, 4)
    event = Event.with_count(players, rounds)
    metrics = check(to_schedule(event, entry.seats, "stored"))
    assert metrics.repeats == lower_bound(event).repeats
    assert metrics.trios_again == 0
    assert metrics.table_visits_above_even < ROOMS[players, rounds][1]  # what the room was searched for


def test_the_stored_rooms_are_the_rooms_the_generator_searches():
    assert set(ahead.stored_rooms()) <= set(ROOMS)


def _write(folder, players: int, rounds: int, seats) -> None:
    data = {"players": players, "rounds": rounds, "method": "test", "seats": np.asarray(seats).tolist()}
    (folder / f"n{players:04d}-r{rounds:02d}.json").write_text(json.dumps(data), encoding="utf-8")


def test_a_stored_day_with_more_repeats_than_the_room_needs_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(ahead, "HERE", tmp_path)
    ahead.load.cache_clear()
    round_ = np.arange(16).reshape(4, 4)
    _write(tmp_path, 16, 2, [round_, round_])  # the same tables twice: 24 repeats where none are needed
    with pytest.raises(ahead.BadEntry, match="more than the fewest"):
        ahead.load(16, 2)
    ahead.load.cache_clear()


def test_a_stored_day_that_is_not_a_seating_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(ahead, "HERE", tmp_path)
    ahead.load.cache_clear()
    twice = np.arange(16).reshape(4, 4)
    twice[0, 0] = 1  # player 1 twice, player 0 nowhere
    _write(tmp_path, 16, 1, [twice])
    with pytest.raises(ahead.BadEntry, match="not a day"):
        ahead.load(16, 1)
    ahead.load.cache_clear()


def test_a_short_run_takes_the_day_computed_ahead():
    # 20 x 9 at 5 s: the search and the regrouping alone end at 7 table visits above even
    result = plan(Event.with_count(20, 9), time_limit=5, seed=0, workers=1)  # counts work: 1 s of the 5 spent
    metrics = check(result.schedule)
    assert metrics.repeats == 80 and metrics.trios_again == 0 and metrics.back_to_back == 0
    assert metrics.table_visits_above_even == 0
    assert "computed ahead" in result.method


def test_a_room_with_a_request_or_played_rounds_is_not_offered_the_stored_day(monkeypatch):
    # (the checker would refuse the stored day there anyway: it is not even looked up)
    looked_up = []
    monkeypatch.setattr(ahead, "load", lambda *room: looked_up.append(room))
    names = tuple(f"P{k + 1:02d}" for k in range(20))
    plan(Event(players=names, rounds=9, apart=((names[0], names[1]),)), time_limit=2, seed=0, workers=2)
    assert looked_up == []
    plan(Event(players=names, rounds=9), time_limit=2, seed=0, workers=2)
    assert looked_up == [(20, 9)]  # and a fresh room without requests is


def test_a_stored_plan_day_is_what_its_generator_reaches():
    # 20 x 8: a 5 s run on one worker with seed 5, its groups numbered exactly (the entry's method says so)
    entry = ahead.load(20, 8)
    assert entry is not None and "seed 5" in entry.method
    day = planned_day(20, 8, repeats=50, below=ROOMS[20, 8][1], seed=5)
    assert day is not None and (day == entry.seats).all()
