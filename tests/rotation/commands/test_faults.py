"""Issue 12: every fault of the command line is one line on stderr, exit 2, and leaves no output behind."""

import contextlib
import errno
import io
import json
import os
import subprocess
import sys
import unicodedata

import pytest

import optimizer
import rotation.files.output
from models import Event, OddPolicy, Provenance, Schedule, SitOutScoring
from models.event import MAX_SEATS
from rotation.commands.cli import main
from rotation.commands.print_command import parse_rounds
from rotation.files.inputs import MAX_SCHEDULE_BYTES, read_schedule
from rotation.files.output import schedule_json


def invoke(*argv):
    """Run the command line in-process: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


def refused(*argv, words=""):
    status, out, err = invoke(*argv)
    assert status == 2, (status, out, err)
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert words in err, err
    return err


def test_bad_input_is_a_plain_value_error_that_only_the_command_line_turns_into_click_s():
    """The library and the desk catch the director's bad input as a ValueError, knowing nothing of click;
    the command line says it in one line with exit status 2."""
    import click

    from rotation.files.inputs import BadInput, parse_sizes

    assert issubclass(BadInput, ValueError) and not issubclass(BadInput, click.ClickException)
    with pytest.raises(BadInput, match="at most"):  # said as raised, not re-read as "cannot read"
        parse_sizes("16-100000000", "--players", minimum=4)
    refused("compare", "--players", "16-100000000", "--rounds", "2", words="--players: sizes must be at most")


def write_day(path, players=16, rounds=4, **settings):
    schedule = optimizer.fixed_schedule(Event.with_count(players, rounds, **settings))
    path.write_text(schedule.model_dump_json(indent=2), encoding="utf-8")
    return path


# 2. An output that is an input, or another output, is refused before any work.


def test_replan_output_cannot_be_its_input(tmp_path):
    day = write_day(tmp_path / "day.json")
    before = day.read_bytes()
    refused("replan", day, "--played", 2, "--drop", "P01", "--json", day, words="same file as the schedule file")
    assert day.read_bytes() == before


def test_print_output_cannot_be_its_input(tmp_path):
    day = write_day(tmp_path / "day.json")
    before = day.read_bytes()
    refused("print", day, "--html", day, words="same file")
    assert day.read_bytes() == before


def test_csv_cannot_overwrite_the_names_file(tmp_path):
    names = tmp_path / "n.txt"
    names.write_text("Ann\nBo\nCy\nDee\n", encoding="utf-8")
    refused("fixed", "--names", names, "--rounds", 2, "--csv", names, words="same file as the names file")
    assert names.read_text(encoding="utf-8") == "Ann\nBo\nCy\nDee\n"


@pytest.mark.parametrize("link", ["same", "symlink", "hardlink"])
def test_two_outputs_cannot_be_one_file(tmp_path, link):
    json_path, csv_path = tmp_path / "x.json", tmp_path / "x.json"
    if link != "same":
        json_path.write_text("old", encoding="utf-8")
        csv_path = tmp_path / "y.csv"
        (os.symlink if link == "symlink" else os.link)(json_path, csv_path)
    refused("fixed", "--players", 8, "--rounds", 2, "--json", json_path, "--csv", csv_path, words="same file")
    left = [] if link == "same" else sorted({json_path.name, csv_path.name})
    assert sorted(p.name for p in tmp_path.iterdir()) == left


# 3. Files first, then the report; a closed or full stdout loses no file.


@pytest.mark.subprocess
def test_files_are_written_before_the_report_and_a_closed_pipe_loses_none(tmp_path):
    # 2000 players print far more than a pipe holds, so the report really meets the closed pipe.
    command = [sys.executable, "-m", "rotation.commands.cli", "fixed", "--players", "2000", "--rounds", "4"]
    command += ["--json", str(tmp_path / "O.json"), "--csv", str(tmp_path / "O.csv")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout.readline()  # wait for the report to start, then close it like `| head -1`
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait() == 0 and "Traceback" not in err
    assert err.splitlines() == [f"wrote {tmp_path / 'O.json'}", f"wrote {tmp_path / 'O.csv'}"]
    assert len(Schedule.model_validate_json((tmp_path / "O.json").read_text(encoding="utf-8")).rounds) == 4


@pytest.mark.subprocess
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_stdout_is_one_line_and_keeps_the_files(tmp_path):
    command = [
        sys.executable,
        "-m",
        "rotation.commands.cli",
        "fixed",
        "--players",
        "16",
        "--rounds",
        "2",
        "--json",
        str(tmp_path / "O.json"),
    ]
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run(command, stdout=full, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"wrote {tmp_path / 'O.json'}",
        "rotation: error: the report could not be printed: No space left on device",
    ]
    assert (tmp_path / "O.json").exists()


def test_every_output_written_is_named(tmp_path):
    status, out, err = invoke(
        "fixed", "--players", 8, "--rounds", 2, "--json", tmp_path / "a.json", "--csv", tmp_path / "a.csv"
    )
    assert status == 0 and err.splitlines() == [f"wrote {tmp_path / 'a.json'}", f"wrote {tmp_path / 'a.csv'}"]
    assert "Repeats: " in out and "Round 2" not in out  # files written: the figures, not the seating


# 4. All outputs or none.


@pytest.mark.parametrize("bad", ["/proc/x.csv", "FILE/x.csv", "LONG", "FOLDER"])
def test_an_unwritable_output_leaves_no_other_output(tmp_path, bad):
    (tmp_path / "file").write_text("", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    bad = {
        "FILE/x.csv": tmp_path / "file" / "x.csv",
        "LONG": tmp_path / ("x" * 256 + ".csv"),
        "FOLDER": tmp_path / "folder",
    }.get(bad, bad)
    err = refused(
        "fixed", "--players", 16, "--rounds", 2, "--json", tmp_path / "a.json", "--csv", bad, words="cannot write --csv"
    )
    assert not (tmp_path / "a.json").exists() and sorted(p.name for p in tmp_path.iterdir()) == ["file", "folder"]
    if bad == tmp_path / "file" / "x.csv":
        assert "is not a folder" in err


def test_a_full_disk_while_writing_leaves_no_output(tmp_path, monkeypatch):
    real, calls = os.fsync, []

    def fsync(fd):
        calls.append(fd)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    refused(
        "fixed",
        "--players",
        16,
        "--rounds",
        2,
        "--json",
        tmp_path / "a.json",
        "--csv",
        tmp_path / "a.csv",
        words="No space left",
    )
    assert list(tmp_path.iterdir()) == []


def test_print_writes_html_and_svg_together_or_neither(tmp_path):
    day = write_day(tmp_path / "day.json", players=8, rounds=2)
    refused("print", day, "--html", tmp_path / "p.html", "--svg", "/proc/p.svg", words="cannot write --svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["day.json"]


# 5. Requests that contradict themselves.


@pytest.fixture
def names(tmp_path):
    path = tmp_path / "names.txt"
    path.write_text("".join(f"P{i:02d}\n" for i in range(1, 17)) + '"Lee, Ann"\n', encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "option, text, words",
    [
        ("--stay", "P01, 1\nP02, 3\nP01, 2\n", "line 3: 'P01' already has a table on line 1"),
        ("--stay", "P01, 1\np01, 1\n", "already has a table on line 1"),
        ("--stay", "P01, ²\n", "line 1: write 'name, table'"),
        ("--stay", "P01, 1, 2\n", "line 1: write 'name, table'"),
        ("--apart", "P02, P03\nP01, P01\n", "line 2: 'P01' is named twice"),
        ("--spread", "P01, P02, p02\n", "line 1: 'P02' is named twice"),
        ("--apart", 'P01, "P02\n', "line 1:"),
    ],
)
def test_contradicting_requests_are_refused_naming_the_line(tmp_path, names, option, text, words):
    request = tmp_path / "request.txt"
    request.write_text(text, encoding="utf-8")
    refused("plan", "--names", names, "--rounds", 2, option, request, "--time-limit", 1, words=words)


def test_a_name_with_a_comma_can_be_requested(tmp_path):
    names = tmp_path / "names.txt"
    names.write_text(
        '"Lee, Ann"\nBo\nCy\nDee\nEd\nFlo\nGus\nHal\n', encoding="utf-8"
    )  # quoted: an unquoted comma splits a table
    apart = tmp_path / "apart.txt"
    apart.write_text('"Lee, Ann", Bo\n', encoding="utf-8")
    stay = tmp_path / "stay.txt"
    stay.write_text('"lee,  ann", 2\n', encoding="utf-8")
    status, _, err = invoke(
        "plan",
        "--names",
        names,
        "--rounds",
        2,
        "--apart",
        apart,
        "--stay",
        stay,
        "--time-limit",
        1,
        "--json",
        tmp_path / "s.json",
    )
    assert status == 0, err
    schedule = Schedule.model_validate_json((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert schedule.apart == (("Lee, Ann", "Bo"),) and schedule.stay == {"Lee, Ann": 2}


# 6. Nonsense numbers.


@pytest.mark.parametrize(
    "option, value",
    [
        ("--time-limit", "inf"),
        ("--time-limit", "nan"),
        ("--time-limit", "-1"),
        ("--seed", "2147483648"),
        ("--workers", "100000"),
    ],
)
def test_nonsense_numbers_are_refused_at_once(option, value):
    refused("plan", "--players", 16, "--rounds", 2, option, value, words=option)


@pytest.mark.parametrize(
    "argv",
    [
        ["--players", "100000", "--rounds", "2"],
        ["--players", "16", "--rounds", "1000"],
        ["--players", "20000", "--rounds", "60"],
    ],
)
def test_rooms_beyond_the_maximum_are_one_line(argv):
    refused("fixed", *argv, words="at most" if "1000" not in argv else "at most 100 rounds")


def test_running_out_of_memory_is_one_line(monkeypatch, tmp_path):
    def fixed_schedule(event, *rule):
        raise MemoryError

    monkeypatch.setattr(optimizer, "fixed_schedule", fixed_schedule)
    refused("fixed", "--players", 16, "--rounds", 2, "--json", tmp_path / "a.json", words="out of memory")
    assert list(tmp_path.iterdir()) == []


def test_compare_refuses_sizes_beyond_the_maximum():
    refused("compare", "--players", "16-100000000", "--rounds", "2", words="at most")


# 7. Look-alike names are one player.


@pytest.mark.parametrize(
    "first, second",
    [
        ("José", unicodedata.normalize("NFD", "José")),
        ("Ann", "ann"),
        ("Ann Lee", "Ann  Lee"),
        ("Ann", "An\u200bn"),
        ("Ann", "Ann\x00"),
        ("Ann", "\tAnn "),
    ],
)
def test_look_alike_names_are_refused_naming_both_lines(tmp_path, first, second):
    path = tmp_path / "names.txt"
    path.write_text(f"{first}\nBo\nCy\n{second}\nDee\n", encoding="utf-8")
    refused("fixed", "--names", path, "--rounds", 2, words="lines 1 and 4")


def test_a_line_separator_does_not_split_a_name(tmp_path):
    path = tmp_path / "names.txt"
    path.write_text("Ann\u2028Lee\nBo\nCy\nDee\n", encoding="utf-8")
    status, out, _ = invoke("fixed", "--names", path, "--rounds", 1)
    assert status == 0 and "A Ann Lee" in out


def test_names_from_every_source_match(tmp_path):
    day = tmp_path / "day.json"
    schedule = json.loads(
        write_day(day).read_text(encoding="utf-8").replace('"P01"', '" P01 "').replace('"P02"', '"P\u200b02"')
    )
    day.write_text(json.dumps(schedule), encoding="utf-8")
    status, _, err = invoke(
        "replan",
        day,
        "--played",
        2,
        "--drop",
        "p02",
        "--add",
        "  New   Guy ",
        "--time-limit",
        2,
        "--workers",
        1,
        "--json",
        tmp_path / "new.json",
    )
    assert status == 0, err
    new = Schedule.model_validate_json((tmp_path / "new.json").read_text(encoding="utf-8"))
    assert new.players[0] == "P01" and "New Guy" in new.players and new.departures == {"P02": 3}


def test_an_added_name_already_on_the_schedule_is_refused(tmp_path):
    refused(
        "replan",
        write_day(tmp_path / "day.json"),
        "--played",
        2,
        "--add",
        "p01",
        words="'P01' is already on the schedule",
    )


# 8. Schedule files: unknown keys, strict numbers, impossible days.


def mutated(tmp_path, change):
    data = json.loads(write_day(tmp_path / "day.json", players=8, rounds=3).read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.update({"Stay": {"P1": 1}}), "Stay"),
        (lambda d: d.update({"apart ": [["P1", "P2"]]}), "apart "),
        (lambda d: d["rounds"][0].update({"absnet": []}), "absnet"),
        (lambda d: d["rounds"][0]["tables"][0].update({"table": True}), "table"),
        (lambda d: d["rounds"][0]["tables"][0].update({"table": "1"}), "table"),
        (lambda d: d.update({"arrivals": {"P1": 3}, "departures": {"P1": 2}}), "arrives in round 3"),
        (lambda d: d["rounds"][1].update({"tables": [], "absent": d["players"]}), "round 2: no table"),
        (lambda d: d.update({"players": d["players"] + ["p1"]}), "same name"),
    ],
)
def test_schedule_file_mistakes_are_refused(tmp_path, change, words):
    refused("check", mutated(tmp_path, change), words=words)


def test_schema_forbids_unknown_keys():
    status, out, _ = invoke("schema")
    schema = json.loads(out)
    assert status == 0 and schema["additionalProperties"] is False
    assert schema["$defs"]["Round"]["additionalProperties"] is False


# 9. Re-plan messages are true.


def test_replan_of_a_late_arrival_still_to_come_says_so(tmp_path):
    day = write_day(tmp_path / "day.json")
    status, _, err = invoke(
        "replan",
        day,
        "--played",
        2,
        "--add",
        "Zed",
        "--time-limit",
        1,
        "--workers",
        1,
        "--json",
        tmp_path / "late.json",
    )
    assert status == 0, err
    refused("replan", tmp_path / "late.json", "--played", 1, words="'Zed' arrives in round 3")


def test_replan_with_an_absence_still_to_come_says_so(tmp_path):
    names = list("ABCDEFGHI")
    rounds = [
        {"tables": [{"table": 1, "players": names[0:4]}, {"table": 2, "players": names[4:8]}], "sit_outs": ["I"]},
        {"tables": [{"table": 1, "players": list("AEBF")}, {"table": 2, "players": list("CGDH")}], "absent": ["I"]},
        {"tables": [{"table": 1, "players": list("AGBH")}, {"table": 2, "players": list("CEDF")}], "sit_outs": ["I"]},
    ]
    path = tmp_path / "absent.json"
    path.write_text(json.dumps({"players": names, "rounds": rounds, "odd": "sit-out"}), encoding="utf-8")
    refused("replan", path, "--played", 1, words="round 2 lists 'I' as absent")


def test_no_schedule_message_blames_requests_only_when_there_are_some():
    from models import Bound, PlanResult, Status
    from rotation.commands.cli import no_schedule

    result = PlanResult(
        status=Status.INFEASIBLE,
        repeats=None,
        bound=Bound(repeats=0, proof="x"),
        fixed_repeats=None,
        method="",
        runtime=0,
    )
    assert "--apart" in str(no_schedule(result, 1, requests=True))
    assert "--apart" not in str(no_schedule(result, 1, requests=False))


def test_replan_passes_a_new_odd_policy_on(tmp_path, monkeypatch):
    seen = {}

    def replan(
        schedule, played, drop, add, reseat, time_limit, seed, workers, on_progress, odd=None, sit_out_scoring=None
    ):
        seen.update(odd=odd, sit_out_scoring=sit_out_scoring)
        raise ValueError("stop here")

    monkeypatch.setattr(optimizer, "replan", replan)
    refused(
        "replan",
        write_day(tmp_path / "day.json"),
        "--played",
        1,
        "--odd",
        "sit-out",
        "--sit-out-scoring",
        "average",
        words="stop here",
    )
    assert seen == {"odd": OddPolicy.SIT_OUT, "sit_out_scoring": SitOutScoring.AVERAGE}


def test_replan_switches_to_sit_outs_where_the_played_rounds_allow(tmp_path):
    day, out = write_day(tmp_path / "day.json", players=8, rounds=3), tmp_path / "new.json"
    drop = ["--drop", "P1", "--drop", "P2", "--drop", "P3"]  # five left: no tables of three and four
    status, _, err = invoke("replan", day, "--played", 1, *drop, "--odd", "sit-out", "--time-limit", 2, "--json", out)
    assert status == 0, err
    new = Schedule.model_validate_json(out.read_text(encoding="utf-8"))
    assert new.odd is OddPolicy.SIT_OUT and [len(r.sit_outs) for r in new.rounds] == [0, 1, 1]


def test_replan_refuses_a_policy_the_played_rounds_break(tmp_path):
    day = write_day(tmp_path / "day.json", players=7, rounds=3)  # a table of three in every round
    refused("replan", day, "--played", 1, "--odd", "sit-out", "--time-limit", 1, words="the sit-out policy")


# 11. Inputs that are not files.


@pytest.mark.parametrize("special", ["/dev/zero", "FIFO", "BIG", "FILE/names.txt"])
def test_inputs_that_are_not_regular_files_are_refused(tmp_path, special):
    (tmp_path / "file").write_text("", encoding="utf-8")
    if special == "FIFO":
        os.mkfifo(tmp_path / "fifo")
        special = tmp_path / "fifo"
    elif special == "BIG":
        special = tmp_path / "big.txt"
        with open(special, "wb") as handle:
            handle.truncate(11 * 2**20)
    elif special == "FILE/names.txt":
        special = tmp_path / "file" / "names.txt"
    err = refused("fixed", "--names", special, "--rounds", 2)
    assert any(words in err for words in ("not a regular file", "larger than 10 MB", "is not a folder"))


@pytest.mark.parametrize(
    "argv, status, answer",
    [
        (["--players", 16, "--rounds", 5], 0, "exists"),
        (["--players", 16, "--rounds", 6], 1, "impossible"),
        (["--players", 21, "--rounds", 7, "--time-limit", 0.2], 3, "unknown"),  # nothing built or stored
    ],
)
def test_exists_answers_in_its_exit_status(argv, status, answer):
    code, out, _ = invoke("exists", *argv, "--workers", 1)  # counts work: "unknown" at 0.2 s whatever the load
    assert code == status and f": {answer} (" in out


def test_a_control_character_in_a_schedule_file_key_stays_on_the_one_error_line(tmp_path):
    day = write_day(tmp_path / "day.json")
    data = json.loads(day.read_text(encoding="utf-8"))
    data["\x1e"] = 1  # found by the property test: splitlines() breaks a line at U+001E
    day.write_text(json.dumps(data), encoding="utf-8")
    err = refused("check", day, words="\\x1e")
    assert "Extra inputs are not permitted" in err


# Issue 30, item 6: the files it writes, it reads; the room limits hold for every command.


@pytest.mark.slow
def test_a_schedule_file_over_ten_megabytes_is_read_when_the_room_is_within_the_limits(tmp_path):
    # The audit's case: 10 000 players over 25 rounds, 10.6 MB, refused before as larger than 10 MB.
    schedule = optimizer.fixed_schedule(Event.with_count(10_000, 25))
    path = tmp_path / "big.json"
    path.write_text(schedule_json(schedule), encoding="utf-8")
    assert path.stat().st_size > 10 * 2**20
    assert read_schedule(str(path)).players == schedule.players
    # The file grows linearly in seats: at this size's bytes per seat, a room at the limits fits the cap.
    assert path.stat().st_size / (10_000 * 25) * MAX_SEATS < MAX_SCHEDULE_BYTES


def test_a_schedule_file_larger_than_the_tool_reads_is_not_written(tmp_path, monkeypatch):
    monkeypatch.setattr(rotation.files.output, "MAX_SCHEDULE_BYTES", 1000)
    err = refused("fixed", "--players", 16, "--rounds", 4, "--json", tmp_path / "d.json", "--csv", tmp_path / "d.csv")
    assert "the schedule file would be" in err and "shorten the names" in err
    assert list(tmp_path.iterdir()) == []


def room_file(path, players: int, rounds: int):
    """A schedule file written by hand: one table of four, every round, for a room of `players`."""
    names = [f"P{i}" for i in range(players)]
    day = {"players": names, "rounds": [{"tables": [{"table": 1, "players": names[:4]}]}] * rounds}
    path.write_text(json.dumps(day), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "players, rounds, words", [(20_001, 1, "at most 20000 players"), (4, 101, "at most 100 rounds")]
)
@pytest.mark.parametrize("command", ["check", "print", "replan"])
def test_check_print_and_replan_refuse_rooms_outside_the_limits(tmp_path, players, rounds, words, command):
    day = room_file(tmp_path / "day.json", players, rounds)
    more = {"check": [], "print": ["--html", tmp_path / "p.html"], "replan": ["--played", 1]}[command]
    refused(command, day, *more, words=words)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["day.json"]


# Issue 30, item 7: messages that blame the right thing.


@pytest.mark.parametrize(
    "encoding, words",
    [("utf-32", "is UTF-32 text; save it as UTF-8"), ("utf-16-le", "looks like UTF-16 text without its byte-order")],
)
def test_a_wide_names_file_that_is_not_read_is_named_as_such(tmp_path, encoding, words):
    # UTF-16 with its byte-order mark (Excel's "Unicode Text") is read (tests/rotation/commands/test_cli.py).
    names = tmp_path / "names.txt"
    names.write_bytes("Ann\nBo\nCy\nDee\n".encode(encoding))
    refused("fixed", "--names", names, "--rounds", 2, words=words)


@pytest.mark.parametrize(
    "text, words",
    [
        ("[1, 2]", "not a schedule: the file holds a list, not an object {...}"),
        ('{"players": ["A", "B", "C", "D"], "rounds": [[1]]}', "rounds.0: should be a JSON object {...}, not a list"),
        ('{"players": "ABCD", "rounds": []}', "players: should be a JSON list [...], not text"),
        ('{"players": [], "rounds": [], "players": []}', "the key 'players' appears twice in one object"),
        ('{"rounds": [{"tables": [{"table": 1' + "0" * 5000 + "}]}]}", "a number with 5001 digits"),
    ],
)
def test_schedule_file_shapes_are_worded_for_json(tmp_path, text, words):
    day = tmp_path / "day.json"
    day.write_text(text, encoding="utf-8")
    err = refused("check", day, words=words)
    assert "dictionary or instance" not in err and "set_int_max_str_digits" not in err


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_time_limit_that_is_not_a_number_is_refused(tmp_path, constant):
    day = write_day(tmp_path / "day.json")
    text = day.read_text(encoding="utf-8").rstrip().removesuffix("}")
    day.write_text(
        text + f', "provenance": {{"tool_version": "x", "method": "fixed", "time_limit": {constant}, '
        '"created": "2026-01-01T00:00:00+00:00"}}',
        encoding="utf-8",
    )
    refused("check", day, words=f"{constant.lstrip('-')} is not a number in JSON")
    with pytest.raises(ValueError, match="finite number"):
        Provenance(tool_version="x", method="fixed", time_limit=float(constant.lower()), created="now")


def test_a_title_that_is_not_text_is_refused_before_any_work(tmp_path):
    day = write_day(tmp_path / "day.json", players=8, rounds=2)
    refused("print", day, "--html", tmp_path / "p.html", "--title", "Spring \udcff Open", words="--title:")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["day.json"]


def test_adding_back_a_player_who_left_says_they_left(tmp_path):
    day, after = write_day(tmp_path / "day.json", players=17, rounds=4), tmp_path / "after.json"
    status, _, err = invoke("replan", day, "--played", 1, "--drop", "P03", "--time-limit", 1, "--json", after)
    assert status == 0, err
    refused("replan", after, "--played", 2, "--add", "p03", words="'P03' left the day (missing round 2 on)")


@pytest.mark.parametrize("text", ["1--2", "2-x", "-3", "1-2-3", "1,2"])
def test_print_rounds_that_are_not_a_range_say_so(tmp_path, text):
    day = write_day(tmp_path / "day.json", players=8, rounds=4)
    refused("print", day, "--html", tmp_path / "p.html", "--rounds", text, words="expected a round, a range like 4-8")


def test_print_rounds_to_the_end(tmp_path):
    day = write_day(tmp_path / "day.json", players=8, rounds=4)
    schedule = read_schedule(str(day))
    assert parse_rounds("2-", schedule) == (2, 4) and parse_rounds("3", schedule) == (3, 3)
    pages = {}
    for text in ("2-", "2-4", "2"):
        status, out, err = invoke("print", day, "--html", tmp_path / "p.html", "--only", "walls", "--rounds", text)
        assert status == 0, err
        pages[text] = out
    assert pages["2-"] == pages["2-4"] != pages["2"]


@pytest.mark.subprocess
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_bad_input_with_stderr_on_a_full_disk_still_exits_2():
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run(
            [sys.executable, "-m", "rotation", "fixed", "--players", "2", "--rounds", "1"], stderr=full
        )
    assert done.returncode == 2


@pytest.mark.subprocess
def test_a_closed_stdout_is_said_and_keeps_the_files(tmp_path):
    out = tmp_path / "O.json"
    command = f"exec {sys.executable} -m rotation fixed --players 16 --rounds 2 --json {out} >&-"
    done = subprocess.run(["sh", "-c", command], stderr=subprocess.PIPE, text=True)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"wrote {out}",
        "rotation: error: the report could not be printed: standard output is closed",
    ]
    assert Schedule.model_validate_json(out.read_text(encoding="utf-8"))
