"""Issue 42 in Chromium, as a director drives it: a released round is not re-planned by one click, a swap
and going back in History show what they would do and ask, a rename, a backup, an event exported and
imported, the local-only warning. Layout checked at every width of the desk's browser tests (390 to 1920)."""

from __future__ import annotations

import re

import pytest
from test_desk_browser import browser, check_layout, new_event, page, server, wait_finished  # noqa: F401

from desk_helpers import names

pytestmark = pytest.mark.browser

__all__ = ["browser", "page", "server"]


def test_guards_rename_backup_and_moving_an_event(page, server, tmp_path):
    url = new_event(page, server, names(12), rounds=4, seconds=2)
    page.click("#plan")
    wait_finished(page)
    event_id = int(url.rstrip("/").split("/")[-1])

    page.goto(url + "/room")
    assert "Phones cannot reach this desk" in page.inner_text("#local-only")
    check_layout(page, "room-local-only")
    page.click("#release-form button")
    page.wait_for_load_state()

    page.goto(url)
    assert "released to the room" in page.inner_text("#released-note")
    page.click("#plan")  # without ticking "re-seat the released rounds too": refused, nothing runs
    page.wait_for_load_state()
    assert "round 1 is released to the room" in page.inner_text("#error-plan")
    assert page.locator("#run").get_attribute("data-status") != "running"
    check_layout(page, "plan-refused-after-release")

    first = page.inner_text("#round-1 .table:nth-child(1) li:nth-child(1) a")
    second = page.inner_text("#round-1 .table:nth-child(2) li:nth-child(1) a")
    page.select_option("#swap-form select[name=round]", "1")
    page.fill("#swap-form input[name=first]", first)
    page.fill("#swap-form input[name=second]", second)
    page.click("#swap-form button")
    page.wait_for_load_state()
    assert page.locator("#preview-moves li").count() == 2
    assert "round 1 is released to the room, and would change there: Table 1, Table 2" in page.inner_text(
        "#preview-effects"
    )
    check_layout(page, "swap-preview-released")
    page.click("#cancel")
    page.wait_for_load_state()
    assert page.inner_text("#round-1 .table:nth-child(1) li:nth-child(1) a") == first  # cancelled: unchanged

    page.select_option("#played-form select[name=rounds]", "1")
    page.click("#played-form button")
    page.wait_for_load_state()
    page.click("text=History")
    page.locator("table.history tbody tr").last.locator("button").click()  # back to the first plan
    page.wait_for_load_state()
    assert "round 1 would no longer be marked played" in page.inner_text("#preview-effects")
    check_layout(page, "history-go-back-asks")
    page.click("#confirm-button")
    page.wait_for_load_state()
    assert "Rounds played: 0 of 4" in page.inner_text("#day")

    page.click("text=Settings")
    assert "12 players" in page.inner_text("#players-now")
    page.fill("#rename input[name=old]", "player 03")
    page.fill("#rename input[name=new]", "Łukasz Nowak-Kowalski")
    page.click("#rename button")
    page.wait_for_load_state()
    assert "Player 03 is now Łukasz Nowak-Kowalski, everywhere." in page.inner_text("#saved-note")
    check_layout(page, "settings-renamed")
    with page.expect_download() as exported:
        page.click("#export")
    saved = tmp_path / exported.value.suggested_filename
    exported.value.save_as(saved)
    assert saved.name.endswith(".rotation.json")

    page.goto(server.url + "/backups")
    page.click("#backup-now")
    page.wait_for_load_state()
    assert "Backed up as" in page.inner_text("#backup-done") and page.locator("#backups tbody tr").count() >= 1
    check_layout(page, "backups")

    page.goto(server.url + "/")
    page.set_input_files("#import-form input[type=file]", str(saved))
    page.click("#import-form button")
    page.wait_for_load_state()
    assert f"this desk has this event already: event {event_id}" in page.inner_text("body")  # not made twice
    page.goto(server.url + "/")
    page.set_input_files("#import-form input[type=file]", str(saved))
    page.check("#import-form input[name=as_copy]")
    page.click("#import-form button")
    page.wait_for_load_state()
    imported = int(re.search(r"/events/(\d+)", page.url).group(1))  # type: ignore[union-attr]
    assert imported != event_id and "Łukasz Nowak-Kowalski" in page.inner_text("#rounds")
    check_layout(page, "imported")


LONG = "Aleksandra Wiśniewska-Kowalczyk"


def test_the_day_page_keeps_every_name_whole(page, server):
    from test_room_browser import BROKEN_WORDS

    from desk_helpers import seeded_event
    from rotation.desk.core.settings import EventSettings

    players = [LONG, "Maximiliana Wolfeschlegelstein", *names(11)]
    event_id = seeded_event(server.db, EventSettings(names=players, rounds=3, title="Long names"))
    page.goto(f"{server.url}/events/{event_id}")
    for width in (1920, 1280, 700, 600, 390, 360):
        page.set_viewport_size({"width": width, "height": 900})
        broken = page.evaluate(f"(sel) => [...document.querySelectorAll(sel)].flatMap({BROKEN_WORDS})", ".seats a")
        assert not broken, f"at {width} px names broken mid-word: {broken}"
    check_layout(page, "long-names-day")


def test_the_projectors_find_your_table_list_reads_down_columns(browser, server):  # noqa: F811
    import httpx
    from test_room_browser import DOWN_COLUMNS

    from desk_helpers import seeded_event
    from rotation.desk.core.settings import EventSettings

    event_id = seeded_event(server.db, EventSettings(names=names(81), rounds=2, title="Columns"))
    assert httpx.put(f"{server.url}/api/events/{event_id}/room", json={"minutes": 60, "pace": 3}).status_code == 200
    assert httpx.post(f"{server.url}/api/events/{event_id}/release", json={"round": 1}).status_code == 200
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    screen = context.new_page()
    screen.goto(f"{server.url}/e/{event_id}/screen")
    playwright_expect = __import__("playwright.sync_api", fromlist=["expect"]).expect
    playwright_expect(screen.locator("#page-label")).to_have_text(re.compile("^Find your table"), timeout=60_000)
    lefts = screen.evaluate(
        "() => new Set([...document.querySelectorAll('#find .entry')].map((e) => e.getBoundingClientRect())"
        ".filter((b) => b.width > 0).map((b) => Math.round(b.left))).size"
    )
    assert lefts >= 2  # several columns on a projector
    assert screen.evaluate(DOWN_COLUMNS)
    assert screen.locator("#find .entry.three .mark").count() == 9  # 81 players: three tables of three, marked
    context.close()
