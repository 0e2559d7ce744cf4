"""Fixes by hand (optimizer.fix and rotation swap / move / played) on hand-made days whose turns are worked out."""

from __future__ import annotations

import json
from itertools import combinations

import pytest

import optimizer
from models import Correction, OddPolicy, Round, Schedule, Table
from optimizer.checking.checker import turn_breaks
from optimizer.fix import FixRefused, mark_played, move, moved, swap
from rotation.commands.cli import main

pytestmark = pytest.mark.slow


def tables(*groups: str, out: str = "") -> Round:
    return Round(
        tables=tuple(Table(table=t, players=tuple(g)) for t, g in enumerate(groups, start=1)), sit_outs=tuple(out)
    )


# Seven players, a table of four and one of three; A stays at table 1 (exempt from three-handed turns),
# C and E are kept apart. Three-handed: EFG, BCD, CDF, BEG: after every round the six others' counts
# differ by at most one, and everyone has two by the end.
THREE = Schedule(
    players=tuple("ABCDEFG"),
    rounds=(tables("ABCD", "EFG"), tables("AEFG", "BCD"), tables("ABEG", "CDF"), tables("ACDF", "BEG")),
    apart=(("C", "E"),),
    stay={"A": 1},
)

# Nine players at two tables of four, one sits out each round: I, then D, then H.
SIT = Schedule(
    players=tuple("ABCDEFGHI"),
    rounds=(tables("ABCD", "EFGH", out="I"), tables("AEIF", "BCGH", out="D"), tables("BEGI", "ACDF", out="H")),
    odd=OddPolicy.SIT_OUT,
)


def test_the_hand_made_days_are_valid_and_fair():
    for day in (THREE, SIT):
        assert optimizer.check(day).turns_fair and turn_breaks(day) == ()


# Rounds still to play: what a plan keeps, a fix keeps.


def test_a_swap_between_tables_trades_seats_and_records_the_fix():
    after = swap(SIT, 3, "B", "c")  # any spelling of a name on the schedule
    assert after.rounds[2].tables == (Table(table=1, players=tuple("CEGI")), Table(table=2, players=tuple("ABDF")))
    assert after.rounds[:2] == SIT.rounds[:2] and SIT.rounds[2] == tables("BEGI", "ACDF", out="H")  # input unchanged
    assert after.corrections == (Correction(round=3, change="swap", players=("B", "C"), played=False),)
    assert moved(SIT, after, 3) == (("B", (1, "A"), (2, "B")), ("C", (2, "B"), (1, "A")))
    assert optimizer.check(after).sit_outs_fair


def test_a_swap_at_one_table_trades_seat_letters():
    after = swap(THREE, 2, "B", "D")
    assert after.rounds[1].tables[1].players == tuple("DCB")
    assert [name for name, _, _ in moved(THREE, after, 2)] == ["B", "D"]


def test_a_swap_with_the_player_who_sits_out_moves_a_player_into_the_sit_out():
    after = swap(SIT, 3, "A", "H")  # H sat out round 3; now A does (A's first sit-out) and H plays A's seat
    assert after.rounds[2].sit_outs == ("A",) and after.rounds[2].tables[1].players == tuple("HCDF")
    assert optimizer.check(after).sit_outs_fair


@pytest.mark.parametrize(
    "day, round_number, names, message",
    [
        (THREE, 2, ("A", "B"), "cannot swap A and B in round 2: A stays at table 1 all day"),
        (THREE, 2, ("D", "E"), "cannot swap D and E in round 2: E and C are kept apart, and would share table 2"),
        (
            THREE,
            1,
            ("C", "E"),
            "cannot swap C and E in round 1: then turns at the tables of three are not taken in turn: "
            "after round 2 C has played three-handed twice and E never",
        ),
        (
            SIT,
            3,
            ("D", "H"),
            "cannot swap D and H in round 3: then sit-outs are not taken in turn: after round 3 D has sat out twice "
            "and A never",
        ),
        (SIT, 3, ("B", "b"), "B is named twice: a swap needs two players"),
        (SIT, 3, ("B", "Zed"), "'Zed' is not on the schedule"),
        (SIT, 4, ("B", "C"), "the day has rounds 1 to 3, not round 4"),
    ],
)
def test_a_swap_that_would_break_a_request_or_fair_turns_is_refused(day, round_number, names, message):
    with pytest.raises(FixRefused) as refused:
        swap(day, round_number, *names)
    assert str(refused.value) == message


