"""Scores in a real browser (Playwright driving Debian's Chromium) against `rotation serve`: a round's
cards typed in, a wrong box refused beside it, the live totals, the standings, and the standings on
the projector; at 1920, 1280, 700, 600 and 390 px every box inside its parent, no card or box over another,
no name broken mid-word."""

from __future__ import annotations

import os

import pytest

from desk_helpers import names, seeded_event
from rotation.desk.core.settings import EventSettings

playwright = pytest.importorskip("playwright.sync_api")
import test_desk_browser as shared  # noqa: E402 (after the skip: Playwright may be missing)
import test_room_browser as room  # noqa: E402

expect = playwright.expect
browser = shared.browser  # the same browser fixture, one for each module
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(shared.CHROMIUM), reason="Debian's chromium is not installed"),
]
LONG = "Maximiliana Wolfeschlegelsteinhausenberger-Dorff"
PLAYERS = [LONG, *names(8)]  # nine: one sits out each round
NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
NAMES = ".seat-row .player, table.standings .player"  # a name whole on every width
SIBLINGS = ".cards > form, .seat-row > *, .card-title > *, .round-picker > *, .event-nav > *, header.top > *"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("scores") / "desk.sqlite3"
    settings = EventSettings(names=PLAYERS, rounds=3, odd="sit-out", sit_out_scoring="average", title="Club night")
    event_id = seeded_event(db, settings)
    desk = shared.Server(db).start()
    desk.event = event_id  # type: ignore[attr-defined]
    yield desk
    desk.stop()


def check_layout(page, step: str) -> None:
    for width in shared.WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate(NEXT_FRAME)  # the page's own resize handlers have run
        problems = page.evaluate(shared.LAYOUT, SIBLINGS)
        assert not problems, f"{step} at {width} px: {problems}"
        broken = page.evaluate(f"(names) => [...document.querySelectorAll(names)].flatMap({room.BROKEN_WORDS})", NAMES)
        assert not broken, f"{step} at {width} px: names broken mid-word at {broken}"
        if shared.SHOTS is not None:
            shared.SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shared.SHOTS / f"scores-{step}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def box(page, selector: str) -> dict:
    found = page.locator(selector).bounding_box()
    assert found, selector
    return found


def fill_card(page, table: int, rows: list[list[int]]) -> None:
    for seat, games in enumerate(rows):
        for game, points in enumerate(games, start=1):
            page.fill(f"#table-{table} input[name=points-{seat}-{game}]", str(points))


