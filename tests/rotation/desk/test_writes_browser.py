"""Two directors on one score card, in a real browser (Playwright driving Debian's Chromium) against
`rotation serve` (issues 53 and 57): both open round 1's scores, the first saves table 1's card, the second
saves the card it typed from the page it opened before. The second is refused, sees the card as it is now
beside what it typed (kept in the boxes), above the fold; saved again, its card is the table's and the
first one stays in the history. The page's boxes sit inside their parents at every width."""

from __future__ import annotations

import os

import pytest

from desk_helpers import names, seeded_event
from rotation.desk.core.settings import EventSettings

playwright = pytest.importorskip("playwright.sync_api")
import test_desk_browser as shared  # noqa: E402 (after the skip: Playwright may be missing)
from test_scores_browser import NEXT_FRAME, SIBLINGS, fill_card  # noqa: E402

expect = playwright.expect
browser = shared.browser  # the same browser fixture, one for each module
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(shared.CHROMIUM), reason="Debian's chromium is not installed"),
]
FIRST = [[10, 0, 0, 0], [0, 20, 0, 0], [0, 0, -5, 0], [0, 0, 0, 3]]
SECOND = [[10, 0, 0, 0], [0, 21, 0, 0], [0, 0, -5, 0], [0, 0, 0, 3]]  # game 2 was 21, says the other director


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("writes") / "desk.sqlite3"
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=2, title="Two hands"))
    desk = shared.Server(db).start()
    desk.event = event_id  # type: ignore[attr-defined]
    yield desk
    desk.stop()


def test_two_directors_on_one_card_the_second_sees_it_as_it_is_now_and_what_it_typed(browser, server):
    event_id = server.event
    server.api("POST", f"/api/events/{event_id}/played", json={"rounds": 1})
    one, two = (browser.new_context(viewport={"width": 1280, "height": 768}) for _ in range(2))
    first, second = one.new_page(), two.new_page()
    for page in (first, second):
        page.goto(f"{server.url}/events/{event_id}/scores/1")
    fill_card(first, 1, FIRST)
    first.click("#table-1 button[type=submit]")
    expect(first.locator("#saved")).to_have_text("Table 1: card saved.")

    fill_card(second, 1, SECOND)
    second.click("#table-1 button[type=submit]")
    message = second.locator("#error-t1")
    expect(message).to_contain_text("this card changed while you were editing it")
    expect(second.locator("#not-saved-1")).to_be_in_viewport()  # the top of the page says which card
    assert second.input_value("#table-1 input[name=points-1-2]") == "21"  # what was typed, kept
    now = second.locator("#card-now-1")
    expect(now).to_be_visible()
    rows = [row.locator("td").all_inner_texts() for row in now.locator("tbody tr").all()]
    assert rows == [[str(p) for p in games] + [str(sum(games))] for games in FIRST]  # the card as it is now
    second.click("#not-saved-1 a")
    expect(message).to_be_in_viewport()
    for width in shared.WIDTHS:
        second.set_viewport_size({"width": width, "height": 768})
        second.evaluate(NEXT_FRAME)
        problems = second.evaluate(shared.LAYOUT, SIBLINGS + ", .card-now tr > *")
        assert not problems, f"the refused card at {width} px: {problems}"
        if shared.SHOTS is not None:
            shared.SHOTS.mkdir(parents=True, exist_ok=True)
            second.screenshot(path=str(shared.SHOTS / f"card-two-hands-{width}.png"), full_page=True)
    second.set_viewport_size({"width": 1280, "height": 768})

    second.click("#table-1 button[type=submit]")  # checked: saved again, made from the card as it is now
    expect(second.locator("#saved")).to_have_text("Table 1: card saved.")
    history = server.api("GET", f"/api/events/{event_id}/cards/1/1/history")
    assert [entry["card"]["points"][1][1] for entry in history] == [21, 20]
    first.reload()
    assert first.input_value("#table-1 input[name=points-1-2]") == "21"
    one.close()
    two.close()