@pytest.mark.parametrize("day", [THREE, SIT])
def test_every_swap_still_to_play_is_refused_or_keeps_the_day_valid_fair_and_its_requests(day):
    accepted = 0
    for number in range(1, len(day.rounds) + 1):
        for a, b in combinations(day.players, 2):
            try:
                after = swap(day, number, a, b)
            except FixRefused:
                continue
            accepted += 1
            metrics = optimizer.check(after)  # requests hold in a round still to play, or this raises
            assert metrics.turns_fair and metrics.broken_requests == ()
            changed = [r for r in range(len(day.rounds)) if after.rounds[r] != day.rounds[r]]
            assert changed == [number - 1] and swap(after, number, a, b).rounds == day.rounds
    assert accepted > 0


def test_two_players_who_both_sit_out_cannot_swap():
    day = Schedule(players=tuple("ABCDEF"), rounds=(tables("ABCD", out="EF"),), odd=OddPolicy.SIT_OUT)
    with pytest.raises(FixRefused, match="E and F both sit out round 1: there is nothing to swap"):
        swap(day, 1, "E", "F")


def test_a_player_not_at_the_event_cannot_be_swapped():
    day = SIT.model_copy(
        update={
            "rounds": SIT.rounds[:2] + (tables("BEGA", "HCDF"),),
            "departures": {"I": 3},
        }
    )
    optimizer.check(day)
    with pytest.raises(FixRefused, match="I is not at the event in round 3"):
        swap(day, 3, "I", "B")


def test_a_move_into_an_empty_seat_is_refused_in_a_round_still_to_play():
    with pytest.raises(FixRefused, match="round 2 is still to play, and there the tables of three are the last"):
        move(THREE, 2, "E", 2)


# Played rounds: the fix records what happened, and reality wins.


def test_marking_rounds_played_records_them_and_a_played_round_stays_played():
    played = mark_played(THREE, 2)
    assert played.played == 2 and played.rounds == THREE.rounds and THREE.played == 0
    assert mark_played(played, 2) == played and mark_played(played, 3).played == 3
    with pytest.raises(FixRefused, match="rounds 1 to 2 are already recorded as played, and a played round stays"):
        mark_played(played, 1)
    with pytest.raises(FixRefused, match="the day has rounds 1 to 4, not round 5"):
        mark_played(played, 5)


def test_a_played_round_can_be_corrected_against_fair_turns_and_the_checker_says_so():
    after = swap(mark_played(THREE, 1), 1, "C", "E")  # refused as a plan (see above), accepted as what was played
    assert after.corrections[-1].played and after.rounds[0].tables[1].players == tuple("CFG")
    metrics = optimizer.check(after)
    assert not metrics.three_handed_fair
    assert str(turn_breaks(after)[0]) == (
        "turns at the tables of three are not taken in turn: after round 2 C has played three-handed twice and E never"
    )


def test_after_a_played_round_broke_fair_turns_a_fix_still_to_play_may_not_widen_the_gap():
    played = swap(mark_played(THREE, 1), 1, "C", "E")  # by round 4: C three-handed 3 times, E once
    with pytest.raises(FixRefused, match="after round 4 C has played three-handed 4 times and E never"):
        swap(played, 4, "C", "E")
    assert swap(played, 4, "B", "D").rounds[3].tables[1].players == tuple("DEG")  # the gap stays as it was


def test_a_played_round_can_break_a_request_and_the_checker_reports_it_instead_of_refusing():
    after = swap(mark_played(THREE, 2), 2, "D", "E")
    assert optimizer.check(after).broken_requests == ("round 2: C and E are to be kept apart but share table 2",)
    with pytest.raises(
        optimizer.InvalidSchedule, match="broken request in round 2: C and E are to be kept apart but share table 2"
    ):
        optimizer.check(after.model_copy(update={"played": 1}))  # not played: the request holds
    moved_away = swap(mark_played(THREE, 2), 2, "A", "B")  # A stays at table 1, and played at table 2
    assert optimizer.check(moved_away).broken_requests == ("round 2: A is to stay at table 1 but is at table 2",)


def test_a_move_in_a_played_round_seats_the_player_and_leaves_their_table_three_handed():
    after = move(mark_played(THREE, 2), 2, "E", 2)
    assert after.rounds[1].tables == (Table(table=1, players=tuple("AGF")), Table(table=2, players=tuple("BCDE")))
    assert after.corrections[-1] == Correction(round=2, change="move", players=("E",), table=2, played=True)
    assert moved(THREE, after, 2) == (("E", (1, "B"), (2, "D")), ("G", (1, "D"), (1, "B")))
    with pytest.raises(optimizer.InvalidSchedule, match="three-handed tables must be numbered after"):
        optimizer.check(after.model_copy(update={"played": 1}))  # only a played round may seat them so


