"""The room in a real browser (Playwright driving Debian's Chromium): the projector at 1920x1080 and a
phone at 390x844 take a release without a reload; 200 players page through in type of at least 32 px
with nothing outside its box; the timer counts on a server clock the test sets.

The desk runs in this process (uvicorn in a thread) so the test can set the server's clock; the
projector's own clock is Playwright's (page.clock), so its paging and polling move when the test says.
"""

from __future__ import annotations

import os
import re
import socket
import threading
import time

import httpx
import pytest

from desk_helpers import HOSTILE, names, seeded_event
from models import OddPolicy
from rotation.desk.app import create_app
from rotation.desk.core.settings import EventSettings

playwright = pytest.importorskip("playwright.sync_api")
uvicorn = pytest.importorskip("uvicorn")
import test_desk_browser as shared  # noqa: E402 (after the skip: Playwright may be missing)

CHROMIUM = shared.CHROMIUM
browser = shared.browser  # the same browser fixture, one for each module
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed"),
]
LONG = "Maximiliana Wolfeschlegelsteinhausenberger-Dorff"
PLAYERS = [LONG, "Zoë Weiß", HOSTILE, *names(197)]


class Clock:
    def __init__(self) -> None:
        self.now = 2_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    """A desk with one event of 200 players (the fixed rule's 3 rounds), on a free port, its clock set here."""
    db = tmp_path_factory.mktemp("room") / "desk.sqlite3"
    event_id = seeded_event(db, EventSettings(names=PLAYERS, rounds=3, title="Spring open"))
    sit_out = seeded_event(db, EventSettings(names=PLAYERS[:121], rounds=2, odd=OddPolicy.SIT_OUT, title="Small"))
    app = create_app(db)
    clock = app.state.desk.clock = Clock()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    yield {
        "url": url,
        "event": event_id,
        "sit_out": sit_out,
        "clock": clock,
        "api": httpx.Client(base_url=url, timeout=10),
    }
    server.should_exit = True
    thread.join(timeout=10)


def opened(browser, url: str, width: int, height: int, clock: bool = False):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    if clock:  # the page's time moves only when the test says (run_for)
        page.clock.install(time=1_700_000_000_000)
        page.clock.pause_at(1_700_000_001_000)
    page.goto(url)
    page.evaluate("window.notReloaded = true")  # gone if the page ever reloads
    return page


def until(page, condition: str, clock: bool = False, seconds: float = 15) -> None:
    """Wait for a condition in the page; on the projector, its clock moves on a second at a time."""
    deadline = time.monotonic() + seconds
    while not page.evaluate(condition):
        assert time.monotonic() < deadline, f"never: {condition}"
        if clock:
            page.clock.run_for(1000)
        time.sleep(0.1)


# The pieces of an element's text (words, split after hyphens) that a line break cut in two.
BROKEN_WORDS = r"""(el) => {
  const text = el.firstChild, range = document.createRange(), broken = [];
  for (const piece of (text && text.nodeType === 3 ? text.data : "").matchAll(/[^\s-]+-?/g)) {
    range.setStart(text, piece.index);
    range.setEnd(text, piece.index + piece[0].length);
    if (range.getClientRects().length > 1) broken.push(piece[0]);
  }
  return broken;
}"""
# What is on screen: every shown name's size, and every shown box that leaves its parent or the window,
# and every name broken mid-word.
MEASURE = (
    r"""(selector) => {
  const brokenWords = """
    + BROKEN_WORDS
    + r""";
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const problems = [], sizes = [];
  if (document.documentElement.scrollWidth > window.innerWidth + 1) problems.push("wider than the window");
  for (const el of document.querySelectorAll(selector)) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect(), p = el.parentElement.getBoundingClientRect();
    const what = `${el.className} "${(el.textContent || "").trim().slice(0, 30)}"`;
    if (r.left < p.left - 1 || r.right > p.right + 1 || r.top < p.top - 1 || r.bottom > p.bottom + 1)
      problems.push(`${what} outside its parent`);
    if (r.right > window.innerWidth + 1 || r.bottom > window.innerHeight + 1) problems.push(`${what} off the screen`);
    if (el.classList.contains("name")) {
      sizes.push(parseFloat(getComputedStyle(el).fontSize));
      for (const piece of brokenWords(el)) problems.push(`${what} broken mid-word at "${piece}"`);
    }
  }
  return {problems: problems.slice(0, 10), smallest: sizes.length ? Math.min(...sizes) : null, names: sizes.length};
}"""
)
# The find-your-table entries shown read down each column, then the next (DOM order is alphabetical).
DOWN_COLUMNS = r"""() => {
  const boxes = [...document.querySelectorAll("#find .entry")].map((el) => el.getBoundingClientRect())
    .filter((box) => box.width > 0);
  return boxes.every((b, i) => i === 0 || (Math.abs(b.left - boxes[i - 1].left) < 1 ? b.top > boxes[i - 1].top
    : b.left > boxes[i - 1].right - 1 && b.top <= boxes[i - 1].top));
}"""
# Pairs of shown cards or list entries whose boxes cross.
OVERLAPS = r"""() => {
  const boxes = [...document.querySelectorAll(".deck > *")].map((el) => [el, el.getBoundingClientRect()])
    .filter(([, box]) => box.width > 0 && box.height > 0), crossed = [];
  boxes.forEach(([el, a], i) => boxes.slice(0, i).forEach(([other, b]) => {
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
      crossed.push(`${(other.textContent || "").trim().slice(0, 20)} / ${(el.textContent || "").trim().slice(0, 20)}`);
  }));
  return crossed.slice(0, 5);
}"""
# The shown list's columns, in order: each column's free height at the foot of the list, and the height
# of the entry after it (the next column's first, or None for the page's last column).
LIST_COLUMNS = r"""() => {
  const deck = document.querySelector("#find"), foot = deck.getBoundingClientRect().bottom;
  const shown = [...deck.children].filter((el) => !el.hidden).map((el) => el.getBoundingClientRect());
  const columns = [];
  shown.forEach((box, i) => {
    if (i === 0 || box.left !== shown[i - 1].left) columns.push({free: 0, next: null, first: box.height});
    columns[columns.length - 1].free = foot - box.bottom;
  });
  columns.forEach((column, i) => { if (i + 1 < columns.length) column.next = columns[i + 1].first; });
  return columns;
}"""
SCREEN_BOXES = ".deck > *, .card > *, .names li, .names li > *, .entry > *, .screen-foot > *, .foot-text > *, #changed"
PHONE_BOXES = "main *"


