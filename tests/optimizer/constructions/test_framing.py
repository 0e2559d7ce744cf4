"""Resolvable maximum packings from a resolvable design less a player, weighted and filled
(optimizer.constructions.framing), checked by the independent checker."""

from __future__ import annotations

import numpy as np
import pytest

from models import Answer, Event
from models.event import MAX_ROUNDS
from optimizer.checking.checker import check
from optimizer.constructions import _cliques, framing, from_framing, frontier_rounds, instant_seating
from optimizer.constructions.framing import framed_day
from optimizer.proof.verdict import zero_repeat_verdict
from optimizer.seats import is_repeat_free, meetings, to_schedule


@pytest.mark.parametrize("players, n, m", [(168, 16, 11), (228, 16, 15), (300, 28, 11), (212, 16, 14), (380, 28, 14)])
def test_the_framed_packing_meets_everyone_but_the_group_once_by_the_checkers_count(players, n, m):
    added = players - m * (n - 1)  # 3: groups of three (type 3^n); 2: partners (type 2^n)
    rounds = (players - 1) // 3
    assert framing(players) == (rounds, n, m) and frontier_rounds(players) == rounds
    made = instant_seating(players, rounds)
    assert made is not None and "frame" in str(made.made) and f"{added} added players" in str(made.made)
    day = made.seats[:MAX_ROUNDS]  # a day holds 100 rounds: 380's last 26 by the meetings below
    metrics = check(to_schedule(Event.with_count(players, len(day)), day, "frame"), indirect=False)
    assert metrics.repeats == 0 and metrics.max_meetings == 1
    met = meetings(made.seats, players)
    assert met.max() == 1
    apart = (met == 0) & ~np.eye(players, dtype=bool)
    assert (apart.sum(axis=1) == added - 1).all()  # each misses the others of its group ...
    groups = [np.append(np.flatnonzero(apart[a]), a) for a in range(players)]
    assert all(apart[b, c] for group in groups for b in group for c in group if b != c)  # ... who miss each other


def test_the_verdict_for_168_players_is_exists_up_to_55_rounds_and_impossible_past():
    verdict = zero_repeat_verdict(Event.with_count(168, 55), time_limit=5, workers=1)
    assert verdict.answer is Answer.EXISTS and verdict.schedule is not None and "frame" in verdict.reason
    assert zero_repeat_verdict(Event.with_count(168, 56), time_limit=5, workers=1).answer is Answer.IMPOSSIBLE


def test_a_prefix_of_the_framed_packing_is_a_repeat_free_day_of_fewer_rounds():
    made, whole = from_framing(300, 13), instant_seating(300, 99)  # fewer rounds come first from others
    assert made is not None and whole is not None and made.seats.shape == (13, 75, 4)
    assert "frame" in str(whole.made) and np.array_equal(made.seats, whole.seats[:13])


def test_added_players_given_a_fill_trio_that_is_not_a_group_meet_twice():
    design, fill = instant_seating(16, 5), instant_seating(36, 11)
    groups = _cliques(36).copy()
    groups[0, 0], groups[1, 0] = groups[1, 0], groups[0, 0]  # the added players now stand for a non-group
    assert is_repeat_free(framed_day(design.seats, 16, 11, fill.seats, _cliques(36)), 168, 55)
    assert not is_repeat_free(framed_day(design.seats, 16, 11, fill.seats, groups), 168, 55)


def test_the_odd_room_one_short_of_a_framed_packing_gets_its_rounds_by_deletion():
    verdict = zero_repeat_verdict(Event.with_count(167, 55), time_limit=5, workers=1)
    assert verdict.answer is Answer.EXISTS and verdict.schedule is not None
    assert "frame" in verdict.reason and "deleted" in verdict.reason
    assert check(verdict.schedule, indirect=False).repeats == 0
