"""The director's pages in the director's words (TestClient, issue 53): what the day asks for folded away
when it is long, the names box saying which files it takes, and the plan's method and proof in plain
sentences with the exact terms kept in the JSON."""

from __future__ import annotations

import re

from desk_helpers import names, seeded_event, token_of
from rotation.desk.events.settings import EventSettings


def test_a_club_list_is_folded_away_on_the_day_page(client, db):
    """The Day page opened with a ten-line 'clubs to spread' list above the plan."""
    players = names(40)
    clubs = [players[number::10] for number in range(10)]
    event_id = seeded_event(db, EventSettings(names=players, rounds=3, spread=clubs))
    page = client.get(f"/events/{event_id}").text
    summary = re.search(r'<details class="quiet requests" id="spread"><summary>([^<]*)</summary>', page)
    assert summary is not None and summary.group(1) == "Clubs to spread: 10 (40 players)"
    assert "Requests: clubs to spread" not in page and page.count(f"<li>{', '.join(clubs[0])}</li>") == 1


def test_the_names_box_says_it_takes_a_csv(client):
    form = client.get("/events/new").text
    assert "or CSV with a header line: name, and club and id" in form and token_of(form)
