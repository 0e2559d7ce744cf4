"""The desk in a real browser (Playwright driving Debian's Chromium) against a real `rotation serve`.

One browser for the module, one server per scenario that needs its own; short time limits. At 1920, 1280,
700, 600 and 390 px wide the layout is checked in the browser (element boxes inside their parents, no two cards
or forms overlapping), and screenshots go to $DESK_SCREENSHOTS when it is set, for a person to look at.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from desk_helpers import HOSTILE, names

playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed"),
]
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# a desktop screen, a laptop, a tablet, a small tablet and a phone: between the laptop and the phone a score
# card once broke a name mid-word (700) and the standings ran past the window (600)
WIDTHS = (1920, 1280, 700, 600, 390)


class Server:
    """`rotation serve` on a free localhost port, over its own database file."""

    def __init__(self, db: Path):
        self.db = db
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> Server:
        command = [
            sys.executable,
            "-m",
            "rotation.commands.cli",
            "serve",
            "--db",
            str(self.db),
            "--port",
            str(self.port),
        ]
        self.process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("the desk did not start")

    def api(self, method: str, path: str, **kwargs) -> dict:
        response = httpx.request(method, self.url + path, timeout=10, **kwargs)
        assert response.status_code < 400, response.text
        return response.json()

    def stop(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=15)


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    desk = Server(tmp_path_factory.mktemp("desk") / "desk.sqlite3").start()
    yield desk
    desk.stop()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.dialogs = dialogs  # type: ignore[attr-defined]
    yield page
    assert not dialogs, f"a script ran on the page: {dialogs}"
    context.close()


SHOTS = Path(os.environ["DESK_SCREENSHOTS"]) if os.environ.get("DESK_SCREENSHOTS") else None

# Boxes that must sit side by side or one under another without overlapping.
SIBLINGS = (
    ".tables > .table, .actions > form, .actions > .proposal, .progress > div, .row > label, .event-nav > *, "
    "header.top > *"
)
LAYOUT = """(siblings) => {
  const problems = [];
  const text = (el) => (el.textContent || "").trim().slice(0, 30);
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  if (document.documentElement.scrollWidth > window.innerWidth + 1)
    problems.push(`page ${document.documentElement.scrollWidth} px wide in a ${window.innerWidth} px window`);
  for (const el of document.querySelectorAll("header *, main *")) {
    if (!shown(el) || ["OPTION", "DATALIST", "BR"].includes(el.tagName)) continue;
    const r = el.getBoundingClientRect(), p = el.parentElement.getBoundingClientRect();
    if (r.left < p.left - 1 || r.right > p.right + 1)
      problems.push(`${el.tagName}.${el.className} "${text(el)}" sticks out of its parent`);
  }
  const groups = new Map();
  for (const el of document.querySelectorAll(siblings)) {
    if (!shown(el)) continue;
    if (!groups.has(el.parentElement)) groups.set(el.parentElement, []);
    groups.get(el.parentElement).push(el);
  }
  for (const boxes of groups.values())
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i].getBoundingClientRect(), b = boxes[j].getBoundingClientRect();
        if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
          problems.push(`"${text(boxes[i])}" overlaps "${text(boxes[j])}"`);
      }
  return problems.slice(0, 10);
}"""


def check_layout(page, step: str) -> None:
    """At each width: nothing sticks out of its parent or overlaps its neighbours; a screenshot to look at."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        problems = page.evaluate(LAYOUT, SIBLINGS)
        assert not problems, f"{step} at {width} px: {problems}"
        if SHOTS is not None:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"{step}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def new_event(page, server: Server, pasted: list[str], rounds: int, seconds: int, sit_out: bool = False) -> str:
    page.goto(server.url + "/")
    page.click("text=New event")
    page.fill("input[name=title]", "Club night")
    page.fill("input[name=date]", "Friday")
    page.fill("textarea[name=names]", "\n".join(pasted))
    page.fill("input[name=rounds]", str(rounds))
    page.fill("input[name=time_limit]", str(seconds))
    if sit_out:
        page.check("input[value=sit-out]")
    check_layout(page, "new-event")
    page.click("text=Create the event")
    page.wait_for_selector("#plan")
    return page.url


def wait_progress(page) -> None:
    """Until the worker's first schedule shows on the page (the script asks the desk twice a second)."""
    playwright.expect(page.locator("#run-repeats")).to_have_text(re.compile(r"^[0-9]+$"), timeout=30_000)