@pytest.mark.parametrize(
    "name, table, message",
    [
        ("E", 3, "round 2 has tables 1 to 2, not table 3"),
        ("B", 2, "B is already at table 2 in round 2"),
        ("B", 1, "table 1 has no empty seat in round 2; swap B with one of its players"),
    ],
)
def test_a_move_that_cannot_happen_is_refused(name, table, message):
    with pytest.raises(FixRefused, match=message):
        move(mark_played(THREE, 2), 2, name, table)


def test_a_move_that_would_leave_two_players_at_a_table_is_refused():
    day = Schedule(players=tuple("ABCDEFGHIJ"), rounds=(tables("ABCD", "EFG", "HIJ"),))
    with pytest.raises(FixRefused, match="moving E would leave two players at table 2 in round 1"):
        move(mark_played(day, 1), 1, "E", 3)


# The record in the schedule file, and a later re-plan.


def test_the_record_survives_the_file_and_old_files_still_read():
    after = swap(mark_played(THREE, 2), 2, "B", "D")
    assert Schedule.model_validate_json(after.model_dump_json()) == after
    old = json.loads(THREE.model_dump_json())
    del old["played"], old["corrections"]
    assert Schedule.model_validate(old) == THREE


@pytest.mark.parametrize(
    "update, message",
    [
        ({"played": 5}, "5 rounds are recorded as played, but the day has 4"),
        ({"corrections": [{"round": 5, "change": "swap", "players": ["B", "D"], "played": False}]}, "round 5"),
        ({"corrections": [{"round": 1, "change": "swap", "players": ["B", "Zed"], "played": False}]}, None),
        ({"corrections": [{"round": 1, "change": "swap", "players": ["B"], "played": True}]}, "two players"),
        ({"corrections": [{"round": 1, "change": "move", "players": ["B"], "played": True}]}, "the table"),
    ],
)
def test_a_record_that_does_not_fit_the_day_is_refused(update, message):
    data = {**json.loads(THREE.model_dump_json()), **update}
    if message is None:
        with pytest.raises(optimizer.InvalidSchedule, match="'Zed'"):
            optimizer.check(Schedule.model_validate(data))
    else:
        with pytest.raises(ValueError, match=message):
            Schedule.model_validate(data)


def test_a_replan_keeps_a_corrected_played_round_and_its_record():
    fixed = swap(swap(mark_played(THREE, 2), 2, "B", "D"), 4, "B", "G")  # round 2 as played, round 4 a plan change
    result = optimizer.replan(fixed, 2, time_limit=2, workers=1, seed=0).result.schedule
    assert result is not None
    assert result.rounds[:2] == fixed.rounds[:2] and result.rounds[1].tables[1].players == tuple("DCB")
    assert result.played == 2
    assert result.corrections == fixed.corrections[:1]  # the fix of round 4 was re-planned away
    assert optimizer.replan(THREE, 1, time_limit=1, workers=1).result.schedule.played == 1


def test_a_replan_never_plans_a_recorded_played_round_again():
    with pytest.raises(
        ValueError, match="rounds 1 to 2 are recorded as played, and a re-plan keeps them: it can start"
    ):
        optimizer.replan(mark_played(THREE, 2), 1, time_limit=1, workers=1)


def test_a_replan_after_played_rounds_that_broke_fair_turns_says_why_before_solving():
    broken = swap(mark_played(THREE, 2), 2, "B", "E")  # E three-handed twice by round 2, B never
    with pytest.raises(ValueError, match="in the rounds played turns at the tables of three are not taken in turn"):
        optimizer.replan(broken, 2, time_limit=30, workers=1)


# The command line: a thin layer over the library.


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def day(tmp_path):
    path = tmp_path / "day.json"
    path.write_text(SIT.model_dump_json(indent=2), encoding="utf-8")
    return path


