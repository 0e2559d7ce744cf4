import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import optimizer
from models import Event, OddPolicy, Schedule
from rotation.cli import main


@st.composite
def rooms_with_requests(draw):
    players = draw(st.integers(8, 16))
    odd = draw(st.sampled_from(list(OddPolicy)))
    event = Event.with_count(players, draw(st.integers(2, 4)), odd=odd)
    names = list(event.players)
    tables = event.layout.tables
    group = draw(st.lists(st.sampled_from(names), min_size=2, max_size=min(3, tables), unique=True))
    stayer = draw(st.sampled_from([n for n in names if n not in group]))
    return event.model_copy(update={"apart": (tuple(group),), "stay": {stayer: draw(st.integers(1, tables))}})


@settings(max_examples=8)
@given(rooms_with_requests())
def test_keep_apart_and_fixed_tables_are_never_broken(event):
    event = Event.model_validate(event.model_dump())  # run the request checks
    result = optimizer.plan(event, time_limit=1, workers=2)
    schedule = result.schedule
    optimizer.check(schedule)  # the checker verifies the requests too
    (group,) = event.apart
    ((stayer, table),) = event.stay.items()
    for round_ in schedule.rounds:
        for t in round_.tables:
            assert len(set(group) & set(t.players)) <= 1
            assert stayer not in t.players or t.table == table


def test_checker_rejects_a_broken_request():
    event = Event.with_count(8, 2)
    schedule = optimizer.fixed_schedule(event)
    together = schedule.rounds[0].tables[0].players[:2]
    with pytest.raises(
        optimizer.InvalidSchedule, match="broken request in round 1: .* are to be kept apart but share table 1"
    ):
        optimizer.check(schedule.model_copy(update={"apart": (together,)}))
    with pytest.raises(
        optimizer.InvalidSchedule, match="broken request in round 1: .* is to stay at table 2 but is at table 1"
    ):
        optimizer.check(schedule.model_copy(update={"stay": {together[0]: 2}}))


@pytest.mark.parametrize(
    "apart, stay, words",
    [
        ("P1, P2, P3\n", None, "apart P1, P2, P3: 3 players cannot be kept apart at 2 tables"),
        ("P1, Nobody\n", None, "'Nobody' is not a player"),
        (None, "P1, 7\n", "stay P1 at table 7: the room has tables 1 to 2"),
        ("P1, P2\n", "P1, 1\nP2, 1\n", "P1 and P2 must also be kept apart"),
        ("P1\n", None, "a group needs at least two names"),
    ],
)
def test_impossible_requests_are_refused_before_solving(capsys, tmp_path, apart, stay, words):
    argv = ["plan", "--players", "8", "--rounds", "3", "--time-limit", "60"]
    for option, text in (("--apart", apart), ("--stay", stay)):
        if text:
            (tmp_path / option[2:]).write_text(text)
            argv += [option, str(tmp_path / option[2:])]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


def test_replan_keeps_played_rounds_and_seats_the_new_list(capsys, tmp_path):
    before, after = tmp_path / "day.json", tmp_path / "new.json"
    assert main(["plan", "--players", "16", "--rounds", "5", "--time-limit", "5", "--json", str(before)]) == 0
    original = before.read_bytes()
    argv = ["replan", str(before), "--played", "2", "--drop", "P03", "--add", "Zoe", "--add", "Yan"]
    assert main(argv + ["--time-limit", "3", "--json", str(after)]) == 0
    out = capsys.readouterr().out
    assert "Re-planned after round 2 (left: P03; arrived: Zoe, Yan)" in out
    assert before.read_bytes() == original  # the input file is never modified
    old, new = json.loads(original), json.loads(after.read_text())
    assert new["rounds"][:2] == old["rounds"][:2]
    assert new["departures"] == {"P03": 3} and new["arrivals"] == {"Zoe": 3, "Yan": 3}
    for round_ in new["rounds"][2:]:
        seated = {n for t in round_["tables"] for n in t["players"]} | set(round_["sit_outs"])
        assert "P03" not in seated and {"Zoe", "Yan"} <= seated
    optimizer.check(Schedule.model_validate_json(after.read_text()))


def test_replan_refuses_a_name_it_cannot_drop(capsys, tmp_path):
    day = tmp_path / "day.json"
    main(["fixed", "--players", "8", "--rounds", "3", "--json", str(day)])
    assert main(["replan", str(day), "--played", "1", "--drop", "Nobody"]) == 2
    assert "cannot drop 'Nobody'" in capsys.readouterr().err


def test_club_mates_are_spread_where_it_costs_no_repeat():
    clubs = (("P01", "P02", "P03", "P04", "P05", "P06"), ("P07", "P08", "P09", "P10"))
    event = Event.with_count(24, 4).model_copy(update={"spread": clubs})
    result = optimizer.plan(Event.model_validate(event.model_dump()), time_limit=10, workers=2)
    assert result.repeats == 0 and result.metrics.club_meetings == 0


def test_checker_counts_club_mate_meetings():
    schedule = optimizer.fixed_schedule(Event.with_count(8, 3))
    first_table = schedule.rounds[0].tables[0].players
    metrics = optimizer.check(schedule.model_copy(update={"spread": (first_table[:2],)}))
    met = sum(set(first_table[:2]) <= set(t.players) for r in schedule.rounds for t in r.tables)
    assert metrics.club_meetings == met >= 1


def test_spread_names_must_be_players(capsys, tmp_path):
    (tmp_path / "clubs.txt").write_text("P1, Nobody\n")
    assert main(["plan", "--players", "8", "--rounds", "2", "--spread", str(tmp_path / "clubs.txt")]) == 2
    assert "spread P1, Nobody: 'Nobody' is not a player" in capsys.readouterr().err
