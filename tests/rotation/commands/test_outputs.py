"""Issue 30: a set of outputs is written all or nothing, never loses an earlier file, and holds no
spreadsheet formula."""

import csv
import errno
import io
import os
import signal
import stat

import pytest
from test_faults import invoke, refused, write_day

import optimizer
from models import Event, Schedule
from rotation.files.output import schedule_csv, schedule_csv_long, spreadsheet_cell


def earlier_set(tmp_path):
    """An earlier day's outputs: the files a failed run must leave as they were."""
    files = {tmp_path / "d.json": '{"OLD": 1}\n', tmp_path / "d.csv": "old,csv\n", tmp_path / "d.tsv": "old,long\n"}
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
    return files


def fixed_with(*paths):
    json_path, csv_path, long_path = paths
    return ("fixed", "--players", 16, "--rounds", 3, "--json", json_path, "--csv", csv_path, "--csv-long", long_path)


def failing_call(monkeypatch, function: str, fail_on: set[int]):
    """os.<function> failing as on a folder ("Is a directory") on the given calls (counted from 1)."""
    real, calls = getattr(os, function), []

    def flaky(*args, **kwargs):
        calls.append(args)
        if len(calls) in fail_on:
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        return real(*args, **kwargs)

    monkeypatch.setattr(os, function, flaky)
    return calls


def test_a_failed_rename_puts_the_earlier_files_back(tmp_path, monkeypatch):
    # The audit's case: the second rename fails (d.csv turned into a folder), after d.json was replaced.
    files = earlier_set(tmp_path)
    failing_call(monkeypatch, "replace", {2})
    err = refused(*fixed_with(*files), words="cannot write")
    assert f"{str(tmp_path / 'd.csv')!r}: Is a directory; no output written, earlier files kept" in err
    assert {path: path.read_text(encoding="utf-8") for path in files} == files
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "d.json", "d.tsv"]  # nothing left over


def test_a_new_set_that_fails_leaves_no_file(tmp_path, monkeypatch):
    failing_call(monkeypatch, "replace", {3})
    err = refused(*fixed_with(tmp_path / "a.json", tmp_path / "a.csv", tmp_path / "a.tsv"), words="cannot write")
    assert err.rstrip().endswith("no output written")
    assert list(tmp_path.iterdir()) == []


def test_a_file_that_cannot_be_put_back_is_named_with_its_earlier_version(tmp_path, monkeypatch):
    files = earlier_set(tmp_path)
    failing_call(monkeypatch, "replace", {2, 3})  # the second rename fails, then putting d.json back fails
    err = refused(*fixed_with(*files), words="cannot write")
    assert f"{str(tmp_path / 'd.json')!r} holds the new version, the earlier one is in " in err
    kept = [p for p in tmp_path.iterdir() if p.name.startswith(".rotation-")]
    assert [p.read_text(encoding="utf-8") for p in kept] == ['{"OLD": 1}\n'] and str(kept[0]) in err
    assert Schedule.model_validate_json((tmp_path / "d.json").read_text(encoding="utf-8"))  # the new one, whole
    assert (tmp_path / "d.csv").read_text(encoding="utf-8") == files[tmp_path / "d.csv"]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_a_stop_signal_while_writing_waits_for_the_whole_set(tmp_path, monkeypatch, stop, step):
    """The signal arrives between two steps (after the first file is staged, or after the first rename):
    the set is finished, every file new, no temporary left, and then the run stops."""
    files = earlier_set(tmp_path)
    real, calls = getattr(os, step), []

    def then_stop(*args):
        result = real(*args)
        calls.append(args)
        if len(calls) == 1:
            os.kill(os.getpid(), stop)
        return result

    monkeypatch.setattr(os, step, then_stop)
    status, _, err = invoke(*fixed_with(*files))
    name = "Ctrl-C" if stop == signal.SIGINT else "SIGTERM"
    assert status == 128 + stop and err.splitlines()[-1] == f"rotation: stopped by {name}", err
    assert Schedule.model_validate_json((tmp_path / "d.json").read_text(encoding="utf-8"))
    assert (tmp_path / "d.csv").read_text(encoding="utf-8").startswith("player,") and "round,table" in (
        tmp_path / "d.tsv"
    ).read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "d.json", "d.tsv"]


def test_a_replaced_output_keeps_its_mode_and_its_link(tmp_path):
    private, real = tmp_path / "private.json", tmp_path / "real.csv"
    private.write_text("old", encoding="utf-8")
    private.chmod(0o600)
    real.write_text("old", encoding="utf-8")
    (tmp_path / "link.csv").symlink_to(real)
    status, _, err = invoke("fixed", "--players", 8, "--rounds", 2, "--json", private, "--csv", tmp_path / "link.csv")
    assert status == 0, err
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert (tmp_path / "link.csv").is_symlink() and real.read_text(encoding="utf-8").startswith("player,")


