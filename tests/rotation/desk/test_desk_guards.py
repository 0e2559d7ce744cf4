"""What the room has seen stays put: every change that would re-seat a released round, un-play a round,
detach a card or bring players back or remove them is refused until confirmed, and says what it would do."""

from __future__ import annotations

import re

import pytest
from test_desk_room import JSON, client, clock, event, release  # noqa: F401 (fixtures)

from desk_helpers import token_of, wait_run

pytestmark = pytest.mark.subprocess

__all__ = ["client", "clock"]


def api(client, event_id: int, path: str, body: dict | None = None):
    return client.post(f"/api/events/{event_id}{path}", json=body or {})


def schedule_of(client, event_id: int) -> dict:
    return client.get(f"/api/events/{event_id}/schedule").json()


def versions_of(client, event_id: int) -> list[dict]:
    return client.get(f"/api/events/{event_id}/versions").json()


@pytest.mark.slow
def test_a_released_round_is_re_planned_only_when_the_director_includes_it(client, db):
    event_id = event(db, rounds=4, time_limit=2)
    release(client, event_id, 1)
    refused = client.post(f"/api/events/{event_id}/plan", headers=JSON)
    assert refused.status_code == 409
    assert "round 1 is released to the room" in refused.json()["detail"]
    assert "re-plan from round 2" in refused.json()["detail"]
    page = client.get(f"/events/{event_id}").text
    assert 'id="released-note"' in page and 'id="include-released-plan"' in page
    form = client.post(f"/events/{event_id}/plan", data={"csrf": token_of(page)})
    assert "round 1 is released to the room" in form.text and client.get(f"/api/events/{event_id}").json()["runs"] == []
    replan = {"from_round": 1, "leave": ["Player 03"], "time_limit": 2}
    refused = api(client, event_id, "/replan", replan)
    assert (
        refused.status_code == 409
        and "re-plan from round 2, or include the released rounds" in refused.json()["detail"]
    )
    assert client.get(f"/api/events/{event_id}").json()["runs"] == []  # nothing started
    run = api(client, event_id, "/replan", {**replan, "include_released": True})
    assert run.status_code == 202
    wait_run(client, run.json()["id"])
    page = client.get(f"/events/{event_id}").text
    proposals = re.findall(r'<div class="proposal".*?</form>', page, re.S)
    assert proposals, "the re-plan made no proposal"
    # Player 03 leaves from round 1, which the room has: every proposal names the released tables it changes.
    for proposal in proposals:
        assert "Changes released rounds:" in proposal and "round 1: Table" in proposal
    assert schedule_of(client, event_id)["rounds"][0]["tables"][0]["players"][0] == "Player 01"  # not yet accepted


@pytest.mark.slow
def test_a_replan_after_the_released_rounds_keeps_them(client, db):
    event_id = event(db, rounds=4)
    release(client, event_id, 1)
    before = schedule_of(client, event_id)["rounds"][0]
    page = client.get(f"/events/{event_id}").text
    assert re.search(r'<option value="2" selected>2</option>', page)  # the form starts after the released round
    replan = {"from_round": 2, "leave": ["Player 03"], "time_limit": 2}
    asked = api(client, event_id, "/replan", replan)  # Player 03 is seated in round 1, which the room has
    assert asked.status_code == 409 and asked.json()["seated"] == [{"player": "Player 03", "round": 1}]
    run = api(client, event_id, "/replan", {**replan, "confirm": True})  # they play round 1 first
    assert run.status_code == 202
    wait_run(client, run.json()["id"])
    page = client.get(f"/events/{event_id}").text
    assert "The released rounds stay as the room has them." in page and "Changes released rounds" not in page
    proposal = client.get(f"/api/events/{event_id}").json()["proposals"][0]["version"]["id"]
    assert api(client, event_id, f"/versions/{proposal}/accept").status_code == 200
    assert schedule_of(client, event_id)["rounds"][0] == before


