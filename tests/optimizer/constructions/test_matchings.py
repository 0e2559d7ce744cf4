"""Resolvable maximum packings for v = 8 (mod 12) players from stored base rounds
(optimizer.constructions.matchings)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import optimizer.constructions.matchings as matchings
from models import Answer, Event
from optimizer.checking.checker import check
from optimizer.constructions import from_matchings, frontier_rounds
from optimizer.constructions.matchings.__main__ import forms, search, turn_of
from optimizer.proof.verdict import zero_repeat_verdict
from optimizer.seats import meetings, to_schedule

STORED = sorted(3 * m + 2 for m in matchings.stored_bases())


@pytest.mark.parametrize("players", STORED)
def test_the_packing_meets_everyone_but_one_partner_once_by_the_checkers_count(players):
    rounds = (players - 2) // 3
    seats = matchings.matching_seating(players, rounds)
    assert seats is not None and frontier_rounds(players) == rounds == (players - 1) // 3
    metrics = check(to_schedule(Event.with_count(players, rounds), seats, "packing"), indirect=False)
    assert metrics.repeats == 0 and metrics.max_meetings == 1
    never = meetings(seats, players) == 0
    assert (never.sum(axis=1) == 2).all()  # itself and its one partner


def test_a_base_whose_tables_are_changed_is_refused_when_loaded(tmp_path, monkeypatch):
    m = min(matchings.stored_bases())
    entry = json.loads(matchings.BASES_FILE.read_text(encoding="utf-8"))["bases"][str(m)]
    first, second = entry["tables"][0], entry["tables"][1]
    first[0][0], second[0][0] = second[0][0], first[0][0]  # two players of class 0 trade tables
    bad = tmp_path / "bases.json"
    bad.write_text(json.dumps({"bases": {str(m): entry}}), encoding="utf-8")
    monkeypatch.setattr(matchings, "BASES_FILE", bad)
    matchings.stored_bases.cache_clear()
    with pytest.raises(matchings.BadBase, match=f"m = {m}"):
        matchings.stored_bases()
    matchings.stored_bases.cache_clear()


def test_a_day_whose_partners_are_not_the_stored_ones_is_not_a_packing():
    m = min(matchings.stored_bases())
    seats = matchings.develop(m, matchings.stored_bases()[m], m)
    assert matchings.is_packing(seats, m)
    assert not matchings.is_packing(seats[:-1], m)  # a round short: everyone misses three more
    swapped = np.where(seats == 0, 1, np.where(seats == 1, 0, seats))  # relabelled: the partners move
    assert not matchings.is_packing(swapped, m)


def test_the_search_builds_a_checked_packing_for_44_players_and_repeats_itself():
    m = 14
    name, form = forms(m, bool(turn_of(m)))[0]
    entry = search(m, form, seed=0)
    assert entry is not None and entry == search(m, form, seed=0)
    tables = [[(x, c) for x, c in table] for table in entry["tables"]]
    base = matchings.base_round(m, entry["turn"], entry["fixed"], tables)
    assert matchings.is_packing(matchings.develop(m, base, m), m)


@pytest.mark.parametrize("players", STORED[:1])
def test_a_prefix_is_a_repeat_free_day_of_fewer_rounds_and_the_verdict_is_checked(players):
    rounds = (players - 2) // 3
    made = from_matchings(players, 5)
    assert made is not None and "partners in pairs" in str(made.made)
    assert np.array_equal(made.seats, matchings.matching_seating(players, rounds)[:5])
    assert from_matchings(players, rounds + 1) is None
    verdict = zero_repeat_verdict(Event.with_count(players, rounds), time_limit=5, workers=1)
    assert verdict.answer is Answer.EXISTS and verdict.schedule is not None
    assert (
        zero_repeat_verdict(Event.with_count(players, rounds + 1), time_limit=5, workers=1).answer is Answer.IMPOSSIBLE
    )


def test_the_stored_base_is_what_the_generator_reaches():
    stored = json.loads(matchings.BASES_FILE.read_text(encoding="utf-8"))["bases"]["18"]
    form = dict(forms(18, bool(turn_of(18))))[stored["form"]]
    assert {"form": stored["form"], "seed": stored["seed"], **search(18, form, stored["seed"])} == stored


def test_the_most_constrained_first_search_builds_a_checked_packing_and_repeats_itself():
    m = 14
    name, form = forms(m, bool(turn_of(m)))[0]
    entry = search(m, form, seed=0, fewest=True)
    assert entry is not None and entry == search(m, form, seed=0, fewest=True)
    tables = [[(x, c) for x, c in table] for table in entry["tables"]]
    base = matchings.base_round(m, entry["turn"], entry["fixed"], tables)
    assert matchings.is_packing(matchings.develop(m, base, m), m)


def test_the_stored_base_for_80_players_is_what_the_most_constrained_first_search_reaches():
    stored = json.loads(matchings.BASES_FILE.read_text(encoding="utf-8"))["bases"]["26"]
    form = dict(forms(26, bool(turn_of(26))))[stored["form"]]
    found = search(26, form, stored["seed"], stored["nodes"], fewest=True)
    assert found is not None
    assert {"form": stored["form"], "seed": stored["seed"], "fewest": True, "nodes": stored["nodes"], **found} == stored
