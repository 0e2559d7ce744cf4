"""`rotation scores` with a games file: the empty form, a filled one read as spreadsheets save it, the
event's rules from a file, the per-game CSV read back, and refusals naming the line and the box."""

import csv
import io
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_scores_cli import as_spreadsheet_saves, room, run  # noqa: F401  (room is a fixture)

from models import Schedule
from models.games import GAME_COLUMNS
from models.rules import Rules

# Every table plays the same four games (hand-computed, default rules):
#   1 A self-picks 30 jokerless: A 30 + 10 + 20 = 60
#   2 B wins 25 on C's discard, B has 2 exposures: B 25, C -20
#   3 wall game, D's hand dead: A, B, C +10, D 0
#   4 unfinished: 0 each
GAMES = {
    1: {"winner": "A", "value": "30", "how": "self", "jokerless": "yes"},
    2: {"winner": "b", "value": "25", "how": "Discard", "discarder": "C", "exposures": "2"},
    3: {"how": "wall", "dead": "D"},
    4: {"how": "unfinished"},
}
SEAT_TOTALS = {"A": 70, "B": 35, "C": -10, "D": 0}


def filled(template: str, games=GAMES) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(template)))
    return [rows[0]] + [
        [*row[:3], *(games[int(row[2])].get(column, "") for column in GAME_COLUMNS[3:])] for row in rows[1:]
    ]


def expected(schedule: Schedule) -> dict[str, int]:
    """Seat totals per round; a sit-out scores the round's mean total, halves away from zero."""
    totals = dict.fromkeys(schedule.players, 0)
    for round_ in schedule.rounds:
        played = {name: SEAT_TOTALS["ABCD"[seat]] for t in round_.tables for seat, name in enumerate(t.players)}
        mean = sum(played.values()) / len(played)
        for name in schedule.players:
            totals[name] += played[name] if name in played else int(abs(mean) + 0.5) * (1 if mean >= 0 else -1)
    return totals


def test_the_games_file_round_trip(room, tmp_path, capsys):  # noqa: F811
    form = tmp_path / "games.csv"
    status, out, _ = run(capsys, "scores", room, "--template", form)
    assert status == 0 and "empty games file" in out
    template = form.read_text(encoding="utf-8")
    schedule = Schedule.model_validate_json(room.read_text(encoding="utf-8"))
    lines = list(csv.reader(io.StringIO(template)))
    assert lines[0] == list(GAME_COLUMNS)
    tables = sum(len(r.tables) for r in schedule.rounds)
    assert len(lines) == 1 + tables * 4 and all(line[3:] == [""] * 8 for line in lines[1:])
    form.write_bytes(as_spreadsheet_saves(filled(template)))
    paths = {what: tmp_path / f"out.{what}" for what in ("json", "csv")}
    per_game = tmp_path / "per-game.csv"
    status, out, err = run(
        capsys, "scores", room, form, "--json", paths["json"], "--games-csv", per_game, "--csv", paths["csv"]
    )
    assert status == 0, err
    data = json.loads(paths["json"].read_text(encoding="utf-8"))
    totals = {row["player"]: row["total"] for row in data["standings"]["rows"]}
    assert totals == expected(schedule)
    # Games won are the winners entered: A game 1, B game 2, at every table (sat-out rounds win nothing).
    won = {row["player"]: row["games_won"] for row in data["standings"]["rows"]}
    seats = [(name, "ABCD"[s]) for r in schedule.rounds for t in r.tables for s, name in enumerate(t.players)]
    assert won == {name: sum(1 for n, seat in seats if n == name and seat in "AB") for name in schedule.players}
    # The per-game CSV is every game as entered, with each seat's player and points; it reads back the same.
    rows = list(csv.DictReader(io.StringIO(per_game.read_text(encoding="utf-8"))))
    assert len(rows) == tables * 4
    first = rows[0]
    assert (first["how"], first["winner"], first["jokerless"], first["points A"]) == ("self", "A", "yes", "60")
    again = tmp_path / "again.json"
    status, _, err = run(capsys, "scores", room, per_game, "--json", again)
    assert status == 0, err
    assert json.loads(again.read_text(encoding="utf-8"))["standings"] == data["standings"]


