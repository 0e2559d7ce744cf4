"""The lower bounds (optimizer.proof.bounds) never exceed the repeats of any valid schedule: those that hold
however three-handed seats and sit-outs are shared for every schedule, the rest for schedules that share
them in turn. The degree bound sees what counting misses, the turn bound what fair turns force."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import optimizer.cpsat as cpsat
from models import Event, OddPolicy
from optimizer.budget import Budget
from optimizer.checking.checker import check
from optimizer.proof.bounds import (
    _least_split,
    _opponents,
    counting_bound,
    degree_bound,
    first_round_bound,
    lower_bound,
    stay_bound,
    turn_bound,
)
from seatings import schedules


@given(schedules(min_players=6, max_players=14, min_rounds=2, max_rounds=8))
def test_no_schedule_has_fewer_repeats_than_the_bound(schedule):
    """Random permutations share burdens anyhow, fairly or not: the bounds that claim to hold however
    turns are shared must hold for them all, and the whole bound for those that happen to be fair."""
    event = Event.with_count(len(schedule.players), len(schedule.rounds), odd=schedule.odd)
    metrics = check(schedule)
    assert metrics.repeats >= max(b(event).repeats for b in (counting_bound, degree_bound, first_round_bound))
    if metrics.turns_fair:
        assert metrics.repeats >= lower_bound(event).repeats


@given(schedules(min_players=4, max_players=10, min_rounds=2, max_rounds=3))
def test_players_who_happen_to_keep_one_table_repeat_at_least_as_the_stay_bound_says(schedule):
    """Every player whose rounds at a table are all at one table could have asked to stay there: the
    stay bound for those requests holds for the schedule whenever its sit-outs are taken in turn."""
    tables: dict[str, set[int]] = {}
    for round_ in schedule.rounds:
        for table in round_.tables:
            for name in table.players:
                tables.setdefault(name, set()).add(table.table)
    stay = {name: min(seen) for name, seen in tables.items() if len(seen) == 1}
    event = Event.with_count(len(schedule.players), len(schedule.rounds), odd=schedule.odd)
    metrics = check(schedule)
    if metrics.sit_outs_fair:
        assert metrics.repeats >= stay_bound(event.model_copy(update={"stay": stay})).repeats


@pytest.mark.parametrize(
    "players, rounds, odd",
    [
        (10, 2, "three-handed"),
        (11, 3, "three-handed"),
        (13, 2, "three-handed"),
        (17, 3, "three-handed"),
        (9, 3, "sit-out"),
        (10, 3, "sit-out"),
    ],
)
def test_the_turn_bound_never_exceeds_what_cpsat_proves_optimal(players, rounds, odd):
    # Rooms where the turn bound is the whole bound: CP-SAT, given no bound, proves the optimum itself.
    # One worker counting work, so the proof never depends on the load: the largest takes 0.19 s of work.
    event = Event.with_count(players, rounds, odd=OddPolicy(odd))
    outcome = cpsat.solve(event, Budget.of(2, repeatable=True), seed=0, workers=1)
    assert outcome.proven and outcome.repeats is not None
    assert 0 < turn_bound(event).repeats <= outcome.repeats


def test_fair_turns_force_rematches_of_the_round_before():
    # 17 players at 2 tables of four and 3 of three. Round 2 must give a turn to the 8 who had none: the
    # 4 of a round-1 table of four share 3 tables of three (a pair each table), and the tables of four
    # draw on the 3 tables of three (a pair each). Round 4 forces 2 more the same way: 6 in all.
    event = Event.with_count(17, 4, odd=OddPolicy.THREE_HANDED)
    bound = turn_bound(event)
    assert (bound.repeats, lower_bound(event).repeats) == (6, 6)
    assert "4 in round 2, 2 in round 4" in bound.proof and "taken in turn" in bound.proof
    assert turn_bound(Event.with_count(16, 4)).repeats == 0  # no turns to take


def test_players_who_never_sit_out_repeat_even_when_the_room_has_pairs_to_spare():
    # 18 players, 2 sit out a round, 6 rounds: 12 sit-outs, so 6 players sit at 6 tables of four
    # and meet 18 opponents among 17 others: 6 surplus meetings, 3 repeated pairs at least.
    event = Event.with_count(18, 6, odd=OddPolicy.SIT_OUT)
    assert counting_bound(event).repeats == 0
    assert degree_bound(event).repeats == lower_bound(event).repeats == 3


def test_the_degree_bound_is_never_below_counting():
    for players in range(6, 40):
        for rounds in range(2, 9):
            for odd in OddPolicy:
                event = Event.with_count(players, rounds, odd=odd)
                assert degree_bound(event).repeats >= counting_bound(event).repeats


def test_players_who_meet_everyone_leave_too_few_opponents_for_the_rest():
    # 19 players, 3 sit out a round, 7 rounds: 17 sit out once and meet 18 opponents, 2 sit out twice
    # and meet 15. A repeat-free day has the 17 meet all 18 others, so the 2 would meet 17 each.
    event = Event.with_count(19, 7, odd=OddPolicy.SIT_OUT)
    assert counting_bound(event).repeats == 0
    bound = degree_bound(event)
    assert bound.repeats == lower_bound(event).repeats == 2
    assert "the 2 players who meet fewest" in bound.proof and "at most 166 different pairs" in bound.proof


def test_nineteen_three_handed_over_six_rounds_reduces_to_twenty():
    # Turns taken fairly leave nobody at the table of three twice in 6 rounds of 19, so a 20th player
    # there would give a repeat-free day of 20 over 6 rounds, which does not exist.
    bound = lower_bound(Event.with_count(19, 6, odd=OddPolicy.THREE_HANDED))
    assert bound.repeats == 1 and "three-handed twice" in bound.proof and "Ge, Lam" in bound.proof
    assert lower_bound(Event.with_count(19, 5, odd=OddPolicy.THREE_HANDED)).repeats == 0  # 20 x 5 exists
    assert lower_bound(Event.with_count(19, 6, odd=OddPolicy.SIT_OUT)).repeats == 0  # no seat to fill


def test_players_who_sat_out_round_one_spare_only_the_tables_they_join():
    # 13 players sitting out one a round at 3 tables: a later table without the round-1 sitter draws 4
    # players from 3 first-round tables, so two of them met before; the sitter's table can avoid it.
    bound = first_round_bound(Event.with_count(13, 4, odd=OddPolicy.SIT_OUT))
    assert bound.repeats == 2 * 3 and "sat out round 1" in bound.proof
    assert lower_bound(Event.with_count(13, 4, odd=OddPolicy.SIT_OUT)).repeats == 6
    assert first_round_bound(Event.with_count(15, 4, odd=OddPolicy.SIT_OUT)).repeats == 0  # 3 sitters, 3 tables


def grid_least_split(opponents: np.ndarray) -> tuple[int, int, int]:
    """The degree bound's least over every (a, b), as first written: the whole (n + 1)^2 grid."""
    n = len(opponents)
    ends = np.concatenate([np.cumsum(opponents[::-1])[::-1], [0]])
    most, fewest = np.arange(n + 1)[:, None], np.arange(n + 1)[None, :]
    twice = ends[most] + ends[n - fewest] + most * (n - fewest - 1)
    twice = np.where(most + fewest <= n, twice, np.iinfo(np.int64).max)
    a, b = (int(i) for i in np.unravel_index(np.argmin(twice), twice.shape))
    return a, b, int(twice[a, b])


