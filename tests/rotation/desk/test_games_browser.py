"""Game results in a real browser (Playwright driving Debian's Chromium) against `rotation serve`: a round
of game results typed in with the keyboard at 390 and 1920 px, a wrong game refused beside its box, the
points the server scored, and the layout checked (every box inside its parent, none over another)."""

from __future__ import annotations

import os

import pytest

from desk_helpers import names, seeded_event
from models.rules import Rules
from rotation.desk.core.settings import EventSettings

playwright = pytest.importorskip("playwright.sync_api")
import test_desk_browser as shared  # noqa: E402 (after the skip: Playwright may be missing)
import test_room_browser as room  # noqa: E402

expect = playwright.expect
browser = shared.browser
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(shared.CHROMIUM), reason="Debian's chromium is not installed"),
]
LONG = "Maximiliana Wolfeschlegelsteinhausenberger-Dorff"
NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
SIBLINGS = (
    ".cards > form, .card-title > *, .seat-legend > *, .game-row > label, .game-row > output, "
    ".round-picker > *, .event-nav > *, header.top > *"
)
# Per table: (winner, value, how, discarder, exposures, jokerless, dead, error) for games 1-4, as typed.
TABLE_1 = [
    ("A", "30", "self", "", "", "y", "", ""),  # A 30 + 10 + 20 = 60
    ("B", "25", "discard", "D", "3", "", "", ""),  # B 25, D -25
    ("", "", "wall", "", "", "", "C", ""),  # A, B, D 10
    ("", "", "unfinished", "", "", "", "", ""),
]
TABLE_1_TOTALS = ["70", "35", "0", "-15"]
TABLE_2 = [("C", "50", "discard", "A", "2", "", "", "")] + [("", "", "wall", "", "", "", "", "")] * 3
TABLE_2_TOTALS = ["10", "30", "80", "30"]  # A -20 + 30, B 30, C 50 + 30, D 30
COLUMNS = ("winner", "value", "how", "discarder", "exposures", "jokerless", "dead", "error")


SETTINGS = EventSettings(
    names=[LONG, *names(7)], rounds=2, title="Spring tournament", score_entry="games", rules=Rules()
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A desk with one event a width: each test types its round into empty cards."""
    db = tmp_path_factory.mktemp("games") / "desk.sqlite3"
    events = {width: seeded_event(db, SETTINGS) for width in (390, 1920)}
    desk = shared.Server(db).start()
    desk.events = events  # type: ignore[attr-defined]
    yield desk
    desk.stop()


def check_layout(page, step: str, widths=(390, 1920)) -> None:
    for width in widths:
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate(NEXT_FRAME)
        problems = page.evaluate(shared.LAYOUT, SIBLINGS)
        assert not problems, f"{step} at {width} px: {problems}"
        broken = page.evaluate(
            f"(names) => [...document.querySelectorAll(names)].flatMap({room.BROKEN_WORDS})", ".seat-legend li"
        )
        assert not broken, f"{step} at {width} px: names broken mid-word at {broken}"
        if shared.SHOTS is not None:
            shared.SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shared.SHOTS / f"games-{step}-{width}.png"), full_page=True)


def type_games(page, table: int, games) -> None:
    """Click the first box, then only the keyboard: each box typed, Tab to the next (the how select by its
    first letters), the card sent with Enter."""
    page.click(f"#table-{table} [name=game-1-winner]")
    for number, cells in enumerate(games, start=1):
        for column, text in zip(COLUMNS, cells):
            focused = page.evaluate("() => document.activeElement.name")
            assert focused == f"game-{number}-{column}", (focused, number, column)
            if column == "how":
                page.keyboard.type(text)  # a select takes the typed name
            elif text:
                page.keyboard.type(text)
            page.keyboard.press("Tab")


@pytest.mark.parametrize("width", [390, 1920])
def test_a_round_of_game_results_typed_in(browser, server, width):
    event_id = server.events[width]
    server.api("POST", f"/api/events/{event_id}/played", json={"rounds": 1})
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto(f"{server.url}/events/{event_id}/scores/1")
    check_layout(page, "empty", (width,))

    # Table 1, game 2: the winner typed as the discarder too. Refused beside its box; what was typed stays.
    wrong = [TABLE_1[0], ("B", "25", "discard", "B", "3", "", "", ""), *TABLE_1[2:]]
    type_games(page, 1, wrong)
    page.keyboard.press("Enter")
    message = page.locator("#error-t1-g2-discarder")
    expect(message).to_contain_text("seat B won: the winner did not discard the winning tile")
    row, placed = page.locator("#table-1 .game-row").nth(1).bounding_box(), message.bounding_box()
    following = page.locator("#table-1 .game-row").nth(2).bounding_box()
    assert row and placed and following
    assert row["y"] + row["height"] <= placed["y"] + 1 and placed["y"] + placed["height"] <= following["y"] + 1
    assert page.input_value("#table-1 [name=game-2-discarder]") == "B"
    assert page.input_value("#table-1 [name=game-1-value]") == "30"
    check_layout(page, "refused", (width,))
    page.fill("#table-1 [name=game-2-discarder]", "D")
    page.press("#table-1 [name=game-2-discarder]", "Enter")
    expect(page.locator("#saved")).to_have_text("Table 1: card saved.")
    assert page.locator("#table-1 .seat-legend .total").all_inner_texts() == TABLE_1_TOTALS

    type_games(page, 2, TABLE_2)
    page.keyboard.press("Enter")
    expect(page.locator("#cards-in")).to_contain_text("2 of 2 tables' cards are in")
    assert page.locator("#table-2 .seat-legend .total").all_inner_texts() == TABLE_2_TOTALS
    assert page.locator("#table-2 output.game-points").first.inner_text() == "A -20 · B 0 · C 50 · D 0"
    check_layout(page, "entered", (width,))

    page.goto(f"{server.url}/events/{event_id}/standings")
    totals = page.locator("#standings tbody td.total").all_inner_texts()
    assert sorted(map(int, totals), reverse=True) == [80, 70, 35, 30, 30, 10, 0, -15]
    context.close()


def test_the_rules_in_the_settings_and_the_rules_page_fit_the_page(browser, server):
    event_id = server.events[390]
    context = browser.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto(f"{server.url}/events/{event_id}/edit")
    page.click("#rules summary")
    assert page.input_value("[name=rules_discarder_3_exposures]") == "25"
    for width in (390, 1920):
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate(NEXT_FRAME)
        siblings = ".rule-grid > *, form.settings .row > *, #rules > *, .event-nav > *"
        problems = page.evaluate(shared.LAYOUT, siblings)
        assert not problems, f"settings at {width} px: {problems}"
        if shared.SHOTS is not None:
            page.screenshot(path=str(shared.SHOTS / f"games-settings-{width}.png"), full_page=True)
    page.goto(f"{server.url}/events/{event_id}/rules")
    for width in (390, 1920):
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate(NEXT_FRAME)
        problems = page.evaluate(shared.LAYOUT, "#rule-sheet > *, .event-nav > *")
        assert not problems, f"rules page at {width} px: {problems}"
    assert "-10 when the winner has 0-1 exposures" in page.inner_text("#rule-sheet")
    context.close()