def test_a_read_only_output_is_refused_not_replaced(tmp_path):
    kept = tmp_path / "kept.json"
    kept.write_text("old", encoding="utf-8")
    kept.chmod(0o444)
    refused("fixed", "--players", 8, "--rounds", 2, "--json", kept, words="read-only")
    assert kept.read_text(encoding="utf-8") == "old"


def test_a_dash_is_not_taken_for_a_file_named_dash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused("fixed", "--players", 8, "--rounds", 2, "--json", "-", words="write ./- for a file named '-'")
    assert list(tmp_path.iterdir()) == []


# 2. Names a spreadsheet would run as a formula.

FORMULAS = ['=HYPERLINK("http://x","y")', "+SUM(1+1)", "-2+3", "@SUM(A1)", "\tTab", "\rReturn"]


@pytest.mark.parametrize("text", FORMULAS)
def test_every_formula_start_is_neutralised(text):
    assert spreadsheet_cell(text) == "'" + text


@pytest.mark.parametrize("cell", [-3, 0, 12, "Ann", "O'Neill", "Ann-Marie", ""])
def test_numbers_and_plain_names_are_left_as_they_are(cell):
    assert spreadsheet_cell(cell) == cell  # a negative number is a number, not a formula


def formula_day() -> Schedule:
    """Names starting with formula characters (a tab too: names read from files lose white space at the
    ends, a schedule built in the library may still hold it)."""
    event = Event.with_count(8, 2)
    schedule = optimizer.fixed_schedule(event)
    rename = dict(zip(event.players, FORMULAS[:5] + ["Ann", "Bo", "Cy"]))
    data = schedule.model_dump()
    data["players"] = [rename[p] for p in data["players"]]
    for round_ in data["rounds"]:
        for table in round_["tables"]:
            table["players"] = [rename[p] for p in table["players"]]
    return Schedule.model_validate(data)


@pytest.mark.parametrize("render", [schedule_csv, schedule_csv_long])
def test_formula_names_are_written_as_text(render):
    rows = list(csv.reader(io.StringIO(render(formula_day()), newline="")))
    column = 0 if render is schedule_csv else 3
    names = {row[column] for row in rows[1:]}
    assert {"'" + name for name in FORMULAS[:5]} <= names and {"Ann", "Bo"} <= names
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows for cell in row)
    if render is schedule_csv_long:  # numbers stay numbers: round and table are not quoted or marked
        assert all(row[0].isdigit() and row[1].isdigit() for row in rows[1:])


def test_formula_names_from_a_names_file_reach_the_excel_csv_as_text(tmp_path):
    names = tmp_path / "names.txt"
    formulas = ["=1+1", *FORMULAS[1:4]]  # a names file line is CSV: a name in quotes is quoted whole
    names.write_text("\n".join(formulas + ["Ann", "Bo", "Cy", "Dee"]) + "\n", encoding="utf-8")
    out = tmp_path / "day.csv"
    status, _, err = invoke("fixed", "--names", names, "--rounds", 2, "--csv", out, "--excel")
    assert status == 0, err
    text = out.read_text(encoding="utf-8")
    assert text.startswith("\ufeffplayer,")
    players = [row[0] for row in csv.reader(io.StringIO(text.removeprefix("\ufeff")))][1:]
    assert players == ["'" + name for name in formulas] + ["Ann", "Bo", "Cy", "Dee"]


def test_a_name_added_in_a_replan_is_written_as_text(tmp_path):
    day = write_day(tmp_path / "day.json", players=16, rounds=4)
    out = tmp_path / "new.tsv"
    status, _, err = invoke(
        "replan", day, "--played", 2, "--drop", "P01", "--add", "=1+1", "--time-limit", 1, "--csv-long", out
    )
    assert status == 0, err
    assert "'=1+1" in {row[3] for row in csv.reader(out.open(newline="", encoding="utf-8"))}


@pytest.mark.parametrize("step, calls", [("fsync", 3), ("replace", 3), ("chmod", 3)])
def test_whichever_step_fails_the_set_is_all_old_or_all_new(tmp_path, monkeypatch, step, calls):
    """Every step of writing a set over earlier files, made to fail in turn: the earlier files are all
    as they were (and one line says so), no temporary or second name is left behind."""
    for failing in range(1, calls + 1):
        monkeypatch.undo()
        files = earlier_set(tmp_path)
        failing_call(monkeypatch, step, {failing})
        err = refused(*fixed_with(*files), words="no output written, earlier files kept")
        assert {path: path.read_text(encoding="utf-8") for path in files} == files, (step, failing, err)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "d.json", "d.tsv"], (step, failing)


def test_where_hard_links_are_refused_the_earlier_files_are_kept_aside_by_copy(tmp_path, monkeypatch):
    files = earlier_set(tmp_path)
    failing_call(monkeypatch, "link", {1, 2, 3})  # as on a file system without hard links
    failing_call(monkeypatch, "replace", {3})  # and the last rename fails: the copies are put back
    refused(*fixed_with(*files), words="no output written, earlier files kept")
    assert {path: path.read_text(encoding="utf-8") for path in files} == files
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "d.json", "d.tsv"]