def test_the_rules_file_changes_the_points(room, tmp_path, capsys):  # noqa: F811
    form = tmp_path / "games.csv"
    run(capsys, "scores", room, "--template", form)
    form.write_text(csv_text(filled(form.read_text(encoding="utf-8"))), encoding="utf-8")
    rules = tmp_path / "rules.toml"
    rules.write_text(
        "discarder_2_exposures = 30\nwall_game = 0\nties = 'games won, then best game'\n", encoding="utf-8"
    )
    out_json = tmp_path / "out.json"
    status, _, err = run(capsys, "scores", room, form, "--rules", rules, "--json", out_json)
    assert status == 0, err
    standings = json.loads(out_json.read_text(encoding="utf-8"))["standings"]
    schedule = Schedule.model_validate_json(room.read_text(encoding="utf-8"))
    first_round = {row["player"]: row["rounds"][0]["points"] for row in standings["rows"]}
    table = schedule.rounds[0].tables[0].players
    # C loses 30 not 20; nobody gets the wall game's 10: A 60, B 25, C -30, D 0.
    assert [first_round[name] for name in table] == [60, 25, -30, 0]
    assert standings["ties"] == "games won, then best game"


def test_bad_rules_files_are_one_line(room, tmp_path, capsys):  # noqa: F811
    rules = tmp_path / "rules.json"
    for text, message in (
        ('{"self_pick": -5}', "self_pick: Input should be greater than or equal to 0"),
        ('{"selfpick": 5}', "selfpick: Extra inputs are not permitted"),
        ("[1, 2]", "not the rules' names and values"),
        ("self_pick = ", "not valid TOML: Invalid value"),
        ('{"self_pick": 5, "self_pick": 6}', "not valid JSON: the key 'self_pick' appears twice in one object"),
        ('{"self_pick": NaN}', "not valid JSON: NaN is not a number in JSON"),
        ('{"self_pick": ' + "9" * 5000 + "}", "not valid JSON: a number with 5000 digits"),
        ("self_pick = " + "9" * 5000, "not valid TOML: a number with thousands of digits"),
        ("# " + "x" * 70_000, "is larger than 64 KB"),
    ):
        rules.write_text(text, encoding="utf-8")
        status, _, err = run(capsys, "scores", room, "--template", tmp_path / "t.csv", "--rules", rules)
        assert status == 2 and message in err and err.count("\n") == 1, err


def test_a_wrong_game_is_refused_naming_its_line_and_box(room, tmp_path, capsys):  # noqa: F811
    form = tmp_path / "games.csv"
    run(capsys, "scores", room, "--template", form)
    rows = filled(form.read_text(encoding="utf-8"))
    rows[3][GAME_COLUMNS.index("winner")] = "B"  # game 3 of the first table: a wall game with a winner
    form.write_text(csv_text(rows), encoding="utf-8")
    status, _, err = run(capsys, "scores", room, form)
    assert status == 2
    assert "line 4: round 1, table 1, game 3: winner: a wall game has no winner" in err, err
    rows = filled(form.read_text(encoding="utf-8"))
    rows[2][GAME_COLUMNS.index("value")] = "250"
    form.write_text(csv_text(rows), encoding="utf-8")
    status, _, err = run(capsys, "scores", room, form)
    assert status == 2 and "line 3: round 1, table 1, game 2: value: 250 is not a hand value" in err, err


