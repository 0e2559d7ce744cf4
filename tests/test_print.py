"""`rotation print` without a browser: what the page says, what it refuses, and that names stay text."""

import html
import re

import pytest
from click.testing import CliRunner

import optimizer
from models import Event, OddPolicy, Round, SitOutScoring, Table
from rotation.output import schedule_json
from rotation.print_command import print_command
from rotation.printing import expected_pages, slips_per_sheet

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
HOSTILE = "<script>alert(1)</script>"
NINE = ("Zoë O'Brien", HOSTILE, "José María Fernández de la Peña y Ortega-Gasset", "Ann", "Bo", "Cy", "Dee", "Ed", "Flo")


def write(tmp_path, schedule, name="day.json"):
    path = tmp_path / name
    path.write_text(schedule_json(schedule), encoding="utf-8")
    return path


def run(*argv):
    return CliRunner().invoke(print_command, [str(a) for a in argv])


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
        assert f"{out} sits out - scores the round's average" in seen
    assert seen.count("sits out - scores the round's average") == 3 + 3
    assert len(re.findall(r'class="slip[ "]', page)) == 9
    assert page.count('class="page slip-sheet"') == 2  # 8 slips to a sheet


def test_slips_give_table_and_seat_every_round(tmp_path, nine_sit_out):
    page = printed(tmp_path, nine_sit_out)
    slips = page.split('class="page slip-sheet"', 1)[1].split('class="page summary"')[0]
    seats = nine_sit_out.seat_of(0)
    table, letter = seats["Ann"]
    assert f"Ann Round Table Seat 1 {table} {letter} 2 " in text_of(slips)


def test_three_handed_tables_are_marked(tmp_path, seven_three_handed):
    page = printed(tmp_path, seven_three_handed)
    seen = text_of(page)
    assert page.count('class="table-card three"') == 3  # one table of three per round
    assert "sits out" not in seen
    for name in seven_three_handed.players:
        assert name in seen
    # The tag on each round's table of three, and a note on the slips of its three players.
    assert seen.count("three-handed") == 3 + 3 * 3


def test_zero_scoring_is_printed(tmp_path):
    schedule = optimizer.fixed_schedule(Event.with_count(9, 2, odd=OddPolicy.SIT_OUT))
    assert "P9 sits out - scores zero" in text_of(printed(tmp_path, schedule))


def test_hostile_names_stay_text(tmp_path, nine_sit_out):
    page = printed(tmp_path, nine_sit_out)
    assert HOSTILE not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script" not in page.lower()
    assert "Zoë O&#39;Brien" in page  # the apostrophe is escaped, the accent kept as UTF-8


def test_page_is_self_contained(tmp_path, nine_sit_out):
    page = printed(tmp_path, nine_sit_out)
    assert not re.search(r"""(src|href)\s*=\s*["'](?!data:)""", page)
    assert "@import" not in page and "url(" not in page
    assert page.count('src="data:image/png;base64,') == 2
    assert "@page" in page and "break-after: page" in page


def test_summary_compares_with_the_fixed_rule_and_the_bound(tmp_path, nine_sit_out):
    seen = text_of(printed(tmp_path, nine_sit_out))
    assert "Repeats of the fixed MJMP rule on the same room" in seen
    assert "lower bound" in seen and "Why the bound holds" in seen


def test_re_planned_day_skips_the_comparison(tmp_path, nine_sit_out):
    stay = NINE[:8]
    last = Round(tables=(Table(table=1, players=stay[:4]), Table(table=2, players=stay[4:])), absent=(NINE[8],))
    day = nine_sit_out.model_copy(update={"rounds": nine_sit_out.rounds[:2] + (last,)})
    seen = text_of(printed(tmp_path, day))
    assert "No comparison" in seen and "fixed MJMP rule on the same room" not in seen
    assert "Not here this round: Flo" in seen


def test_png_is_written(tmp_path, nine_sit_out):
    printed(tmp_path, nine_sit_out, "--png", tmp_path / "summary.png")
    picture = (tmp_path / "summary.png").read_bytes()
    assert picture.startswith(PNG_SIGNATURE) and len(picture) > 10_000


def test_big_room_still_prints(tmp_path):
    schedule = optimizer.fixed_schedule(Event.with_count(40, 6))
    page = printed(tmp_path, schedule)
    assert page.count('class="table-card') == 60
    assert expected_pages(schedule) == 6 + 5 + 1


def test_longer_days_get_fewer_slips_per_sheet():
    assert [slips_per_sheet(r) for r in (3, 8, 9, 18, 19, 40, 41)] == [8, 8, 4, 4, 2, 2, 1]


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
    # matplotlib would read "$x^2$" as maths (and "$$" as an empty formula error) without parse_math=False.
    event = Event(players=("$$", "$x^2$", "a\\b", "_d", "Ann", "Bo", "Cy", "Dee"), rounds=2)
    page = printed(tmp_path, optimizer.fixed_schedule(event), "--png", tmp_path / "summary.png")
    assert "$x^2$" in page and (tmp_path / "summary.png").read_bytes().startswith(PNG_SIGNATURE)
