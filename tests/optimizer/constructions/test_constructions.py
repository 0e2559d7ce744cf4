"""Zero-repeat constructions: affine geometry, speed rule, doubling, rotational search, library, entry point."""

from __future__ import annotations

import numpy as np
import pytest

import optimizer
from models import Answer, Event, OddPolicy
from optimizer.budget import Budget
from optimizer.checking.checker import check
from optimizer.constructions import frontier_rounds, instant_seating, library, zero_repeat_seating
from optimizer.constructions.affine import affine_seating, directions
from optimizer.constructions.doubling import (
    doubled_affine_seating,
    doubled_design_seating,
    doubling_rounds,
    sign_equations,
    solve_gf2,
)
from optimizer.constructions.library.__main__ import build_odd
from optimizer.constructions.resolvable import resolvable_seating
from optimizer.constructions.rotational import Shape, candidate_shapes, expand, pair_types, search_base_round
from optimizer.constructions.speeds import best_speeds, guaranteed_rounds, speed_rounds, speed_seating
from optimizer.constructions.turned import search_representatives, turned_design
from optimizer.seats import is_repeat_free, meetings, repeats, repeats_in, to_schedule

# Best known zero-repeat rounds (the literature), only as the target to compare against.
FRONTIER = {16: 5, 20: 5, 24: 7, 28: 9, 32: 10, 36: 11, 40: 13, 44: 14, 48: 15, 52: 17, 56: 18, 60: 19, 64: 21}


def seated_once(seats: np.ndarray, players: int) -> bool:
    return all(sorted(r.ravel().tolist()) == list(range(players)) for r in seats)