def test_a_rounds_cards_typed_in_make_the_standings(browser, server):
    event_id = server.event
    server.api("POST", f"/api/events/{event_id}/played", json={"rounds": 1})
    tables = server.api("GET", f"/api/events/{event_id}/schedule")["rounds"][0]
    out = tables["sit_outs"][0]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{server.url}/events/{event_id}")
    page.click("nav.event-nav >> text=Scores")
    assert page.inner_text("#cards-in").startswith("0 of 2 tables' cards are in")
    assert page.locator("#table-1 .player").all_inner_texts() == tables["tables"][0]["players"]
    check_layout(page, "empty")

    # Table 1: a typo in one box. The live total leaves that row blank, the server refuses it beside the box.
    first = [[10, 0, 0, 0], [0, 20, 0, 0], [0, 0, -5, 0], [0, 0, 0, 3]]
    fill_card(page, 1, first)
    assert page.locator("#table-1 output.total").all_inner_texts() == ["10", "20", "-5", "3"]
    page.fill("#table-1 input[name=points-1-3]", "1O")
    assert page.locator("#table-1 output.total").all_inner_texts() == ["10", "", "-5", "3"]
    page.fill("#table-2 input[name=points-0-1]", "7")  # table 2 begun, not sent
    page.click("#table-1 button[type=submit]")
    message = page.locator("#error-t1-1-3")
    assert "'1O' is not a whole number of points" in message.inner_text()
    seats = page.locator("#table-1 .seat-row:not(.head)")
    row_b, row_c, placed = seats.nth(1).bounding_box(), seats.nth(2).bounding_box(), box(page, "#error-t1-1-3")
    wrong = box(page, "#table-1 input[name=points-1-3]")
    assert row_b and row_c
    assert row_b["y"] + row_b["height"] <= placed["y"] + 1 and placed["y"] + placed["height"] <= row_c["y"] + 1
    assert wrong["y"] < placed["y"]  # right under the row of its box, above the next player's row
    assert page.input_value("#table-1 input[name=points-1-3]") == "1O"  # what was typed stays
    assert page.input_value("#table-1 input[name=points-0-1]") == "10"
    assert page.input_value("#table-2 input[name=points-0-1]") == "7"  # another card's typing survives the reload
    check_layout(page, "refused")
    page.fill("#table-1 input[name=points-1-3]", "0")
    assert page.locator("#table-1 output.total").all_inner_texts() == ["10", "20", "-5", "3"]
    page.click("#table-1 button[type=submit]")
    assert page.inner_text("#saved") == "Table 1: card saved."

    fill_card(page, 2, [[1, 1, 1, 1], [2, 2, 2, 2], [-1, -1, -1, -1], [0, 0, 0, 0]])
    page.click("#table-2 button[type=submit]")
    expect(page.locator("#cards-in")).to_contain_text("2 of 2 tables' cards are in")
    assert page.locator("#table-2 output.total").all_inner_texts() == ["4", "8", "-4", "0"]  # from the server
    check_layout(page, "entered")

    # The standings: 36 points over the 8 who played is 4.5, so the sit-out scores 5, marked *.
    page.click("#round-picker >> text=Standings")
    assert page.inner_text("#standings-heading") == "Standings after round 1 of 3"
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 9
    totals = [int(rows.nth(i).locator("td.total").inner_text()) for i in range(9)]
    assert totals == [20, 10, 8, 5, 4, 3, 0, -4, -5]
    sat = page.locator("#standings tbody tr", has_text=out)
    assert sat.locator("td.round-cell").inner_text() == "5*" and sat.locator("td.place").inner_text() == "4"
    assert "round 1 5" in page.inner_text("#footnotes")
    check_layout(page, "standings")
    page.evaluate(NEXT_FRAME)
    assert "as-cards" not in (page.get_attribute("#standings", "class") or "")  # three rounds fit as a table

    # On the projector, when the director says so: it takes them without a reload.
    screen = context.new_page()
    screen.set_viewport_size({"width": 1920, "height": 1080})
    screen.goto(f"{server.url}/e/{event_id}/screen")
    assert screen.locator("#standings").count() == 0
    screen.evaluate("window.notReloaded = true")
    page.click("#screen-toggle")
    expect(page.locator("#screen-form")).to_contain_text("The projector shows the standings")
    screen.wait_for_selector("#standings .standing", timeout=15_000)
    assert screen.evaluate("window.notReloaded")
    assert screen.locator("#standings .standing:visible").count() == 9
    measured = screen.evaluate(
        room.MEASURE, ".standing > *, #standings > *, #standings-notes > *, .screen-foot > *, .foot-text > *"
    )
    assert measured["problems"] == [], measured
    assert measured["smallest"] is not None and measured["smallest"] >= 32, measured
    assert "sat out" in screen.inner_text("#standings-notes")
    if shared.SHOTS is not None:
        screen.screenshot(path=str(shared.SHOTS / "scores-projector-1920.png"))
    context.close()


def test_fifteen_rounds_of_standings_fit_the_projector_beside_a_long_name(browser, tmp_path):
    """Past what fits, the first rounds are summed in one column: at 1920x1080 every box stays inside its
    row and no word of a name is broken, names at 40 px."""
    people = [LONG, *names(20)]
    event_id = seeded_event(
        tmp_path / "desk.sqlite3",
        EventSettings(names=people, rounds=15, odd="sit-out", sit_out_scoring="average"),
    )
    desk = shared.Server(tmp_path / "desk.sqlite3").start()
    try:
        desk.api("POST", f"/api/events/{event_id}/played", json={"rounds": 15})
        schedule = desk.api("GET", f"/api/events/{event_id}/schedule")
        for number, round_ in enumerate(schedule["rounds"], start=1):
            for table in round_["tables"]:
                points = {name: [-120, 300, number, 1] for name in table["players"]}
                desk.api(
                    "POST",
                    f"/api/events/{event_id}/cards",
                    json={"round": number, "table": table["table"], "points": points},
                )
        desk.api("PUT", f"/api/events/{event_id}/screen/standings", json={"show": True})
        screen = browser.new_page(viewport={"width": 1920, "height": 1080})
        screen.goto(f"{desk.url}/e/{event_id}/screen")
        heads = screen.locator(".standings-head .points").all_inner_texts()
        assert heads[0].startswith("R1–") and heads[-1] == "R15" and len(heads) < 15
        measured = screen.evaluate(
            room.MEASURE, ".standing > *, #standings > *, .standings-head > *, .screen-foot > *, .foot-text > *"
        )
        assert measured["problems"] == [] and measured["smallest"] >= 39, measured
        screen.close()
        # The desk's standings: a table while it fits, else a card a player; a name never cut in two.
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{desk.url}/events/{event_id}/standings")
        for width, as_cards in ((1920, True), (1280, True), (390, True)):  # 15 rounds and this name: 1200 px is short
            page.set_viewport_size({"width": width, "height": 900})
            page.evaluate(NEXT_FRAME)
            assert ("as-cards" in (page.get_attribute("#standings", "class") or "")) is as_cards, width
            assert page.evaluate(shared.LAYOUT, "#standings tr > *") == [], width
            broken = [
                page.evaluate(room.BROKEN_WORDS, cell) for cell in page.query_selector_all("#standings td.player")
            ]
            assert not any(broken), (width, broken)
        page.close()
    finally:
        desk.stop()
