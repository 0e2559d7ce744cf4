"""A multi-session event in the desk: its rounds in sessions, each released to the room and printed as a
unit, a late change between sessions re-planned against every earlier session."""

from __future__ import annotations

import html
import re
from itertools import combinations

import pytest

from desk_helpers import names, seeded_event, token_of, wait_run
from rotation.desk.core.settings import EventSettings

pytestmark = pytest.mark.slow


def test_sessions_are_released_and_printed_as_units(db, client):
    event_id = seeded_event(db, EventSettings(names=names(16), rounds=5, session_rounds=2, title="Open"))
    page = client.get(f"/events/{event_id}/room").text
    assert "Session 1: rounds 1 to 2" in page and 'id="print-session"' in page
    token = token_of(page)
    assert client.post(f"/events/{event_id}/release/session", data={"csrf": token}).status_code == 200
    assert client.get(f"/api/events/{event_id}/room").json()["released"] == [1, 2]
    page = client.get(f"/events/{event_id}/room").text
    assert "Session 2: rounds 3 to 4" in page
    link = re.search(r'href="([^"]+)"[^>]*id="print-session"', page)
    assert link is not None
    printed = client.get(html.unescape(link.group(1)))
    words = " ".join(re.sub(r"<[^>]+>", " ", printed.text).split())
    assert printed.status_code == 200 and "Round 3 of 5" in words and "Round 4 of 5" in words
    assert "Round 2 of 5" not in words and "Round 5 of 5" not in words
    assert client.post(f"/api/events/{event_id}/release/session", json={}).json()["released"] == [1, 2, 3, 4]
    assert "Session 3: round 5" in client.get(f"/events/{event_id}/room").text  # the last session, shorter
    assert client.post(f"/api/events/{event_id}/release/session", json={}).json()["released"] == [1, 2, 3, 4, 5]
    refused = client.post(f"/api/events/{event_id}/release/session", json={})
    assert refused.status_code == 422 and "every round is released" in refused.json()["detail"]


def test_an_event_not_in_sessions_releases_round_by_round(db, client):
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=3))
    assert 'id="release-session-form"' not in client.get(f"/events/{event_id}/room").text
    refused = client.post(f"/api/events/{event_id}/release/session", json={})
    assert refused.status_code == 409 and "not in sessions" in refused.json()["detail"]


def test_the_session_field_in_the_form(client):
    token = token_of(client.get("/events/new").text)
    base = {"csrf": token, "names": "\n".join(names(8)), "rounds": "6", "time_limit": "2", "odd": "three-handed"}
    made = client.post("/events", data={**base, "session_rounds": "3"}, follow_redirects=False)
    assert made.status_code == 303
    assert client.get("/api/events/1").json()["settings"]["session_rounds"] == 3
    wrong = client.post("/events", data={**base, "session_rounds": "-1"})
    assert wrong.status_code == 422 and 'id="error-session_rounds"' in wrong.text


def test_a_late_change_between_sessions_counts_every_earlier_session(db, client):
    event_id = seeded_event(db, EventSettings(names=names(16), rounds=4, session_rounds=2, time_limit=2))
    client.post(f"/api/events/{event_id}/release/session", json={})
    assert client.post(f"/api/events/{event_id}/played", json={"rounds": 2}).status_code == 200
    before = client.get(f"/api/events/{event_id}/schedule").json()
    run = client.post(
        f"/api/events/{event_id}/replan", json={"from_round": 3, "leave": [names(16)[0]], "time_limit": 2}
    ).json()
    assert wait_run(client, run["id"])["status"] in ("finished", "stopped")
    versions = client.get(f"/api/events/{event_id}/versions").json()
    proposal = next(v for v in versions if v["kind"] == "replan")
    after = client.get(f"/api/events/{event_id}/schedule", params={"version": proposal["id"]}).json()
    assert after["rounds"][:2] == before["rounds"][:2]  # the first session stays as played
    met = {frozenset(p) for r in before["rounds"][:2] for t in r["tables"] for p in combinations(t["players"], 2)}
    again = [
        p
        for r in after["rounds"][2:]
        for t in r["tables"]
        for p in combinations(t["players"], 2)
        if frozenset(p) in met
    ]
    assert not again  # 15 players over 2 more rounds can avoid every pair of the first session


