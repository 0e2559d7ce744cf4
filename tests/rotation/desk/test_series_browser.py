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
import test_room_browser as room  # noqa: E402

expect = playwright.expect
browser, page, server = shared.browser, shared.page, shared.server  # the same fixtures, one for each module
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(shared.CHROMIUM), reason="Debian's chromium is not installed"),
]
SERIES = "Thursday league"
LONG = "Maximiliana Wolfeschlegelsteinhausenberger-Dorff"
SIBLINGS = shared.SIBLINGS + ", .attendance > label"
NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def check_layout(page, step: str) -> None:
    for width in shared.WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate(NEXT_FRAME)  # the page's own resize handlers have run (a wide table becomes cards)
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


def test_the_series_standings_on_the_projector(browser, tmp_path):
    """Two scored nights of a series, its rule saved on the series page, then the director puts the series'
    standings on the projector from tonight's standings page: at 1920x1080 the top places, every box
    inside its parent, no two boxes of a row over each other, names 32 px or more and never broken."""
    from desk_helpers import seeded_event
    from rotation.desk.core.settings import EventSettings

    members = [LONG, *names(11)]
    db = tmp_path / "desk.sqlite3"
    nights = [
        seeded_event(db, EventSettings(names=members, rounds=2, series=SERIES, title=f"Night {number}"))
        for number in (1, 2)
    ]
    desk = shared.Server(db).start()
    try:
        for number, event_id in enumerate(nights, start=1):
            desk.api("POST", f"/api/events/{event_id}/played", json={"rounds": 1})
            for table in desk.api("GET", f"/api/events/{event_id}/schedule")["rounds"][0]["tables"]:
                points = {
                    name: [1000 * number * (4 - seat) + 7, 0, -3, 0] for seat, name in enumerate(table["players"])
                }
                desk.api(
                    "POST",
                    f"/api/events/{event_id}/cards",
                    json={"round": 1, "table": table["table"], "points": points},
                )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{desk.url}/series/{quote(SERIES, safe='')}")
        page.select_option("#rule-form select[name=rule]", "best")
        page.fill("#rule-form input[name=best]", "1")
        page.click("#rule-form button")
        page.click("#save-rule")
        expect(page.locator("#saved-rule")).to_contain_text("The series ranks by the best 1 nights' totals")
        check_layout(page, "rule-saved")
        page.goto(f"{desk.url}/events/{nights[1]}/standings")
        expect(page.locator("#series-screen-form")).to_contain_text("ranked by the best 1 nights' totals")
        check_layout(page, "series-screen-off")
        screen = browser.new_page(viewport={"width": 1920, "height": 1080})
        screen.goto(f"{desk.url}/e/{nights[1]}/screen")
        assert screen.locator("#standings").count() == 0
        page.fill("#series-screen-top", "5")
        page.click("#series-screen-toggle")
        expect(page.locator("#series-screen-form")).to_contain_text("The projector shows the standings of")
        expect(page.locator("#screen-form")).to_contain_text("The projector shows the series' standings (below)")
        screen.wait_for_selector("#standings .standing.season", timeout=15_000)  # its poll reloads it
        expect(screen.locator("#screen-title strong")).to_have_text("Season standings after 2 nights")
        expect(screen.locator("#page-label")).to_contain_text("Season standings after 2 nights: the best 1 nights")
        season = desk.api("GET", f"/api/series/{quote(SERIES, safe='')}/standings")["season"]
        top = [row for row in season["rows"] if row["rank"] <= 5]
        assert screen.locator("#standings .standing:visible").count() == len(top) < len(members)
        assert screen.locator("#standings .standing .name").first.inner_text() == top[0]["player"]
        boxes = (
            ".standing > *, #standings > *, #standings-notes > *, .screen-foot > *, .foot-text > *, .standings-head > *"
        )
        measured = screen.evaluate(room.MEASURE, boxes)
        assert measured["problems"] == [] and measured["smallest"] >= 32, measured
        assert screen.evaluate(shared.LAYOUT, ".standing > *, #standings > *, body > *") == []
        if shared.SHOTS is not None:
            screen.screenshot(path=str(shared.SHOTS / "series-projector-1920.png"))
        page.click("#series-screen-toggle")
        screen.wait_for_selector("#waiting", timeout=15_000)  # back to the round (none released yet)
    finally:
        desk.stop()


def test_two_directors_change_one_roster(page, browser, server):
    """Two browser contexts on one series page: the first adds a member; the second, from the page as it
    was, unticks 'rank guests' and is refused with the roster now (the new member listed), its box as left;
    the names it types after the first adds another are kept in their box, and sent again they are added."""
    series_name = "Roster in two hands"
    page.goto(server.url + "/events/new")
    page.fill("input[name=title]", "Night 1")
    page.fill("input[name=series]", series_name)
    page.fill("textarea[name=names]", "\n".join(names(8)))
    page.fill("input[name=rounds]", "1")
    page.click("text=Create the event")
    url = f"{server.url}/series/{quote(series_name, safe='')}"
    other_context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        other = other_context.new_page()
        page.goto(url)
        other.goto(url)
        page.fill("#new-members", "Nell New")
        page.click("#add-members")
        expect(page.locator("#member-table")).to_contain_text("Nell New")
        other.uncheck("#guests-ranked")
        other.click("#save-guests")
        expect(other.locator("#error-guests_ranked")).to_contain_text("changed in another tab")
        expect(other.locator("#guests-ranked")).not_to_be_checked()
        expect(other.locator("#member-table")).to_contain_text("Nell New")
        check_layout(other, "roster-refused")
        page.fill("#new-members", "Olga Other")
        page.click("#add-members")
        expect(page.locator("#member-table")).to_contain_text("Olga Other")
        other.fill("#new-members", "Pia Pal")
        other.click("#add-members")
        expect(other.locator("#error-members")).to_contain_text("changed in another tab")
        expect(other.locator("#new-members")).to_have_value("Pia Pal")
        expect(other.locator("#member-table")).to_contain_text("Olga Other")
        other.click("#add-members")
        expect(other.locator("#member-table")).to_contain_text("Pia Pal")
        expect(other.locator("#guests-ranked")).to_be_checked()  # the refused untick never landed
    finally:
        other_context.close()