def test_a_plain_card_with_two_winners_points_is_noted(room, tmp_path, capsys):  # noqa: F811
    sheet = tmp_path / "sheet.csv"
    run(capsys, "scores", room, "--template", sheet, "--form", "points")
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8"))))
    for row in rows[1:]:
        row[5] = "0"
    rows[1][5], rows[2][5] = "25", "250"  # round 1, table 1, game 1: seats A and B, a slipped zero
    sheet.write_text(csv_text(rows), encoding="utf-8")
    status, _, err = run(capsys, "scores", room, sheet)
    assert status == 0
    assert "round 1, table 1, game 1: " in err and "each have a winner's points (25 or more)" in err, err


def csv_text(rows) -> str:
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue()


def test_the_scoring_pages_examples_score_as_it_says(tmp_path, capsys):
    """The Scoring page's games and rules file, read by the command as a director would copy them."""
    section = (Path(__file__).resolve().parents[3] / "docs" / "scoring.md").read_text(encoding="utf-8")
    blocks = [block for block in section.split("\n\n") if block.startswith("    ")]
    games, rules = ("\n".join(line[4:] for line in block.splitlines()) + "\n" for block in blocks[:2])
    day = tmp_path / "day.json"
    assert run(capsys, "fixed", "--players", 4, "--rounds", 1, "--json", day)[0] == 0
    (tmp_path / "games.csv").write_text(games, encoding="utf-8")
    (tmp_path / "rules.toml").write_text(rules, encoding="utf-8")
    out = tmp_path / "out.json"
    status, _, err = run(capsys, "scores", day, tmp_path / "games.csv", "--json", out)
    assert status == 0, err
    totals = [row["total"] for row in json.loads(out.read_text(encoding="utf-8"))["standings"]["rows"]]
    assert totals == [70, 35, 0, -15]
    status, _, err = run(
        capsys, "scores", day, tmp_path / "games.csv", "--json", out, "--rules", tmp_path / "rules.toml"
    )
    assert status == 0, err
    assert [row["total"] for row in json.loads(out.read_text(encoding="utf-8"))["standings"]["rows"]][-1] == -20


def test_member_numbers_from_the_names_file_reach_every_export(tmp_path, capsys):
    names = tmp_path / "names.csv"
    rows = [("Ann", "M-001", "Red"), ("Bo", "M-002", ""), ("Cy", "", "Red"), ("Di", "M-004", "")]
    names.write_text("name;id;club\n" + "".join(f"{n};{i};{c}\n" for n, i, c in rows), encoding="utf-8")
    day, wide, long = tmp_path / "day.json", tmp_path / "wide.csv", tmp_path / "long.csv"
    status, _, err = run(
        capsys, "fixed", "--names", names, "--rounds", 1, "--json", day, "--csv", wide, "--csv-long", long
    )
    assert status == 0, err
    assert json.loads(day.read_text(encoding="utf-8"))["ids"] == {"Ann": "M-001", "Bo": "M-002", "Di": "M-004"}
    assert wide.read_text(encoding="utf-8").splitlines()[:2] == [
        "player,id,round 1 table,round 1 seat,round 1 note",
        "Ann,M-001,1,A,",
    ]
    assert long.read_text(encoding="utf-8").splitlines()[3] == "1,1,C,Cy,,,"
    games = tmp_path / "games.csv"
    games.write_text(
        "round,table,game,winner,value,how,discarder,exposures,jokerless,dead,error\n"
        "1,1,1,C,25,discard,A,0,,,\n1,1,2,,,wall,,,,,\n1,1,3,,,wall,,,,,\n1,1,4,C,40,self,,,,,\n",
        encoding="utf-8",
    )
    results, standings = tmp_path / "results.csv", tmp_path / "standings.csv"
    status, _, err = run(capsys, "scores", day, games, "--results", results, "--csv", standings)
    assert status == 0, err
    assert results.read_text(encoding="utf-8").splitlines() == [
        "place,id,name,total,games played,games won,shared",
        "1,,Cy,95,4,2,",  # 25 + 10 + 10 + 50
        "2,M-002,Bo,20,4,0,yes",
        "2,M-004,Di,20,4,0,yes",
        "4,M-001,Ann,10,4,0,",  # -10 + 10 + 10
    ]
    assert standings.read_text(encoding="utf-8").splitlines()[1].startswith("1,,Cy,,95,")


