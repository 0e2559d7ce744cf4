"""`rotation scores`: the empty sheet, a filled sheet read as spreadsheets save it, and bad sheets."""

import csv
import io
import json

import pytest

from models import Schedule
from rotation.commands.cli import main


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def room(tmp_path, capsys):
    """18 players over 3 rounds, two sitting out a round, scored by the round's average; two names a
    spreadsheet would run as formulas."""
    names = tmp_path / "names.txt"
    names.write_text("\n".join(["=Bob", "-Ann", "Zoë"] + [f"P{i:02d}" for i in range(4, 19)]) + "\n", encoding="utf-8")
    day = tmp_path / "day.json"
    status, _, _ = run(
        capsys,
        "fixed",
        "--names",
        names,
        "--rounds",
        3,
        "--odd",
        "sit-out",
        "--sit-out-scoring",
        "average",
        "--json",
        day,
    )
    assert status == 0
    return day


def filled(template: str, points) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(template)))
    return [rows[0]] + [row[:5] + [str(points(i, row))] for i, row in enumerate(rows[1:])]


def as_spreadsheet_saves(rows: list[list[str]]) -> bytes:
    """Semicolons, CRLF and a byte-order mark, as Excel saves 'CSV UTF-8' in a comma-decimal locale."""
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=";", lineterminator="\r\n").writerows(rows)
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def expected_totals(schedule: Schedule, rows: list[list[str]]) -> dict[str, int]:
    """Totals computed here from the sheet itself: played rounds summed, sit-outs at the round's mean
    total of its players, rounded half away from zero."""
    totals: dict[str, int] = {}
    for number, round_ in enumerate(schedule.rounds, start=1):
        played: dict[str, int] = {}
        for row in rows[1:]:
            if int(row[0]) == number:
                name = row[4][1:] if row[4].startswith("'") else row[4]
                played[name] = played.get(name, 0) + int(row[5])
        mean = sum(played.values()) / len(played)
        average = int(abs(mean) + 0.5) * (1 if mean >= 0 else -1)
        for name in schedule.players:
            totals[name] = totals.get(name, 0) + (average if name in round_.sit_outs else played[name])
    return totals


def test_the_template_round_trip(room, tmp_path, capsys):
    sheet = tmp_path / "sheet.csv"
    status, out, _ = run(capsys, "scores", room, "--template", sheet, "--form", "points")
    assert status == 0 and "empty score sheet" in out
    template = sheet.read_text(encoding="utf-8")
    schedule = Schedule.model_validate_json(room.read_text(encoding="utf-8"))
    seated = sum(len(t.players) for r in schedule.rounds for t in r.tables)
    lines = list(csv.reader(io.StringIO(template)))
    assert lines[0] == ["round", "table", "game", "seat", "player", "points"] and len(lines) == 1 + 4 * seated
    assert ["1", "1", "1", "A", "'=Bob", ""] == lines[1] and lines[2][4] == "'-Ann"  # text, not a formula
    rows = filled(template, lambda i, row: (i * 37) % 61 - 30)
    sheet.write_bytes(as_spreadsheet_saves(rows))
    out_json, out_csv = tmp_path / "standings.json", tmp_path / "standings.csv"
    status, out, err = run(capsys, "scores", room, sheet, "--json", out_json, "--csv", out_csv)
    assert status == 0, err
    data = json.loads(out_json.read_text(encoding="utf-8"))
    got = {row["player"]: row["total"] for row in data["standings"]["rows"]}
    assert got == expected_totals(schedule, rows) and set(got) >= {"=Bob", "-Ann", "Zoë"}
    assert data["standings"]["after"] == 3
    totals = [row["total"] for row in data["standings"]["rows"]]
    assert totals == sorted(totals, reverse=True)
    table = list(csv.DictReader(io.StringIO(out_csv.read_text(encoding="utf-8"))))
    bob = next(row for row in table if row["player"] == "'=Bob")  # neutralised again on the way out
    assert int(bob["total"]) == got["=Bob"] and bob["rank"].isdigit()
    for row in table:
        level = [other for other in table if other["rank"] == row["rank"]]
        assert (row["shared"] == "yes") == (len(level) > 1)


