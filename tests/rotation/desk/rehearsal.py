"""The rehearsal's harness: a desk served as a director runs it (`rotation serve`, its planner in a worker
process), the people who look at it (the director's laptop, the projector at 1920x1080, a phone at 390x844,
the paper as Chromium prints it) and what each of them sees, checked in the browser.

Every wait is on the page's state (Playwright's expect), never on the clock. Screenshots of every step go to
$REHEARSAL_SHOTS when it is set (`make rehearse` sets it to rehearsal-shots/), named by scenario and step.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import test_desk_browser as shared
import test_room_browser as room
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

SHOTS = Path(os.environ["REHEARSAL_SHOTS"]) if os.environ.get("REHEARSAL_SHOTS") else None
WAIT = 60_000  # ms: a page waits this long for the desk on a loaded 2-core machine, then the test fails
NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
# The director's pages: boxes side by side (the desk's browser tests' list, and the score cards' rows).
DESK_SIBLINGS = (
    shared.SIBLINGS + ", .cards > form, .card-title > *, .seat-legend > *, .game-row > label, .round-picker > *"
)
expect.set_options(timeout=WAIT)
PROJECTOR = (1920, 1080)
PHONE = (390, 844)


def shown_text(page: Page, selector: str) -> list[str]:
    """The text of every element the selector finds, shown or not (the projector pages through its cards)."""
    return [(text or "").strip() for text in page.locator(selector).all_text_contents()]


@dataclass
class Rehearsal:
    """One scenario: its browser, its desk and its step counter (the screenshots' order)."""

    name: str
    browser: Browser
    desk: shared.Server
    step: int = 0
    contexts: list = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.desk.url

    def api(self, method: str, path: str, **kwargs) -> dict:
        return self.desk.api(method, path, **kwargs)

    def open(self, path: str, width: int = 1280, height: int = 900) -> Page:
        """A person's own browser (a context of its own: cookies, CSRF token, drafts), at the page."""
        context = self.browser.new_context(viewport={"width": width, "height": height})
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT)
        page.goto(self.url + path)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    def shot(self, page: Page, what: str, full_page: bool = True) -> None:
        if SHOTS is None:
            return
        self.step += 1
        SHOTS.mkdir(parents=True, exist_ok=True)
        width = page.viewport_size["width"] if page.viewport_size else 0
        page.screenshot(path=str(SHOTS / f"{self.name}-{self.step:02d}-{what}-{width}.png"), full_page=full_page)

    def director_sees(self, page: Page, what: str, widths=(1920, 390), siblings: str = DESK_SIBLINGS) -> None:
        """A director's page at a desktop and a phone's width: nothing sticks out of its parent or overlaps a
        neighbour; a screenshot of each."""
        before = page.viewport_size
        for width in widths:
            page.set_viewport_size({"width": width, "height": 900})
            page.evaluate(NEXT_FRAME)
            problems = page.evaluate(shared.LAYOUT, siblings)
            assert not problems, f"{self.name}, {what} at {width} px: {problems}"
            self.shot(page, what)
        if before:
            page.set_viewport_size(before)

    def projector_sees(self, screen: Page, what: str) -> None:
        """The projector's page as shown now: every box inside its parent and the screen, names 32 px or more
        and never broken mid-word, no two cards over each other."""
        screen.evaluate(NEXT_FRAME)
        measured = screen.evaluate(room.MEASURE, room.SCREEN_BOXES)
        assert measured["problems"] == [], (what, measured)
        assert measured["names"] == 0 or measured["smallest"] >= 32, (what, measured)
        assert screen.evaluate(room.OVERLAPS) == [], what
        self.shot(screen, what, full_page=False)

    def phone_sees(self, phone: Page, what: str) -> None:
        """The players' page on a phone (390 px) and on a laptop (1920 px): every box inside its parent and
        the window, no two side by side over each other, names never broken mid-word."""
        for width in (1920, PHONE[0]):
            phone.set_viewport_size({"width": width, "height": PHONE[1]})
            phone.evaluate(NEXT_FRAME)
            measured = phone.evaluate(room.MEASURE.replace("window.innerHeight", "Infinity"), room.PHONE_BOXES)
            assert measured["problems"] == [], (what, width, measured)
            assert phone.evaluate(shared.LAYOUT, "main > *, .now > *, .find-form > *") == [], (what, width)
            self.shot(phone, what)

    def paper(self, page: Page, path: str, what: str, pdf: bool = False) -> str:
        """The printout as the director prints it from the page: its text as Chromium lays it out for print, or
        (pdf) the A4 PDF Chromium prints, read back; runs of spaces and line ends as one space. Its screenshot
        (and PDF) kept with the others."""
        printed = page.context.new_page()
        printed.goto(self.url + path)
        printed.emulate_media(media="print")
        self.shot(printed, what)
        if not pdf:
            text = printed.inner_text("body")
            printed.close()
            return " ".join(text.split())
        made = printed.pdf(format="A4", prefer_css_page_size=True, print_background=True)
        printed.close()
        if SHOTS is not None:
            (SHOTS / f"{self.name}-{self.step:02d}-{what}.pdf").write_bytes(made)
        return " ".join(" ".join(sheet.extract_text() or "" for sheet in PdfReader(io.BytesIO(made)).pages).split())


def phone_of(rehearsal: Rehearsal, public_id: str, typed: str, name: str) -> Page:
    """A player's phone: the room's address, a few letters typed, their own name tapped."""
    phone = rehearsal.open(f"/e/{public_id}/me", *PHONE)
    phone.fill("#q", typed)
    phone.click("text=Find")
    phone.locator("#matches a", has_text=name).click()
    expect(phone.locator("#day")).to_have_attribute("data-player", name)
    return phone


def seat_of(rounds: list[dict], number: int, name: str) -> tuple[int, str] | None:
    """(table, seat letter) of a player in a round of the schedule's JSON, None when not seated."""
    for table in rounds[number - 1]["tables"]:
        if name in table["players"]:
            return table["table"], "ABCD"[table["players"].index(name)]
    return None


def number_in(text: str, pattern: str) -> int:
    found = re.search(pattern, text)
    assert found, f"{pattern!r} not in {text!r}"
    return int(found.group(1))


def public_id(desk_url: str, event_id: int) -> str:
    return httpx.get(f"{desk_url}/api/events/{event_id}/room", timeout=10).json()["public_id"]