def test_a_release_reaches_the_projector_and_a_phone_without_a_reload_and_200_players_page_through(browser, desk):
    url, event_id, api = desk["url"], desk["event"], desk["api"]
    public_id = api.get(f"/api/events/{event_id}/room").json()["public_id"]
    api.put(f"/api/events/{event_id}/room", json={"minutes": 60, "pace": 5})
    screen = opened(browser, f"{url}/e/{event_id}/screen", 1920, 1080, clock=True)
    phone = opened(browser, f"{url}/e/{public_id}/me", 390, 844)
    assert screen.locator("#waiting").is_visible()
    phone.fill("#q", "zoe wei")  # accents and case ignored
    phone.click("text=Find")
    phone.click("#matches a")
    assert phone.locator("#waiting").is_visible()
    phone.evaluate("window.notReloaded = true")  # the click above opened the player's page

    released = api.post(f"/api/events/{event_id}/release", json={"round": 1})
    assert released.status_code == 200
    until(screen, "document.querySelectorAll('.card').length > 0", clock=True)
    until(phone, "document.getElementById('my-table') !== null", seconds=20)
    assert screen.evaluate("window.notReloaded") and phone.evaluate("window.notReloaded")
    round_one = api.get(f"/api/events/{event_id}/schedule").json()["rounds"][0]["tables"]
    mine = next(t for t in round_one if "Zoë Weiß" in t["players"])
    assert phone.inner_text("#my-table") == f"Table {mine['table']}"
    assert phone.inner_text("#my-seat") == f"seat {'ABCD'[mine['players'].index('Zoë Weiß')]}"
    phone_view = phone.evaluate(MEASURE, PHONE_BOXES)
    assert phone_view["problems"] == [], phone_view

    # Page through it all at the pace set: every table once, then everyone in the find-your-table list.
    total = int(re.search(r"/(\d+)\)", screen.inner_text("#page-number")).group(1))
    tables, listed, labels = [], [], []
    for _ in range(total):
        measured = screen.evaluate(MEASURE, SCREEN_BOXES)
        assert measured["problems"] == [], (screen.inner_text("#page-label"), measured)
        assert measured["smallest"] is not None and measured["smallest"] >= 32, measured
        assert screen.evaluate(OVERLAPS) == [], screen.inner_text("#page-label")
        labels.append(screen.inner_text("#page-label"))
        tables += [
            int(n)
            for n in screen.locator(".card:visible .card-head").all_inner_texts()
            for n in re.findall(r"Table (\d+)", n)
        ]
        listed += screen.locator(".entry:visible .name").all_inner_texts()
        screen.clock.run_for(5000)
    assert sorted(tables) == sorted(t["table"] for t in round_one) and len(tables) == len(set(tables)) == 50
    assert sorted(listed) == sorted(PLAYERS) and len(listed) == 200
    assert labels[0] == f"Round 1 · page 1 of {sum(label.startswith('Round 1') for label in labels)}"
    assert any(label.startswith("Find your table · page") for label in labels) and total >= 6
    assert screen.locator(f"text={HOSTILE}").count() >= 1 and screen.locator("img[src=x]").count() == 0
    assert screen.inner_text("#page-number") == f"(1/{total})"  # back to the first page

    # A change to the released round is flagged on the projector, still without a reload.
    first, second = round_one[0]["players"][0], round_one[1]["players"][0]
    assert (
        api.post(
            f"/api/events/{event_id}/swap", json={"round": 1, "first": first, "second": second, "confirm": True}
        ).status_code
        == 200
    )
    until(screen, "document.getElementById('changed') !== null", clock=True)
    assert screen.inner_text("#changed") == f"Table {round_one[0]['table']}, Table {round_one[1]['table']} changed"
    assert screen.evaluate("window.notReloaded")
    screen.context.close()
    phone.context.close()


