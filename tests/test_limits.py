"""Limits that hold at any size (issue 54): the long steps poll the budget, so that a run ends at its end
or at a stop, the best so far kept. No timings: what is asserted is who polled and when."""

from __future__ import annotations

import numpy as np

import optimizer.balance.polish  # noqa: F401  (the module, not the function the package exports)
from budget_helpers import ending_after
from models import Event
from optimizer.constructions.fixed import fixed_seating

polish_module = __import__("sys").modules["optimizer.balance.polish"]


def shuffled_day(players: int, rounds: int, seed: int = 0) -> np.ndarray:
    """A day of random rounds (the fixed rule's seats shuffled in each round): trios again to polish."""
    seats, rng = fixed_seating(Event.with_count(players, rounds)), np.random.default_rng(seed)
    for round_ in seats:
        rng.shuffle(round_.reshape(-1))
    return seats


def test_a_polish_step_is_given_up_between_rounds_when_the_end_comes(monkeypatch):
    seats = shuffled_day(40, 10)
    weighed = []
    round_moves = polish_module._round_moves
    monkeypatch.setattr(
        polish_module, "_round_moves", lambda state, r, limits: weighed.append(r) or round_moves(state, r, limits)
    )
    budget = ending_after(reads=4)
    polished = polish_module.polish(seats, np.random.default_rng(0), budget=budget)
    assert 0 < len(weighed) < len(seats)  # the end came inside the first step, after a round or two
    assert (polished == seats).all()  # no step was taken: the input is the best so far
    assert budget.done()
