"""The printable page in a real browser: headless Chromium prints it to PDF, and we read the PDF back.

Skipped when chromium is not on PATH. Install it with .ci/browser-deps (Debian: apt-get install chromium).
"""

import re
import unicodedata

import pytest

pypdf = pytest.importorskip("pypdf", reason="pypdf reads the printed PDF back: pip install pypdf")

from browser_screenshot import (  # noqa: E402  (tests/ is on sys.path under pytest's default import mode)
    chromium,
    console_errors,
    dump_dom,
    print_pdf,
    sample_schedules,
    screenshot,
    write_page,
)
from rotation.printing import expected_pages, slips_per_sheet  # noqa: E402

pytestmark = pytest.mark.skipif(
    chromium() is None, reason="chromium is not on PATH; install it with .ci/browser-deps to run the browser checks"
)

SCHEDULES = sample_schedules() if chromium() else {}

# Counted by hand, so a change in layout that adds or loses a sheet fails here and not only in
# expected_pages: rounds + slip sheets + one summary.
SHEETS = {
    "sit-out-9": 3 + 2 + 1,
    "three-handed-7": 4 + 1 + 1,
    "room-40": 6 + 5 + 1,
    "long-day-10": 12 + 3 + 1,
    "re-planned-9": 3 + 2 + 1,
}


class Printed:
    def __init__(self, schedule, folder, name):
        self.schedule = schedule
        self.html = write_page(schedule, folder / f"{name}.html")
        self.pdf = folder / f"{name}.pdf"
        self.run = print_pdf(self.html, self.pdf)
        self.reader = pypdf.PdfReader(self.pdf)
        self.pages = [squash(page.extract_text()) for page in self.reader.pages]


def squash(text: str) -> str:
    """Text as a reader sees it, whatever the line breaks: ligatures undone, whitespace removed."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


@pytest.fixture(scope="module", params=sorted(SCHEDULES))
def printed(request, tmp_path_factory):
    name = request.param
    return name, Printed(SCHEDULES[name], tmp_path_factory.mktemp(name), name)


def test_one_sheet_per_round_then_slips_then_summary(printed):
    name, result = printed
    assert result.run.returncode == 0, result.run.stderr[-2000:]
    assert len(result.pages) == SHEETS[name] == expected_pages(result.schedule)


def test_no_console_errors(printed):
    _, result = printed
    assert console_errors(result.run.stderr) == []


def test_each_round_sheet_shows_its_tables_and_sit_outs(printed):
    _, result = printed
    for number, round_ in enumerate(result.schedule.rounds, start=1):
        page = result.pages[number - 1]
        assert page.startswith(f"Round{number}of{len(result.schedule.rounds)}")
        for table in round_.tables:
            assert squash(f"Table {table.table}") in page
            for letter, player in zip("ABCD", table.players):
                assert squash(f"{letter} {player}") in page, (number, player)
        for player in round_.sit_outs:
            assert squash(f"{player} sits out - scores") in page


def test_every_name_is_on_its_slip(printed):
    _, result = printed
    schedule = result.schedule
    rounds, per_sheet = len(schedule.rounds), slips_per_sheet(len(schedule.rounds))
    for position, player in enumerate(schedule.players):
        sheet = result.pages[rounds + position // per_sheet]
        assert squash(player) + "RoundTableSeat" in sheet, player


def test_summary_sheet_has_both_pictures(printed):
    _, result = printed
    last = result.reader.pages[-1]
    images = [x for x in last["/Resources"].get("/XObject", {}).values() if x.get_object()["/Subtype"] == "/Image"]
    assert result.pages[-1].startswith("Summary") and len(images) == 2


def test_dom_renders_every_section_and_keeps_markup_out(tmp_path):
    schedule = SCHEDULES["sit-out-9"]
    dom = dump_dom(write_page(schedule, tmp_path / "dom.html"))
    assert len(re.findall(r'<section class="page ', dom)) == expected_pages(schedule)
    assert "<script" not in dom.lower()  # the hostile name stayed text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom


def test_screenshot_is_written(tmp_path):
    png = tmp_path / "sit-out-9.png"
    run = screenshot(write_page(SCHEDULES["sit-out-9"], tmp_path / "shot.html"), png, width=900, height=1400)
    data = png.read_bytes()
    assert run.returncode == 0 and data.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (900, 1400) and len(data) > 20_000

