"""`rotation print` without a browser: what the page says, what it refuses, and that names stay text."""

import html
import re
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

import optimizer
from models import Event, OddPolicy, Round, SitOutScoring, Table
from rotation.commands.cli import cli
from rotation.files.output import schedule_json
from rotation.printing.lookup import lookup_pages
from rotation.printing.options import Options
from rotation.printing.pages import expected_pages
from rotation.printing.paper import PAGE_HEIGHT_MM, PAGE_WIDTH_MM, PT_MM
from rotation.printing.pictures import label
from rotation.printing.slips import slip_layout, slip_sheets
from rotation.printing.typeface import lines_needed
from rotation.printing.walls import wall_charts

pytestmark = pytest.mark.slow

HOSTILE = "<script>alert(1)</script>"
NINE = (
    "Zoë O'Brien",
    HOSTILE,
    "José María Fernández de la Peña y Ortega-Gasset",
    "Ann",
    "Bo",
    "Cy",
    "Dee",
    "Ed",
    "Flo",
)


def write(tmp_path, schedule, name="day.json"):
    path = tmp_path / name
    path.write_text(schedule_json(schedule), encoding="utf-8")
    return path


def run(*argv):
    return CliRunner().invoke(cli, ["print", *(str(a) for a in argv)])


def printed(tmp_path, schedule, *extra):
    result = run(write(tmp_path, schedule), "--html", tmp_path / "day.html", *extra)
    assert result.exit_code == 0, result.output
    return (tmp_path / "day.html").read_text(encoding="utf-8")


@pytest.fixture
def nine_sit_out():
    event = Event(players=NINE, rounds=3, odd=OddPolicy.SIT_OUT, sit_out_scoring=SitOutScoring.AVERAGE)
    return optimizer.fixed_schedule(event)


@pytest.fixture
def seven_three_handed():
    return optimizer.fixed_schedule(Event.with_count(7, 3))


def text_of(page: str) -> str:
    """What a reader sees: tags dropped, entities decoded, whitespace collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_every_round_player_and_sit_out_is_on_the_page(tmp_path, nine_sit_out):
    page = printed(tmp_path, nine_sit_out)
    seen = text_of(page)
    for number in (1, 2, 3):
        assert f'id="round-{number}"' in page
    assert page.count('class="page wall"') == 3
    for name in NINE:
        assert name in seen
    # Three rounds, one sit-out each: marked on its wall chart and on the player's slip.
    for round_ in nine_sit_out.rounds:
        (out,) = round_.sit_outs
        assert f"Sitting out: {out}." in seen
    # The rule under each round's sit-out, and on the slip of each player who sits out.
    assert seen.count("scores the round's average: the total of all scores") == 3 + 3
    assert seen.count("sits out - scores the round's average") == 3  # the slips' rows
    assert len(re.findall(r'class="slip[ "]', page)) == 9
    assert page.count('class="page slip-sheet"') == 2  # 6 slips to a sheet


def test_slips_give_table_and_seat_every_round(tmp_path, nine_sit_out):
    page = printed(tmp_path, nine_sit_out)
    slips = page.split('class="page slip-sheet"', 1)[1].split('class="page summary"')[0]
    seats = nine_sit_out.seat_of(0)
    table, letter = seats["Ann"]
    assert f"Ann Round Table Seat Games Total 1 2 3 4 1 {table} {letter} 2 " in text_of(slips)


def test_three_handed_tables_are_marked(tmp_path, seven_three_handed):
    page = printed(tmp_path, seven_three_handed)
    seen = text_of(page)
    assert page.count('class="table-card three"') == 3  # one table of three per round
    assert "sits out" not in seen
    for name in seven_three_handed.players:
        assert name in seen
    # The tag on each round's table of three; the rule under it and on the slips of its players.
    three = {name for r in seven_three_handed.rounds for t in r.tables if len(t.players) == 3 for name in t.players}
    assert seen.count("Shaded: three-handed table.") == len(three)
    assert seen.count("Three-handed table: seats A, B and C only") == 3 + len(three)


def test_zero_scoring_is_printed(tmp_path):
    schedule = optimizer.fixed_schedule(Event.with_count(9, 2, odd=OddPolicy.SIT_OUT))
    seen = text_of(printed(tmp_path, schedule))
    assert "Sitting out: P9." in seen and "A player who sits out a round scores zero" in seen


def test_hostile_names_stay_text(tmp_path, nine_sit_out):
    page = printed(tmp_path, nine_sit_out)
    assert HOSTILE not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script" not in page.lower()
    assert "Zoë O&#39;Brien" in page  # the apostrophe is escaped, the accent kept as UTF-8


def test_page_is_self_contained(tmp_path, nine_sit_out):
    page = printed(tmp_path, nine_sit_out)
    assert not re.search(r"""(src|href)\s*=\s*["'](?!data:)""", page)
    assert "@import" not in page and not re.search(r"url\((?!data:)", page)
    assert page.count("src: url(data:font/woff;base64,") == 2  # the font travels with the page, both weights
    assert page.count('<div class="picture ') in (1, 2)  # the repeats chart only when there are repeats
    assert '<meta name="viewport"' in page
    assert "@page" in page and "break-after: page" in page


