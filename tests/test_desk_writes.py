"""Every write names its base (issue 57): the settings saved from settings changed since, and a score
card made from an entry changed since (issue 53), are refused with what is stored now; a form keeps what
was typed. The races of the day's versions are test_desk_races.py; the mixed concurrent writes of four
clients, counted in the file afterwards, test_desk_concurrency.py."""

from __future__ import annotations

import re

from desk_helpers import names, seeded_event
from rotation.desk.events.settings import EventSettings
from test_desk_races import at_once

SETTINGS = EventSettings(title="Spring Open", names=names(16), rounds=4, time_limit=1)


def base_of(html: str) -> str:
    found = re.search(r'name="base_settings" value="([^"]*)"', html)
    assert found, "the settings form names no base"
    return found.group(1)


def settings_form(html: str, **changes: str) -> dict[str, str]:
    """The settings form as the page fills it (its text boxes and chosen options), with `changes` typed."""
    fields = dict(re.findall(r'<input[^>]* name="([a-z_]+)" value="([^"]*)"', html))
    fields |= {
        name: value for name, value in re.findall(r'<textarea[^>]* name="([a-z_]+)"[^>]*>([^<]*)</textarea>', html)
    }
    fields |= dict(re.findall(r'name="([a-z_]+)" value="([^"]*)" checked', html))
    return {
        key: value.replace("&#34;", '"').replace("&#39;", "'").replace("&amp;", "&") for key, value in fields.items()
    } | changes


def test_two_tabs_saving_settings_the_second_is_refused_and_keeps_what_it_typed(client, db):
    event_id = seeded_event(db, SETTINGS)
    first, second = (client.get(f"/events/{event_id}/edit").text for _ in range(2))
    assert base_of(first) == base_of(second) == client.get(f"/api/events/{event_id}").json()["settings_version"]
    saved = client.post(
        f"/events/{event_id}/edit", data=settings_form(first, title="Spring Open A"), follow_redirects=False
    )
    assert saved.status_code == 303
    refused = client.post(f"/events/{event_id}/edit", data=settings_form(second, title="Spring Open B"))
    assert refused.status_code == 409 and "the settings changed while you were editing" in refused.text
    assert 'value="Spring Open B"' in refused.text  # what was typed, kept in the form
    assert re.search(r"<dt>Title, saved now</dt><dd>Spring Open A</dd>", refused.text)  # and what is stored now
    assert client.get(f"/api/events/{event_id}").json()["settings"]["title"] == "Spring Open A"
    again = client.post(f"/events/{event_id}/edit", data=settings_form(refused.text), follow_redirects=False)
    assert again.status_code == 303  # sent again from the page that showed the settings as they are now
    assert client.get(f"/api/events/{event_id}").json()["settings"]["title"] == "Spring Open B"


def test_a_settings_page_opened_before_a_rename_does_not_write_the_old_name_back(client, db):
    event_id = seeded_event(db, SETTINGS)
    opened = client.get(f"/events/{event_id}/edit").text
    assert client.post(f"/api/events/{event_id}/rename", json={"old": "Player 04", "new": "Player Four"}).is_success
    refused = client.post(f"/events/{event_id}/edit", data=settings_form(opened, title="Renamed"))
    assert refused.status_code == 409 and "a player renamed" in refused.text
    settings = client.get(f"/api/events/{event_id}").json()["settings"]
    assert "Player Four" in settings["names"] and "Player 04" not in settings["names"]
    assert settings["title"] == "Spring Open"


def test_json_settings_name_their_base(client, db):
    event_id = seeded_event(db, SETTINGS)
    read = client.get(f"/api/events/{event_id}").json()
    base = read["settings_version"]
    changed = {**read["settings"], "title": "One"}
    done = client.put(f"/api/events/{event_id}", params={"base_settings": base}, json=changed)
    assert done.status_code == 200 and done.json()["settings_version"] != base
    stale = client.put(
        f"/api/events/{event_id}", params={"base_settings": base}, json={**read["settings"], "title": "Two"}
    )
    assert stale.status_code == 409 and stale.json()["field"] == "settings"
    assert (
        stale.json()["settings"]["title"] == "One"
        and stale.json()["settings_version"] == done.json()["settings_version"]
    )
    unnamed = client.put(f"/api/events/{event_id}", json={**read["settings"], "title": "Three"})
    assert unnamed.status_code == 200  # a script that names no base replaces what is stored


def test_two_settings_saves_from_one_base_at_once_one_stored_one_refused(client, db):
    event_id = seeded_event(db, SETTINGS)
    for attempt in range(8):
        read = client.get(f"/api/events/{event_id}").json()
        path, base = f"/api/events/{event_id}?base_settings={read['settings_version']}", read["settings"]
        responses = at_once(
            client,
            (path, {"json": {**base, "title": f"A{attempt}"}}),
            (path, {"json": {**base, "title": f"B{attempt}"}}),
            method="put",
        )
        assert sorted(r.status_code for r in responses) == [200, 409]
        winner = next(r for r in responses if r.status_code == 200).json()["settings"]["title"]
        assert client.get(f"/api/events/{event_id}").json()["settings"]["title"] == winner