@given(st.lists(st.integers(0, 60), min_size=1, max_size=40))
def test_the_least_split_is_the_whole_grid_s_least_on_any_falling_opponent_counts(counts):
    opponents = np.array(sorted(counts, reverse=True), dtype=np.int64)
    ends = np.concatenate([np.cumsum(opponents[::-1])[::-1], [0]])
    assert _least_split(opponents, ends) == grid_least_split(opponents)


@pytest.mark.parametrize("odd", list(OddPolicy))
def test_the_degree_bound_is_the_whole_grid_s_in_small_rooms(odd):
    for players in range(4, 41):
        for rounds in (1, 2, 5, 9, 14, 20):
            try:
                event = Event.with_count(players, rounds, odd=odd)
            except ValueError:
                continue
            opponents = _opponents(event)
            twice = grid_least_split(opponents)[2]
            assert degree_bound(event).repeats == max(0, int(opponents.sum()) // 2 - twice // 2)


def test_compare_puts_the_fixed_rule_and_the_bound_beside_a_day_or_says_why_not():
    """optimizer.compare, the one place the print's summary and the desk's comparison take their figures."""
    import optimizer
    from models.event import FixedRule

    event = Event.with_count(17, 5)  # three-handed tables: the fixed rule does not take them in turn
    day = optimizer.fixed_schedule(event, FixedRule.EAST_STAYS)  # any checked day of the room
    compared = optimizer.compare(day)
    fixed = optimizer.check(optimizer.fixed_schedule(event))
    assert compared.fixed == fixed and compared.bound == optimizer.lower_bound(event) and not compared.skipped
    other = optimizer.compare(day, FixedRule.A_STAYS)  # the event's own rule, on the same room
    assert other.fixed == optimizer.check(optimizer.fixed_schedule(event, FixedRule.A_STAYS))
    came_late = day.model_copy(update={"arrivals": {day.players[0]: 2}})
    late = optimizer.compare(came_late)
    assert late.fixed is None and late.bound is None and "came and went" in late.skipped
