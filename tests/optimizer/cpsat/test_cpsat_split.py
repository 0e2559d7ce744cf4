"""The proof split by round 2 (optimizer.cpsat.split): its cases cover every round 2 once, and it
agrees with the whole-day model where that settles the optimum itself."""

from __future__ import annotations

import numpy as np
import pytest

import optimizer.cpsat as cpsat
import optimizer.cpsat.split as split
from models import Event, OddPolicy
from optimizer.budget import Budget
from optimizer.checking.checker import check
from optimizer.cpsat.model import SeatingModel, first_round_tables
from optimizer.cpsat.round_classes import (
    _cell_symmetries,
    _columns_sorted,
    _least_form,
    second_rounds,
    third_rounds,
)
from optimizer.cpsat.split import split_probe, splits_by_round_two
from optimizer.seats import EMPTY, to_schedule

pytestmark = pytest.mark.slow


def overlap(event: Event, second: list[int]) -> np.ndarray:
    """Round 1 (the model's fixed first round) against a round 2, by group (tables, then sitting out)."""
    layout = event.layout
    first = first_round_tables(event.layout)
    groups = layout.tables + (1 if layout.sit_outs else 0)
    index = lambda t: layout.tables if t == EMPTY else t  # noqa: E731
    matrix = np.zeros((groups, groups), dtype=np.int64)
    for a, b in zip(first, second, strict=True):
        matrix[index(a), index(b)] += 1
    return matrix


@pytest.mark.parametrize("players, odd", [(11, OddPolicy.SIT_OUT), (10, OddPolicy.THREE_HANDED)])
def test_every_round_two_falls_in_exactly_one_case(players, odd):
    event = Event.with_count(players, 3, odd=odd)
    layout = event.layout
    kinds = [4] * layout.fours + [3] * layout.threes + ([0] if layout.sit_outs else [])
    cases = {_least_form(overlap(event, tables), kinds) for tables, _ in second_rounds(event)}
    assert len(cases) == len(second_rounds(event))  # no two cases alike
    rng = np.random.default_rng(1)
    for _ in range(200):  # random round 2s, as a shuffle of a valid one
        second = rng.permutation(first_round_tables(event.layout)).tolist()
        assert _least_form(overlap(event, second), kinds) in cases


def cells_of(event: Event, second: list[int]) -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    """Each player's cell (groups in rounds 1 and 2), the cells in order, and how many each holds."""
    layout = event.layout
    index = lambda t: layout.tables if t == EMPTY else t  # noqa: E731
    of_player = [(index(a), index(b)) for a, b in zip(first_round_tables(layout), second, strict=True)]
    cells = sorted(set(of_player))
    return of_player, cells, [of_player.count(cell) for cell in cells]


def kinds_of(event: Event) -> list[int]:
    layout = event.layout
    return [4] * layout.fours + [3] * layout.threes + ([0] if layout.sit_outs else [])


def round_three_form(event: Event, second: list[int], third: list[int]) -> tuple[int, ...]:
    """A round 3's class, computed apart from `third_rounds`: the players of each cell (alike in rounds
    1 and 2) by round-3 group, least over the symmetries that keep rounds 1 and 2."""
    of_player, cells, sizes = cells_of(event, second)
    kinds = kinds_of(event)
    matrix = np.zeros((len(cells), len(kinds)), dtype=np.int64)
    for cell, c in zip(of_player, third, strict=True):
        matrix[cells.index(cell), event.layout.tables if c == EMPTY else c] += 1
    return min(_columns_sorted(matrix[image], kinds) for image in _cell_symmetries(cells, sizes, kinds))


def fair_so_far(event: Event, rounds: list[list[int]]) -> bool:
    """The checker's word on turns over the first rounds (each table by player, EMPTY sitting out)."""
    layout = event.layout
    seats = np.full((len(rounds), layout.tables, 4), EMPTY, dtype=np.int64)
    for r, tables in enumerate(rounds):
        for t in range(layout.tables):
            at = [p for p, table in enumerate(tables) if table == t]
            seats[r, t, : len(at)] = at
    short = event.model_copy(update={"rounds": len(rounds)})
    return check(to_schedule(short, seats, "variety")).turns_fair


