"""A series in a real browser (Playwright driving Debian's Chromium) against `rotation serve`: the first
night made with a series, the series page, tonight's attendance ticked with a guest added, the next night
planned against the series, and the members' opponents; at every width (1920 to 390 px) every box inside
its parent and no two side by side overlapping."""

from __future__ import annotations

import os
from urllib.parse import quote

import pytest

from desk_helpers import names

playwright = pytest.importorskip("playwright.sync_api")
import test_desk_browser as shared  # noqa: E402 (after the skip: Playwright may be missing)

expect = playwright.expect
browser, page, server = shared.browser, shared.page, shared.server  # the same fixtures, one for each module
pytestmark = pytest.mark.skipif(not os.path.exists(shared.CHROMIUM), reason="Debian's chromium is not installed")
SERIES = "Thursday league"
LONG = "Maximiliana Wolfeschlegelsteinhausenberger-Dorff"
SIBLINGS = shared.SIBLINGS + ", .attendance > label"


def check_layout(page, step: str) -> None:
    for width in shared.WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        problems = page.evaluate(shared.LAYOUT, SIBLINGS)
        assert not problems, f"{step} at {width} px: {problems}"
        if shared.SHOTS is not None:
            shared.SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shared.SHOTS / f"series-{step}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_the_next_night_of_a_series_from_tonights_attendance(page, server):
    members = [LONG, *names(11)]
    page.goto(server.url + "/events/new")
    page.fill("input[name=title]", "Night 1")
    page.fill("input[name=series]", SERIES)
    page.fill("textarea[name=names]", "\n".join(members))
    page.fill("input[name=rounds]", "2")
    page.fill("input[name=time_limit]", "2")
    page.click("text=Create the event")
    page.click("#plan")
    shared.wait_finished(page)
    page.click(f"nav.event-nav >> text=Series: {SERIES}")
    expect(page.locator("#series-name")).to_have_text(SERIES)
    expect(page.locator("#member-table tbody tr")).to_have_count(12)
    check_layout(page, "first-night")
    for member in members[:10]:  # two members stay home
        page.check(f"input[name=present][value='{member}']")
    page.fill("#guests", "Gail Guest\nGail Guest")  # a guest typed twice is refused beside the box
    page.click("#plan-next")
    expect(page.locator("#error-guests")).to_contain_text("appears twice")
    expect(page.locator(f"input[name=present][value='{members[0]}']")).to_be_checked()  # the ticks stay
    check_layout(page, "refused")
    page.fill("#guests", "Gail Guest\nHal Guest")
    page.click("#plan-next")
    page.wait_for_selector("#plan, #run")
    shared.wait_finished(page)
    expect(page.locator("body")).to_contain_text("against 1 earlier night of the series")
    page.goto(f"{server.url}/series/{quote(SERIES, safe='')}")
    expect(page.locator("#nights li")).to_have_count(2)
    expect(page.locator("#member-table tbody tr")).to_have_count(14)
    row = page.locator("#member-table tr[data-member='Gail Guest']")
    expect(row).to_contain_text("1 of 2")
    check_layout(page, "second-night")
    page.goto(server.url + "/")
    expect(page.locator("#series-list")).to_contain_text(SERIES)
    check_layout(page, "index")