@pytest.mark.parametrize("k, rounds", [(2, 5), (3, 21)])
def test_affine_geometry_meets_everyone_once(k, rounds):
    seats = affine_seating(k)
    players = 4**k
    assert seats.shape == (rounds, players // 4, 4)
    assert seated_once(seats, players)
    assert repeats(seats, players) == 0
    assert len(directions(k)) == rounds


@pytest.mark.parametrize("tables", [5, 6, 7, 8, 12, 16, 25, 50])
def test_speed_rule_is_repeat_free_exactly_as_long_as_promised(tables):
    players = 4 * tables
    speeds, rounds = best_speeds(tables)
    seats = speed_seating(players, rounds)
    assert seated_once(seats, players) and repeats(seats, players) == 0
    if rounds < tables:  # one more round must repeat, or the promise was too modest
        longer = _speed_rounds_unchecked(players, speeds, rounds + 1)
        assert repeats(longer, players) > 0


def _speed_rounds_unchecked(players, speeds, rounds):
    tables = players // 4
    seats = np.empty((rounds, tables, 4), dtype=np.int64)
    for r in range(rounds):
        for j in range(tables):
            for s in range(4):
                seats[r, (j + speeds[s] * r) % tables, s] = 4 * j + s
    return seats


def test_speed_rule_large_rooms_are_repeat_free():
    for players, rounds in [(200, 8), (1000, 10)]:
        made = zero_repeat_seating(players, rounds, Budget.of(10))
        assert made is not None and is_repeat_free(made.seats, players, rounds)
    seats = speed_seating(1000, 10)
    assert seats.shape == (10, 250, 4) and repeats(seats, 1000) == 0


def test_guaranteed_rounds_is_the_least_difference_order():
    assert guaranteed_rounds((0, 1, 2, 3), 7) == 7
    assert guaranteed_rounds((0, 1, 2, 3), 16) == 8
    assert speed_rounds(1000) == 125


def test_pair_types_cover_every_mover_pair_once():
    shape = Shape(9, 3, 1)
    pairs = [frozenset(p) for ps in pair_types(shape, 9).values() for p in ps]
    assert len(pairs) == len(set(pairs)) == 27 * 26 // 2


@pytest.mark.parametrize("m, k, f", [(9, 3, 1), (7, 3, 3)])
def test_rotational_search_finds_small_designs(m, k, f):
    shape = Shape(m, k, f)
    # one worker counting work: found on any load (the most, 9 x 3 x 1, takes 1.5 s of work of the 20)
    base = search_base_round(shape, m, Budget.of(20, repeatable=True), seed=0, workers=1)
    assert base is not None
    seats = expand(base, shape, m)
    assert seated_once(seats, shape.player_count) and repeats(seats, shape.player_count) == 0


def test_turning_variant_finds_36_over_11():
    shape = Shape(11, 3, 3, turn=1)
    base = search_base_round(shape, 11, Budget.of(20, repeatable=True), seed=0, workers=1)
    assert base is not None and repeats(expand(base, shape, 11), 36) == 0


def test_candidate_shapes_respect_counting():
    assert Shape(9, 3, 1) in candidate_shapes(28, 9)
    assert candidate_shapes(28, 10) == []  # beyond floor((N - 1) / 3)


@pytest.mark.parametrize("players", library.stored_sizes())
def test_library_entries_are_valid(players):
    entry = library.load(players)
    assert entry.player_count == players and entry.seats.shape == (entry.rounds, players // 4, 4)
    assert seated_once(entry.seats, players) and repeats(entry.seats, players) == 0


def test_library_reaches_the_frontier_where_stored():
    reached = {n: frontier_rounds(n) for n in FRONTIER}
    short = {n: (reached[n], want) for n, want in FRONTIER.items() if reached[n] < want}
    assert not short, short
    assert all(library.load(n).rounds >= want for n, want in FRONTIER.items())


def test_doubling_seats_32_over_10_with_partners_who_never_meet():
    seats = doubled_affine_seating(32, 10)
    assert seats is not None and seated_once(seats, 32) and is_repeat_free(seats, 32, 10)
    met = meetings(seats, 32)
    never = [(a, b) for a, b in zip(*np.triu_indices(32, 1)) if met[a, b] == 0]
    assert never == [(2 * a, 2 * a + 1) for a in range(16)]  # the partners; everyone else meets once
    assert met.sum() // 2 == 32 * 31 // 2 - 16


@pytest.mark.parametrize("seed", range(21))
def test_doubling_succeeds_for_every_seed(seed):
    seats = doubled_affine_seating(32, 10, seed=seed)
    assert seats is not None and is_repeat_free(seats, 32, 10)
    assert (doubled_affine_seating(32, 10, seed=seed) == seats).all()  # the same for the same seed


@pytest.mark.parametrize("players, rounds", [(32, 11), (32, 0), (16, 5), (28, 9), (36, 10), (64, 10)])
def test_doubling_answers_only_32_players_up_to_10_rounds(players, rounds):
    assert doubled_affine_seating(players, rounds) is None
    assert doubling_rounds(players) == (10 if players == 32 else 0)


def test_doubling_gives_any_shorter_day_and_is_an_instant_start():
    seats = doubled_affine_seating(32, 7)
    assert seats.shape == (7, 8, 4) and is_repeat_free(seats, 32, 7)
    made = instant_seating(32, 10)
    assert made is not None and is_repeat_free(made.seats, 32, 10) and "doubling" in str(made.made)
    assert frontier_rounds(32) == 10


def test_doubling_two_designs_of_52_seats_104_over_34_with_partners_who_never_meet():
    seats = doubled_design_seating(instant_seating(52, 17).seats)
    assert seats is not None and seats.shape == (34, 26, 4) and seated_once(seats, 104)
    met = meetings(seats, 104)
    never = [(a, b) for a, b in zip(*np.triu_indices(104, 1)) if met[a, b] == 0]
    assert never == [(2 * a, 2 * a + 1) for a in range(52)] and met.max() == 1
    assert check(to_schedule(Event.with_count(104, 34), seats, "design")).repeats == 0
    made = instant_seating(104, 34)  # from the library, which stores this day
    assert made is not None and "signed doubling" in str(made.made) and frontier_rounds(104) == 34


def test_a_design_with_blocks_two_and_two_of_two_classes_has_an_odd_dependency():
    # 76 players over Z_25: the pairs between classes 0 and 1 and inf's pairs to them meet every block
    # in a 4-cycle, a triangle (inf's) or nothing, in the design and in any mu of it; 25 x 27 of them
    design = resolvable_seating(76, 25)  # the stored matching's design (the library's of 76 has its classes turned)
    assert design is not None
    mu = np.array([(2 * x + 3) % 25 + 25 * c for c in range(3) for x in range(25)] + [75])
    matrix, _ = sign_equations(np.concatenate([design, mu[design]]))
    a, b = np.triu_indices(76, 1)
    classes = np.minimum(np.arange(76) // 25, 3)  # inf is class 3
    chosen = ((classes[a] == 0) & (classes[b] == 1)) | ((classes[a] < 2) & (classes[b] == 3))
    assert chosen.sum() == 675 and not (matrix[chosen].sum(axis=0) % 2).any()  # 0 = 675 ones: no solution
    assert doubled_design_seating(design, tries=3) is None


def test_gf2_solver_finds_solutions_and_refuses_contradictions():
    matrix = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]], dtype=np.uint8)
    x = solve_gf2(matrix, np.array([1, 1, 0], dtype=np.uint8))
    assert x is not None and ((matrix @ x) % 2 == [1, 1, 0]).all()
    assert solve_gf2(matrix, np.array([1, 1, 1], dtype=np.uint8)) is None  # the rows add up to 0 = 1


def test_zero_repeat_verdict_for_32_over_10_is_a_checked_construction():
    verdict = optimizer.zero_repeat_verdict(Event.with_count(32, 10), time_limit=5, workers=1)
    assert verdict.answer == Answer.EXISTS and verdict.schedule is not None
    assert "doubling" in verdict.reason
    report = check(verdict.schedule)
    assert report.repeats == 0 and len(verdict.schedule.rounds) == 10