@pytest.mark.slow
def test_going_back_in_history_says_what_it_would_undo_and_asks(client, db):
    event_id = event(db, rounds=4)
    first = versions_of(client, event_id)[-1]
    release(client, event_id, 1)
    assert api(client, event_id, "/played", {"rounds": 1}).status_code == 200
    table = schedule_of(client, event_id)["rounds"][0]["tables"][0]
    card = {"round": 1, "table": table["table"], "points": {name: [1, 2, 3, -6] for name in table["players"]}}
    assert client.post(f"/api/events/{event_id}/cards", json=card).status_code == 200
    run = api(
        client, event_id, "/replan", {"from_round": 2, "leave": ["Player 16"], "arrive": ["Zed"], "time_limit": 2}
    )
    wait_run(client, run.json()["id"])
    proposal = client.get(f"/api/events/{event_id}").json()["proposals"][0]["version"]["id"]
    assert api(client, event_id, f"/versions/{proposal}/accept").status_code == 200
    assert api(client, event_id, "/played", {"rounds": 2}).status_code == 200
    now = schedule_of(client, event_id)
    count = len(versions_of(client, event_id))

    asked = api(client, event_id, f"/versions/{first['id']}/restore")
    assert asked.status_code == 409
    effects = asked.json()["preview"]["effects"]
    assert effects["unplayed"] == [1, 2]
    assert effects["cards"] == [{"round": 1, "table": table["table"]}]
    assert effects["back"] == ["Player 16"] and effects["gone"] == ["Zed"]
    assert schedule_of(client, event_id) == now and len(versions_of(client, event_id)) == count  # nothing moved

    history = client.get(f"/events/{event_id}/history").text
    form = client.post(f"/events/{event_id}/versions/{first['id']}/restore", data={"csrf": token_of(history)})
    assert form.status_code == 200 and 'id="confirm-button"' in form.text
    for line in (
        "rounds 1 to 2 would no longer be marked played",
        "1 score card would no longer count",
        "back on the schedule: Player 16",
        "gone from the schedule: Zed",
    ):
        assert line in form.text
    assert schedule_of(client, event_id) == now
    done = client.post(
        f"/events/{event_id}/versions/{first['id']}/restore", data={"csrf": token_of(history), "confirm": "1"}
    )
    assert done.status_code == 200 and schedule_of(client, event_id)["played"] == 0
    assert api(client, event_id, "/undo").status_code == 409  # the first version has no parent
    # Forward again is a change of players too (Zed back, Player 16 gone): asked, then done.
    newest = max(version["id"] for version in versions_of(client, event_id))
    forward = api(client, event_id, f"/versions/{newest}/restore")
    assert forward.status_code == 409 and forward.json()["preview"]["effects"]["back"] == ["Zed"]
    assert api(client, event_id, f"/versions/{newest}/restore", {"confirm": True}).status_code == 200
    assert schedule_of(client, event_id) == now


def test_undo_of_a_played_mark_asks_first(client, db):
    event_id = event(db, rounds=3)
    assert api(client, event_id, "/played", {"rounds": 1}).status_code == 200
    asked = api(client, event_id, "/undo")
    assert asked.status_code == 409 and asked.json()["preview"]["effects"]["unplayed"] == [1]
    assert schedule_of(client, event_id)["played"] == 1
    assert client.post(f"/api/events/{event_id}/undo", json={"confirm": True}).json()["played"] == 0


@pytest.mark.slow
def test_the_plan_box_follows_the_current_schedule(client, db):
    event_id = event(db, count=8, rounds=3, time_limit=1)
    run = client.post(f"/api/events/{event_id}/plan", headers=JSON)
    assert run.status_code == 202
    wait_run(client, run.json()["id"])
    tables = schedule_of(client, event_id)["rounds"][2]["tables"]
    swap = {"round": 3, "first": tables[0]["players"][0], "second": tables[1]["players"][0], "confirm": True}
    assert api(client, event_id, "/swap", swap).status_code == 200
    repeats = client.get(f"/api/events/{event_id}/metrics").json()["repeats"]
    shown = re.search(r'id="run-repeats">(\d+)<', client.get(f"/events/{event_id}").text)
    assert shown and int(shown.group(1)) == repeats
