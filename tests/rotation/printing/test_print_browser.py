"""The printable page in a real browser: headless Chromium prints it to PDF, and we read the PDF back.

Skipped when chromium is not on PATH. Install it with .ci/browser-deps (Debian: apt-get install chromium).
Few and quick: each room is printed once per module and every check reads the same PDF.
"""

import re
import unicodedata

import pytest

pypdf = pytest.importorskip("pypdf", reason="pypdf reads the printed PDF back: pip install pypdf")

from click.testing import CliRunner  # noqa: E402

import pdf_layout  # noqa: E402  (tests/ is on sys.path under pytest's default import mode)
from browser_screenshot import (  # noqa: E402
    chromium,
    console_errors,
    print_pdf,
    rooms,
    sample_schedules,
    screenshot,
)
from models.rules import THREE_HANDED_RULE  # noqa: E402
from rotation.commands.cli import cli  # noqa: E402
from rotation.files.output import schedule_json  # noqa: E402
from rotation.printing.lookup import sort_key  # noqa: E402
from rotation.printing.options import SEAT_LEGEND, Options  # noqa: E402
from rotation.printing.pages import sheets  # noqa: E402

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        chromium() is None, reason="chromium is not on PATH; install it with .ci/browser-deps to run the browser checks"
    ),
]

# (room, parts): the awkward names with the default parts, and long names at every size the issue named
# (16, 22 over 12 rounds, 37 with tables of three, 96, 120, 200): every page kind where slips and score
# sheets are the same at any size, the wall charts and lookup lists of the big rooms.
EVERY = ("walls", "lookup", "slips", "sheets", "summary")
ROOMS = {
    "sit-out-9": (),
    "three-handed-7": (),
    "names-16": EVERY,
    "names-22": ("walls", "lookup", "slips"),
    "names-37": EVERY,
    "names-96": ("walls", "lookup"),
    "names-120": ("walls", "lookup"),
    "names-200": ("walls", "lookup"),
}
SCHEDULES = {**sample_schedules(), **rooms()} if chromium() else {}
MIN_NAME_PT = 14.0


