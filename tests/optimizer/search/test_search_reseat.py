"""Round-by-round local search (optimizer.search.reseat): reseat_round never raises a round's cost
and keeps pinned players and table sizes; improve and extend keep the shape of the day."""

from __future__ import annotations

from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models import Event, OddPolicy
from optimizer.budget import Budget
from optimizer.constructions.affine import affine_seating
from optimizer.constructions.fixed import fixed_seating
from optimizer.search import Costs, extend, improve, reseat_round
from optimizer.seats import EMPTY, meetings, repeats

SOON = 30.0  # seconds of work: a guard only; these searches stop on their own long before


def round_cost(tables: np.ndarray, cost: np.ndarray) -> float:
    return float(sum(cost[p, q] for table in tables for p, q in combinations([int(u) for u in table if u >= 0], 2)))


def table_of(tables: np.ndarray) -> dict[int, int]:
    return {int(u): t for t, table in enumerate(tables) for u in table if u >= 0}


@st.composite
def rounds_with_costs(draw):
    """One round of `tables` (some of three, some players sitting out), a symmetric cost matrix, pins."""
    odd = draw(st.sampled_from(list(OddPolicy)))
    n = draw(st.integers(6, 32))
    if n == 9 and odd is OddPolicy.THREE_HANDED:
        n = 10
    layout = Event.with_count(n, 1, odd=odd).layout
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    order = rng.permutation(n)
    tables = np.full((layout.tables, 4), EMPTY, dtype=np.int64)
    tables[: layout.fours] = order[: 4 * layout.fours].reshape(layout.fours, 4)
    tables[layout.fours :, :3] = order[4 * layout.fours : layout.seated].reshape(layout.threes, 3)
    cost = np.triu(rng.integers(0, 4, size=(n, n)).astype(float), 1)
    pinned = rng.random(n) < draw(st.sampled_from([0.0, 0.2]))
    return tables, cost + cost.T, pinned, rng


@given(rounds_with_costs())
def test_reseat_round_never_raises_the_cost_and_keeps_pins_and_table_sizes(case):
    tables, cost, pinned, rng = case
    after = reseat_round(tables.copy(), cost, rng, kicks=3, pinned=pinned)
    assert round_cost(after, cost) <= round_cost(tables, cost) + 1e-9
    assert ((after >= 0).sum(axis=1) == (tables >= 0).sum(axis=1)).all()
    before_at, after_at = table_of(tables), table_of(after)
    assert before_at.keys() == after_at.keys()  # the same players seated, the same sitting out
    assert sorted(after[after >= 0].tolist()) == sorted(tables[tables >= 0].tolist())
    for p in np.flatnonzero(pinned):
        assert after_at.get(int(p)) == before_at.get(int(p))


def test_reseat_round_finds_a_planted_zero_cost_round():
    """Pairs cost 1 except within three planted tables: the swaps must find those tables."""
    rng = np.random.default_rng(0)
    planted = rng.permutation(12).reshape(3, 4)
    cost = np.ones((12, 12))
    for table in planted:
        cost[np.ix_(table, table)] = 0
    np.fill_diagonal(cost, 0)
    start = rng.permutation(12).reshape(3, 4)
    assert round_cost(start, cost) > 0
    after = reseat_round(start, cost, rng)
    assert round_cost(after, cost) == 0
    assert sorted(map(sorted, after.tolist())) == sorted(map(sorted, planted.tolist()))


def test_reseat_round_leaves_a_round_of_zero_cost_as_it_is():
    tables = np.arange(8).reshape(2, 4)
    assert reseat_round(tables, np.zeros((8, 8)), np.random.default_rng(0)) is tables


@settings(max_examples=20)
@given(
    players=st.integers(8, 24), rounds=st.integers(2, 5), odd=st.sampled_from(list(OddPolicy)), seed=st.integers(0, 99)
)
def test_improve_never_worsens_the_day_and_keeps_every_round_s_players_and_tables(players, rounds, odd, seed):
    if players == 9 and odd is OddPolicy.THREE_HANDED:
        players = 10
    names = Event.with_count(players, rounds, odd=odd).players
    event = Event(players=names, rounds=rounds, odd=odd, stay={names[0]: 1})
    costs = Costs.of(event)
    start = fixed_seating(event)
    t = int(np.argwhere(start[0] == 0)[0][0])
    start[:, [0, t]] = start[:, [t, 0]]  # round one's table of P1 becomes table 1 ...
    start[1:] = start[:1]  # ... and every round repeats round one: P1 stays, the day repeats badly
    best = improve(start, costs, Budget.of(SOON, repeatable=True), np.random.default_rng(seed))
    assert repeats(best, players) <= repeats(start, players)
    if rounds >= 2 and event.layout.tables >= 2 and event.layout.fours >= 2:
        assert repeats(best, players) < repeats(start, players)
    for old, new in zip(start, best):
        assert sorted(new[new >= 0].tolist()) == sorted(old[old >= 0].tolist())
        assert ((new >= 0).sum(axis=1) == (old >= 0).sum(axis=1)).all()
        assert 0 in new[0]  # the staying player keeps table 1


def test_improve_reports_better_days_in_decreasing_repeats_ending_with_its_result():
    event = Event.with_count(16, 4)
    start = np.stack([fixed_seating(event)[0]] * 4)  # the same round four times: 72 repeats
    seen = []
    best = improve(
        start,
        Costs.of(event),
        Budget.of(SOON, repeatable=True),
        np.random.default_rng(0),
        on_better=lambda s: seen.append(s.copy()),
    )
    assert repeats(start, 16) == 72
    found = [repeats(s, 16) for s in seen]
    assert found and found == sorted(set(found), reverse=True)  # each report strictly better
    assert repeats(seen[-1], 16) == repeats(best, 16) < 72


def test_extend_keeps_the_given_rounds_and_adds_full_rounds():
    seats = affine_seating(2)  # 16 players, 5 rounds: every pair meets exactly once
    event = Event.with_count(16, 7)
    longer = extend(seats, 7, Costs.of(event), np.random.default_rng(0))
    assert longer.shape == (7, 4, 4)
    assert (longer[:5] == seats).all()
    for round_ in longer[5:]:
        assert sorted(round_.ravel().tolist()) == list(range(16))
    assert repeats(longer, 16) == 2 * 24  # after a complete design every pair at a table is a repeat
    assert meetings(longer, 16).max() <= 3


def test_extend_to_fewer_rounds_cuts_the_day():
    seats = affine_seating(2)
    assert (extend(seats, 3, Costs.of(Event.with_count(16, 3)), np.random.default_rng(0)) == seats[:3]).all()


def test_extend_after_a_short_prefix_stays_repeat_free_where_room_allows():
    seats = affine_seating(2)[:1]  # one round: 96 pairs unmet, a second round can avoid every meeting
    longer = extend(seats, 2, Costs.of(Event.with_count(16, 2)), np.random.default_rng(0))
    assert repeats(longer, 16) == 0