def wait_finished(page, seconds: float = 60) -> None:
    page.wait_for_selector("#run[data-status]:not([data-status=running])", timeout=seconds * 1000)


def test_a_wrong_input_shows_beside_its_field(page, server):
    page.goto(server.url + "/events/new")
    page.fill("textarea[name=names]", "Ann\nBo\nCy")
    page.fill("input[name=rounds]", "seven")
    page.click("text=Create the event")
    names_error, rounds_error = page.locator("#error-names"), page.locator("#error-rounds")
    assert names_error.inner_text() == "a room needs at least 4 players, got 3"
    assert rounds_error.inner_text() == "'seven' is not a whole number of rounds"
    # Each message sits under its own field, above the next one.
    upload = page.locator("input[name=names_file]").bounding_box()
    rounds = page.locator("input[name=rounds]").bounding_box()
    box = names_error.bounding_box()
    assert upload and rounds and box and upload["y"] < box["y"] < rounds["y"]
    assert page.locator("textarea[name=names]").input_value() == "Ann\nBo\nCy"  # what was typed stays
    check_layout(page, "wrong-input")


def test_plan_reload_stop_and_keep_the_best(page, server):
    # 18 players sitting out two a round over 6 rounds: a minute would not be enough to prove it.
    url = new_event(page, server, names(17) + [HOSTILE], rounds=6, seconds=60, sit_out=True)
    page.click("#plan")
    page.wait_for_selector("#run[data-status=running]")
    wait_progress(page)
    check_layout(page, "planning")
    page.reload()  # reloading does not stop it: the page comes back to the running plan
    assert page.locator("#run").get_attribute("data-status") == "running"
    assert page.locator("#stop").is_enabled()
    page.click("#stop")
    wait_finished(page, 30)
    assert page.locator("#run").get_attribute("data-status") == "stopped"
    assert "the best schedule it found is below" in page.inner_text("#run-status")
    assert page.locator(".round").count() == 6
    assert page.locator(".sitout").count() == 6  # two sit out every round, marked
    assert page.get_by_text(HOSTILE, exact=True).count() >= 1  # the hostile name is shown as text
    assert page.locator("img[src=x]").count() == 0
    check_layout(page, "stopped")
    page.goto(url + "/compare")
    assert page.locator("table.compare tbody tr").count() >= 8
    picture = page.locator("img.picture")
    picture.scroll_into_view_if_needed()
    assert picture.evaluate("img => img.decode().then(() => img.naturalWidth)") > 0  # the meetings picture
    check_layout(page, "compare")


def test_drop_out_re_plan_swap_and_undo(page, server):
    new_event(page, server, names(12), rounds=4, seconds=2)
    page.click("#plan")
    wait_finished(page)
    page.select_option("#played-form select[name=rounds]", "1")
    page.click("#played-form button")
    page.wait_for_selector("#round-1 .mark:text('played')")
    page.select_option("#replan-form select[name=from_round]", "3")
    page.fill("#replan-form textarea[name=leave]", "Player 05")
    page.fill("#replan-form input[name=time_limit]", "2")
    page.click("#replan-form button")
    page.wait_for_load_state()  # asked first: Player 05 is seated in round 2, not played yet
    assert "Player 05 is seated in round 2" in page.inner_text("#preview-note")
    check_layout(page, "re-plan asked")
    page.click("#confirm-button")  # they play round 2 first
    wait_finished(page)
    assert page.locator("#run").get_attribute("data-status") == "finished"
    # Both choices, each with its repeats and moves, and the day unchanged until one is accepted.
    choices = page.locator("#proposals .proposal")
    assert choices.count() == 2
    assert [choices.nth(i).locator("h3").inner_text() for i in (0, 1)] == ["Fewest moves", "Everyone re-seated"]
    for i in (0, 1):
        # singular and plural as the report says them: "1 repeat", "0 repeats", "1 move (1 player"
        assert re.fullmatch(
            r"1 repeat|(0|[2-9]|\d\d+) repeats", choices.nth(i).locator(".proposal-repeats").inner_text()
        )
        assert re.match(
            r"(1 move|(0|[2-9]|\d\d+) moves) \((1 player|(0|[2-9]|\d\d+) players);",
            choices.nth(i).locator(".proposal-moves").inner_text(),
        )
    assert "Player 05" in page.inner_text("#round-3 .tables")
    assert page.locator("#move-form").count() == 0  # twelve players: no table of three to sit at
    check_layout(page, "re-plan-choice")
    choices.nth(0).locator("button.accept").click()
    page.wait_for_load_state()
    assert page.locator("#proposals").count() == 0
    for number in (3, 4):
        assert "Player 05" not in page.inner_text(f"#round-{number} .tables")
    assert "Player 05" in page.inner_text("#round-2 .tables")  # before the drop-out, as it was
    check_layout(page, "re-planned")
    first = page.inner_text("#round-4 .table:nth-child(1) li:nth-child(1) a")
    second = page.inner_text("#round-4 .table:nth-child(2) li:nth-child(1) a")
    page.select_option("#swap-form select[name=round]", "4")
    page.fill("#swap-form input[name=first]", first)
    page.fill("#swap-form input[name=second]", second)
    page.click("#swap-form button")
    page.wait_for_load_state()
    assert page.locator("#preview-moves li").count() == 2  # the swap is shown first: who moves, the figures
    assert "Repeats" in page.inner_text("#preview-figures")
    check_layout(page, "swap preview")
    page.click("#confirm-button")
    page.wait_for_load_state()
    assert page.inner_text("#round-4 .table:nth-child(1) li:nth-child(1) a") == second
    assert page.inner_text("#round-4 .table:nth-child(2) li:nth-child(1) a") == first
    page.click("#undo-form button")
    page.wait_for_load_state()
    assert page.inner_text("#round-4 .table:nth-child(1) li:nth-child(1) a") == first
    page.click("text=History")
    assert page.locator("table.history tbody tr").count() == 5  # plan, played, both re-plans, swap: all kept
    check_layout(page, "history")
    page.click("text=Room")
    assert page.locator("#players-url").count() == 1  # the players' page's address, long and unbroken
    check_layout(page, "room")


