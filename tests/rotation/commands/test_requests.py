import contextlib
import io
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import optimizer
from models import Event, OddPolicy, Schedule
from models.event import RequestRefused
from rotation.commands.cli import main

pytestmark = pytest.mark.slow


@st.composite
def rooms_with_requests(draw):
    players = draw(st.integers(8, 16))
    odd = draw(st.sampled_from(list(OddPolicy)))
    event = Event.with_count(players, draw(st.integers(2, 4)), odd=odd)
    names = list(event.players)
    layout = event.layout
    group = draw(st.lists(st.sampled_from(names), min_size=2, max_size=min(3, layout.tables), unique=True))
    stayer = draw(st.sampled_from([n for n in names if n not in group]))
    stay = {stayer: draw(st.integers(1, layout.fours))} if layout.fours else {}  # tables of four only
    return event.model_copy(update={"apart": (tuple(group),), "stay": stay})


@settings(max_examples=8)
@given(rooms_with_requests())
def test_keep_apart_and_fixed_tables_are_never_broken(event):
    event = Event.model_validate(event.model_dump())  # run the request checks
    result = optimizer.plan(event, time_limit=1, seed=0, workers=1)
    schedule = result.schedule
    optimizer.check(schedule)  # the checker verifies the requests too
    (group,) = event.apart
    for round_ in schedule.rounds:
        for t in round_.tables:
            assert len(set(group) & set(t.players)) <= 1
            for stayer, table in event.stay.items():
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
            (tmp_path / option[2:]).write_text(text, encoding="utf-8")
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
    old, new = json.loads(original), json.loads(after.read_text(encoding="utf-8"))
    assert new["rounds"][:2] == old["rounds"][:2]
    assert new["departures"] == {"P03": 3} and new["arrivals"] == {"Zoe": 3, "Yan": 3}
    for round_ in new["rounds"][2:]:
        seated = {n for t in round_["tables"] for n in t["players"]} | set(round_["sit_outs"])
        assert "P03" not in seated and {"Zoe", "Yan"} <= seated
    optimizer.check(Schedule.model_validate_json(after.read_text(encoding="utf-8")))


def test_replan_refuses_a_name_it_cannot_drop(capsys, tmp_path):
    day = tmp_path / "day.json"
    main(["fixed", "--players", "8", "--rounds", "3", "--json", str(day)])
    assert main(["replan", str(day), "--played", "1", "--drop", "Nobody"]) == 2
    assert "cannot drop 'Nobody'" in capsys.readouterr().err


def test_club_mates_are_spread_where_it_costs_no_repeat():
    clubs = (("P01", "P02", "P03", "P04", "P05", "P06"), ("P07", "P08", "P09", "P10"))
    event = Event.with_count(24, 4).model_copy(update={"spread": clubs})
    # one seeded worker counting work: no repeat and no club meeting after 0.4 s of work of the 10, on any load
    result = optimizer.plan(Event.model_validate(event.model_dump()), time_limit=10, seed=0, workers=1)
    assert result.repeats == 0 and result.metrics.club_meetings == 0


def test_checker_counts_club_mate_meetings():
    schedule = optimizer.fixed_schedule(Event.with_count(8, 3))
    first_table = schedule.rounds[0].tables[0].players
    metrics = optimizer.check(schedule.model_copy(update={"spread": (first_table[:2],)}))
    met = sum(set(first_table[:2]) <= set(t.players) for r in schedule.rounds for t in r.tables)
    assert metrics.club_meetings == met >= 1


def test_spread_names_must_be_players(capsys, tmp_path):
    (tmp_path / "clubs.txt").write_text("P1, Nobody\n", encoding="utf-8")
    assert main(["plan", "--players", "8", "--rounds", "2", "--spread", str(tmp_path / "clubs.txt")]) == 2
    assert "spread P1, Nobody: 'Nobody' is not a player" in capsys.readouterr().err


def refusal(**room) -> RequestRefused:
    with pytest.raises(ValidationError) as refused:
        Event.model_validate(room)
    cause = refused.value.errors()[0]["ctx"]["error"]
    assert isinstance(cause, RequestRefused)
    return cause


THIRTY_SEVEN = tuple(f"P{i:02d}" for i in range(1, 38))  # 7 tables of four, then tables 8 to 10 of three


