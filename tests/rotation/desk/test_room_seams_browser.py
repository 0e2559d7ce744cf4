"""Where the room's features meet, in Chromium (issue 53): a session released at once on the projector
(1920x1080) and a phone (390x844) as rounds are played; the projector readable in a dark room; the room
panel and the event's page at 1920 px (Reset apart from Pause, asking first, a focus ring that shows) and
on a 1366x768 laptop ("the day changed" at the top, a typed swap kept across a reload, one likely
spelling offered as the fix); no page asks for an icon that is not there.

The desk runs in this process (uvicorn in a thread), as in test_room_browser."""

from __future__ import annotations

import os
import re
import socket
import threading
import time

import httpx
import pytest

from desk_helpers import names, seeded_event
from rotation.desk.app import create_app
from rotation.desk.core.settings import EventSettings

playwright = pytest.importorskip("playwright.sync_api")
import test_desk_browser as shared  # noqa: E402 (after the skip: Playwright may be missing)
import test_room_browser as room  # noqa: E402

uvicorn = pytest.importorskip("uvicorn")

browser = shared.browser
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(shared.CHROMIUM), reason="Debian's chromium is not installed"),
]
OBRIEN = "Seán O'Brien"
PLAYERS = [OBRIEN, *names(23)]


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    db = tmp_path_factory.mktemp("seams") / "desk.sqlite3"
    session = seeded_event(db, EventSettings(names=PLAYERS, rounds=6, session_rounds=3, title="Open"))
    day = seeded_event(db, EventSettings(names=PLAYERS, rounds=4, title="Day", time_limit=1))
    yield from _served(db, {"session": session, "day": day})


def _served(db, events: dict):
    """The desk over the file, on a free port, in a thread of this process."""
    app = create_app(db)
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
    yield {"url": url, **events, "api": httpx.Client(base_url=url, timeout=10)}
    server.should_exit = True
    thread.join(timeout=10)


def icon(page) -> int | None:
    """The answer to the page's own icon (Chromium fetches it outside the page's responses): its status."""
    return page.evaluate(
        """() => { const link = document.querySelector("link[rel=icon]");
        return link ? fetch(link.href).then((answer) => answer.status) : null; }"""
    )


# The relative luminance of a CSS colour (WCAG 2), and the contrast of two.
LUMINANCE = r"""(colour) => {
  const [r, g, b] = colour.match(/[\d.]+/g).slice(0, 3).map((c) => {
    c = Number(c) / 255;
    return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}"""


def contrast(page, first: str, second: str) -> float:
    a, b = (page.evaluate(LUMINANCE, colour) for colour in (first, second))
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


def test_a_session_released_at_once_shows_its_first_round_and_moves_on_as_rounds_are_played(browser, desk):
    url, event_id, api = desk["url"], desk["session"], desk["api"]
    public_id = api.get(f"/api/events/{event_id}/room").json()["public_id"]
    assert api.post(f"/api/events/{event_id}/release/session", json={}).json()["released"] == [1, 2, 3]
    screen = room.opened(browser, f"{url}/e/{event_id}/screen", 1920, 1080)
    assert screen.inner_text("#screen-title strong") == "Round 1"

    # Readable in a dark room from its back: dark cards with light type, a QR code about 240 px.
    card = screen.locator(".card").first
    background, colour = card.evaluate("(el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]")
    assert screen.evaluate(LUMINANCE, background) < 0.1 and contrast(screen, background, colour) >= 7
    qr = screen.locator("#qr svg").bounding_box()
    assert qr and qr["width"] >= 220 and qr["height"] >= 220, qr
    assert screen.locator("#full-screen").is_visible()
    measured = screen.evaluate(room.MEASURE, room.SCREEN_BOXES)
    assert measured["problems"] == [] and screen.evaluate(room.OVERLAPS) == [], measured

    # A phone: a curly apostrophe finds O'Brien; round 1 now, rounds 2 and 3 coming, nothing earlier.
    phone = room.opened(browser, f"{url}/e/{public_id}/me", 390, 844)
    phone.fill("#q", "o’brien")
    phone.click("text=Find")
    phone.click("#matches a")
    assert phone.inner_text("#now .round-no") == "Round 1"
    assert [re.match(r"Round (\d)", line).group(1) for line in phone.locator("#coming li").all_inner_texts()] == [
        "2",
        "3",
    ]
    assert phone.locator("#earlier").count() == 0
    assert phone.evaluate(room.MEASURE, room.PHONE_BOXES)["problems"] == []
    phone.evaluate("window.notReloaded = true")

    # Round 1 is played: both move on to round 2, without a reload.
    assert api.post(f"/api/events/{event_id}/played", json={"rounds": 1}).status_code == 200
    room.until(screen, "document.querySelector('#screen-title strong').textContent === 'Round 2'")
    room.until(phone, "document.querySelector('#now .round-no').textContent === 'Round 2'", seconds=20)
    rounds = api.get(f"/api/events/{event_id}/schedule").json()["rounds"]
    table = next(t for t in rounds[1]["tables"] if OBRIEN in t["players"])
    assert phone.inner_text("#my-table") == f"Table {table['table']}"
    assert phone.locator("#coming li").count() == 1 and phone.locator("#earlier li").count() == 1
    assert screen.evaluate("window.notReloaded") and phone.evaluate("window.notReloaded")
    assert icon(screen) == icon(phone) == 200
    screen.context.close()
    phone.context.close()


