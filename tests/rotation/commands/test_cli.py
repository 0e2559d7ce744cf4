import json
import subprocess
import sys

import pytest

from models import Schedule
from rotation.commands.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_fixed_prints_seating_and_metrics(capsys):
    status, out, _ = run(capsys, "fixed", "--players", "16", "--rounds", "4")
    assert status == 0
    assert "Round 4" in out and "Table   4  A" in out and "Repeats: 20 (meetings of a pair after its first)" in out


def test_fixed_writes_json_and_csv(capsys, tmp_path):
    names = tmp_path / "names.txt"
    names.write_text("\ufeffAnn\nBo\nCy\nDee\n\nEd\nFlo\nGus\n", encoding="utf-8")  # as a spreadsheet saves it
    status, _, _ = run(
        capsys,
        "fixed",
        "--names",
        str(names),
        "--rounds",
        "3",
        "--json",
        str(tmp_path / "s.json"),
        "--csv",
        str(tmp_path / "s.csv"),
    )
    assert status == 0
    schedule = Schedule.model_validate_json((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert schedule.players[:2] == ("Ann", "Bo") and len(schedule.rounds) == 3
    assert not (tmp_path / "s.csv").read_bytes().startswith(b"\xef\xbb\xbf")  # a mark only with --excel
    rows = (tmp_path / "s.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("player,round 1 table,round 1 seat,round 1 note,round 2 table")
    assert rows[1].startswith("Ann,1,A,,")
    assert len(rows) == 1 + 7


def test_sit_out_rounds_are_marked_with_their_scoring(capsys):
    status, out, _ = run(
        capsys, "fixed", "--players", "9", "--rounds", "2", "--odd", "sit-out", "--sit-out-scoring", "average"
    )
    assert status == 0 and "Sitting out (scores average): P9" in out


def test_check_reports_a_valid_file(capsys, tmp_path):
    path = tmp_path / "s.json"
    run(capsys, "fixed", "--players", "12", "--rounds", "2", "--json", str(path))
    status, out, _ = run(capsys, "check", str(path))
    assert status == 0 and "valid, 12 players, 2 rounds" in out


def test_schema_describes_the_schedule_file(capsys):
    status, out, _ = run(capsys, "schema")
    schema = json.loads(out)
    assert status == 0 and {"players", "rounds"} <= set(schema["properties"])


def broken_schedule(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(
        '{"players": ["A","B","C","D"], "rounds": [{"tables": [{"table": 1, "players": ["A","B","C","A"]}]}]}',
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    "argv, words",
    [
        (["fixed", "--players", "3", "--rounds", "2"], "at least 4 players"),
        (["fixed", "--players", "8", "--rounds", "0"], "--rounds"),
        (["fixed", "--players", "5", "--rounds", "2"], "sit-out"),
        (["fixed", "--rounds", "2"], "--players N or --names FILE"),
        (["fixed", "--names", "NAMES_DUP", "--rounds", "2"], "appears twice"),
        (["fixed", "--names", "NAMES_EMPTY", "--rounds", "2"], "is empty"),
        (["fixed", "--names", "missing.txt", "--rounds", "2"], "does not exist"),
        (["check", "NOT_JSON"], "Invalid JSON"),
        (["check", "BAD_SCHEDULE"], "placed more than once"),
        (["fixed", "--players", "8", "--rounds", "2", "--json", "no/such/dir/s.json"], "does not exist"),
    ],
)
def test_bad_input_is_one_line_and_status_two(capsys, tmp_path, argv, words):
    files = {
        "NAMES_DUP": ("dup.txt", "Ann\nBo\nAnn\nCy\nDee\n"),
        "NAMES_EMPTY": ("empty.txt", "\n \n"),
        "NOT_JSON": ("x.json", "{not json"),
    }
    for i, arg in enumerate(argv):
        if arg in files:
            name, text = files[arg]
            (tmp_path / name).write_text(text, encoding="utf-8")
            argv[i] = str(tmp_path / name)
        elif arg == "BAD_SCHEDULE":
            argv[i] = str(broken_schedule(tmp_path))
        elif arg == "missing.txt":
            argv[i] = str(tmp_path / arg)
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert words in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.subprocess
def test_console_script_exit_status_without_traceback(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "rotation.commands.cli", "fixed", "--players", "2", "--rounds", "1"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("rotation: error:") and "Traceback" not in done.stderr


def test_failed_run_leaves_no_output_file(capsys, tmp_path):
    target = tmp_path / "out.json"
    status, _, _ = run(capsys, "fixed", "--players", "5", "--rounds", "2", "--json", str(target))
    assert status == 2 and not target.exists() and list(tmp_path.iterdir()) == []


def test_compare_prints_a_row_per_room_and_tests_the_guide(capsys):
    status, out, _ = run(
        capsys, "compare", "--players", "12-20/4", "--rounds", "5", "--time-limit", "2", "--workers", "1"
    )  # one worker counting work: each verdict the same on any load
    rows = [line.split() for line in out.splitlines()[1:4]]
    assert status == 0
    assert [(r[0], r[6]) for r in rows] == [("12", "impossible"), ("16", "exists"), ("20", "exists")]
    assert "it also exists for 20 players" in out


def test_exists_writes_its_certificate(capsys, tmp_path):
    path = tmp_path / "certificate.json"
    status, out, _ = run(capsys, "exists", "--players", "28", "--rounds", "9", "--json", str(path))
    assert status == 0 and "exists" in out
    assert len(Schedule.model_validate_json(path.read_text(encoding="utf-8")).rounds) == 9


def test_an_odd_room_optimum_names_the_fair_turns_it_assumes(capsys):
    # The fixed rule has no repeat in 17 x 4 (it never gives seat D a table of three); fair turns force 6.
    status, out, _ = run(capsys, "plan", "--players", "17", "--rounds", "4", "--time-limit", "10", "--quiet")
    assert status == 0 and "the fixed rule: 0 repeats" in out and "Lower bound: 6 repeats" in out
    assert "no schedule of this room that takes three-handed tables in turn has fewer repeats" in out


CLUBS = (
    'Name,Club,Rating\nZoë Weiß,Hadassah,3\n"Katz, Ann",Hadassah,1\nBo,Kings,\nCy,kings,\nDee,,\nEd,,\nFlo,,\nGus,,\n'
)


def test_a_names_table_gives_its_clubs_to_the_spread(capsys, tmp_path):
    names = tmp_path / "names.csv"
    names.write_text(CLUBS, encoding="utf-8")
    day = tmp_path / "day.json"
    status, out, err = run(
        capsys, "plan", "--names", str(names), "--rounds", "3", "--time-limit", "2", "--json", str(day)
    )
    assert status == 0, err
    assert f"rotation: names file {str(names)!r}: ignored column 'Rating': only 'name', 'club' and 'id' are read" in err
    schedule = Schedule.model_validate_json(day.read_text(encoding="utf-8"))
    assert schedule.players == ("Zoë Weiß", "Katz, Ann", "Bo", "Cy", "Dee", "Ed", "Flo", "Gus")
    assert schedule.spread == (("Zoë Weiß", "Katz, Ann"), ("Bo", "Cy"))  # the groups --spread would give
    assert "Club-mates sharing a table" in out


@pytest.mark.parametrize("separator", [";", "\t"])
def test_semicolon_and_tab_tables_are_read(capsys, tmp_path, separator):
    names = tmp_path / "names.txt"
    rows = [["name", "club"], ["Ann", "A"], ["Bo; Bea", "A"], ["Cy", "B"], ["Dee", ""]]
    names.write_text(
        "\r\n".join(separator.join(f'"{c}"' if separator in c else c for c in r) for r in rows), encoding="utf-8"
    )
    day = tmp_path / "day.json"
    assert run(capsys, "fixed", "--names", str(names), "--rounds", "2", "--json", str(day))[0] == 0
    schedule = Schedule.model_validate_json(day.read_text(encoding="utf-8"))
    assert schedule.players == ("Ann", "Bo; Bea", "Cy", "Dee")


def test_a_utf16_table_as_excel_saves_unicode_text_is_read(capsys, tmp_path):
    names = tmp_path / "names.txt"
    names.write_text("Name\tClub\r\nZoë\tA\r\nBo\tA\r\nCy\t\r\nDee\t\r\n", encoding="utf-16")
    day = tmp_path / "day.json"
    assert run(capsys, "fixed", "--names", str(names), "--rounds", "2", "--json", str(day))[0] == 0
    assert Schedule.model_validate_json(day.read_text(encoding="utf-8")).players == ("Zoë", "Bo", "Cy", "Dee")


@pytest.mark.parametrize(
    "text, words",
    [
        (
            "Ann Katz,Hadassah\nBo,Kings\nCy,Kings\nDee,Kings\n",
            "line 1: 'Ann Katz,Hadassah' is split by a comma; for a table, start with a line naming the columns, "
            "one of them 'name' (e.g. name,club); a name with a comma goes in double quotes",
        ),
        (
            "name,club\nAnn,A\nKatz, Bo,A\n",
            "line 3: 3 fields but the header names 2 columns; a name or club with a comma in it goes in double quotes",
        ),
    ],
)
def test_a_names_file_split_without_a_header_is_refused_with_a_hint(capsys, tmp_path, text, words):
    names = tmp_path / "names.txt"
    names.write_text(text, encoding="utf-8")
    status, out, err = run(capsys, "plan", "--names", str(names), "--rounds", "2", "--json", str(tmp_path / "d.json"))
    assert status == 2 and out == "" and err == f"rotation: error: names file {str(names)!r}, {words}\n"
    assert not (tmp_path / "d.json").exists()


def test_clubs_come_from_the_names_table_or_spread_not_both(capsys, tmp_path):
    names, spread = tmp_path / "names.csv", tmp_path / "spread.txt"
    names.write_text(CLUBS, encoding="utf-8")
    spread.write_text("Bo, Cy\n", encoding="utf-8")
    status, _, err = run(capsys, "plan", "--names", str(names), "--rounds", "2", "--spread", str(spread))
    assert status == 2 and "has a club column: give the clubs there or with --spread, not both" in err


def test_a_request_in_another_spelling_of_a_name_gets_did_you_mean(capsys, tmp_path):
    names, apart = tmp_path / "names.csv", tmp_path / "apart.txt"
    names.write_text(CLUBS, encoding="utf-8")
    apart.write_text("Bo, Cy\nZoe Weiss, Dee\n", encoding="utf-8")
    status, _, err = run(capsys, "plan", "--names", str(names), "--rounds", "2", "--apart", str(apart))
    assert status == 2
    assert err == (
        f"rotation: error: apart file {str(apart)!r}, line 2: apart Zoe Weiss, Dee: 'Zoe Weiss' is not a player; "
        "did you mean 'Zoë Weiß'?\n"
    )