@pytest.mark.parametrize(
    "room, words, requests",
    [
        (
            {"stay": {"P01": 2, "P09": 9}},
            "stay P09 at table 9: with 37 players tables 8 to 10 seat three, and a player who stays takes no "
            "three-handed turn; choose a table from 1 to 7",
            (("stay", 1),),
        ),
        (
            {"stay": {"P09": 11}},
            "stay P09 at table 11: the room has tables 1 to 10, of which tables 8 to 10 seat three; "
            "choose a table from 1 to 7",
            (("stay", 0),),
        ),
        ({"stay": {"P09": 10}, "players": THIRTY_SEVEN[:36]}, "the room has tables 1 to 9", (("stay", 0),)),
        ({"stay": {"P09": 9}, "players": THIRTY_SEVEN[:35]}, "table 9 seats three", (("stay", 0),)),
        ({"stay": {"P01": 1}, "players": THIRTY_SEVEN[:9]}, "9 players sit at tables of three only", (("stay", 0),)),
        (
            {"stay": {f"P0{i}": 3 for i in range(1, 6)}},
            "stay at table 3: 5 players stay there (P01, P02, P03, P04, P05), and it seats 4",
            tuple(("stay", k) for k in range(5)),
        ),
        (
            {
                "stay": {"P01": 1, "P02": 1, "P03": 1, "P04": 1, "P05": 2},
                "apart": [("P05", "P06", "P07")],
                "players": THIRTY_SEVEN[:12],
            },
            "apart P05, P06, P07: 2 of them move and need a table each, and only 1 table is left "
            "(P05 stays at table 2; table 1 is full of players who stay)",
            (("apart", 0), ("stay", 0), ("stay", 1), ("stay", 2), ("stay", 3), ("stay", 4)),
        ),
        (
            {"stay": {"P03": 1, "P01": 1}, "apart": [("P09", "P10"), ("P01", "P02", "P03")]},
            "stay at table 1: P03 and P01 must also be kept apart",
            (("stay", 0), ("stay", 1), ("apart", 1)),
        ),
    ],
)
def test_requests_that_cannot_hold_are_refused_naming_them(room, words, requests):
    refused = refusal(**{"players": THIRTY_SEVEN, "rounds": 6, **room})
    assert str(refused) == words or words in str(refused), refused
    assert refused.requests == requests


def test_a_stay_that_holds_under_sit_outs_or_at_a_table_of_four_is_kept():
    assert Event(players=THIRTY_SEVEN, rounds=6, odd="sit-out", stay={"P09": 9}).stay == {"P09": 9}
    assert Event(players=THIRTY_SEVEN, rounds=6, stay={"P09": 7}).stay == {"P09": 7}
    four = {f"P0{i}": 1 for i in range(1, 5)}  # a full table under sit-outs: a stayer who sits out frees a seat
    apart = [tuple(f"P{i:02d}" for i in range(10, 19))]  # 9 players, 9 tables
    assert Event(players=THIRTY_SEVEN, rounds=6, odd="sit-out", stay=four, apart=apart).apart == tuple(apart)


@pytest.mark.parametrize(
    "request_, words",
    [
        (
            {"apart": [("Zoe Weiss", "Ann")]},
            "apart Zoe Weiss, Ann: 'Zoe Weiss' is not a player; did you mean 'Zoë Weiß'?",
        ),
        ({"spread": [("Ann", "bjorn")]}, "spread Ann, bjorn: 'bjorn' is not a player; did you mean 'Bjørn'?"),
        (
            {"stay": {"ZOE WEISS": 1}},
            "stay ZOE WEISS at table 1: 'ZOE WEISS' is not a player; did you mean 'Zoë Weiß'?",
        ),
        ({"apart": [("Ann", "Zoe")]}, "apart Ann, Zoe: 'Zoe' is not a player"),  # Zoé and Zoë: no one guess
        (  # a letter missing: the nearest spelling
            {"apart": [("Ann", "Zoe Weis")]},
            "apart Ann, Zoe Weis: 'Zoe Weis' is not a player; did you mean 'Zoë Weiß'?",
        ),
        ({"apart": [("Ann", "Xavier")]}, "apart Ann, Xavier: 'Xavier' is not a player"),  # nobody near
    ],
)
def test_an_unknown_name_gets_did_you_mean_when_one_name_matches_or_one_is_near(request_, words):
    players = ("Zoë Weiß", "Ann", "Bjørn", "Zoé", "Zoë", "Cy", "Dee", "Ed")
    assert str(refusal(players=players, rounds=2, **request_)) == words