def selected_from_round(page: str) -> int:
    form = page[page.index('id="replan-form"') :]
    choice = re.search(r'<option value="(\d+)" selected>', form[: form.index("</select>")])
    assert choice is not None
    return int(choice.group(1))


def test_the_replan_form_defaults_to_the_next_sessions_first_round(db, client):
    event_id = seeded_event(db, EventSettings(names=names(16), rounds=8, session_rounds=3, time_limit=2))
    assert selected_from_round(client.get(f"/events/{event_id}").text) == 1
    assert client.post(f"/api/events/{event_id}/release", json={"round": 1}).status_code == 200  # one round early
    assert selected_from_round(client.get(f"/events/{event_id}").text) == 4  # not round 2, mid-session
    client.post(f"/api/events/{event_id}/release/session", json={})
    assert selected_from_round(client.get(f"/events/{event_id}").text) == 4
    client.post(f"/api/events/{event_id}/release/session", json={})
    assert selected_from_round(client.get(f"/events/{event_id}").text) == 7
    client.post(f"/api/events/{event_id}/release", json={"round": 7})
    assert selected_from_round(client.get(f"/events/{event_id}").text) == 8  # no later session: the next round
    plain = seeded_event(db, EventSettings(names=names(8), rounds=4, time_limit=2))
    client.post(f"/api/events/{plain}/release", json={"round": 1})
    assert selected_from_round(client.get(f"/events/{plain}").text) == 2  # not in sessions: the next round


def test_a_released_session_shows_its_first_unplayed_round_and_moves_on_as_rounds_are_played(db, client):
    """Issue 53: "Release session 1" showed round 3 on the projector and rounds 1 and 2 as earlier on a
    phone, though nothing was played."""
    event_id = seeded_event(db, EventSettings(names=names(24), rounds=6, session_rounds=3, title="Open"))
    client.post(f"/api/events/{event_id}/release/session", json={})
    pid = client.get(f"/api/events/{event_id}/room").json()["public_id"]
    rounds = client.get(f"/api/events/{event_id}/schedule").json()["rounds"]

    def seen(played: int) -> None:
        on = played + 1
        screen = client.get(f"/e/{event_id}/screen").text
        assert re.search(r'id="screen-title">Open <strong>Round (\d)</strong>', screen).group(1) == str(on)
        table = next(t for t in rounds[on - 1]["tables"] if "Player 07" in t["players"])
        phone = client.get(f"/e/{pid}/me", params={"player": "Player 07"}).text
        now = re.search(r'<div class="now" id="now">(.*?)</div>', phone, re.S).group(1)
        assert f"Round {on}" in now and f"Table {table['table']}" in now
        coming = re.search(r'id="coming">(.*?)</ol>', phone, re.S)
        earlier = re.search(r'id="earlier">(.*?)</ol>', phone, re.S)
        assert re.findall(r"Round (\d)", coming.group(1) if coming else "") == [str(n) for n in range(on + 1, 4)]
        assert re.findall(r"Round (\d)", earlier.group(1) if earlier else "") == [str(n) for n in range(on - 1, 0, -1)]
        assert f"show round {on}" in client.get(f"/events/{event_id}/room").text

    seen(0)
    client.post(f"/api/events/{event_id}/release", json={"round": 3})  # released again: the room stays put
    seen(0)
    for played in (1, 2):
        assert client.post(f"/api/events/{event_id}/played", json={"rounds": played}).status_code == 200
        seen(played)
    assert client.post(f"/api/events/{event_id}/played", json={"rounds": 3}).status_code == 200
    assert "<strong>Round 3</strong>" in client.get(f"/e/{event_id}/screen").text  # all played: the latest
    client.post(f"/api/events/{event_id}/release", json={"round": 4})  # one round on its own: on at once
    assert "<strong>Round 4</strong>" in client.get(f"/e/{event_id}/screen").text