def test_summary_compares_with_the_fixed_rule_and_the_bound(tmp_path, nine_sit_out):
    seen = text_of(printed(tmp_path, nine_sit_out))
    assert "Repeats of the fixed MJMP rule on the same room" in seen
    assert "lower bound" in seen  # why it holds, in plain words (the exact proof is the CLI report's)
    assert "No schedule can have fewer: with this many tables each later round must repeat some meetings." in seen


def test_re_planned_day_skips_the_comparison(tmp_path, nine_sit_out):
    stay = NINE[:8]
    last = Round(tables=(Table(table=1, players=stay[:4]), Table(table=2, players=stay[4:])), absent=(NINE[8],))
    day = nine_sit_out.model_copy(update={"rounds": nine_sit_out.rounds[:2] + (last,)})
    seen = text_of(printed(tmp_path, day))
    assert "No comparison" in seen and "fixed MJMP rule on the same room" not in seen
    assert "Not here this round: Flo" in seen


def test_svg_is_written(tmp_path, nine_sit_out):
    printed(tmp_path, nine_sit_out, "--svg", tmp_path / "summary.svg")
    picture = ElementTree.fromstring((tmp_path / "summary.svg").read_text(encoding="utf-8"))
    said = [t.text for t in picture.iter("{http://www.w3.org/2000/svg}text")]
    assert "Who meets whom" in said and any(t.startswith("Repeats per round") for t in said)
    named = [t.text for t in picture.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "tick y"]
    assert named[:9] == [label(n) for n in nine_sit_out.players]  # every name, as text (the hostile one too)


def test_a_room_of_thousands_gets_its_matrix_a_square_for_several_players(tmp_path):
    page = printed(tmp_path, optimizer.fixed_schedule(Event.with_count(2400, 2)), "--only", "summary")
    assert page.count('<div class="picture meetings">') == 1 and "16 players a square" in page


def test_big_room_still_prints(tmp_path):
    schedule = optimizer.fixed_schedule(Event.with_count(40, 6))
    page = printed(tmp_path, schedule)
    assert page.count('class="table-card') == 60
    assert page.count('class="page ') == expected_pages(schedule)
    assert page.count('class="page lookup-page"') == 6  # over 24 players: a find-your-table page a round


def test_longer_days_get_fewer_slips_per_sheet_with_rows_to_write_in():
    layouts = [slip_layout(r) for r in (3, 5, 8, 12, 20, 30)]
    assert [down for down, _ in layouts] == [3, 2, 2, 1, 1, 1]
    assert all(row >= 7.0 for _, row in layouts[:5])


LONG = ("Maximilian Alexander von Hohenberg-Schwarzenfeld", "Anastasia Konstantinovna Rimsky-Korsakova")


def long_names(n):
    return tuple(f"{LONG[i % 2]} {i}" if i % 3 == 0 else f"Player {i:03d}" for i in range(n))


@pytest.mark.parametrize("players", [22, 96, 200])
def test_wall_charts_keep_names_large_and_tables_in_order(players):
    odd = OddPolicy.SIT_OUT
    schedule = optimizer.fixed_schedule(Event(players=long_names(players), rounds=2, odd=odd))
    for index in range(2):
        charts = wall_charts(schedule, index)
        numbers = [card.number for chart in charts for card in chart.tables]
        assert numbers == sorted(t.table for t in schedule.rounds[index].tables)
        assert all(chart.name_mm >= 14 * PT_MM - 0.01 for chart in charts)
        if len([c for c in charts if c.tables]) > 1:
            assert charts[0].part.startswith("tables 1-") and charts[0].part.endswith(f"of {len(numbers)}")
        notes = [line for chart in charts for line in chart.notes]
        assert sum(line.startswith("Sitting out") for line in notes) == bool(schedule.rounds[index].sit_outs)


