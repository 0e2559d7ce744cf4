"""Where the director's page meets another hand on the day (issue 53): a change refused because the day
changed says what changed, at the top of the page; a refused name with one likely spelling offers it as
a one-click fix."""

from __future__ import annotations

import re

from desk_helpers import names, seeded_event, token_of
from rotation.desk.core.settings import EventSettings


def test_a_change_made_from_an_old_day_says_at_the_top_what_changed(db, client):
    event_id = seeded_event(db, EventSettings(names=names(16), rounds=4))
    page = client.get(f"/events/{event_id}").text
    base = re.search(r'id="played-form">\s*<input[^>]*>\s*<input type="hidden" name="base" value="(\d+)"', page)
    swap = {"round": 3, "first": "Player 01", "second": "Player 16", "confirm": True}
    assert client.post(f"/api/events/{event_id}/swap", json=swap).status_code == 200  # another tab
    refused = client.post(
        f"/events/{event_id}/played", data={"csrf": token_of(page), "base": base.group(1), "rounds": "1"}
    )
    assert refused.status_code == 409
    notice = re.search(r'<div class="note" id="day-moved" role="alert">(.*?)</div>', refused.text, re.S)
    assert notice and "round 3: Player 01 and Player 16 swapped" in notice.group(1)
    assert refused.text.index('id="day-moved"') < refused.text.index('id="planning"')  # above everything else
