"""Open the printable page in headless Chromium: print it to PDF and take screenshots to look at.

    python tests/browser_screenshot.py OUT_DIR

writes, for each sample room, NAME.html, NAME.pdf, NAME.png (the first sheet as on screen) and
NAME-all.png (every sheet, small) into OUT_DIR. The browser test
imports the same helpers, so what a person looks at is what the test checked.
"""

from __future__ import annotations

import math
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import optimizer  # noqa: E402
from benchmarks.printing import room_names  # noqa: E402
from models import Event, OddPolicy, Round, Schedule, SitOutScoring, Table  # noqa: E402
from optimizer import compare  # noqa: E402
from rotation.printing.options import Options  # noqa: E402
from rotation.printing.pages import expected_pages, render_page  # noqa: E402

# Names that have broken printed pages before: accents, apostrophes, a very long name, markup.
AWKWARD_NAMES = (
    "Zoë O'Brien",
    "<script>alert(1)</script>",
    "José María Fernández de la Peña y Ortega-Gasset",
    "Łukasz Żółć",
    "Ann",
    "Bo",
    "Cy",
    "Dee",
    "Ed",
)

# Flags that keep a headless run quiet, offline and free of first-run prompts.
_QUIET = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--host-resolver-rules=MAP * ~NOTFOUND",  # the page must need no network; make sure it gets none
)


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


ROOM_SIZES = {16: 2, 22: 12, 37: 2, 96: 1, 120: 1, 200: 1}  # players: rounds


def rooms(rounds: int | None = None) -> dict[str, Schedule]:
    """The sizes every page kind is checked at, with long names: 37 has tables of three, the rest sit out."""
    three = {37: OddPolicy.THREE_HANDED}
    return {
        f"names-{n}": optimizer.fixed_schedule(
            Event(
                players=room_names(n),
                rounds=rounds or days,
                odd=three.get(n, OddPolicy.SIT_OUT),
                sit_out_scoring=SitOutScoring.AVERAGE,
            )
        )
        for n, days in ROOM_SIZES.items()
    }


def sample_schedules() -> dict[str, Schedule]:
    """Rooms that exercise every mark: sit-outs with both scorings, three-handed tables, a big room."""
    rooms = {
        "sit-out-9": Event(players=AWKWARD_NAMES, rounds=3, odd=OddPolicy.SIT_OUT),
        "three-handed-7": Event.with_count(7, 4, sit_out_scoring=SitOutScoring.AVERAGE),
        "room-40": Event.with_count(40, 6),
        "long-day-10": Event.with_count(10, 12, odd=OddPolicy.SIT_OUT, sit_out_scoring=SitOutScoring.AVERAGE),
    }
    schedules = {name: optimizer.fixed_schedule(event) for name, event in rooms.items()}
    return {**schedules, "re-planned-9": replanned_schedule()}


def replanned_schedule() -> Schedule:
    """Nine players, the last one leaves after two rounds: round three seats the other eight."""
    day = optimizer.fixed_schedule(Event(players=AWKWARD_NAMES, rounds=2, odd=OddPolicy.SIT_OUT))
    stay = AWKWARD_NAMES[:8]
    last = Round(
        tables=(Table(table=1, players=stay[::2]), Table(table=2, players=stay[1::2])), absent=(AWKWARD_NAMES[8],)
    )
    return day.model_copy(update={"rounds": day.rounds + (last,)})


def write_page(schedule: Schedule, path: Path, options: Options = Options()) -> Path:
    metrics = optimizer.check(schedule)
    path.write_text(render_page(schedule, metrics, compare(schedule), options), "utf-8", encoding="utf-8")
    return path


def run_chromium(html: Path, *flags: str) -> subprocess.CompletedProcess:
    """One headless run with its own throwaway profile; stderr carries the console log."""
    with tempfile.TemporaryDirectory(prefix="rotation-chromium-") as profile:
        command = [chromium(), *_QUIET, f"--user-data-dir={profile}", *flags, html.resolve().as_uri()]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def print_pdf(html: Path, pdf: Path) -> subprocess.CompletedProcess:
    return run_chromium(
        html,
        "--enable-logging=stderr",
        "--v=0",
        "--no-pdf-header-footer",  # no date or file path in the margins of a wall chart
        f"--print-to-pdf={pdf.resolve()}",
    )


def screenshot(html: Path, png: Path, width: int = 900, height: int = 1150, scale: float = 1.0):
    """The screen view shows each section as a sheet, so this is close to the printout.

    width and height are the window in CSS pixels; the PNG is that times `scale`.
    """
    return run_chromium(
        html,
        f"--window-size={width},{height}",
        f"--force-device-scale-factor={scale}",
        f"--screenshot={png.resolve()}",
    )


def screenshot_all(schedule: Schedule, html: Path, png: Path) -> subprocess.CompletedProcess:
    """Every sheet, three to a row and shrunk, so one picture shows the whole printout."""
    rows = math.ceil(expected_pages(schedule) / 3)
    # A sheet on screen is 208 x 274 mm, 786 x 1036 px at 96 px to the inch, with 8 mm (30 px) gaps.
    return screenshot(html, png, width=3 * 816 + 90, height=rows * 1066 + 60, scale=0.5)


def console_errors(log: str) -> list[str]:
    """Lines where the page itself complained: script errors, failed loads, console messages."""
    marks = ("Uncaught", "CONSOLE", "Failed to load", "net::ERR")
    return [line for line in log.splitlines() if any(mark in line for mark in marks)]


def main(out_dir: str) -> int:
    if chromium() is None:
        print("chromium is not on PATH; install it first (see .ci/browser-deps)", file=sys.stderr)
        return 2
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, schedule in {**sample_schedules(), **rooms()}.items():
        html = write_page(schedule, out / f"{name}.html")
        print_pdf(html, out / f"{name}.pdf")
        first, every = out / f"{name}.png", out / f"{name}-all.png"
        screenshot(html, first)
        screenshot_all(schedule, html, every)
        phone = out / f"{name}-390px.png"
        screenshot(html, phone, width=390, height=1600)
        print(f"{html}\n{out / f'{name}.pdf'}\n{first}\n{every}\n{phone}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