def test_lines_needed_wraps_at_spaces_and_hyphens():
    assert lines_needed("Ann", 50, 5) == 1
    assert lines_needed("word " * 40, 50, 5) > 4
    assert lines_needed("x" * 200, 50, 5) >= 200 * 0.5 * 5 / 50  # an unbroken run still wraps


def test_lookup_is_alphabetical_and_complete(nine_sit_out):
    pages = lookup_pages(nine_sit_out, 0)
    names = [e.name for page in pages for column in page.columns for e in column]
    assert names[0] == "<script>alert(1)</script>" and names[1] == "Ann"
    assert "José María Fernández de la Peña y Ortega-Gasset" in names and len(names) == 9
    (out,) = nine_sit_out.rounds[0].sit_outs
    assert [e.seat for page in pages for c in page.columns for e in c if e.name == out] == ["out"]


def test_title_date_legend_only_and_rounds(tmp_path):
    schedule = optimizer.fixed_schedule(Event.with_count(12, 6))
    page = printed(
        tmp_path, schedule, "--title", "Spring Open", "--date", "12 April", "--only", "walls,sheets", "--rounds", "4-5"
    )
    seen = text_of(page)
    assert page.count('class="page wall"') == 2 and 'id="round-4"' in page and 'id="round-3"' not in page
    assert page.count('class="score"') == 6 and page.count('class="page score-sheet"') == 3  # two to a sheet
    assert "slip-sheet" not in page and "summary" not in page.split("<body>")[1]
    assert seen.count("Spring Open") == 1 + 2 + 6 and seen.count("12 April") == 2 + 6
    assert "A East (starting dealer) · B North · C West · D South" in seen
    assert expected_pages(schedule, Options(only=("walls", "sheets"), rounds=(4, 5))) == 2 + 3
    assert expected_pages(schedule, Options(only=("walls", "sheets"), rounds=(4, 5), results="points")) == 2 + 2


def test_bad_only_and_rounds_are_one_line(tmp_path, nine_sit_out):
    path = write(tmp_path, nine_sit_out)
    assert "unknown part" in one_error_line(run(path, "--html", tmp_path / "o.html", "--only", "walls,posters"))
    assert "rounds 1 to 3" in one_error_line(run(path, "--html", tmp_path / "o.html", "--rounds", "2-5"))


def test_unfair_fixed_rule_is_starred(tmp_path):
    schedule = optimizer.fixed_schedule(Event.with_count(17, 4))
    seen = text_of(printed(tmp_path, schedule))
    assert re.search(r"fixed MJMP rule on the same room \d+\*", seen) and "* The fixed rule does not take" in seen


def test_no_repeats_gets_a_sentence_not_an_empty_chart(tmp_path):
    schedule = optimizer.fixed_schedule(Event.with_count(20, 2))
    page = printed(tmp_path, schedule)
    assert optimizer.check(schedule).repeats == 0
    assert "No repeats: no pair of players" in text_of(page) and page.count('<div class="picture ') == 1


def one_error_line(result):
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    return lines[0]


def test_missing_file_is_one_line(tmp_path):
    line = one_error_line(run(tmp_path / "nope.json", "--html", tmp_path / "out.html"))
    assert "does not exist" in line
    assert not (tmp_path / "out.html").exists()


def test_invalid_schedule_is_one_line(tmp_path, nine_sit_out):
    broken = nine_sit_out.model_copy(update={"rounds": (Round(tables=nine_sit_out.rounds[0].tables),)})
    line = one_error_line(run(write(tmp_path, broken), "--html", tmp_path / "out.html"))
    assert "invalid schedule" in line and "'Flo' is neither at a table nor sitting out" in line
    assert not (tmp_path / "out.html").exists()


def test_unwritable_output_is_refused_first(tmp_path, nine_sit_out):
    line = one_error_line(run(write(tmp_path, nine_sit_out), "--html", tmp_path / "no" / "out.html"))
    assert "does not exist" in line


def test_html_is_required(tmp_path, nine_sit_out):
    result = run(write(tmp_path, nine_sit_out))
    assert result.exit_code == 2 and "--html" in result.output


