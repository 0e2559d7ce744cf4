"""The array form (optimizer.seats) on random seatings with empty seats and sit-outs: the builders'
meetings matrix, counted pair by pair, against the incidence product it replaced; the schedule and back."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from models import Event, OddPolicy
from optimizer.seats import EMPTY, from_schedule, meetings, to_schedule


def incidence_product(seats: np.ndarray, player_count: int) -> np.ndarray:
    rounds, tables, _ = seats.shape
    incidence = np.zeros((player_count, rounds * tables), dtype=np.int64)
    flat = seats.reshape(rounds * tables, 4)
    rows, cols = np.nonzero(flat >= 0)
    incidence[flat[rows, cols], rows] = 1
    met = incidence @ incidence.T
    np.fill_diagonal(met, 0)
    return met


@given(st.integers(4, 30), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_pair_counts_are_the_incidence_product(players, rounds, seed):
    rng = np.random.default_rng(seed)
    tables = players // 4
    seats = np.stack([rng.permutation(players)[: tables * 4].reshape(tables, 4) for _ in range(rounds)])
    seats[rng.random(seats.shape) < 0.1] = EMPTY  # empty seats, and players who sit out
    assert (meetings(seats, players) == incidence_product(seats, players)).all()


@given(st.integers(4, 30), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_a_seating_comes_back_from_its_schedule(players, rounds, seed):
    rng = np.random.default_rng(seed)
    tables = players // 4
    seats = np.stack([rng.permutation(players)[: tables * 4].reshape(tables, 4) for _ in range(rounds)])
    seats[..., 3][rng.random(seats.shape[:2]) < 0.3] = EMPTY  # tables of three; the rest sit out
    schedule = to_schedule(Event.with_count(players, rounds, odd=OddPolicy.SIT_OUT), seats, "test")
    assert (from_schedule(schedule) == seats).all()
