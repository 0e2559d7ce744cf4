"""The report in a director's words: every figure labelled, counts singular and plural right, requests
confirmed, a broken request named as one, the methods only where asked for, and 'proven optimal' where
requests force the repeats."""

from __future__ import annotations

import json
from itertools import combinations

import pytest

import optimizer
from models import Event, OddPolicy, Progress
from optimizer.proof.bounds import lower_bound, stay_bound
from optimizer.words import counted
from rotation.commands.cli import main
from rotation.commands.progress import LiveLine
from rotation.files.output import metrics_lines
from seatings import schedule_of

pytestmark = pytest.mark.slow


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_every_figure_of_a_hand_made_day_is_labelled_as_a_director_says_it():
    # The day of test_checker.py: spread 3, 3 visits above even, 2 trios again, 8 rematches, 5 in common.
    day = schedule_of(
        [[[1, 2, 3, 4], [5, 6, 7, 8]], [[2, 1, 5, 6], [4, 3, 7, 8]], [[1, 2, 3, 7], [5, 6, 4, 8]]],
        8,
    )
    lines = metrics_lines(optimizer.check(day), day)
    assert lines == [
        "Repeats: 12 (meetings of a pair after its first); no pair meets more than 3 times",
        "Different opponents per player: at least 5, 6 on average",
        "Most repeats for one player: 4",
        "Seats: no player sits in one seat letter more than 3 rounds more often than in another",
        "Players at the same table number more often than needed: 3 times",
        "Three players at one table again: 2 times",
        "Pairs at one table two rounds running: 8 times",
        "Pairs who never meet: each has at least 5 opponents in common",
    ]


def test_pairs_with_nobody_in_common_and_three_handed_turns_read_as_sentences():
    # Two tables of three, the same trios all day: P1 and P4 never meet and have nobody in common.
    day = schedule_of([[[1, 2, 3], [4, 5, 6]], [[2, 3, 1], [5, 6, 4]], [[3, 1, 2], [6, 4, 5]]], 6)
    lines = metrics_lines(optimizer.check(day), day)
    assert "Pairs who never meet: some have no opponent in common" in lines
    assert "Seats: every player sits in each seat letter equally often (balanced)" in lines
    assert "Three-handed rounds per player: 3 each, taken in turn" in lines
    assert not any("at least 0" in line for line in lines)


def test_counts_are_singular_and_plural_right():
    assert [counted(n, "repeat") for n in (0, 1, 2)] == ["0 repeats", "1 repeat", "2 repeats"]
    assert counted(1, "such pair") == "1 such pair" and counted(3, "rematch", "rematches") == "3 rematches"


def test_a_one_round_day_is_counted_in_the_singular_by_check_and_print(capsys, tmp_path):
    day = tmp_path / "day.json"
    assert main(["fixed", "--players", "8", "--rounds", "1", "--json", str(day)]) == 0
    status, out, _ = run(capsys, "check", day)
    assert status == 0 and f"{day}: valid, 8 players, 1 round\n" in out
    status, out, _ = run(capsys, "print", day, "--html", tmp_path / "day.html", "--only", "summary")
    assert status == 0 and "day.html: 1 page to print (1 summary)" in out
    status, out, _ = run(capsys, "print", day, "--html", tmp_path / "day.html", "--only", "walls,slips")
    assert status == 0 and "day.html: 2 pages to print (1 wall chart, 1 page of slips)" in out


def test_a_bound_of_one_repeat_is_said_in_the_singular(capsys):
    # 20 players over 6 rounds: the published theorem proves exactly one repeat at least.
    status, out, _ = run(capsys, "plan", "--players", 20, "--rounds", 6, "--time-limit", 1, "--quiet")
    assert status == 0 and "Lower bound: 1 repeat (no resolvable maximum packing" in out
    assert "1 repeats" not in out and "1 times" not in out and "1 rounds" not in out


def test_a_day_without_repeats_says_so_plainly(capsys):
    status, out, _ = run(capsys, "plan", "--players", 16, "--rounds", 5, "--time-limit", 2, "--quiet")
    assert status == 0 and "Variety rotation: 0 repeats   the fixed rule: 44 repeats" in out
    assert "Proven optimal: nobody meets an opponent twice." in out and "no pair meets twice" in out