def test_dollar_signs_are_names_not_formulas(tmp_path):
    event = Event(players=("$$", "$x^2$", "a\\b", "_d", "Ann", "Bo", "Cy", "Dee"), rounds=2)
    page = printed(tmp_path, optimizer.fixed_schedule(event), "--svg", tmp_path / "summary.svg")
    assert "$x^2$" in page and ">$x^2$</text>" in (tmp_path / "summary.svg").read_text(encoding="utf-8")


def test_csv_long_and_wide_read_back_with_dictreader(tmp_path, nine_sit_out):
    import csv
    import io

    from rotation.files.output import schedule_csv, schedule_csv_long

    long = list(csv.DictReader(io.StringIO(schedule_csv_long(nine_sit_out))))
    assert list(long[0]) == ["round", "table", "seat", "player", "three-handed", "sits out"]
    assert len(long) == 9 * 3
    outs = [row for row in long if row["sits out"]]
    assert len(outs) == 3 and {row["sits out"] for row in outs} == {"sits out - scores the round's average"}
    wide = list(csv.DictReader(io.StringIO(schedule_csv(nine_sit_out))))
    assert list(wide[0])[0] == "player" and all(row["round 1 table"] in "12" for row in wide)
    seven = list(csv.DictReader(io.StringIO(schedule_csv_long(optimizer.fixed_schedule(Event.with_count(7, 1))))))
    assert [row["three-handed"] for row in seven] == [""] * 4 + ["yes"] * 3


def test_cli_writes_provenance_and_no_byte_order_mark(tmp_path):
    import csv
    import json

    from rotation.commands.cli import main

    out = tmp_path / "day.json"
    assert (
        main(
            [
                "plan",
                "--players",
                "12",
                "--rounds",
                "2",
                "--time-limit",
                "1",
                "--workers",
                "1",
                "--quiet",
                "--json",
                str(out),
                "--csv-long",
                str(tmp_path / "l.csv"),
            ]
        )
        == 0
    )
    provenance = json.loads(out.read_text(encoding="utf-8"))["provenance"]
    assert {"tool_version", "seed", "time_limit", "method", "repeats", "bound", "created"} <= set(provenance)
    with open(tmp_path / "l.csv", encoding="utf-8") as handle:
        assert next(csv.DictReader(handle))["round"] == "1"
    assert main(["fixed", "--players", "8", "--rounds", "1", "--excel", "--csv", str(tmp_path / "x.csv")]) == 0
    assert (tmp_path / "x.csv").read_bytes().startswith(b"\xef\xbb\xbf")


ISSUE_NAMES = (
    "Mei-Ling Kierkegaard",
    "José Papadopoulos-Richardson",
    "Ahmed Wolfeschlegelsteinhausen",
    "Łucja Zellweger",
    "Zoë Smith",
)


def issue_room(players, rounds=2, odd=OddPolicy.SIT_OUT):
    names = tuple(ISSUE_NAMES[i] if i < len(ISSUE_NAMES) else f"Player {i:03d}" for i in range(players))
    return optimizer.fixed_schedule(Event(players=names, rounds=rounds, odd=odd))


@pytest.mark.parametrize("players", [16, 22, 96, 200])
def test_every_wall_name_s_longest_word_fits_its_card_in_one_layout_a_day(players):
    from rotation.printing.typeface import longest_em, width_em
    from rotation.printing.walls import day_wall_charts

    schedule = issue_room(players, rounds=3)
    charts = [chart for index in range(3) for chart in day_wall_charts(schedule, range(3))[index]]
    assert len({(c.columns, c.name_mm, c.landscape) for c in charts}) == 1  # one layout for the day
    for chart in charts:
        card = (PAGE_HEIGHT_MM if chart.landscape else PAGE_WIDTH_MM) - 4.0 * (chart.columns - 1)
        room_mm = card / chart.columns - 7.2 - 1.6 * chart.name_mm
        assert chart.name_mm >= 14 * PT_MM - 0.01
        for table in chart.tables:
            for seat in table.seats:  # whole at the sheet's size, or at its own smaller one, never under 14 pt
                own = seat.name_mm or chart.name_mm
                assert 14 * PT_MM - 0.01 <= own <= chart.name_mm
                assert longest_em(seat.name) * own <= room_mm, seat.name
        assert width_em("three-handed", bold=True) * chart.tag_mm <= card / chart.columns - 7.2


def test_a_round_splits_evenly_over_its_sheets():
    from rotation.printing.walls import _split

    assert _split([50.0] * 10, 2, 170.0) == [5, 5]  # three rows of 50 mm a sheet: greedy would give 6 + 4
    assert _split([50.0] * 7, 1, 110.0) == [2, 2, 2, 1]
    assert _split([200.0], 1, 150.0) is None  # a card taller than the sheet