def squash(text: str) -> str:
    """Text as a reader sees it, whatever the line breaks: ligatures undone, whitespace removed."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


class Printed:
    """The room printed through the command line, as a director would, then through Chromium."""

    def __init__(self, name, folder):
        self.schedule = SCHEDULES[name]
        only = ROOMS[name]
        self.options = Options(title="Spring Open", date="12 April", only=only)
        source, self.html = folder / "day.json", folder / f"{name}.html"
        source.write_text(schedule_json(self.schedule), encoding="utf-8")
        argv = ["print", str(source), "--html", str(self.html), "--title", "Spring Open", "--date", "12 April"]
        result = CliRunner().invoke(cli, argv + (["--only", ",".join(only)] if only else []))
        assert result.exit_code == 0, result.output
        self.announced = int(re.search(r": (\d+) pages? to print", result.output).group(1))
        self.sheets = sheets(self.schedule, self.options)
        self.pdf = folder / f"{name}.pdf"
        self.run = print_pdf(self.html, self.pdf)
        self.reader = pypdf.PdfReader(self.pdf)
        self.texts = [page.extract_text() for page in self.reader.pages]
        self.pages = [squash(text) for text in self.texts]
        self.boxes = pdf_layout.read(self.pdf)


@pytest.fixture(scope="module", params=sorted(ROOMS))
def printed(request, tmp_path_factory):
    return request.param, Printed(request.param, tmp_path_factory.mktemp(request.param))


def test_page_count_is_the_announced_count(printed):
    _, result = printed
    assert result.run.returncode == 0, result.run.stderr[-2000:]
    assert len(result.pages) == result.announced == len(result.sheets)
    assert console_errors(result.run.stderr) == []


def test_every_round_s_sheets_hold_every_name_of_that_round(printed):
    _, result = printed
    for number, round_ in enumerate(result.schedule.rounds, start=1):
        walls = "".join(p for p, s in zip(result.pages, result.sheets) if s.kind == "wall" and s.body.number == number)
        assert squash(f"Round {number}") in walls
        for table in round_.tables:
            assert squash(f"Table {table.table}") in walls
            for letter, player in zip("ABCD", table.players):
                assert squash(f"{letter} {player}") in walls, (number, player)
        for player in round_.sit_outs:
            assert squash(player) in walls.split("Sittingout:", 1)[1]
        if round_.sit_outs:
            assert "scoresthe" in walls or "scoreszero" in walls  # the rule, not just the names
        if any(len(t.players) == 3 for t in round_.tables):
            assert squash(THREE_HANDED_RULE) in walls


def test_every_sheet_has_title_date_and_legend(printed):
    _, result = printed
    for page, sheet in zip(result.pages, result.sheets):
        assert "SpringOpen" in page and "12April" in page
        if sheet.kind in ("wall", "lookup", "slips", "scores"):
            assert squash(SEAT_LEGEND) in page


def font_sizes(page) -> list[tuple[str, float]]:
    """(text, size in points) of every run on a PDF page, the text matrix and the CTM applied."""
    runs = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            scale = (abs(tm[3] * cm[3]) + abs(tm[1] * cm[2])) or abs(tm[0] * cm[0])
            runs.append((text, size * scale))

    page.extract_text(visitor_text=visit)
    return runs


def test_names_on_wall_charts_are_at_least_14_pt(printed):
    _, result = printed
    words = {w for name in result.schedule.players for w in name.split() if len(w) >= 2 and not w.isdigit()}
    boiler = set(" ".join([SEAT_LEGEND, THREE_HANDED_RULE, "Spring Open April Round rounds tables Table"]).split())
    seen = []
    for page, sheet in zip(result.reader.pages, result.sheets):
        if sheet.kind != "wall" or not sheet.body.tables:
            continue
        for text, size in font_sizes(page):
            if set(text.split()) & (words - boiler) and not text.startswith("Sitting out"):
                seen.append(size)
    assert seen and min(seen) >= MIN_NAME_PT - 0.05, min(seen)


def test_wall_names_grow_into_the_room_the_sheets_have(tmp_path):
    """Issue 42: the sizes tried were steps, and one long word set every name's size: 16 long names
    printed at 19 pt with 12-16% of both sheets empty. Now the names grow into that room (on as many
    sheets) and the long names shrink alone: most names are larger, and none under 14 pt."""
    result = Printed("names-16", tmp_path)
    sizes = sorted(
        size
        for page, sheet in zip(result.reader.pages, result.sheets)
        if sheet.kind == "wall" and sheet.body.tables
        for text, size in font_sizes(page)
        if any(text.strip().endswith(name.split()[-1]) for name in result.schedule.players)
    )
    assert sum(s.kind == "wall" for s in result.sheets) == 2  # as many sheets as before: one a round
    assert sizes[len(sizes) // 2] >= 21.0, sizes  # the middle name: 19 pt before
    assert sizes[0] >= MIN_NAME_PT - 0.05


# Every table card inside its sheet and clear of the others, every name inside its card, the notes and
# rules inside the sheet: the layout as Chromium prints it (print media), measured in the page itself.
CARDS_INSIDE = r"""() => {
  const out = [], inside = (a, b) =>
    a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  for (const page of document.querySelectorAll(".page.wall")) {
    const sheet = page.getBoundingClientRect();
    const cards = [...page.querySelectorAll(".table-card")].map((card) => card.getBoundingClientRect());
    cards.forEach((card, i) => {
      if (!inside(card, sheet)) out.push(`${page.id}: card ${i + 1} leaves its sheet`);
      cards.slice(0, i).forEach((other, j) => {
        if (card.left < other.right && other.left < card.right && card.top < other.bottom && other.top < card.bottom)
          out.push(`${page.id}: cards ${j + 1} and ${i + 1} overlap`);
      });
    });
    for (const name of page.querySelectorAll(".seat-name"))
      if (!inside(name.getBoundingClientRect(), name.closest(".table-card").getBoundingClientRect()))
        out.push(`${page.id}: ${name.textContent} leaves its card`);
    for (const note of page.querySelectorAll(".notes, .rule"))
      if (!inside(note.getBoundingClientRect(), sheet)) out.push(`${page.id}: a note leaves its sheet`);
  }
  return out;
}"""


def test_every_table_card_fits_its_sheet_as_chromium_prints_it(printed):
    sync_api = pytest.importorskip("playwright.sync_api")
    _, result = printed
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium())
        page = browser.new_page()
        page.goto(result.html.resolve().as_uri())
        page.emulate_media(media="print")
        problems = page.evaluate(CARDS_INSIDE)
        browser.close()
    assert problems == []


# Every score sheet inside its printed sheet and clear of the next, and every box of it (the seats, each
# game's boxes, the hint, the rules) inside the score sheet: as Chromium prints it.
SCORES_INSIDE = r"""() => {
  const out = [], inside = (a, b) =>
    a.left >= b.left - 0.5 && a.right <= b.right + 0.5 && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  for (const page of document.querySelectorAll(".page.score-sheet")) {
    const sheet = page.getBoundingClientRect();
    const scores = [...page.querySelectorAll(".score")];
    scores.forEach((score, i) => {
      const box = score.getBoundingClientRect();
      if (!inside(box, sheet)) out.push(`score sheet ${score.querySelector("h2").textContent} leaves its page`);
      if (i && box.top < scores[i - 1].getBoundingClientRect().bottom - 0.5)
        out.push(`score sheets ${i} and ${i + 1} overlap`);
      for (const part of score.querySelectorAll("td, th, .hint, .rule, .scoring, .sign"))
        if (!inside(part.getBoundingClientRect(), box)) out.push(`${part.textContent.trim()} leaves its score sheet`);
      for (const cell of score.querySelectorAll("td.circle"))
        if (cell.scrollWidth > cell.clientWidth + 1) out.push(`"${cell.textContent}" is wider than its box`);
    });
  }
  return out;
}"""


def test_score_sheets_take_game_results_and_fit_their_sheet(printed):
    """Issue 53: the sheets asked for each player's points per game while the score page takes game
    results. Printed by the command's default, each sheet has a row per game with the games file's boxes."""
    name, result = printed
    if "sheets" not in ROOMS[name]:
        pytest.skip("this room prints no score sheets")
    heads = squash("Game Winner Value How Discarder Exposures Jokerless Dead MJ in error")
    pages = [page for page, sheet in zip(result.pages, result.sheets) if sheet.kind == "scores"]
    sheets = sum(len(sheet.body) for sheet in result.sheets if sheet.kind == "scores")
    assert pages and sum(page.count(heads) for page in pages) == sheets
    assert all("Game1Game2" not in page for page in pages)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium())
        page = browser.new_page()
        page.goto(result.html.resolve().as_uri())
        page.emulate_media(media="print")
        problems = page.evaluate(SCORES_INSIDE)
        browser.close()
    assert problems == []


def test_lookup_pages_are_alphabetical_with_table_and_seat(printed):
    _, result = printed
    for number in range(1, len(result.schedule.rounds) + 1):
        pages = [
            (p, s.body) for p, s in zip(result.pages, result.sheets) if s.kind == "lookup" and s.body.number == number
        ]
        if not pages:
            continue
        entries = [e for _, body in pages for column in body.columns for e in column]
        assert [sort_key(e.name) for e in entries] == sorted(sort_key(e.name) for e in entries)
        seats = result.schedule.seat_of(number - 1)
        assert {e.name for e in entries} == set(seats) | set(result.schedule.rounds[number - 1].sit_outs)
        text, at = "".join(p for p, _ in pages), 0
        for e in entries:  # in the printed order, each with its table and seat
            mark = "*" if e.three_handed else ""
            found = text.find(squash(f"{e.shown}{e.table if e.table else ''}{mark}{e.seat}"), at)
            assert found >= 0, e
            at = found


def test_no_text_over_text_and_nothing_off_the_sheet(printed):
    """Read back from the PDF: no two words' ink crosses, and every word is inside its sheet's box."""
    _, result = printed
    for number, (page, words) in enumerate(result.boxes, start=1):
        kind = result.sheets[number - 1].kind
        assert pdf_layout.overlaps(words) == [], (number, kind)
        assert pdf_layout.outside(page, words) == [], (number, kind)


def test_wall_names_break_only_at_spaces_and_hyphens(printed):
    _, result = printed
    for (_, words), sheet in zip(result.boxes, result.sheets):
        if sheet.kind != "wall":
            continue
        seen = {w.text for w in words}
        for card in sheet.body.tables:
            for seat in card.seats:
                for word in seat.name.split():
                    assert pdf_layout.segmented(word, seen), (sheet.body.number, word)


def test_screen_view_fits_a_phone(tmp_path):
    """At 390 px wide nothing is cut off: the right edge of the window shows the grey background."""
    from matplotlib.image import imread

    result = Printed("sit-out-9", tmp_path)
    png = tmp_path / "phone.png"
    run = screenshot(result.html, png, width=390, height=1400)
    assert run.returncode == 0
    image = imread(png)
    assert image.shape[1] == 390
    edge = image[:, -2:, :3]
    assert edge.max() < 0.8  # background and shadow only: no white sheet runs past the window's edge


def test_a_score_sheets_long_title_is_printed_whole(tmp_path):
    """Issue 42: beside 'Round 1 · Table 2 · three-handed' a long title was cut to '...Tournam...'."""
    import optimizer
    from models import Event
    from rotation.printing.pages import render_page

    title, date = "Northern Counties Riichi Mahjong Spring Tournament", "Saturday 12 June 2026"
    schedule = optimizer.fixed_schedule(Event.with_count(7, 1))
    html, pdf = tmp_path / "sheets.html", tmp_path / "sheets.pdf"
    options = Options(title=title, date=date, only=("sheets",))
    html.write_text(
        render_page(schedule, optimizer.check(schedule), optimizer.compare(schedule), options), encoding="utf-8"
    )
    assert print_pdf(html, pdf).returncode == 0
    text = squash("".join(page.extract_text() for page in pypdf.PdfReader(pdf).pages))
    assert text.count(squash(f"{title} · {date}")) == 2 and "…" not in text  # tables of 4 and 3


FOOTNOTES_MM = r"""() => [...document.querySelectorAll(".footnotes")]
  .reduce((sum, notes) => sum + notes.getBoundingClientRect().height, 0) / (96 / 25.4)"""


def test_the_printed_standings_notes_are_compact(tmp_path):
    """Issue 53: the notes under the printed standings (signs, ties, prizes, each round's winners and table
    highs) took 101 mm of a 273 mm page for 53 players over 6 rounds; now at most a fifth of a page."""
    import csv

    from rotation.commands.cli import cli

    day, blank, filled, page = (tmp_path / name for name in ("day.json", "blank.csv", "filled.csv", "s.html"))
    runner = CliRunner()
    assert runner.invoke(cli, ["fixed", "--players", "53", "--rounds", "6", "--json", str(day)]).exit_code == 0
    made = runner.invoke(cli, ["scores", str(day), "--template", str(blank), "--form", "points"])
    assert made.exit_code == 0, made.output
    rows = list(csv.reader(blank.open(encoding="utf-8")))
    for row in rows[1:]:  # points that differ by table and seat, so every round has winners and highs
        row[5] = str(((int(row[0]) * 7 + int(row[1]) * 3 + int(row[2]) * 5 + "ABCD".index(row[3]) * 11) % 9) * 5 - 10)
    with filled.open("w", encoding="utf-8", newline="") as out:
        csv.writer(out).writerows(rows)
    printed = runner.invoke(cli, ["scores", str(day), str(filled), "--html", str(page), "--title", "Spring Open"])
    assert printed.exit_code == 0, printed.output
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium())
        shown = browser.new_page()
        shown.goto(page.resolve().as_uri())
        shown.emulate_media(media="print")
        notes_mm = shown.evaluate(FOOTNOTES_MM)
        browser.close()
    assert 0 < notes_mm <= (297 - 24) / 5, notes_mm