def test_the_print_page_opens_with_every_round(page, server):
    event = server.api("POST", "/api/events", json={"names": names(10), "rounds": 3, "time_limit": 1, "title": "Print"})
    page.goto(f"{server.url}/events/{event['id']}")
    page.click("#plan")
    wait_finished(page)
    page.click("text=Print and download")
    check_layout(page, "print-options")
    with page.context.expect_page() as opened:
        page.click("text=Open the printable page")
    printed = opened.value
    printed.wait_for_load_state()
    for number in (1, 2, 3):
        assert printed.locator(f"section.wall#round-{number}").count() == 1
    assert "Print" in printed.title()


def test_a_desk_killed_mid_plan_marks_the_run_interrupted_and_runs_it_again(page, tmp_path):
    desk = Server(tmp_path / "desk.sqlite3").start()
    try:
        event = desk.api(
            "POST", "/api/events", json={"names": names(18), "rounds": 6, "odd": "sit-out", "time_limit": 60}
        )
        run = desk.api("POST", f"/api/events/{event['id']}/plan", headers={"content-type": "application/json"})
        deadline = time.monotonic() + 30
        while desk.api("GET", f"/api/runs/{run['id']}")["repeats"] is None and time.monotonic() < deadline:
            time.sleep(0.2)
        worker = desk_worker(run["id"], desk)
        desk.stop(signal.SIGKILL)  # power cut of the desk: no shutdown of its own
        gone_by = time.monotonic() + 10
        while _alive(worker) and time.monotonic() < gone_by:
            time.sleep(0.1)
        assert not _alive(worker), "the worker outlived the desk"
        desk.start()
        page.goto(f"{desk.url}/events/{event['id']}")
        assert page.locator("#run").get_attribute("data-status") == "interrupted"
        assert page.locator(".round").count() == 0  # nothing half-saved
        check_layout(page, "interrupted")
        page.click("#again")
        page.wait_for_selector("#run[data-status=running]")
        wait_progress(page)
        page.click("#stop")
        wait_finished(page, 30)
        assert page.locator("#run").get_attribute("data-status") == "stopped"
        assert page.locator(".round").count() == 6
    finally:
        desk.stop()


def desk_worker(run_id: int, desk: Server) -> int:
    import sqlite3

    with sqlite3.connect(desk.db) as db:
        return db.execute("SELECT pid FROM runs WHERE id = ?", (run_id,)).fetchone()[0]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(
        f"/proc/{pid}/stat", encoding="utf-8"
    ) as stat:  # a zombie has ended, only its parent has not collected it
        return stat.read().split(")")[-1].split()[0] != "Z"
