"""Resolvable designs over Z_3q for the q divisible by 3 (optimizer.constructions.cyclic): the stored blocks
rebuild to a day the checker passes, a corrupted entry is refused, and the rooms answer from them."""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest

import optimizer.constructions.cyclic as cyclic
from models import Answer, Event
from optimizer.checking.checker import check
from optimizer.constructions import instant_seating
from optimizer.constructions.cyclic.__main__ import find_blocks
from optimizer.constructions.quotients import search_invariant_quotient
from optimizer.proof.verdict import zero_repeat_verdict
from optimizer.seats import meetings, to_schedule

STORED = sorted(cyclic.stored_blocks())


@pytest.mark.parametrize("q", STORED)
def test_the_stored_blocks_rebuild_to_a_day_where_every_pair_meets_once_by_the_checkers_count(q):
    players, rounds = 3 * q + 1, min(q, 100)  # a day has at most 100 rounds (models.event)
    seats = cyclic.cyclic_seating(players, q)
    assert seats is not None and seats.shape == (q, players // 4, 4)
    metrics = check(to_schedule(Event.with_count(players, rounds), seats[:rounds], "cyclic"), indirect=False)
    assert metrics.repeats == 0 and metrics.max_meetings == 1
    assert int((meetings(seats, players) > 0).sum()) // 2 == comb(players, 2)


def test_the_first_design_is_stored_for_100_players():
    assert 33 in STORED and cyclic.cyclic_rounds(100) == 33 and cyclic.cyclic_rounds(99) == 0


@pytest.mark.slow  # seconds of tabu steps and a CP-SAT model
def test_the_stored_blocks_are_what_the_generator_reaches():
    assert find_blocks(33)[0] == cyclic.stored_blocks()[33]


def test_the_designs_for_280_316_and_388_players_are_stored_with_how_they_were_found():
    assert [cyclic.cyclic_rounds(v) for v in (280, 316, 388, 279)] == [93, 105, 129, 0]
    made = json.loads(cyclic.BASES_FILE.read_text(encoding="utf-8"))["made"]
    assert set(made) == {str(q) for q in STORED}
    assert made["93"].startswith("multiplier 67") and made["129"].startswith("multiplier 49")
    assert made["105"].startswith("multiplier 16, 3 fixed sets")


@pytest.mark.slow  # seconds of annealing steps and a CP-SAT model
def test_the_multiplier_search_reproduces_the_stored_q_93():
    blocks, how = find_blocks(93)
    assert blocks == cyclic.stored_blocks()[93]
    assert how == json.loads(cyclic.BASES_FILE.read_text(encoding="utf-8"))["made"]["93"]


def test_the_multiplier_search_closes_its_quotient_under_the_multiplier():
    quotient = search_invariant_quotient(93, 67, 0, 0, 60_000, 3.0)
    assert quotient is not None
    assert sorted(sorted(x * 67 % 93 for x in block) for block in quotient) == quotient
    assert sorted(x for block in quotient for x in block) == list(range(1, 93))


@pytest.mark.slow  # seconds of annealing steps
def test_whole_sets_of_fixed_residues_hold_four_residues_the_multiplier_fixes():
    fixed = {r for r in range(1, 105) if r * 16 % 105 == r}
    quotient = search_invariant_quotient(105, 16, 3, 3, 100_000, 2.0)
    assert quotient is not None and len(fixed) == 14
    assert sum(set(block) <= fixed for block in quotient) == 3


def _refused(tmp_path, monkeypatch, blocks: dict[str, list[list[int]]]) -> None:
    bad = tmp_path / "bases.json"
    bad.write_text(json.dumps({"blocks": blocks}), encoding="utf-8")
    monkeypatch.setattr(cyclic, "BASES_FILE", bad)
    cyclic.stored_blocks.cache_clear()
    try:
        with pytest.raises(cyclic.BadBlocks, match="not a resolvable difference family"):
            cyclic.stored_blocks()
    finally:
        cyclic.stored_blocks.cache_clear()


def test_a_block_moved_within_its_coset_is_refused_when_loaded(tmp_path, monkeypatch):
    blocks = [list(block) for block in cyclic.stored_blocks()[33]]
    blocks[0][1] = (blocks[0][1] + 33) % 99  # still one point per coset, but a difference now repeats
    assert not cyclic.is_difference_family(blocks, 33)
    seats = cyclic.develop(33, cyclic.base_round(33, blocks), 33)
    assert check(to_schedule(Event.with_count(100, 33), seats, "x"), indirect=False).repeats > 0
    _refused(tmp_path, monkeypatch, {"33": blocks})


def test_blocks_that_miss_a_coset_are_refused_when_loaded(tmp_path, monkeypatch):
    blocks = [list(block) for block in cyclic.stored_blocks()[33]]
    blocks[0][0] = blocks[1][0] + 33  # two points of one coset: the base round is no round
    _refused(tmp_path, monkeypatch, {"33": blocks})


def test_a_prefix_is_a_repeat_free_day_of_fewer_rounds():
    made = instant_seating(100, 20)
    assert made is not None and "Z_99" in str(made.made)
    assert np.array_equal(made.seats, instant_seating(100, 33).seats[:20])


@pytest.mark.parametrize("players", [3 * q + 1 for q in STORED])
def test_the_verdict_is_exists_with_a_checked_schedule(players):
    rounds = min((players - 1) // 3, 100)  # a day has at most 100 rounds (models.event)
    verdict = zero_repeat_verdict(Event.with_count(players, rounds), time_limit=5, workers=1)
    assert verdict.answer is Answer.EXISTS and verdict.schedule is not None
    assert "over Z_" in verdict.reason and "stored blocks" in verdict.reason


@pytest.mark.parametrize("players", [99, 279, 315, 387])
def test_the_odd_room_one_smaller_gets_every_round_by_deletion(players):
    verdict = zero_repeat_verdict(Event.with_count(players, min(players // 3, 100)), time_limit=5, workers=1)
    assert verdict.answer is Answer.EXISTS and verdict.schedule is not None
    assert f"design of {players + 1}" in verdict.reason and "deleted" in verdict.reason