def test_lookup_collates_by_first_name_or_surname_and_marks_three_handed_tables():
    names = ("Zoë Ng", "Łucja Abel", "Lars Zed", "Mia Łowicz", "Émile Ba", "Eva Kim", "Ana Bo")
    schedule = optimizer.fixed_schedule(Event(players=names, rounds=1))  # seven: one table of three
    first = [e.name for page in lookup_pages(schedule, 0) for c in page.columns for e in c]
    assert first == ["Ana Bo", "Émile Ba", "Eva Kim", "Lars Zed", "Łucja Abel", "Mia Łowicz", "Zoë Ng"]
    by_surname = [e for page in lookup_pages(schedule, 0, "surname") for c in page.columns for e in c]
    assert [e.shown for e in by_surname][:3] == ["Abel, Łucja", "Ba, Émile", "Bo, Ana"]
    assert [e.shown for e in by_surname][-2:] == ["Ng, Zoë", "Zed, Lars"]
    (three,) = [t for t in schedule.rounds[0].tables if len(t.players) == 3]
    assert {e.name for e in by_surname if e.three_handed} == set(three.players)
    page = text_of(printed_page(schedule, Options(only=("lookup",), sort_by="surname")))
    assert "Abel, Łucja" in page and "* Three-handed table: seats A, B and C only" in page
    slips = [s.name for sheet in slip_sheets(schedule, range(1), "surname") for s in sheet.slips]
    assert slips == [e.name for e in by_surname]  # slips in the list's order


def printed_page(schedule, options):
    from optimizer import compare
    from rotation.printing.pages import render_page

    return render_page(schedule, optimizer.check(schedule), compare(schedule), options)


def test_players_who_left_are_on_no_page_of_a_round_they_do_not_play(nine_sit_out):
    stay = NINE[:8]
    last = Round(tables=(Table(table=1, players=stay[:4]), Table(table=2, players=stay[4:])), absent=(NINE[8],))
    left = nine_sit_out.model_copy(update={"rounds": nine_sit_out.rounds[:2] + (last,), "departures": {NINE[8]: 3}})
    walls = [line for chart in wall_charts(left, 2) for line in chart.notes]
    assert not any("Flo" in line for line in walls)
    assert all(e.name != "Flo" for page in lookup_pages(left, 2) for c in page.columns for e in c)
    (flo,) = [s for sheet in slip_sheets(left, range(3)) for s in sheet.slips if s.name == "Flo"]
    assert [line.round for line in flo.lines] == [1, 2]
    assert not any(s.name == "Flo" for sheet in slip_sheets(left, range(2, 3)) for s in sheet.slips)


def test_the_font_travels_with_the_page_and_measures_what_it_prints(nine_sit_out):
    from fontTools.ttLib import TTFont

    from rotation.printing.typeface import advances, font_face_css, width_em

    css = font_face_css(set("Zoë Łucja"))
    assert css.count("@font-face") == 2 and 'font-family: "DejaVu Sans"' in css
    assert width_em("Wolfeschlegelsteinhausen") == pytest.approx(sum(advances()[c] for c in "Wolfeschlegelsteinhausen"))
    assert width_em("W", bold=True) > width_em("W") > width_em("i")
    import base64
    import io

    data = base64.b64decode(re.search(r"base64,([^)]+)\)", css).group(1))
    font = TTFont(io.BytesIO(data))
    assert {ord(c) for c in "Zoë Łucja"} <= set(font.getBestCmap())  # the cut keeps what the page prints


def test_the_font_cut_is_the_same_bytes_whenever_it_is_cut(monkeypatch):
    # fontTools stamps a saved font with the time it was saved unless told not to: a page printed a
    # second later would differ in its font alone.
    from fontTools.ttLib.tables import _h_e_a_d

    from rotation.printing import typeface

    first = typeface.font_face_css(set("Zoë Łucja"))
    typeface._font_face_css.cache_clear()
    monkeypatch.setattr(_h_e_a_d, "timestampNow", lambda: 3_000_000_000)
    assert typeface.font_face_css(set("Zoë Łucja")) == first