@pytest.mark.parametrize(
    "files, words",
    [
        (
            {"stay": "P01, 2\n\nP09, 9\n"},
            "stay file 'stay.txt', line 3: stay P09 at table 9: with 37 players tables 8 to 10 seat three",
        ),
        ({"stay": "P09, 12\n"}, "stay file 'stay.txt', line 1: stay P09 at table 12: the room has tables 1 to 10"),
        (
            {"stay": "P01, 1\nP02, 2\nP03, 1\n", "apart": "P10, P11\nP03, P01\n"},
            "stay file 'stay.txt', lines 1 and 3; apart file 'apart.txt', line 2: stay at table 1: P01 and P03 must",
        ),
        (
            {"apart": "P01, P02\n" + ", ".join(f"P{i:02d}" for i in range(20, 31)) + "\n"},
            "apart file 'apart.txt', line 2: apart P20, P21,",
        ),
        ({"spread": "P01, P02\nP03, P3\n"}, "spread file 'spread.txt', line 2: spread P03, P3: 'P3' is not a player"),
    ],
)
def test_the_command_line_refuses_a_request_that_cannot_hold_naming_its_file_and_line(
    tmp_path, monkeypatch, files, words
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(optimizer, "plan", lambda *a, **k: pytest.fail("the solver ran"))
    argv = ["plan", "--players", "37", "--rounds", "6", "--time-limit", "60", "--json", "day.json"]
    for kind, text in files.items():
        (tmp_path / f"{kind}.txt").write_text(text, encoding="utf-8")
        argv += [f"--{kind}", f"{kind}.txt"]
    status, out, err = invoke(argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and words in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{kind}.txt" for kind in files)  # nothing written


def test_a_replan_whose_new_room_makes_a_stayers_table_three_handed_is_refused(tmp_path):
    day = tmp_path / "day.json"
    event = Event.with_count(36, 4, stay={"P09": 9})
    schedule = optimizer.plan(event, time_limit=1, workers=1).schedule
    day.write_text(schedule.model_dump_json(), encoding="utf-8")
    status, out, err = invoke(
        ["replan", str(day), "--played", "2", "--add", "Xena", "--json", str(tmp_path / "n.json")]
    )
    assert status == 2 and out == "" and "stay P09 at table 9: with 37 players tables 8 to 10 seat three" in err
    assert not (tmp_path / "n.json").exists()


def test_drop_suggests_the_name_it_may_mean(tmp_path):
    day = tmp_path / "day.json"
    names = tmp_path / "names.txt"
    names.write_text("Zoë Weiß\nAnn\nBo\nCy\n", encoding="utf-8")
    assert invoke(["fixed", "--names", str(names), "--rounds", "3", "--json", str(day)])[0] == 0
    status, _, err = invoke(["replan", str(day), "--played", "1", "--drop", "Zoe Weiss"])
    assert status == 2 and "cannot drop 'Zoe Weiss': not on the schedule; did you mean 'Zoë Weiß'?" in err


def invoke(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def test_a_group_one_larger_than_the_tables_is_kept_apart_by_sitting_one_out():
    """Under sit-outs a member who sits out shares no table: 5 apart at the 4 tables of 17 players
    (one sits out a round) is a request that can hold, and the checker confirms it does."""
    event = Event.with_count(17, 4, odd="sit-out")
    group = event.players[:5]
    result = optimizer.plan(
        Event.model_validate({**event.model_dump(), "apart": [group]}), time_limit=3, seed=0, workers=1
    )
    assert result.schedule is not None and optimizer.check(result.schedule).repeats == result.repeats
    for round_ in result.schedule.rounds:
        assert len(set(group) & set(round_.sit_outs)) == 1
        assert all(len(set(group) & set(t.players)) <= 1 for t in round_.tables)
    refused = refusal(players=event.players, rounds=4, odd="sit-out", apart=[event.players[:6]])
    assert str(refused).endswith("6 players cannot be kept apart at 4 tables with 1 sitting out a round")


@pytest.mark.parametrize("players", [400, 403, 410])
def test_the_greedy_start_deals_keep_apart_groups_to_different_tables(players):
    """Without a cost model or time to search (a big room), the greedy start alone keeps every group of
    at most as many players as tables apart, sit-outs taken in turn as well. (One table of three cannot
    part two of a group among its three: there the search repairs the start.)"""
    from optimizer.constructions.greedy import greedy_seating
    from optimizer.seats import to_schedule

    event = Event.with_count(players, 6, odd=OddPolicy.SIT_OUT)
    names = event.players
    groups = tuple(tuple(names[g * 10 : (g + 1) * 10]) for g in range(30))
    event = event.model_copy(update={"apart": groups})
    seats = greedy_seating(event, None, np.random.default_rng(players))
    metrics = optimizer.check(to_schedule(event, seats, rule="variety"))  # raises on a broken request
    assert metrics.apart_meetings == 0
