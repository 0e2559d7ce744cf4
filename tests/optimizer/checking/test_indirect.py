"""The indirect-meetings figure (optimizer.checking.indirect) against its definition, brute force, on random
graphs of met pairs and on random days; blocks cut small so that many blocks are visited."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import optimizer.checking.indirect as indirect
from optimizer.checking.checker import check
from seatings import schedules


def brute_fewest_in_common(player_count: int, met: set[tuple[int, int]]) -> int | None:
    """The definition: over pairs never met, the fewest players who met both."""

    def meets(a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in met

    common = [
        sum(meets(a, w) and meets(b, w) for w in range(player_count))
        for a, b in combinations(range(player_count), 2)
        if not meets(a, b)
    ]
    return min(common, default=None)


@st.composite
def met_pairs(draw) -> tuple[int, set[tuple[int, int]]]:
    count = draw(st.integers(1, 14))
    every = list(combinations(range(count), 2))
    keep = draw(st.lists(st.booleans(), min_size=len(every), max_size=len(every)))
    return count, {pair for pair, kept in zip(every, keep) if kept}


@pytest.fixture(
    params=[(4_000_000, 4_000_000, 0, 0), (1, 1, 0, 0), (30, 40, 0, 0), (1, 1, 600, 0)],
    ids=["one block", "a player a block", "small", "the met matrix squared"],
)
def blocks(request, monkeypatch):
    monkeypatch.setattr(indirect, "BLOCK_ENTRIES", request.param[0])
    monkeypatch.setattr(indirect, "BLOCK_CELLS", request.param[1])
    monkeypatch.setattr(indirect, "DENSE_PLAYERS", request.param[2])
    monkeypatch.setattr(indirect, "DENSE_FROM_ENTRIES", request.param[3])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(met_pairs())
@pytest.mark.slow
def test_fewest_in_common_is_the_definition_on_random_graphs(blocks, room):
    count, met = room
    pairs = np.array(sorted(met), dtype=np.int64).reshape(-1, 2)
    assert indirect.fewest_in_common(count, pairs) == brute_fewest_in_common(count, met)


def name_pairs(schedule) -> set[tuple[int, int]]:
    index = {name: i for i, name in enumerate(schedule.players)}
    return {
        tuple(sorted((index[a], index[b])))  # type: ignore[misc]
        for round_ in schedule.rounds
        for table in round_.tables
        for a, b in combinations(table.players, 2)
    }


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(schedules(min_players=8, max_players=16, min_rounds=3, max_rounds=8))
def test_the_checker_reports_the_definition_on_long_random_days(blocks, schedule):
    """Long days in small rooms, where most pairs meet and the figure is often above 0."""
    expected = brute_fewest_in_common(len(schedule.players), name_pairs(schedule))
    assert check(schedule).indirect_meetings == expected


def test_a_day_of_few_meetings_a_player_is_counted_from_the_lists_without_blas(monkeypatch):
    """200 x 8 (the desk's schedule download): 24 opponents a player, 115 200 second-step entries, below
    DENSE_FROM_ENTRIES; the product of the met matrix, on BLAS's threads, is kept for denser days."""
    rng = np.random.default_rng(0)
    pairs = {
        tuple(sorted(map(int, pair)))
        for _ in range(8)
        for table in rng.permutation(200).reshape(-1, 4)
        for pair in combinations(table, 2)
    }
    met = np.array(sorted(pairs))
    expected = indirect._fewest_dense(200, met)

    def refused(*_: object) -> int:
        raise AssertionError("the met matrix squared on a day the lists count in a few milliseconds")

    monkeypatch.setattr(indirect, "_fewest_dense", refused)
    assert indirect.fewest_in_common(200, met) == expected