def test_a_member_number_given_twice_is_refused(tmp_path, capsys):
    names = tmp_path / "names.csv"
    names.write_text("name,id\nAnn,7\nBo,8\nCy,7\nDi,9\n", encoding="utf-8")
    status, _, err = run(capsys, "fixed", "--names", names, "--rounds", 1)
    assert status == 2 and "the id '7' is given to 'Ann' and 'Cy'" in err, err


def test_a_fixed_rule_chosen_is_printed_on_the_slips_with_the_events_winds(tmp_path, capsys):
    day, page = tmp_path / "day.json", tmp_path / "slips.html"
    status, out, err = run(capsys, "fixed", "--players", 16, "--rounds", 4, "--rule", "east-stays", "--json", day)
    assert status == 0, err
    assert json.loads(day.read_text(encoding="utf-8"))["rule"] == "fixed east-stays"
    assert "The MJMP rule (item 23) on the same room: 20 repeats." in out  # the baseline beside it
    status, _, err = run(capsys, "print", day, "--html", page, "--only", "slips", "--winds", "East,South,West,North")
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    assert html.count("After each round: A (East) stays, B (South) up 1 table, C (West) up 2, D (North) down 1") == 16
    assert "Seats: A East (starting dealer) · B South · C West · D North" in html
    status, _, err = run(capsys, "print", day, "--html", page, "--winds", "East,South")
    assert status == 2 and "--winds: give four names for seats A, B, C and D" in err
    status, _, err = run(capsys, "fixed", "--players", 16, "--rounds", 4, "--rule", "west-stays")
    assert status == 2 and "west-stays" in err


def test_the_printed_score_sheets_carry_the_events_rules(tmp_path, capsys):
    day, page, rules = tmp_path / "day.json", tmp_path / "sheets.html", tmp_path / "rules.toml"
    assert run(capsys, "fixed", "--players", 9, "--rounds", 2, "--json", day)[0] == 0
    rules.write_text('discarder_3_exposures = 30\nthree_handed = "Tables of three: no Charleston."\n', encoding="utf-8")
    status, out, err = run(capsys, "print", day, "--html", page, "--only", "sheets", "--rules", rules)
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    assert "4 pages to print" in out  # the rules page and three pages of score sheets
    assert html.count('<section class="page rule-sheet">') == 1 and "<p>Tables of three: no Charleston.</p>" in html
    assert "-10 when the winner has 0-1 exposures, -20 with 2, -30 with 3 or more" in html
    assert html.count("the discarder loses 10 (winner 0-1 exposures), 20 (2), 30 (3+)") == 6  # every table's sheet
    status, out, _ = run(capsys, "print", day, "--html", page, "--only", "sheets", "--form", "points")
    # Without the rules: no rules page, and points sheets without the line fit two pages (two tables a page more).
    assert "2 pages to print" in out and 'class="page rule-sheet"' not in page.read_text(encoding="utf-8")


def test_the_events_three_handed_and_sit_out_words_reach_every_part(tmp_path, capsys):
    from models.rules import THREE_HANDED_RULE

    day, page, rules = tmp_path / "day.json", tmp_path / "all.html", tmp_path / "rules.json"
    assert run(capsys, "fixed", "--players", 9, "--rounds", 2, "--json", day)[0] == 0  # two tables of three a round
    rules.write_text(
        json.dumps({"three_handed": "Tables of three: no Charleston.", "sit_out": "Out: 0."}), encoding="utf-8"
    )
    parts = "walls,lookup,slips,sheets"
    status, _, err = run(capsys, "print", day, "--html", page, "--only", parts, "--rules", rules)
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    assert THREE_HANDED_RULE not in html
    assert "Tables of three: no Charleston." in html.split('class="page rule-sheet"')[0]  # walls, lookup, slips
    assert html.count("Tables of three: no Charleston.") > 9