def test_library_refuses_a_bad_entry(tmp_path, monkeypatch):
    monkeypatch.setattr(library, "HERE", tmp_path)
    library.load.cache_clear()
    bad = np.tile(np.arange(16).reshape(1, 4, 4), (2, 1, 1))  # the same round twice
    library.save(library.Entry(16, 2, "broken", bad))
    with pytest.raises(library.BadEntry):
        library.load(16)
    library.load.cache_clear()


@pytest.mark.parametrize("players, odd", [room for room in library.stored_rooms() if room[1] is not None])
def test_odd_library_days_pass_the_checker(players, odd):
    entry = library.load(players, odd)
    metrics = check(to_schedule(Event.with_count(players, entry.rounds, odd=odd), entry.seats, "library"))
    assert metrics.repeats == 0 and metrics.three_handed_fair and metrics.sit_outs_fair


def test_library_refuses_an_odd_day_with_unfair_turns(tmp_path, monkeypatch):
    monkeypatch.setattr(library, "HERE", tmp_path)
    library.load.cache_clear()
    first = np.arange(16).reshape(4, 4)
    unfair = np.stack([first, first.T])  # repeat-free, but player 16 sits out twice and nobody else once
    library.save(library.Entry(17, 2, "unfair", unfair, OddPolicy.SIT_OUT))
    with pytest.raises(library.BadEntry, match="fairly"):
        library.load(17, OddPolicy.SIT_OUT)
    library.load.cache_clear()


def test_odd_library_days_are_found_by_seeded_tabu_search_and_repeat_themselves():
    first = build_odd(18, 3, OddPolicy.THREE_HANDED, steps=3_000, seeds=2)
    assert first is not None and "tabu" in str(first.made)
    assert check(to_schedule(Event.with_count(18, 3, odd=OddPolicy.THREE_HANDED), first.seats, "x")).repeats == 0
    again = build_odd(18, 3, OddPolicy.THREE_HANDED, steps=3_000, seeds=2)
    assert again is not None and (again.seats == first.seats).all()


def test_pair_codes_and_the_meetings_matrix_count_the_same_repeats():
    rng = np.random.default_rng(1)
    seats = np.array([rng.permutation(24).reshape(6, 4) for _ in range(5)])
    assert repeats(seats, 24) == repeats_in(meetings(seats, 24)) > 0


@pytest.mark.parametrize("players, rounds", [(16, 6), (20, 6), (12, 3), (8, 2), (18, 2), (28, 9), (24, 1), (4, 1)])
def test_entry_point_never_returns_an_invalid_seating(players, rounds):
    made = zero_repeat_seating(players, rounds, Budget.of(2))
    if made is not None:
        seats, how = made.seats, str(made.made)
        assert how and seats.shape == (rounds, players // 4, 4)
        assert seated_once(seats, players) and repeats(seats, players) == 0


def test_entry_point_describes_its_method():
    assert "AG(3,4)" in str(zero_repeat_seating(64, 21, Budget.of(2)).made)
    assert "speed rule" in str(zero_repeat_seating(200, 8, Budget.of(2)).made)


def test_a_stored_odd_day_is_what_its_generator_reaches():
    """37 players three-handed over 8 rounds, stored by `python -m optimizer.constructions.library --odd
    three-handed --rounds 8 --players 37 --steps 100000 --seeds 4` (issue 40: a day known repeat-free,
    answered at once)."""
    stored = library.load(37, OddPolicy.THREE_HANDED)
    again = build_odd(37, 8, OddPolicy.THREE_HANDED, steps=100_000, seeds=4)
    assert stored is not None and again is not None and (again.seats == stored.seats).all()


def test_the_exact_cover_finds_a_turned_design_whose_tables_mix_the_classes():
    reps = search_representatives(17, seed=0, seconds=60)
    assert reps is not None and len(reps) == 4
    seats = turned_design(17, reps)
    assert seated_once(seats, 52) and is_repeat_free(seats, 52, 17)
    assert int((meetings(seats, 52) > 0).sum()) // 2 == 52 * 51 // 2  # every pair meets once
    assert any(len({c for _, c in rep}) > 2 for rep in reps)  # not two and two of two classes
    assert search_representatives(17, seed=0, seconds=0) is None  # no time: nothing


def test_the_library_doubles_the_turned_design_of_76_into_152_over_50():
    made = instant_seating(152, 50)
    assert made is not None and "signed doubling of two resolvable designs of 76" in str(made.made)
    met = meetings(made.seats, 152)
    never = [(a, b) for a, b in zip(*np.triu_indices(152, 1)) if met[a, b] == 0]
    assert never == [(2 * a, 2 * a + 1) for a in range(76)] and met.max() == 1
    assert "turned design over Z_25" in str(instant_seating(76, 25).made) and frontier_rounds(152) == 50