def test_swap_writes_the_checked_fix_and_reports_figures_against_the_day_before(capsys, day, tmp_path):
    out_path = tmp_path / "fixed.json"
    status, out, err = run(capsys, "swap", day, "--round", 3, "B", "C", "--json", out_path)
    assert status == 0, err
    written = Schedule.model_validate_json(out_path.read_text(encoding="utf-8"))
    assert written.rounds == swap(SIT, 3, "B", "C").rounds and written.corrections[-1].players == ("B", "C")
    before, after = optimizer.check(SIT), optimizer.check(written)
    assert "Round 3 (still to play): B and C trade places" in out
    assert "  B: table 2 seat B (was table 1 seat A)" in out
    assert any(line.split() == ["Repeats", str(before.repeats), str(after.repeats)] for line in out.splitlines())
    assert "Nothing written" not in out and f"wrote {out_path}" in err


def test_swap_without_json_writes_nothing_and_says_so(capsys, day, tmp_path):
    status, out, _ = run(capsys, "swap", day, "--round", 3, "A", "H")
    assert status == 0 and "H: table 2 seat A (was sits out)" in out
    assert "Nothing written: give --json FILE to keep this fix." in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["day.json"]


@pytest.mark.parametrize(
    "argv, words",
    [
        (["swap", "--round", 3, "D", "H"], "cannot swap D and H in round 3: then sit-outs are not taken in turn"),
        (["swap", "--round", 9, "D", "H"], "the day has rounds 1 to 3, not round 9"),
        (["swap", "--round", 3, "D", "Zed"], "'Zed' is not on the schedule"),
        (["move", "B", "--round", 3, "--table", 2], "table 2 has no empty seat in round 3"),
        (["played", "--round", 4], "the day has rounds 1 to 3, not round 4"),
    ],
)
def test_a_refused_fix_is_one_line_exit_2_and_writes_nothing(capsys, day, tmp_path, argv, words):
    before = day.read_bytes()
    out_path = tmp_path / "fixed.json"
    status, out, err = run(capsys, argv[0], day, *argv[1:], "--json", out_path)
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and words in err and "Traceback" not in err
    assert not out_path.exists() and day.read_bytes() == before


def test_move_as_played_records_the_round_and_the_move(capsys, tmp_path):
    day, out_path = tmp_path / "day.json", tmp_path / "fixed.json"
    day.write_text(THREE.model_dump_json(), encoding="utf-8")
    status, out, err = run(capsys, "move", day, "E", "--round", 2, "--table", 2, "--as-played", "--json", out_path)
    assert status == 0, err
    written = Schedule.model_validate_json(out_path.read_text(encoding="utf-8"))
    assert written.played == 2 and written.rounds[1].tables[1].players == tuple("BCDE")
    assert "Round 2 (as played): E takes the empty seat at table 2" in out
    assert "Request broken in a played round: round 2: C and E are to be kept apart but share table 2" in out
    assert "Now turns at the tables of three are not taken in turn: after round 2 F" in out
    status, out, _ = run(capsys, "check", out_path)
    assert (
        status == 0
        and "Request broken in a played round: round 2: C and E are to be kept apart but share table 2" in out
    )


def test_played_then_replan_keeps_the_recorded_rounds_by_default(capsys, tmp_path):
    day, played, new = tmp_path / "day.json", tmp_path / "played.json", tmp_path / "new.json"
    day.write_text(THREE.model_dump_json(), encoding="utf-8")
    status, out, _ = run(capsys, "played", day, "--round", 2, "--json", played)
    assert status == 0 and "Rounds recorded as played: 1 to 2 (before: none)" in out
    assert Schedule.model_validate_json(played.read_text(encoding="utf-8")).played == 2
    status, _, err = run(capsys, "replan", played, "--played", 1, "--json", new)
    assert status == 2 and "rounds 1 to 2 are recorded as played" in err and not new.exists()
    status, out, err = run(capsys, "replan", played, "--time-limit", 1, "--workers", 1, "--json", new)
    assert status == 0, err
    assert "Re-planned after round 2" in out
    assert Schedule.model_validate_json(new.read_text(encoding="utf-8")).rounds[:2] == THREE.rounds[:2]


def test_replan_needs_played_when_the_file_records_none(capsys, day):
    status, _, err = run(capsys, "replan", day, "--time-limit", 1)
    assert status == 2 and "--played is needed: the file records no round as played" in err


def test_replan_of_a_day_played_to_the_end_says_there_is_nothing_to_re_plan(capsys, tmp_path):
    day = tmp_path / "day.json"
    day.write_text(mark_played(SIT, 3).model_dump_json(), encoding="utf-8")
    status, _, err = run(capsys, "replan", day, "--time-limit", 1)
    assert status == 2 and "all 3 rounds are recorded as played: there is nothing to re-plan" in err