def test_games_files_too_long_or_with_numbers_too_long_are_refused_in_one_line(room, tmp_path, capsys):  # noqa: F811
    form = tmp_path / "games.csv"
    run(capsys, "scores", room, "--template", form)
    header, first, *_ = form.read_text(encoding="utf-8").splitlines()
    for lines, message in (
        ([header, "9" * 5000 + first[1:]], "line 2: the round is a number of 5000 digits"),
        ([header, "1,1,1,,,unfinished", "2,99,1,,,unfinished"], "line 3: round 2, table 99: there is no such table"),
        # a bad line 2 is found before the rest is read (an unclosed quote further down is not met)
        ([header, "77,1,1,,,unfinished", '"never closed', *["1,1,1,,,unfinished"] * 1000], "line 2: round 77"),
        ([header, *["1,1,1,,,unfinished"] * 100_000], "the sheet has 100001 lines, more than this day's tables"),
    ):
        form.write_text("\n".join(lines) + "\n", encoding="utf-8")
        status, _, err = run(capsys, "scores", room, form)
        assert status == 2 and message in err and err.count("\n") == 1, err


def test_a_score_sheets_points_of_thousands_of_digits_are_refused_in_one_line(room, tmp_path, capsys):  # noqa: F811
    sheet = tmp_path / "sheet.csv"
    run(capsys, "scores", room, "--template", sheet, "--form", "points")
    rows = list(csv.reader(io.StringIO(sheet.read_text(encoding="utf-8"))))
    rows[1][5] = "9" * 5000
    sheet.write_text(csv_text(rows), encoding="utf-8")
    status, _, err = run(capsys, "scores", room, sheet)
    assert status == 2 and "a number of 5000 digits is beyond the 1,000,000 points" in err and err.count("\n") == 1


NUMBERS = st.text("0123456789", min_size=19, max_size=6000).map(lambda digits: "9" + digits)  # past any int64
NUMBER_COLUMNS = ("round", "table", "game", "value", "exposures")
RULE_NUMBERS = [name for name, field in Rules.model_fields.items() if field.annotation is int]
FIXTURE_ONCE = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FIXTURE_ONCE
@given(column=st.sampled_from(NUMBER_COLUMNS), line=st.integers(1, 8), number=NUMBERS)
def test_a_number_of_any_length_in_any_box_of_a_games_file_is_one_line(room, tmp_path, capsys, column, line, number):  # noqa: F811
    """Whatever box of whatever line holds a number no day needs: exit 2 and one line naming it, no traceback."""
    form = tmp_path / "games.csv"
    run(capsys, "scores", room, "--template", form)
    rows = filled(form.read_text(encoding="utf-8"))
    rows[line][GAME_COLUMNS.index(column)] = number
    form.write_text(csv_text(rows), encoding="utf-8")
    status, out, err = run(capsys, "scores", room, form)
    assert status == 2 and err.startswith("rotation: error:") and err.count("\n") == 1, err
    assert f"line {line + 1}" in err and "Traceback" not in out + err


@FIXTURE_ONCE
@given(key=st.sampled_from(RULE_NUMBERS), number=NUMBERS, toml=st.booleans(), sign=st.sampled_from(["", "-"]))
def test_a_number_of_any_length_for_any_rule_is_one_line(room, tmp_path, capsys, key, number, toml, sign):  # noqa: F811
    """Every numeric rule, in JSON or TOML, given a number of 20 to 6,000 digits: exit 2 and one line."""
    rules = tmp_path / ("rules.toml" if toml else "rules.json")
    rules.write_text(f"{key} = {sign}{number}" if toml else f'{{"{key}": {sign}{number}}}', encoding="utf-8")
    status, out, err = run(capsys, "scores", room, "--template", tmp_path / "t.csv", "--rules", rules)
    assert status == 2 and err.startswith("rotation: error:") and err.count("\n") == 1, err
    assert "Traceback" not in out + err and not (tmp_path / "t.csv").exists()
