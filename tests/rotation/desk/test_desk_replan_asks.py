"""A re-plan on the event's page never starts later than the director asked (issue 53, major 5): a released
round asked for without "re-plan released rounds too", or someone who leaves still seated in a round not
played yet before the one asked, is asked about on a page that offers the round meant in one click; the
JSON route refuses the first in words."""

from __future__ import annotations

import html
import re

from desk_helpers import names, seeded_event, token_of
from rotation.desk.core.settings import EventSettings
from rotation.desk.storage import Store


def day(db, client) -> tuple[int, str]:
    """16 players, 4 rounds: round 1 played, round 2 released; the event's page."""
    event_id = seeded_event(db, EventSettings(names=names(16), rounds=4, time_limit=1))
    client.post(f"/api/events/{event_id}/release", json={"round": 1})
    client.post(f"/api/events/{event_id}/played", json={"rounds": 1})
    client.post(f"/api/events/{event_id}/release", json={"round": 2})
    return event_id, client.get(f"/events/{event_id}").text


def form_of(page: str, selector: str) -> dict[str, str]:
    form = re.search(rf"<form[^>]*{selector}.*?</form>", page, re.S)
    assert form, f"no form {selector}"
    return {
        name: html.unescape(value) for name, value in re.findall(r'name="([a-z_]+)" value="([^"]*)"', form.group(0))
    }


def replans(db, event_id: int) -> list[int]:
    """The first round of each re-plan run started, oldest first."""
    store = Store(db)
    try:
        return [run.request().played + 1 for run in reversed(store.runs(event_id))]
    finally:
        store.close()


def test_a_released_round_asked_for_is_asked_about_and_re_planned_as_asked_in_one_click(db, client):
    event_id, page = day(db, client)
    typed = {"csrf": token_of(page), "from_round": "2", "leave": "Player 03", "arrive": "Newcomer", "time_limit": "1"}
    asked = client.post(f"/events/{event_id}/replan", data=typed)
    assert asked.status_code == 200 and "Round 2 is released to the room" in asked.text
    assert replans(db, event_id) == []  # nothing started yet
    again = form_of(asked.text, 'class="actions"')
    assert again["from_round"] == "2" and again["include_released"] == "1" and again["leave"] == "Player 03"
    done = client.post(f"/events/{event_id}/replan", data=again, follow_redirects=False)
    assert done.status_code == 303 and replans(db, event_id) == [2]
    refused = client.post(f"/api/events/{event_id}/replan", json={"from_round": 2, "leave": ["Player 04"]})
    assert refused.status_code == 409  # the JSON route: refused in words, started nothing


def test_someone_who_leaves_seated_in_a_round_not_played_is_asked_about(db, client):
    event_id, page = day(db, client)
    chosen = re.search(r'<option value="(\d)" selected>', page).group(1)
    assert chosen == "3"  # the page's default: the first round not released
    typed = {"csrf": token_of(page), "from_round": chosen, "leave": "player 03", "arrive": "", "time_limit": "1"}
    asked = client.post(f"/events/{event_id}/replan", data=typed)
    assert asked.status_code == 200 and "Player 03 is seated in round 2, not played yet" in asked.text
    other = form_of(asked.text, 'id="other-form"')
    assert other["from_round"] == "2" and other["include_released"] == "1" and other["confirm"] == "1"
    assert client.post(f"/events/{event_id}/replan", data=other, follow_redirects=False).status_code == 303
    assert replans(db, event_id) == [2]