def test_sat_out_rounds_are_marked_on_every_output(room, tmp_path, capsys):
    sheet = tmp_path / "sheet.csv"
    run(capsys, "scores", room, "--template", sheet, "--form", "points")
    sheet.write_bytes(as_spreadsheet_saves(filled(sheet.read_text(encoding="utf-8"), lambda i, row: i % 9 - 4)))
    paths = {what: tmp_path / f"standings.{what}" for what in ("csv", "json", "html")}
    status, out, _ = run(capsys, "scores", room, sheet, *[x for w, p in paths.items() for x in (f"--{w}", p)])
    assert status == 0
    footnote = "* sat out: the round scores the round's average"
    sat_out = Schedule.model_validate_json(room.read_text(encoding="utf-8")).rounds[0].sit_outs[0]
    line = next(line for line in out.splitlines() if f" {sat_out} " in line)
    assert "*" in line.split()[5] and footnote in out  # round 1's cell carries the sign
    assert "* sits out - scores the round's average" in paths["csv"].read_text(encoding="utf-8")
    assert any(note.startswith(footnote) for note in json.loads(paths["json"].read_text(encoding="utf-8"))["footnotes"])
    assert footnote in paths["html"].read_text(encoding="utf-8").replace("&#39;", "'")


def test_a_line_entered_twice_is_a_correction(room, tmp_path, capsys):
    sheet = tmp_path / "sheet.csv"
    run(capsys, "scores", room, "--template", sheet, "--form", "points")
    rows = filled(sheet.read_text(encoding="utf-8"), lambda i, row: 1)
    first = rows[1]
    sheet.write_bytes(as_spreadsheet_saves(rows + [first[:5] + ["11"]]))
    out_json = tmp_path / "s.json"
    status, _, err = run(capsys, "scores", room, sheet, "--json", out_json)
    assert status == 0
    assert f"line {len(rows) + 1} corrects line 2 (round 1, table 1, game 1, =Bob: 1 -> 11)" in err
    totals = {r["player"]: r["total"] for r in json.loads(out_json.read_text(encoding="utf-8"))["standings"]["rows"]}
    assert (
        totals["=Bob"]
        == expected_totals(Schedule.model_validate_json(room.read_text(encoding="utf-8")), rows)["=Bob"] + 10
    )


def test_three_handed_rounds_are_shown(tmp_path, capsys):
    day, sheet = tmp_path / "day.json", tmp_path / "sheet.csv"
    run(capsys, "fixed", "--players", 7, "--rounds", 2, "--json", day)
    run(capsys, "scores", day, "--template", sheet, "--form", "points")
    sheet.write_text(
        "".join(",".join(r) + "\n" for r in filled(sheet.read_text(encoding="utf-8"), lambda i, row: 2)),
        encoding="utf-8",
    )
    status, out, _ = run(capsys, "scores", day, sheet)
    assert status == 0 and "8³" in out and "³ played at a table of three" in out


def test_standings_after_the_rounds_complete_and_a_note_for_the_rest(room, tmp_path, capsys):
    sheet = tmp_path / "sheet.csv"
    run(capsys, "scores", room, "--template", sheet, "--form", "points")
    rows = filled(sheet.read_text(encoding="utf-8"), lambda i, row: 3 if row[0] != "3" or row[1] == "1" else "")
    sheet.write_bytes(as_spreadsheet_saves(rows))
    status, out, err = run(capsys, "scores", room, sheet)
    assert status == 0 and out.startswith("Standings after round 2 of 3")
    assert "round 3: 1 of 4 tables' cards are in; not counted until every table's card is" in err
    status, _, err = run(capsys, "scores", room, sheet, "--after", 3)
    assert status == 2 and "round 3: no card yet for tables 2, 3, 4" in err


def replace_first(rows, column, value):
    return [rows[0], rows[1][:column] + [value] + rows[1][column + 1 :], *rows[2:]]


MALFORMED = {
    "not a number": (lambda rows: replace_first(rows, 5, "1O"), "line 2: round 1, table 1, game 1: '1O' is not"),
    "a name not at the table": (
        lambda rows: replace_first(rows, 4, "Zoe"),
        "line 2: round 1, table 1: 'Zoe' is not at this table (it seats =Bob, -Ann, Zoë and P04); did you mean 'Zoë'?",
    ),
    "a missing game": (
        lambda rows: [row for row in rows if row[:3] != ["2", "3", "4"] or row[3] != "B"],
        "round 2, table 3, game 4: no points entered for",
    ),
    "game 5": (lambda rows: replace_first(rows, 2, "5"), "line 2: game 5: a round has games 1 to 4"),
    "no header": (lambda rows: rows[1:], "line 1: the first line must name the columns round, table, game"),
    "a round that is not a number": (lambda rows: replace_first(rows, 0, "one"), "line 2: the round is 'one'"),
    "an unclosed quote": (lambda rows: replace_first(rows, 4, '"=Bob'), "a double quote is not closed"),
    "a table the round does not have": (lambda rows: replace_first(rows, 1, "9"), "round 1, table 9: there is no"),
}