def test_121_players_list_the_one_sit_out_beside_tables_not_on_a_page_of_its_own(browser, desk):
    url, event_id, api = desk["url"], desk["sit_out"], desk["api"]
    api.put(f"/api/events/{event_id}/room", json={"minutes": 60, "pace": 5})
    assert api.post(f"/api/events/{event_id}/release", json={"round": 1}).status_code == 200
    screen = opened(browser, f"{url}/e/{event_id}/screen", 1920, 1080, clock=True)
    until(screen, "document.querySelectorAll('.card').length > 0", clock=True)
    total = int(re.search(r"/(\d+)\)", screen.inner_text("#page-number")).group(1))
    pages, columns = [], []
    for _ in range(total):
        measured = screen.evaluate(MEASURE, SCREEN_BOXES)
        assert measured["problems"] == [], (screen.inner_text("#page-label"), measured)
        assert measured["smallest"] is not None and measured["smallest"] >= 32, measured
        assert screen.evaluate(OVERLAPS) == [], screen.inner_text("#page-label")
        if screen.locator("#find:visible").count():
            assert screen.evaluate(DOWN_COLUMNS)
            columns.append(screen.evaluate(LIST_COLUMNS))
        shown = screen.locator(".card:visible .card-head").all_inner_texts()
        pages.append((screen.inner_text("#page-label"), shown))
        screen.clock.run_for(5000)
    tables = [head for _, heads in pages for head in heads if head.startswith("Table")]
    assert len(tables) == len(set(tables)) == 30
    # Issue 42: the cycle took 15 pages (6 of tables, 9 of a one-column list sized for the longest name);
    # now 4 of tables (a wide card lists its names two a row) and 5 of the list (two columns)
    assert total <= 9, pages
    # Each list column runs on until the next entry would not fit under it (4 px apart): no column ends early.
    for page, after in zip(columns, columns[1:] + [None]):
        page[-1]["next"] = after[0]["first"] if after else None
        assert all(column["next"] is None or column["free"] < column["next"] + 4 for column in page), columns
    with_sit_out = [heads for _, heads in pages if any(not head.startswith("Table") for head in heads)]
    assert len(with_sit_out) == 1, pages  # the one sit-out is shown once...
    assert any(head.startswith("Table") for head in with_sit_out[0]), pages  # ...beside tables
    screen.context.close()


def test_the_timer_counts_down_on_the_servers_clock(browser, desk):
    url, event_id, api, clock = desk["url"], desk["event"], desk["api"], desk["clock"]
    api.post(f"/api/events/{event_id}/timer", json={"action": "reset"})
    screen = opened(browser, f"{url}/e/{event_id}/screen", 1920, 1080, clock=True)
    until(screen, "document.getElementById('timer').textContent === '60:00'", clock=True)
    api.post(f"/api/events/{event_id}/timer", json={"action": "start"})
    clock.now += 54 * 60 + 30  # the server's clock: 5:30 left
    until(screen, "document.getElementById('timer').textContent === '5:30'", clock=True)
    assert screen.get_attribute("#timer", "class") == "timer"
    clock.now += 60  # the last five minutes
    until(screen, "document.getElementById('timer').textContent === '4:30'", clock=True)
    assert screen.get_attribute("#timer", "class") == "timer warning"
    clock.now += 4 * 60 + 31
    until(screen, "document.getElementById('timer').textContent === 'Time'", clock=True)
    assert screen.get_attribute("#timer", "class") == "timer time-up"
    api.post(f"/api/events/{event_id}/timer", json={"action": "extend", "minutes": 10})
    api.post(f"/api/events/{event_id}/timer", json={"action": "pause"})
    until(screen, "document.getElementById('timer').textContent === 'Paused 10:00'", clock=True)
    assert "paused" in screen.get_attribute("#timer", "class")
    measured = screen.evaluate(MEASURE, ".screen-foot > *")
    assert measured["problems"] == [], measured
    screen.context.close()
