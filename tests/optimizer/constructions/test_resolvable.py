"""Resolvable designs for 3q + 1 players (optimizer.constructions.resolvable) and the theorems the verdict
answers with where nothing is built (optimizer.constructions.theorems)."""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest

import optimizer.constructions.resolvable as resolvable
import optimizer.proof.verdict as verdict_module
from models import Answer, Event
from optimizer.checking.checker import check
from optimizer.constructions import frontier_rounds, instant_seating
from optimizer.constructions.resolvable.__main__ import find_pairs, search_pairs
from optimizer.constructions.rotational import Shape, expand
from optimizer.constructions.theorems import design_theorem, open_room_note
from optimizer.proof.verdict import THEOREM_SEARCH_SECONDS, zero_repeat_verdict
from optimizer.seats import meetings, to_schedule


@pytest.mark.parametrize("players", [16, 40, 76, 112, 196])
def test_the_design_meets_every_pair_exactly_once_by_the_checkers_count(players):
    rounds = (players - 1) // 3
    seats = resolvable.resolvable_seating(players, rounds)
    assert seats is not None
    metrics = check(to_schedule(Event.with_count(players, rounds), seats, "resolvable"), indirect=False)
    assert metrics.repeats == 0 and metrics.max_meetings == 1
    met = meetings(seats, players)
    assert int((met > 0).sum()) // 2 == comb(players, 2)  # every pair meets: the counting bound is met