def test_json_re_plan_with_a_leaver_seated_in_a_released_round_is_refused_naming_the_choice(db, client):
    """Round 2 released, not played: a JSON re-plan from round 3 in which Player 03 (seated in round 2) leaves
    would leave their released seat filled by nobody who is there. Refused (409) naming the round and both
    ways on; nothing is started. Either way, said, is taken."""
    event_id, _ = day(db, client)
    path = f"/api/events/{event_id}/replan"
    body = {"from_round": 3, "leave": ["player 03"], "arrive": ["Newcomer"], "time_limit": 1}
    refused = client.post(path, json=body)
    assert refused.status_code == 409 and refused.json()["field"] == "leave"
    detail = refused.json()["detail"]
    assert "Player 03 is seated in round 2, released to the room and not played yet" in detail
    assert "re-plan from round 2 with include_released" in detail and "or confirm" in detail
    assert refused.json()["seated"] == [{"player": "Player 03", "round": 2}] and refused.json()["from_round"] == 2
    assert replans(db, event_id) == []
    assert client.post(path, json={**body, "confirm": True}).status_code == 202  # they play round 2 first
    assert replans(db, event_id) == [3]


def test_json_re_plan_from_the_released_round_itself_is_not_asked_about_a_seat_before_it(db, client):
    event_id, _ = day(db, client)
    body = {"from_round": 2, "leave": ["Player 03"], "include_released": True, "time_limit": 1}
    assert client.post(f"/api/events/{event_id}/replan", json=body).status_code == 202
    assert replans(db, event_id) == [2]


def test_the_page_s_they_play_it_first_is_the_confirmation_the_json_route_asks_for(db, client):
    """Asked on the page (Player 03 sits in released round 2), the director keeps round 3: the re-plan starts
    there, the leaver playing round 2 first; the page's confirmation is what the JSON route asks for."""
    event_id, page = day(db, client)
    typed = {"csrf": token_of(page), "from_round": "3", "leave": "Player 03", "arrive": "", "time_limit": "1"}
    asked = client.post(f"/events/{event_id}/replan", data=typed)
    assert "Player 03 is seated in round 2, not played yet" in asked.text
    kept = form_of(asked.text, 'class="actions"')
    assert kept["from_round"] == "3" and kept["confirm"] == "1"
    assert client.post(f"/events/{event_id}/replan", data=kept, follow_redirects=False).status_code == 303
    assert replans(db, event_id) == [3]


def test_cancel_on_the_question_keeps_what_the_director_typed(db, client):
    """ "Cancel: change nothing" on the question goes back to the event's page with the re-plan's form as it
    was typed (the round, who leaves, who arrives, the seconds, the tick), and starts nothing."""
    event_id, page = day(db, client)
    typed = {
        "csrf": token_of(page),
        "from_round": "2",
        "leave": "Player 03\nPlayer 07",
        "arrive": "Nadia Late",
        "time_limit": "3",
    }
    asked = client.post(f"/events/{event_id}/replan", data=typed)
    assert "Round 2 is released to the room" in asked.text
    cancel = html.unescape(re.search(r'<a href="([^"]*)" id="cancel">', asked.text).group(1))
    back = client.get(cancel)
    assert back.status_code == 200 and replans(db, event_id) == []
    form = re.search(r'<form[^>]*id="replan-form".*?</form>', back.text, re.S).group(0)
    assert re.search(r'<option value="2" selected>2 \(released\)</option>', form)
    assert html.unescape(re.search(r'name="leave"[^>]*>([^<]*)</textarea>', form).group(1)) == typed["leave"]
    assert re.search(r'name="arrive"[^>]*>([^<]*)</textarea>', form).group(1) == "Nadia Late"
    assert form_of(form, 'id="replan-form"')["time_limit"] == "3"
    assert 'id="include-released" >' in form  # not ticked, as typed

    ticked = client.post(f"/events/{event_id}/replan", data={**typed, "from_round": "3", "include_released": "1"})
    assert "Player 03 is seated in round 2; Player 07 is seated in round 2, not played yet" in ticked.text
    cancel = html.unescape(re.search(r'<a href="([^"]*)" id="cancel">', ticked.text).group(1))
    form = re.search(r'<form[^>]*id="replan-form".*?</form>', client.get(cancel).text, re.S).group(0)
    assert re.search(r'<option value="3" selected>3</option>', form) and 'id="include-released" checked>' in form
    assert replans(db, event_id) == []