def test_the_room_panel_asks_before_reset_and_take_back_and_shows_where_the_keyboard_is(browser, desk):
    url, event_id, api = desk["url"], desk["day"], desk["api"]
    api.post(f"/api/events/{event_id}/release", json={"round": 1})
    page = room.opened(browser, f"{url}/events/{event_id}/room", 1920, 1080)
    assert page.evaluate(shared.LAYOUT, shared.SIBLINGS) == []
    pause, reset = page.locator("#timer-toggle").bounding_box(), page.locator("#timer-reset").bounding_box()
    assert page.locator("#timer-form #timer-reset").count() == 0  # not in Pause's form
    assert abs(reset["x"] - pause["x"]) + abs(reset["y"] - pause["y"]) > 200, (pause, reset)  # nor beside it
    page.fill("#extend-form input[name=minutes]", "3")  # typed, not sent, before Reset is asked about
    page.fill("#room-settings input[name=minutes]", "45")
    page.click("#timer-reset")
    assert page.inner_text("h1") == "Reset the round's timer?"
    page.click("#cancel")  # "Cancel: change nothing": back to the room with what was typed still in its boxes
    assert page.input_value("#extend-form input[name=minutes]") == "3"
    assert page.input_value("#room-settings input[name=minutes]") == "45"
    page.click("#withdraw-form button")
    assert page.inner_text("h1") == "Take round 1 back?"
    assert api.get(f"/api/events/{event_id}/room").json()["released"] == [1]  # nothing taken back yet
    page.click("#confirm-button")
    page.wait_for_url(re.compile(r"/room$"))
    assert api.get(f"/api/events/{event_id}/room").json()["released"] == []

    # The keyboard's place on a navy button: a ring at least 2 px wide, 3:1 against the panel.
    page.focus("body")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.tagName") == "BUTTON":
            break
    ring = page.evaluate(
        """() => { const el = document.activeElement, style = getComputedStyle(el);
        return {width: parseFloat(style.outlineWidth), style: style.outlineStyle, colour: style.outlineColor,
                panel: getComputedStyle(el.closest('.panel') || document.body).backgroundColor}; }"""
    )
    assert ring["style"] != "none" and ring["width"] >= 2 and contrast(page, ring["colour"], ring["panel"]) >= 3, ring
    assert icon(page) == 200
    page.context.close()


def test_the_event_page_on_a_laptop_keeps_what_was_typed_says_what_changed_and_offers_the_spelling(browser, desk):
    url, event_id, api = desk["url"], desk["day"], desk["api"]
    page = room.opened(browser, f"{url}/events/{event_id}", 1366, 768)
    # A swap typed, then the page reloads (a re-plan ending reloads it): what was typed is still there.
    page.select_option("#swap-form select[name=round]", "3")
    page.fill("#swap-form input[name=first]", "sean obrien")
    page.fill("#swap-form input[name=second]", "Player 05")
    page.reload()
    assert page.input_value("#swap-form select[name=round]") == "3"
    assert page.input_value("#swap-form input[name=first]") == "sean obrien"
    # One likely spelling: offered as the fix, one click to the swap's preview.
    page.click("#swap-form button[type=submit]")
    fix = page.locator("#error-swap button.fix")
    assert fix.inner_text() == f"Use “{OBRIEN}”"
    fix.click()
    page.wait_for_selector("#preview-moves")
    assert OBRIEN in page.inner_text("#preview-moves")
    page.click("#cancel")
    # The day changes in another tab; a change made from this page says so, at the top, and what changed.
    page.select_option("#played-form select[name=rounds]", "1")
    other = {"round": 4, "first": "Player 01", "second": "Player 02", "confirm": True}
    assert api.post(f"/api/events/{event_id}/swap", json=other).status_code == 200
    page.click("#played-form button[type=submit]")
    notice = page.locator("#day-moved")
    assert "round 4: Player 01 and Player 02 swapped" in notice.inner_text()
    box = notice.bounding_box()
    assert box and box["y"] + box["height"] <= 768, box  # above the fold
    assert page.evaluate(shared.LAYOUT, shared.SIBLINGS) == []
    assert icon(page) == 200
    page.context.close()
