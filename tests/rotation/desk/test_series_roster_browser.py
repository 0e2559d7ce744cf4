"""A series' roster in a real browser (Playwright driving Debian's Chromium) against `rotation serve`
(issue 53): a member added with their number before they play, every member ticked at once, a returning
guest made a member in the same step as tonight's attendance, and the guests left out of the series'
standings; at every width every box inside its parent and no two side by side overlapping."""

from __future__ import annotations

import os
from urllib.parse import quote

import pytest

from desk_helpers import names, seeded_event
from rotation.desk.core.settings import EventSettings

playwright = pytest.importorskip("playwright.sync_api")
import test_desk_browser as shared  # noqa: E402 (after the skip: Playwright may be missing)
import test_series_browser as series_browser  # noqa: E402

expect = playwright.expect
browser = shared.browser  # the same fixture, one for each module
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(shared.CHROMIUM), reason="Debian's chromium is not installed"),
]
SERIES = "Tuesday league"


def test_the_roster_a_new_member_tick_all_and_a_returning_guest_made_a_member(browser, tmp_path):
    members = names(7)
    db = tmp_path / "desk.sqlite3"
    seeded_event(db, EventSettings(names=[*members, "Max Member"], rounds=1, series=SERIES, title="Night 1"))
    second = [*members, "Gina Guest"]
    seeded_event(db, EventSettings(names=second, guests=["Gina Guest"], rounds=1, series=SERIES, title="Night 2"))
    desk = shared.Server(db).start()
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        url = f"{desk.url}/series/{quote(SERIES, safe='')}"
        page.goto(url)
        expect(page.locator("input[name=present]")).to_have_count(8)  # Gina came as a guest: not a member yet
        expect(page.locator("#returning input[name=join]")).to_have_count(1)
        page.fill("#new-members", "name,id\nNora New,77")
        page.click("#add-members")
        expect(page.locator("#member-table tr[data-member='Nora New']")).to_contain_text("77")
        expect(page.locator("#member-table tr[data-member='Nora New']")).to_contain_text("0 of 2")
        series_browser.check_layout(page, "roster-added")
        page.click("#tick-all")
        for box in page.locator("input[name=present]").all():
            expect(box).to_be_checked()
        expect(page.locator("input[name=present]")).to_have_count(9)
        page.check("#returning input[name=join][value='Gina Guest']")
        series_browser.check_layout(page, "roster-ticked")
        page.click("#plan-next")
        page.wait_for_selector("#plan, #run")
        shared.wait_finished(page)
        event = desk.api("GET", page.url.replace(desk.url, "/api").split("#")[0])
        assert sorted(event["settings"]["names"]) == sorted([*members, "Max Member", "Nora New", "Gina Guest"])
        assert event["settings"]["guests"] == [] and event["settings"]["ids"] == {"Nora New": "77"}
        page.goto(url)
        expect(page.locator("input[name=present]")).to_have_count(10)  # Gina is a member now
        expect(page.locator("#returning")).to_have_count(0)
        expect(page.locator("#member-table tr[data-member='Gina Guest']")).not_to_contain_text("(guest)")
        page.uncheck("#guests-ranked")
        page.click("#save-guests")
        expect(page.locator("#guests-ranked")).not_to_be_checked()
        series_browser.check_layout(page, "roster-guests-out")
    finally:
        desk.stop()
