"""Resolvable maximum packings for 3q + 3 players from stored base rounds (optimizer.constructions.packings)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import optimizer.constructions.packings as packings
from models import Answer, Event
from optimizer.checking.checker import check
from optimizer.constructions import frontier_rounds, instant_seating
from optimizer.constructions.packings import packing_rounds
from optimizer.constructions.packings.__main__ import find_threes, lift_threes, search
from optimizer.constructions.quotients import search_quotient
from optimizer.proof.verdict import zero_repeat_verdict
from optimizer.seats import meetings, to_schedule


@pytest.mark.parametrize("players", sorted(3 * q + 3 for q in packings.stored_bases()))
def test_the_packing_meets_everyone_but_the_group_once_by_the_checkers_count(players):
    rounds = players // 3 - 1
    seats = packings.packing_seating(players, rounds)
    assert seats is not None
    day = min(rounds, 100)  # models.Event's limit on a day: the checker vouches for the first 100 rounds
    metrics = check(to_schedule(Event.with_count(players, day), seats[:day], "packing"), indirect=False)
    assert metrics.repeats == 0 and metrics.max_meetings == 1
    never = int((meetings(seats, players) == 0).sum() - players) // 2
    assert never == players  # each player misses only the two others of its group of three


def test_the_stored_packings_reach_the_counting_bound_where_nothing_else_did():
    assert [v for v in (108, 276, 360) if frontier_rounds(v) == (v - 1) // 3] == [108, 276, 360]


def test_the_stored_base_is_what_the_generator_reaches():
    entry, status = search(35, "one")
    assert status == "OPTIMAL" and entry is not None
    stored = json.loads(packings.BASES_FILE.read_text(encoding="utf-8"))["bases"]["35"]
    assert entry == stored


THREES = [72, 84, 96, 120, 132, 156, 180, 204, 312, 336]  # 3q + 3 for the q stored in the form threes


def test_the_rooms_of_the_form_threes_reach_the_counting_bound_from_their_stored_packing():
    assert [frontier_rounds(v) for v in THREES] == [v // 3 - 1 for v in THREES]
    assert [packing_rounds(v) for v in THREES] == [v // 3 - 1 for v in THREES]
    stored = json.loads(packings.BASES_FILE.read_text(encoding="utf-8"))["bases"]
    for v in THREES:
        entry = stored[str(v // 3 - 1)]
        assert entry["form"] == "threes" and entry["pairs"] == [] and entry["how"].startswith(("tabu", "multiplier"))


def test_the_form_threes_search_reaches_the_stored_q_23_from_its_seed():
    entry, how = find_threes(23)
    assert entry is not None and how == entry["how"] == "tabu, 4000 steps, seed 1"
    assert entry == json.loads(packings.BASES_FILE.read_text(encoding="utf-8"))["bases"]["23"]


def test_the_stored_q_67_is_closed_under_its_multiplier_of_order_3_with_an_orbit_for_the_set_of_three():
    entry = json.loads(packings.BASES_FILE.read_text(encoding="utf-8"))["bases"]["67"]
    assert entry["how"].startswith("multiplier 29") and pow(29, 3, 67) == 1
    sets = sorted(sorted(x for x, _ in table if x != packings.INF) for table in entry["turned"])
    assert sorted(sorted(x * 29 % 67 for x in block) for block in sets) == sets
    three = next(block for block in sets if len(block) == 3)
    assert sorted(x * 29 % 67 for x in three) == three and 0 not in three


def test_a_quotient_of_z_23_can_have_no_lifts_and_is_then_passed_over():
    quotient = search_quotient(23, 0, 4000, short=True)
    assert quotient is not None and sorted(x for block in quotient for x in block) == list(range(23))
    assert sorted(len(block) for block in quotient) == [3, 4, 4, 4, 4, 4]
    assert lift_threes(23, quotient) == (None, "INFEASIBLE")


def test_a_threes_base_with_one_class_changed_is_refused_when_loaded(tmp_path, monkeypatch):
    entry = json.loads(packings.BASES_FILE.read_text(encoding="utf-8"))["bases"]["23"]
    entry["turned"][1][1][1] = (entry["turned"][1][1][1] + 1) % 3  # one point of a table of four changes class
    _refused(tmp_path, monkeypatch, 23, entry)


def test_the_search_proves_the_small_form_impossible_for_q_11():
    assert search(11, "one") == (None, "INFEASIBLE")


def test_a_base_whose_groups_meet_is_refused_when_loaded(tmp_path, monkeypatch):
    entry = json.loads(packings.BASES_FILE.read_text(encoding="utf-8"))["bases"]["35"]
    (a, c), (b, d) = entry["pairs"][0], entry["pairs"][1]
    entry["pairs"][:2] = [[a, d], [b, c]]  # the classes still split in pairs, their sums no longer distinct
    _refused(tmp_path, monkeypatch, 35, entry)


def _refused(tmp_path, monkeypatch, q: int, entry: dict) -> None:
    """A file holding only this entry for q is refused when loaded."""
    bad = tmp_path / "bases.json"
    bad.write_text(json.dumps({"bases": {str(q): entry}}), encoding="utf-8")
    monkeypatch.setattr(packings, "BASES_FILE", bad)
    packings.stored_bases.cache_clear()
    try:
        with pytest.raises(packings.BadBase, match=f"q = {q}"):
            packings.stored_bases()
    finally:
        packings.stored_bases.cache_clear()


def test_a_prefix_of_the_packing_is_a_repeat_free_day_of_fewer_rounds():
    made = instant_seating(108, 12)
    assert made is not None and made.seats.shape == (12, 27, 4) and "packing" in str(made.made)
    assert np.array_equal(made.seats, instant_seating(108, 35).seats[:12])


def test_the_verdict_for_108_players_is_exists_with_a_checked_schedule_up_to_35_rounds():
    verdict = zero_repeat_verdict(Event.with_count(108, 35), time_limit=5, workers=1)
    assert verdict.answer is Answer.EXISTS and verdict.schedule is not None and "packing" in verdict.reason
    assert zero_repeat_verdict(Event.with_count(108, 36), time_limit=5, workers=1).answer is Answer.IMPOSSIBLE


def test_the_odd_room_one_short_of_a_packing_gets_its_rounds_by_deletion():
    verdict = zero_repeat_verdict(Event.with_count(107, 35), time_limit=5, workers=1)
    assert verdict.answer is Answer.EXISTS and verdict.schedule is not None
    assert "packing" in verdict.reason and "deleted" in verdict.reason
    assert check(verdict.schedule, indirect=False).repeats == 0