def test_every_room_of_the_class_up_to_400_but_the_multiples_of_three_reaches_the_counting_bound():
    short = [v for v in range(16, 401, 12) if ((v - 1) // 3) % 3 and frontier_rounds(v) < (v - 1) // 3]
    assert short == []


@pytest.mark.parametrize("q", [13, 25])
def test_the_stored_pairs_are_what_the_generator_reaches(q):
    assert find_pairs(q)[0] == resolvable.stored_pairs()[q]


@pytest.mark.parametrize("q", [9, 21])
def test_the_search_proves_no_matching_for_a_multiple_of_three(q):
    assert search_pairs(q, seed=0) is None


def test_a_matching_whose_sums_repeat_makes_a_pair_meet_twice():
    q, pairs = 13, resolvable.stored_pairs()[13]
    (a, c), (b, d) = pairs[0], pairs[1]
    swapped = [(a, d), (b, c), *pairs[2:]]  # the classes still split in pairs, the sums no longer distinct
    assert resolvable.is_matching(pairs, q) and not resolvable.is_matching(swapped, q)
    seats = expand(resolvable.base_round(q, swapped), Shape(q, 3, 1), q)
    assert check(to_schedule(Event.with_count(40, q), seats, "x"), indirect=False).repeats > 0


def test_pairs_whose_sums_repeat_are_refused_when_loaded(tmp_path, monkeypatch):
    bad = tmp_path / "pairs.json"
    bad.write_text(json.dumps({"pairs": {"13": [[1, 2], [3, 4], [5, 6]]}}), encoding="utf-8")
    monkeypatch.setattr(resolvable, "PAIRS_FILE", bad)
    resolvable.stored_pairs.cache_clear()
    with pytest.raises(resolvable.BadPairs, match="not a matching"):
        resolvable.stored_pairs()
    resolvable.stored_pairs.cache_clear()


def test_a_prefix_of_the_design_is_a_repeat_free_day_of_fewer_rounds():
    made = instant_seating(304, 40)
    assert made is not None and made.seats.shape == (40, 76, 4) and "resolvable" in str(made.made)
    assert np.array_equal(made.seats, instant_seating(304, 101).seats[:40])


@pytest.mark.parametrize("players, rounds", [(196, 65), (304, 12)])
def test_the_verdict_past_64_players_is_exists_with_a_checked_schedule(players, rounds):
    verdict = zero_repeat_verdict(Event.with_count(players, rounds), time_limit=5, workers=1)
    assert verdict.answer is Answer.EXISTS and verdict.schedule is not None
    assert "resolvable design" in verdict.reason


UNBUILT_FOUR_MOD_TWELVE = [  # a day has at most 100 rounds (models.event)
    (v, min((v - 1) // 3, 100), "Hanani") for v in range(16, 401, 12) if frontier_rounds(v) < (v - 1) // 3
]


@pytest.mark.parametrize(
    "players, rounds, reference", [*UNBUILT_FOUR_MOD_TWELVE, (216, 71, "Ge, Lam"), (372, 100, "Ge, Lam")]
)
def test_a_room_the_theorem_covers_but_nothing_builds_answers_exists_by_theorem(players, rounds, reference):
    verdict = zero_repeat_verdict(Event.with_count(players, rounds), time_limit=5, workers=1)
    assert verdict.answer is Answer.EXISTS and verdict.schedule is None
    assert verdict.reason.startswith("theorem: ") and verdict.reason.endswith("; not built here")
    assert reference in verdict.reason


def test_a_room_the_theorem_covers_answers_in_about_a_second_of_work_at_the_default_limit(monkeypatch):
    # the search for a checked day gets at most THEOREM_SEARCH_SECONDS of the default 30 (on one worker's
    # work clock, so the figure does not depend on the load), then the theorem answers
    given = []

    def searched(event, budget, seed, workers):
        given.append(budget.left())
        return None

    monkeypatch.setattr(verdict_module, "_searched", searched)
    verdict = zero_repeat_verdict(Event.with_count(216, 71), workers=1)
    assert verdict.answer is Answer.EXISTS and verdict.reason.startswith("theorem: ")
    assert len(given) == 1 and 0.9 * THEOREM_SEARCH_SECONDS <= given[0] <= THEOREM_SEARCH_SECONDS


def test_a_room_the_theorem_covers_gets_a_checked_day_where_a_short_search_finds_one():
    # 372 players: nothing here builds more than 31 rounds; the planner's search finds 33 in its share of 5 s
    verdict = zero_repeat_verdict(Event.with_count(372, 33), time_limit=5, seed=0, workers=1)
    assert verdict.answer is Answer.EXISTS and verdict.reason == "found by the planner's search"
    assert verdict.schedule is not None and check(verdict.schedule).repeats == 0


def test_a_room_of_eight_mod_twelve_past_the_papers_open_values_exists_by_theorem():
    # 776 players: nothing here builds more than 97 rounds, and the paper leaves no v = 8 (mod 12) above 692 open
    verdict = zero_repeat_verdict(Event.with_count(776, 100), time_limit=1, seed=0, workers=1)
    assert verdict.answer is Answer.EXISTS
    if verdict.schedule is None:
        assert verdict.reason.startswith("theorem: ") and "above 692" in verdict.reason
    else:  # the planner's search found a day in its share of the second
        assert check(verdict.schedule).repeats == 0


def test_an_unsettled_room_of_eight_mod_twelve_says_what_the_literature_leaves_open():
    verdict = zero_repeat_verdict(Event.with_count(68, 22), time_limit=1, seed=0, workers=1)
    assert verdict.answer is Answer.UNKNOWN and "at most 18 rooms it leaves open, the largest 692" in verdict.reason
    assert open_room_note(68, 23) is None and open_room_note(704, 10) is None and open_room_note(72, 5) is None


def test_past_the_theorem_the_counting_bound_answers_impossible():
    verdict = zero_repeat_verdict(Event.with_count(100, 34), time_limit=5, workers=1)
    assert verdict.answer is Answer.IMPOSSIBLE


def test_no_theorem_is_claimed_for_twelve_or_for_eight_mod_twelve_up_to_the_papers_last_open_room():
    assert design_theorem(12) is None and design_theorem(116) is None and design_theorem(20) is None
    assert design_theorem(692) is None and design_theorem(704).rounds == 234  # 4-RGDD of type 2^352
    assert design_theorem(24).rounds == 7 and design_theorem(28).rounds == 9