def keeps_rounds_one_and_two(event: Event, second: list[int], image: list[int]) -> bool:
    """A relabelling of cells is a symmetry: sending each cell's players onto its image's players
    keeps who sits with whom in rounds 1 and 2."""
    first = first_round_tables(event.layout)
    of_player, cells, _ = cells_of(event, second)
    members = {cell: [p for p, c in enumerate(of_player) if c == cell] for cell in cells}
    moved = {}
    for c, cell in enumerate(cells):
        target = cells[image.index(c)]  # indexing by `image` moves row image[k] to k
        moved.update(zip(members[cell], members[target], strict=True))
    together = lambda tables, p, q: tables[p] == tables[q] != EMPTY  # noqa: E731
    pairs = [(p, q) for p in range(len(first)) for q in range(p + 1, len(first))]
    return all(
        together(tables, p, q) == together(tables, moved[p], moved[q]) for tables in (first, second) for p, q in pairs
    )


@pytest.mark.parametrize("players, odd", [(11, OddPolicy.SIT_OUT), (10, OddPolicy.THREE_HANDED)])
def test_every_fair_round_three_falls_in_exactly_one_case(players, odd):
    event = Event.with_count(players, 4, odd=odd)
    first = first_round_tables(event.layout)
    rng = np.random.default_rng(2)
    seconds = [tables for tables, _ in second_rounds(event) if fair_so_far(event, [first, tables])]
    symmetries = lambda second: _cell_symmetries(*cells_of(event, second)[1:], kinds_of(event))  # noqa: E731
    for second in (seconds[0], max(seconds, key=lambda second: len(symmetries(second)))):
        images = symmetries(second)
        assert all(keeps_rounds_one_and_two(event, second, image) for image in images)
        forms = [round_three_form(event, second, third) for third in third_rounds(event, second, most=99)]
        assert len(set(forms)) == len(forms)  # no two cases alike
        tried = 0
        while tried < 100:  # random fair round 3s, as shuffles of a valid one
            third = rng.permutation(first).tolist()
            if fair_so_far(event, [first, second, third]):
                tried += 1
                assert round_three_form(event, second, third) in forms


@pytest.mark.parametrize(
    "players, rounds, odd",
    [
        (9, 3, OddPolicy.SIT_OUT),
        (10, 3, OddPolicy.SIT_OUT),
        (10, 3, OddPolicy.THREE_HANDED),
        (11, 3, OddPolicy.SIT_OUT),
    ],
)
def test_the_split_agrees_with_the_whole_day_model(players, rounds, odd):
    # If the split assumed too much it would miss the optimum the unsplit model finds and proves.
    assert_split_agrees(Event.with_count(players, rounds, odd=odd))


@pytest.mark.parametrize("players, odd", [(10, OddPolicy.THREE_HANDED), (11, OddPolicy.SIT_OUT)])
def test_the_split_by_round_three_agrees_with_the_whole_day_model(players, odd, monkeypatch):
    monkeypatch.setattr(split, "FIRST_LOOK", 0.0)  # every case split again by round 3
    assert_split_agrees(Event.with_count(players, 3, odd=odd), refined=True)


# One worker on 40 deterministic seconds (a guard: these proofs take a few): whether a case is proven, and
# which are split again, is the same on a quiet machine and a busy one.
def work() -> Budget:
    return Budget.of(160, repeatable=True)


def assert_split_agrees(event: Event, refined: bool = False) -> None:
    best = cpsat.solve(event, work(), workers=1)
    assert best.proven and best.repeats is not None
    below = split_probe(event, best.repeats - 1, work(), workers=1)
    assert below.proven and below.seats is None and (below.refined > 0 or not refined)
    at = split_probe(event, best.repeats, work(), workers=1)
    assert at.seats is not None and not at.proven
    metrics = check(to_schedule(event, at.seats, "variety"))
    assert metrics.repeats <= best.repeats and metrics.turns_fair


def test_eleven_players_sitting_out_three_cannot_do_better_than_six_over_four_rounds():
    # The whole-day model needs several seconds; split, 18 cases close in about one.
    event = Event.with_count(11, 4, odd=OddPolicy.SIT_OUT)
    outcome = split_probe(event, 5, work(), workers=1)
    assert outcome.proven and outcome.cases == sum(met_again <= 5 for _, met_again in second_rounds(event)) == 18


def test_only_small_rooms_without_requests_split():
    assert splits_by_round_two(Event.with_count(14, 4, odd=OddPolicy.SIT_OUT))
    assert not splits_by_round_two(Event.with_count(17, 4, odd=OddPolicy.SIT_OUT))  # 4 tables and sitters
    assert not splits_by_round_two(Event.with_count(14, 2, odd=OddPolicy.SIT_OUT))  # nothing after round 2
    apart = Event.with_count(14, 4, odd=OddPolicy.SIT_OUT).model_copy(update={"apart": (("P01", "P02"),)})
    assert not splits_by_round_two(apart)
    with pytest.raises(ValueError):
        SeatingModel(apart, fixed_rounds=[[0] * 14])
