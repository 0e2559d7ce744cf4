"""The stay repair every start goes through (optimizer.constructions.stayers.place_stayers): after it,
every staying player is at their table whenever seated, and each round still seats the same players
once at tables of the same sizes."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from models import Event, OddPolicy
from optimizer.constructions.fixed import fixed_seating
from optimizer.constructions.stayers import place_stayers
from optimizer.seats import EMPTY, repeats
from seatings import random_seating


@st.composite
def rooms_with_stayers(draw, one_per_table: bool):
    odd = draw(st.sampled_from(list(OddPolicy)))
    n = draw(st.integers(6, 30))
    base = Event.with_count(n, draw(st.integers(1, 5)), odd=odd)
    layout = base.layout
    names = draw(st.permutations(base.players))
    stay, at = {}, 0
    for table in draw(  # players stay at tables of four only (see models.event): the tables of three come last
        st.lists(st.integers(1, max(layout.fours, 1)), min_size=1, max_size=layout.tables, unique=one_per_table)
    ):
        if layout.fours and sum(t == table for t in stay.values()) < 4:
            stay[names[at]] = table
            at += 1
    event = Event(players=base.players, rounds=base.rounds, odd=odd, stay=stay)
    return event, random_seating(event, np.random.default_rng(draw(st.integers(0, 2**32 - 1))))


def assert_same_rounds_up_to_seats(before: np.ndarray, after: np.ndarray) -> None:
    assert after.shape == before.shape
    for old, new in zip(before, after):
        assert sorted(new[new >= 0].tolist()) == sorted(old[old >= 0].tolist())  # same players, each once
        assert len(set(new[new >= 0].tolist())) == (new >= 0).sum()
        assert ((new >= 0).sum(axis=1) == (old >= 0).sum(axis=1)).all()  # table t keeps its size
        assert ((new[:, 3] == EMPTY) == (old[:, 3] == EMPTY)).all()  # seat D empty at the same tables


def assert_stayers_at_their_tables(event: Event, seats: np.ndarray) -> None:
    index = {name: p for p, name in enumerate(event.players)}
    for r, round_ in enumerate(seats):
        for name, table in event.stay.items():
            where = np.argwhere(round_ == index[name])
            if len(where):  # a stayer sitting out is at no table
                assert where[0][0] == table - 1, (r, name, table, round_)


@given(rooms_with_stayers(one_per_table=True))
def test_one_stayer_a_table_ends_at_their_table_in_every_round(room):
    event, seats = room
    placed = place_stayers(seats, event)
    assert_same_rounds_up_to_seats(seats, placed)
    assert_stayers_at_their_tables(event, placed)


@given(rooms_with_stayers(one_per_table=False))
def test_several_stayers_at_one_table_all_end_at_it(room):
    event, seats = room
    placed = place_stayers(seats, event)
    assert_same_rounds_up_to_seats(seats, placed)
    assert_stayers_at_their_tables(event, placed)


def test_stayers_by_renumbering_tables_of_one_size_change_no_meeting():
    event = Event(
        players=Event.with_count(16, 4).players, rounds=4, stay={"P01": 3, "P05": 4}
    )  # seat A both: never together
    seats = fixed_seating(event)
    placed = place_stayers(seats, event)
    assert_stayers_at_their_tables(event, placed)
    assert repeats(placed, 16) == repeats(seats, 16)  # tables renumbered only: everyone keeps opponents
    for old, new in zip(seats, placed):
        assert sorted(map(sorted, old.tolist())) == sorted(map(sorted, new.tolist()))


def test_a_stayer_seated_at_a_table_of_three_swaps_one_seat():
    event = Event(players=Event.with_count(11, 2).players, rounds=2, stay={"P09": 1})  # P09 starts at table 3, of three
    seats = fixed_seating(event)
    placed = place_stayers(seats, event)
    assert_stayers_at_their_tables(event, placed)
    assert_same_rounds_up_to_seats(seats, placed)


def test_the_input_seating_is_not_changed():
    event = Event(players=Event.with_count(8, 2).players, rounds=2, stay={"P1": 2})
    seats = fixed_seating(event)
    copy = seats.copy()
    place_stayers(seats, event)
    assert (seats == copy).all()
