"""The builders' shared counts (optimizer.seats: meetings, pair_counts, repeats, together, turns_taken,
turns_fair) against the independent checker's own (optimizer.checking.checker, optimizer.checking.meetings) on
random days: rounds of tables of three and four, with players sitting out."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from models import Round, Schedule, Table
from optimizer.checking import meetings as checker_meetings
from optimizer.checking.checker import measure, turn_breaks
from optimizer.seats import (
    EMPTY,
    meetings,
    pair_counts,
    repeats,
    repeats_in,
    table_of,
    together,
    turns_fair,
    turns_taken,
)


@st.composite
def days(draw, mixed: bool = False) -> tuple[np.ndarray, int]:
    """A seating (rounds, tables, 4) of 5-22 players. Either every round seats everyone at tables of three
    and four (three-handed turns), or at tables of four with the rest sitting out (sit-out turns): the
    checker counts the two turns apart, and an event has one kind. With `mixed`, also days whose rounds
    have tables of three and four and players sitting out at once."""
    n = draw(st.integers(5, 22))
    rounds = draw(st.integers(1, 6))
    three_handed = draw(st.booleans()) and n >= 6
    both = mixed and draw(st.booleans())
    day = []
    for _ in range(rounds):
        order = draw(st.permutations(range(n)))
        if both:
            threes = draw(st.integers(0, n // 3))
            sizes = [3] * threes + [4] * draw(st.integers(0, (n - 3 * threes) // 4))
            sizes = sizes or [3]
        elif three_handed:
            threes = [t for t in range(n // 3 + 1) if (n - 3 * t) % 4 == 0]
            t = draw(st.sampled_from(threes))
            sizes = [4] * ((n - 3 * t) // 4) + [3] * t
        else:
            sizes = [4] * draw(st.integers(1, n // 4))
        tables, at = [], 0
        for size in sizes:
            tables.append(list(order[at : at + size]) + [EMPTY] * (4 - size))
            at += size
        day.append(tables)
    width = max(len(tables) for tables in day)
    seats = np.full((rounds, width, 4), EMPTY, np.int64)
    for r, tables in enumerate(day):
        seats[r, : len(tables)] = tables
    return seats, n


def as_schedule(seats: np.ndarray, n: int) -> Schedule:
    names = tuple(f"P{p}" for p in range(n))
    rounds = []
    for tables in seats.tolist():
        seated = [[names[p] for p in table if p >= 0] for table in tables]
        here = {name for table in seated for name in table}
        rounds.append(
            Round(
                tables=tuple(Table(table=t + 1, players=tuple(table)) for t, table in enumerate(seated) if table),
                sit_outs=tuple(name for name in names if name not in here),
            )
        )
    return Schedule(players=names, rounds=tuple(rounds))


def checker_meeting_matrix(schedule: Schedule) -> np.ndarray:
    day = checker_meetings.seated(schedule)
    pairs, n = checker_meetings.pairs(day), day.player_count
    met = np.zeros((n, n), np.int64)
    low, high = np.divmod(pairs.codes, n)
    met[low, high] = met[high, low] = pairs.counts
    return met


@settings(max_examples=200, deadline=None)
@given(days(mixed=True))
def test_meetings_and_repeats_agree_with_the_checker(day):
    seats, n = day
    schedule = as_schedule(seats, n)
    met = meetings(seats, n)
    assert (met == checker_meeting_matrix(schedule)).all()
    where = table_of(seats, n)
    assert (met == sum(together(where, r).astype(np.int64) for r in range(len(seats)))).all()
    assert repeats_in(met) == measure(schedule, indirect=False).repeats
    pairs, counts = pair_counts(seats, n)  # the sparse count, from the same enumeration of pairs
    checker = checker_meetings.pairs(checker_meetings.seated(schedule))
    assert (pairs[:, 0] * n + pairs[:, 1]).tolist() == sorted(checker.codes.tolist())
    assert counts.tolist() == [int(c) for _, c in sorted(zip(checker.codes.tolist(), checker.counts.tolist()))]
    assert repeats(seats, n) == measure(schedule, indirect=False).repeats


@settings(max_examples=200, deadline=None)
@given(days())
def test_fair_turns_agree_with_the_checker(day):
    seats, n = day
    schedule = as_schedule(seats, n)
    fair_after = turns_fair(turns_taken(seats, n).cumsum(axis=0))  # per round
    broken = {b.round for b in turn_breaks(schedule)}
    assert [not fair for fair in fair_after] == [r + 1 in broken for r in range(len(seats))]
    metrics = measure(schedule, indirect=False)
    assert bool(fair_after.all()) == metrics.turns_fair