@pytest.mark.parametrize("case", MALFORMED)
def test_a_malformed_sheet_is_one_line_exit_2_nothing_written(room, tmp_path, capsys, case):
    change, message = MALFORMED[case]
    sheet = tmp_path / "sheet.csv"
    run(capsys, "scores", room, "--template", sheet, "--form", "points")
    rows = filled(sheet.read_text(encoding="utf-8"), lambda i, row: i % 7 - 3)
    rows = [[cell[1:] if cell.startswith("'") else cell for cell in row] for row in rows]  # as typed by hand
    text = "".join(";".join(row) + "\n" for row in change(rows))
    sheet.write_text(text.replace('"=Bob;', '"=Bob;;'), encoding="utf-8")
    outputs = [tmp_path / name for name in ("s.csv", "s.json", "s.html")]
    status, out, err = run(
        capsys, "scores", room, sheet, "--csv", outputs[0], "--json", outputs[1], "--html", outputs[2]
    )
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("rotation: error: scores file") and message in err, err
    assert not any(path.exists() for path in outputs)
    assert "--" not in err.split(": ", 2)[2]


def test_the_sheet_or_the_template_not_both(room, tmp_path, capsys):
    status, _, err = run(capsys, "scores", room)
    assert status == 2 and "give the games file GAMES.csv, or --template FILE" in err
    status, _, err = run(capsys, "scores", room, room, "--template", tmp_path / "t.csv")
    assert status == 2 and "--template writes the empty sheet only" in err
    assert not (tmp_path / "t.csv").exists()
    status, _, err = run(capsys, "scores", room, tmp_path / "missing.csv")
    assert status == 2 and "scores file" in err and "does not exist" in err


def test_the_printable_page_escapes_names(tmp_path, capsys):
    names, day, sheet, page = (tmp_path / n for n in ("names.txt", "day.json", "sheet.csv", "s.html"))
    names.write_text("<b>Bo</b>\nAnn\nCy\nDee\n", encoding="utf-8")
    run(capsys, "fixed", "--names", names, "--rounds", 1, "--json", day)
    run(capsys, "scores", day, "--template", sheet, "--form", "points")
    sheet.write_text(
        "".join(",".join(r) + "\n" for r in filled(sheet.read_text(encoding="utf-8"), lambda i, row: i)),
        encoding="utf-8",
    )
    status, _, _ = run(capsys, "scores", day, sheet, "--html", page, "--title", "Spring Open")
    html = page.read_text(encoding="utf-8")
    assert status == 0 and "<b>Bo" not in html and "&lt;b&gt;Bo&lt;/b&gt;" in html and "Spring Open" in html
    assert "Final standings after 1 round<" in html


def saved(rows, delimiter, quoting, start, encoding):
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n", quoting=quoting).writerows(rows)
    return (start + buffer.getvalue()).encode(encoding)


SAVED_AS = {
    "Excel's sep= line, every field quoted": (";", csv.QUOTE_ALL, "\ufeffsep=;\r\n", "utf-8"),
    "Unicode Text (UTF-16, tabs)": ("\t", csv.QUOTE_MINIMAL, "", "utf-16"),
    "plain commas": (",", csv.QUOTE_MINIMAL, "", "utf-8"),
}


@pytest.mark.parametrize("how", SAVED_AS)
def test_the_sheet_is_read_as_spreadsheets_save_it(room, tmp_path, capsys, how):
    sheet = tmp_path / "sheet.csv"
    run(capsys, "scores", room, "--template", sheet, "--form", "points")
    rows = filled(sheet.read_text(encoding="utf-8"), lambda i, row: (i * 11) % 29 - 9)
    sheet.write_bytes(saved(rows, *SAVED_AS[how]))
    out_json = tmp_path / "s.json"
    status, _, err = run(capsys, "scores", room, sheet, "--json", out_json)
    assert status == 0, err
    got = {row["player"]: row["total"] for row in json.loads(out_json.read_text(encoding="utf-8"))["standings"]["rows"]}
    assert got == expected_totals(Schedule.model_validate_json(room.read_text(encoding="utf-8")), rows)