def test_the_requests_are_confirmed_in_the_report(capsys, tmp_path):
    names = tmp_path / "names.txt"
    names.write_text("\n".join(["Renée Weiß", *(f"Player {i}" for i in range(2, 25))]) + "\n", encoding="utf-8")
    apart = tmp_path / "apart.txt"
    apart.write_text("Player 2, Player 3\nPlayer 4, Player 5, Player 6\nPlayer 7, Player 8\n", encoding="utf-8")
    stay = tmp_path / "stay.txt"
    stay.write_text("Renée Weiß, 1\n", encoding="utf-8")
    argv = ["plan", "--names", names, "--rounds", 6, "--apart", apart, "--stay", stay, "--time-limit", 3, "-q"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert "Kept apart: 3 groups, never at one table" in out
    assert "Stays at table 1: Renée Weiß, all 6 rounds" in out


def test_check_names_a_broken_request_as_one(capsys, tmp_path):
    day = tmp_path / "day.json"
    assert main(["fixed", "--players", "8", "--rounds", "2", "--json", str(day)]) == 0
    capsys.readouterr()
    schedule = json.loads(day.read_text(encoding="utf-8"))
    first = schedule["rounds"][0]["tables"][0]["players"]
    apart, stay = tmp_path / "apart.json", tmp_path / "stay.json"
    apart.write_text(json.dumps({**schedule, "apart": [first[:2]]}), encoding="utf-8")
    stay.write_text(json.dumps({**schedule, "stay": {first[0]: 2}}), encoding="utf-8")
    status, _, err = run(capsys, "check", apart)
    assert status == 2
    assert f"broken request in round 1: {first[0]} and {first[1]} are to be kept apart but share table 1" in err
    status, _, err = run(capsys, "check", stay)
    assert status == 2 and f"broken request in round 1: {first[0]} is to stay at table 2 but is at table 1" in err


def test_the_method_is_in_the_provenance_and_a_verbose_line_not_in_the_report_or_the_live_line(capsys, tmp_path):
    day = tmp_path / "day.json"
    room = ["plan", "--players", 16, "--rounds", 7, "--time-limit", 2, "--json", day]
    status, out, _ = run(capsys, *room)
    method = json.loads(day.read_text(encoding="utf-8"))["provenance"]["method"]
    assert status == 0 and "AG(2,4)" in method and method not in out and "Made by" not in out
    status, out, _ = run(capsys, *room, "--verbose")
    assert status == 0 and f"Made by: {method}" in out
    line = LiveLine(time_limit=10)
    line.update(Progress(repeats=3, lower_bound=1, elapsed=1.0, note="rotational Z_7 x 3 + 3 fixed, extended"))
    assert "best repeats 3  lower bound 1" in line.text() and "rotational" not in line.text()


def test_two_players_who_stay_at_one_table_force_their_repeats_and_the_plan_is_proven_optimal(capsys, tmp_path):
    # 24 players over 6 rounds have a repeat-free day; two who stay at table 1 meet all 6 rounds: 5 repeats.
    event = Event.with_count(24, 6).model_copy(update={"stay": {"P01": 1, "P02": 1}})
    bound = stay_bound(event)
    assert bound.repeats == lower_bound(event).repeats == 5 and "P01 and P02 at table 1" in bound.proof
    # 32 over 5 rounds: 4 forced, which the seeded single-worker run (repeatable, whatever the load) reaches.
    stay = tmp_path / "stay.txt"
    stay.write_text("P01, 1\nP02, 1\n", encoding="utf-8")
    room = ["--players", 32, "--rounds", 5, "--stay", stay]
    status, out, _ = run(capsys, "plan", *room, "--time-limit", 5, "--workers", 1, "--seed", 0, "-q")
    assert status == 0 and "Variety rotation: 4 repeats" in out and "Lower bound: 4 repeats (stays:" in out
    assert "Proven optimal: no schedule of this room that keeps these requests has fewer repeats." in out


def test_players_who_stay_repeat_only_in_the_rounds_both_play_when_turns_are_sit_outs():
    # 26 players sitting out two a round over 6 rounds: 12 sit-outs, one each at most, so the three who
    # stay at table 1 meet in at least 4 rounds: 3 pairs x 3 repeats.
    stayers = ("P01", "P02", "P03")
    event = Event.with_count(26, 6, odd=OddPolicy.SIT_OUT).model_copy(update={"stay": dict.fromkeys(stayers, 1)})
    bound = stay_bound(event)
    assert bound.repeats == 9 and "in at least 4 of the 6 rounds" in bound.proof
    schedule = optimizer.plan(event, time_limit=3, seed=0, workers=1).schedule
    meetings = [
        sum(set(pair) <= set(t.players) for r in schedule.rounds for t in r.tables) for pair in combinations(stayers, 2)
    ]
    assert sum(m - 1 for m in meetings) >= bound.repeats
