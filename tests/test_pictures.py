"""The who-meets-whom picture's counts (rotation.printing.pictures) against a count from names, and the picture
in a room too big to draw a square a player."""

from __future__ import annotations

from itertools import combinations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import optimizer
from models import Event
from rotation.printing.pictures import MATRIX_PLAYERS, meetings, players_per_square, summary_png
from tests.test_checker_properties import schedules

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def named_counts(schedule) -> np.ndarray:
    index = {name: i for i, name in enumerate(schedule.players)}
    counts = np.zeros((len(index), len(index)), dtype=np.int64)
    for round_ in schedule.rounds:
        for table in round_.tables:
            for a, b in combinations(table.players, 2):
                counts[index[a], index[b]] += 1
                counts[index[b], index[a]] += 1
    return counts


@given(schedules(), st.integers(1, 7))
def test_a_square_shows_the_most_meetings_of_any_pair_in_it(schedule, per_square):
    counts = named_counts(schedule)
    squares = -(-len(counts) // per_square)
    padded = np.zeros((squares * per_square,) * 2, dtype=np.int64)
    padded[: len(counts), : len(counts)] = counts
    most = padded.reshape(squares, per_square, squares, per_square).max(axis=(1, 3))
    assert (meetings(schedule, per_square) == most).all()
    assert (meetings(schedule) == counts).all()


def test_squares_stand_for_several_players_only_past_the_matrix_size():
    assert players_per_square(MATRIX_PLAYERS) == 1
    assert players_per_square(MATRIX_PLAYERS + 1) == 2
    assert -(-20_000 // players_per_square(20_000)) <= MATRIX_PLAYERS


def test_the_summary_picture_of_a_room_past_the_matrix_size_is_drawn():
    schedule = optimizer.fixed_schedule(Event.with_count(MATRIX_PLAYERS + 400, 2))
    picture = summary_png(schedule, optimizer.check(schedule))
    assert picture.startswith(PNG_SIGNATURE)