def test_players_url_puts_a_qr_code_on_wall_charts_and_lookup_lists(tmp_path, nine_sit_out):
    import segno

    url = "http://192.168.1.20:8000/players"
    page = printed(tmp_path, nine_sit_out, "--only", "walls,lookup,slips", "--players-url", url)
    code = segno.make(url, micro=False).svg_inline(omitsize=True, border=0)
    sections = page.split("<section")[1:]
    heads = [s for s in sections if 'class="page wall' in s or 'class="page lookup-page' in s]
    assert heads and all(code in s for s in heads)
    assert not any(code in s for s in sections if "slip-sheet" in s)
    assert "players' page" in text_of(page) or "players&#39; page" in page
    bad = run(write(tmp_path, nine_sit_out), "--html", tmp_path / "q.html", "--players-url", "javascript:alert(1)")
    assert "--players-url" in one_error_line(bad) and not (tmp_path / "q.html").exists()


def test_a_name_too_long_to_print_is_one_line_and_writes_nothing(tmp_path):
    # A planned name has at most 64 characters (models.text); a schedule file edited by hand can hold more.
    path = write(tmp_path, optimizer.fixed_schedule(Event(players=("Bart", "Ann", "Bo", "Cy"), rounds=1)))
    path.write_text(path.read_text(encoding="utf-8").replace("Bart", " ".join(["Bartholomew"] * 115)), encoding="utf-8")
    line = one_error_line(run(path, "--html", tmp_path / "out.html"))
    assert "(1379 characters) is too long for a wall chart" in line and "shorten it" in line
    assert not (tmp_path / "out.html").exists()


def test_wall_names_grow_without_sharing_a_round_less_evenly():
    """Issue 42: names grow a quarter point at a time into the room the sheets have; they stop before a
    round's tables would be shared less evenly (120 short names grew from 15 to 15.25 pt as 11 + 11 + 8)."""
    from rotation.printing.walls import day_wall_charts

    first = "Anna Bob Carol David Eva Frank Grace Hans Ines Jack Kate Liam Mia Noah Olga Paul".split()
    last = "Schmidt Lee Nguyen Okafor Novak Miller Kim Weber Garcia Brown Wilson Murphy Rossi Cohen Petrova Martin"
    names = tuple(f"{first[i % 16]} {last.split()[(i * 7 + 3) % 16]} {i // 16 or ''}".strip() for i in range(120))
    schedule = optimizer.fixed_schedule(Event(players=names, rounds=2, odd=OddPolicy.SIT_OUT))
    charts = day_wall_charts(schedule, range(2))
    for index in range(2):
        sizes = [len(chart.tables) for chart in charts[index] if chart.tables]
        assert max(sizes) - min(sizes) <= 1, sizes


def test_score_sheets_record_what_the_score_page_takes(tmp_path, seven_three_handed):
    """Issue 53: sheets had boxes 'Game 1 ... Game 4, Total' (points) where the event takes game results:
    a row per game with the games file's columns, by the event's rules (--form points: the points)."""
    from rotation.files.gamesheet import RESULT_COLUMNS
    from rotation.printing.score_sheets import RESULT_HEADS

    rules = tmp_path / "rules.json"
    rules.write_text('{"games_per_round": 3, "two_winners": true, "highest_value": 90}', encoding="utf-8")
    page = printed(tmp_path, seven_three_handed, "--only", "sheets", "--rounds", "1", "--rules", rules)
    assert tuple(RESULT_HEADS) == RESULT_COLUMNS  # the games file's columns, in its order
    heads = "<tr><th>Game</th>" + "".join(f"<th>{head}</th>" for head in RESULT_HEADS.values()) + "</tr>"
    games = re.findall(r'<table class="games">(.*?)</table>', page, re.S)
    assert len(games) == 2 and all(heads in table for table in games)  # a table of four, a table of three
    assert [table.count("<tr style") for table in games] == [3, 3]  # the event's games in a round
    assert games[0].count(">A B C D<") == 3 * 4 and games[1].count(">A B C<") == 3 * 4 and "A B C D" not in games[1]
    text = text_of(page)
    assert "winner, or two on one discard" in text and "Value: the hand's, 25 to 90" in text
    assert "Game 1" not in text and "Total" not in text
    default = printed(tmp_path, seven_three_handed, "--only", "sheets", "--rounds", "1")
    assert default.count('<table class="games">') == 2 and default.count("<tr style") == 2 * 4 + 4  # 4 games, seats
    points = printed(tmp_path, seven_three_handed, "--only", "sheets", "--form", "points", "--rules", rules)
    assert "Seat Player Game 1 Game 2 Game 3 Total" in text_of(points) and 'class="games"' not in points
