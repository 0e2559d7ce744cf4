"""The desk over HTTP (FastAPI's TestClient): every route, what it stores, and what it refuses."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from itertools import combinations

import pytest
from fastapi.testclient import TestClient

import optimizer
from desk_helpers import HOSTILE, LOCAL, errors_beside_fields, names, seeded_event, token_of, wait_run
from models import Event, Schedule
from rotation.desk.app import create_app
from rotation.desk.core.settings import EventSettings
from rotation.desk.storage import SCHEMA_VERSION, HowMade, NewerDatabase, PlanRequest, Store, VersionKind
from rotation.files.output import metrics_lines

pytestmark = pytest.mark.subprocess

FORM = {"title": "Spring open", "date": "12 June", "rounds": "4", "time_limit": "2", "odd": "three-handed"}


def form(client, **fields) -> dict:
    token = token_of(client.get("/events/new").text)
    return {"csrf": token, **FORM, **fields}


def test_a_pasted_list_of_names_becomes_an_event(client):
    pasted = "\n".join(names(12)) + "\n\n"
    response = client.post("/events", data=form(client, names=pasted), follow_redirects=False)
    assert response.status_code == 303
    page = client.get(response.headers["location"]).text
    assert "Spring open" in page and "12 players" in page and "Plan the day" in page
    listed = client.get("/api/events").json()
    assert listed[0]["settings"]["names"] == names(12)
    assert listed[0]["current_version"] is None


def test_an_uploaded_names_file_replaces_the_pasted_names(client):
    upload = {"names_file": ("names.txt", "\ufeff" + "\n".join(names(9)), "text/plain")}
    response = client.post("/events", data=form(client, names="A\nB"), files=upload, follow_redirects=False)
    assert response.status_code == 303
    assert client.get("/api/events/1").json()["settings"]["names"] == names(9)


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"names": "Ann\nBo\nCy"}, "names", "a room needs at least 4 players, got 3"),
        (
            {"names": "Ann\nBo\nann\nCy"},
            "names",
            "lines 1 and 3: the name &#39;ann&#39; appears twice (as &#39;Ann&#39; and &#39;ann&#39;)",
        ),
        ({"rounds": "seven"}, "rounds", "&#39;seven&#39; is not a whole number of rounds"),
        ({"rounds": "0"}, "rounds", "greater than or equal to 1"),
        ({"time_limit": "0"}, "time_limit", "0 is not from 0.1 to 86400 seconds"),
        ({"names": "\n".join(names(5))}, "odd", "choose sit-out for odd counts"),
        ({"apart": "Player 01, Nobody"}, "apart", "&#39;Nobody&#39; is not a player"),
        ({"apart": "Player 01"}, "apart", "line 1: a group needs at least two names"),
        ({"spread": "Player 01, Zed"}, "spread", "&#39;Zed&#39; is not a player"),
        ({"stay": "Player 01, nine"}, "stay", "write &#39;name, table&#39;"),
        ({"stay": "Player 01, 9"}, "stay", "the room has tables 1 to 2"),
    ],
)
def test_every_wrong_input_gets_its_message_beside_its_field(client, fields, field, words):
    data = form(client, names="\n".join(names(8)))
    data.update(fields)
    response = client.post("/events", data=data)
    assert response.status_code == 422
    placed = errors_beside_fields(response.text)
    assert field in placed, placed
    assert words in placed[field]
    assert "--" not in placed[field]  # no command-line option in the desk's words
    assert client.get("/api/events").json() == []  # nothing half-saved


def test_the_form_keeps_what_was_typed_when_it_is_refused(client):
    response = client.post("/events", data=form(client, names="Ann\nBo", title="Keep me"))
    assert 'value="Keep me"' in response.text and "Ann\nBo" in response.text


def test_json_events_take_settings_and_refuse_them_by_field(client):
    created = client.post("/api/events", json={"names": names(8), "rounds": 3, "title": "API"})
    assert created.status_code == 201 and created.json()["settings"]["title"] == "API"
    refused = client.post("/api/events", json={"names": names(8), "rounds": 3, "stay": {"Player 01": 7}})
    assert refused.status_code == 422
    assert refused.json()["errors"] == {"stay": "stay Player 01 at table 7: the room has tables 1 to 2"}
    updated = client.put("/api/events/1", json={"names": names(8), "rounds": 5})
    assert updated.json()["settings"]["rounds"] == 5


def test_a_plan_runs_in_a_worker_and_stores_a_checked_schedule(client, db):
    client.post("/api/events", json={"names": names(13), "rounds": 4, "time_limit": 2, "workers": 1})
    run = client.post("/api/events/1/plan", headers={"content-type": "application/json"})
    assert run.status_code == 202 and run.json()["status"] == "running"
    assert "Stop and keep the best" in client.get("/events/1").text  # the page answers while it plans
    again = client.post("/api/events/1/plan", headers={"content-type": "application/json"})
    assert again.status_code == 409 and "already running" in again.json()["detail"]
    done = wait_run(client, run.json()["id"])
    assert done["status"] == "finished", done
    schedule = Schedule.model_validate(client.get("/api/events/1/schedule").json())
    metrics = optimizer.check(schedule)
    assert done["repeats"] == metrics.repeats
    page = client.get("/events/1").text
    assert f"Repeats: {metrics.repeats} " in page and "three-handed" in page
    assert "Best possible: at least" in page and "the fixed rule on the same room" in page
    assert all(line in page for line in metrics_lines(metrics, schedule))  # the CLI report's words


def test_stop_keeps_the_best_schedule_found_so_far(client):
    # Eighteen players sitting out two a round: the bound (3) is far from proven, so it would use its minute.
    settings = {"names": names(18), "rounds": 6, "odd": "sit-out", "time_limit": 60, "workers": 1}
    client.post("/api/events", json=settings)
    run = client.post("/api/events/1/plan", headers={"content-type": "application/json"}).json()
    wait_run(client, run["id"], until=lambda r: r["repeats"] is not None)
    token = token_of(client.get("/events/1").text)
    stopped = client.post(f"/events/1/runs/{run['id']}/stop", data={"csrf": token}, follow_redirects=False)
    assert stopped.status_code == 303
    done = wait_run(client, run["id"], seconds=30)
    assert done["status"] == "stopped" and done["elapsed"] < 30, done
    schedule = Schedule.model_validate(client.get("/api/events/1/schedule").json())
    assert optimizer.check(schedule).repeats == done["repeats"]
    assert "stopped early: the best found so far" in client.get("/events/1").text


def never_meeting(schedule: Schedule) -> tuple[str, str]:
    met = {frozenset(pair) for r in schedule.rounds for t in r.tables for pair in combinations(t.players, 2)}
    return next((a, b) for a, b in combinations(schedule.players, 2) if frozenset((a, b)) not in met)


def test_played_rounds_swaps_undo_and_going_back(client, db):
    fixed = optimizer.fixed_schedule(Event(players=tuple(names(16)), rounds=4))
    apart = never_meeting(fixed)  # a request the fixed rule happens to keep, so the seeded day is valid
    event_id = seeded_event(db, EventSettings(names=names(16), rounds=4, apart=[list(apart)]))
    page = client.get(f"/events/{event_id}").text
    assert f"Requests: keep apart: {apart[0]}, {apart[1]}" in page
    token = token_of(page)
    post = lambda path, **data: client.post(f"/events/{event_id}{path}", data={"csrf": token, **data})  # noqa: E731
    assert post("/played", rounds="1").status_code == 200  # followed to the event page
    assert client.get(f"/api/events/{event_id}").json()["current_version"]["played"] == 1
    before = Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule").json())
    assert before.played == 1  # the schedule itself records it (optimizer.mark_played)
    one, two = before.seat_of(0), before.seat_of(1)
    # Seating the first of the pair at the second's table breaks the request: refused in a round to play...
    mate = next(n for n in before.players if two[n][0] == two[apart[1]][0] and n != apart[1])
    broken = post("/swap", round="2", first=apart[0], second=mate)
    assert broken.status_code == 422
    assert f"{apart[0]} and {apart[1]} are kept apart" in errors_beside_fields(broken.text)["swap"]
    # ... and recorded in a played round, where it is what happened.
    mate_one = next(n for n in before.players if one[n][0] == one[apart[1]][0] and n != apart[1])
    preview = post("/swap", round="1", first=apart[0], second=mate_one)  # shown first, applied when confirmed
    assert preview.status_code == 200 and 'id="confirm-button"' in preview.text and "Apply the swap" in preview.text
    assert f"{apart[0]}: table {one[apart[0]][0]} seat {one[apart[0]][1]}" in preview.text
    assert Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule").json()) == before
    assert post("/swap", round="1", first=apart[0], second=mate_one, confirm="1").status_code == 200
    happened = Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule").json())
    assert happened.corrections[-1].played and happened.seat_of(0)[apart[0]] == one[mate_one]
    assert f"round 1: {apart[0]} and {mate_one} swapped (as played)" in client.get(f"/events/{event_id}").text
    assert post("/undo").status_code == 200
    unknown = post("/swap", round="2", first="Player 01", second="Nobody")
    assert "&#39;Nobody&#39; is not on the schedule" in errors_beside_fields(unknown.text)["swap"]
    first = next(n for n in before.players if n not in apart)
    second = next(n for n in before.players if two[n][0] != two[first][0] and n not in apart)
    assert post("/swap", round="2", first=first.upper(), second=second, confirm="1").status_code == 200  # any case
    after = Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule").json())
    assert after.seat_of(1)[first] == two[second] and after.seat_of(1)[second] == two[first]
    assert after.rounds[0] == before.rounds[0] and after.rounds[2:] == before.rounds[2:]
    versions = client.get(f"/api/events/{event_id}/versions").json()
    assert [v["kind"] for v in versions] == ["swap", "swap", "played", "plan"]
    assert post("/undo").status_code == 200
    assert Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule").json()) == before
    history = client.get(f"/events/{event_id}/history").text
    assert f"round 2: {first} and {second} swapped" in history and "go back to this" in history
    look = client.get(f"/events/{event_id}?version={versions[0]['id']}").text
    assert "This is an earlier schedule" in look
    assert post(f"/versions/{versions[0]['id']}/restore").status_code == 200
    assert Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule").json()) == after


def test_json_day_actions(client, db):
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=3))
    api = lambda path, body=None: client.post(f"/api/events/{event_id}{path}", json=body or {})  # noqa: E731
    assert api("/played", {"rounds": 2}).json()["played"] == 2
    assert api("/played", {"rounds": 2}).status_code == 422
    assert api("/swap", {"round": 3, "first": "Player 01", "second": "Nobody"}).status_code == 422
    asked = api("/swap", {"round": 3, "first": "Player 01", "second": "Player 02"})
    assert asked.status_code == 409 and "confirm" in asked.json()["detail"]
    assert {"Repeats", "Most meetings of one pair"} <= {f["label"] for f in asked.json()["preview"]["figures"]}
    assert len(client.get(f"/api/events/{event_id}/versions").json()) == 2  # nothing applied
    swapped = api("/swap", {"round": 3, "first": "Player 01", "second": "Player 02", "confirm": True})
    assert swapped.json()["kind"] == "swap"
    assert api("/undo").json()["played"] == 2
    assert client.get(f"/api/events/{event_id}/metrics").json()["repeats"] >= 0
    first = client.get(f"/api/events/{event_id}/versions").json()[-1]
    refused = api(f"/versions/{first['id']}/restore")  # it would un-play rounds 1 and 2: asked first
    assert refused.status_code == 409 and refused.json()["preview"]["effects"]["unplayed"] == [1, 2]
    assert "rounds 1 to 2 would no longer be marked played" in refused.json()["detail"]
    assert api(f"/versions/{first['id']}/restore", {"confirm": True}).json()["played"] == 0
    assert api("/undo").status_code == 409  # the first schedule has nothing before it


def test_a_drop_out_is_re_planned_from_its_round(client, db):
    event_id = seeded_event(db, EventSettings(names=names(9), rounds=4, odd="sit-out", workers=1))
    token = token_of(client.get(f"/events/{event_id}").text)
    client.post(f"/events/{event_id}/played", data={"csrf": token, "rounds": "1"})
    refused = client.post(
        f"/events/{event_id}/replan", data={"csrf": token, "from_round": "1", "leave": "Player 09", "time_limit": "2"}
    )
    assert "re-plan from rounds 2 to 4: rounds before are played" in errors_beside_fields(refused.text)["from_round"]
    unknown = client.post(
        f"/events/{event_id}/replan", data={"csrf": token, "from_round": "3", "leave": "Nobody", "time_limit": "2"}
    )
    assert "cannot drop &#39;Nobody&#39;: not on the schedule" in errors_beside_fields(unknown.text)["leave"]
    forever = client.post(
        f"/events/{event_id}/replan", data={"csrf": token, "from_round": "3", "leave": "", "time_limit": "1e9"}
    )
    assert "1e+09 is not from 0.1 to 86400 seconds" in errors_beside_fields(forever.text)["time_limit"]
    twice = client.post(
        f"/events/{event_id}/replan", data={"csrf": token, "from_round": "3", "arrive": "Zed\nzed", "time_limit": "2"}
    )
    assert "cannot add &#39;zed&#39;: it is named twice" in errors_beside_fields(twice.text)["arrive"]
    before = Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule").json())
    client.post(
        f"/events/{event_id}/replan",
        data={"csrf": token, "from_round": "3", "leave": "player 09", "arrive": "Newcomer", "time_limit": "2"},
    )  # asked first: Player 09 is seated in round 2, not played yet (test_desk_replan_asks)
    assert client.get(f"/api/events/{event_id}").json()["runs"] == []
    client.post(
        f"/events/{event_id}/replan",
        data={
            "csrf": token,
            "from_round": "3",
            "leave": "player 09",
            "arrive": "Newcomer",
            "time_limit": "2",
            "confirm": "1",
        },
    )
    run = client.get(f"/api/events/{event_id}").json()["runs"][0]
    assert run["kind"] == "replan"
    done = wait_run(client, run["id"])
    assert done["status"] == "finished", done
    # Two proposals; the current schedule stays until the director accepts one.
    event = client.get(f"/api/events/{event_id}").json()
    assert Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule").json()) == before
    fewest, everyone = event["proposals"]
    assert (fewest["reseat"], everyone["reseat"]) == ("fewest", "all")
    for proposal in (fewest, everyone):
        assert proposal["version"]["current"] is False and proposal["version"]["kind"] == "replan"
        assert proposal["moves"]["bound"] <= proposal["moves"]["moves"]
        assert proposal["moves"]["players"] == len(proposal["changes"])
        assert "Newcomer" in [change["name"] for change in proposal["changes"]]
    page = client.get(f"/events/{event_id}").text
    assert "Choose the re-plan" in page and "Fewest moves" in page and "Everyone re-seated" in page
    assert f"{fewest['version']['repeats']} repeats" in page and f"{everyone['moves']['moves']} moves" in page
    accepted = client.post(
        f"/events/{event_id}/versions/{everyone['version']['id']}/accept", data={"csrf": token}, follow_redirects=False
    )
    assert accepted.status_code == 303
    after = Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule").json())
    optimizer.check(after)
    assert after.rounds[:2] == before.rounds[:2]
    assert after.departures == {"Player 09": 3} and after.arrivals == {"Newcomer": 3}
    seated = {n for r in after.rounds[2:] for t in r.tables for n in t.players}
    assert "Player 09" not in seated and "Newcomer" in seated
    current = client.get(f"/api/events/{event_id}").json()
    assert current["proposals"] == [] and current["current_version"]["id"] == everyone["version"]["id"]
    assert current["current_version"]["played"] == 2  # a re-plan from round 3 keeps rounds 1 and 2 as played
    assert (
        "re-planned from round 3 (Player 09 leaves, Newcomer arrives), everyone re-seated"
        in (current["current_version"]["note"])
    )
    late = client.post(f"/events/{event_id}/versions/{fewest['version']['id']}/accept", data={"csrf": token})
    assert late.status_code == 409 and "no longer open" in errors_beside_fields(late.text)["accept"]
    assert "Newcomer: rounds 3, 4" in client.get(f"/events/{event_id}").text
    assert fewest["version"]["id"] in [v["id"] for v in client.get(f"/api/events/{event_id}/versions").json()]
    compare = client.get(f"/events/{event_id}/compare").text
    assert "players came and went" in compare


def test_a_run_left_running_by_a_stopped_desk_is_interrupted_and_runs_again(db):
    store = Store(db)
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=3, time_limit=1, workers=1))
    run_id = store.add_run(
        event_id, PlanRequest(settings=store.event(event_id).settings), 1.0
    )  # its worker died with the old desk
    with TestClient(create_app(db), base_url=LOCAL) as client:
        run = client.get(f"/api/runs/{run_id}").json()
        assert run["status"] == "interrupted" and "nothing was kept" in run["message"]
        page = client.get(f"/events/{event_id}").text
        assert "was interrupted" in page and "Run it again" in page
        assert len(client.get(f"/api/events/{event_id}/versions").json()) == 1  # nothing half-saved
        again = client.post(f"/api/runs/{run_id}/again", headers={"content-type": "application/json"})
        assert again.status_code == 202
        assert wait_run(client, again.json()["id"])["status"] == "finished"
        assert client.post(f"/api/runs/{run_id}/stop", headers={"content-type": "application/json"}).status_code == 409


def test_print_page_and_downloads(client, db):
    event_id = seeded_event(db, EventSettings(names=names(10, hostile=True), rounds=3, odd="sit-out", title="Open"))
    options = client.get(f"/events/{event_id}/print-options").text
    assert 'value="walls" checked' in options
    printed = client.get(f"/events/{event_id}/print")
    assert printed.status_code == 200 and "Open" in printed.text
    for number in (1, 2, 3):
        assert f'id="round-{number}"' in printed.text  # each round's wall chart
    assert HOSTILE not in printed.text and "&lt;img src=x onerror=alert(1)&gt;" in printed.text
    only = client.get(f"/events/{event_id}/print", params={"parts": ["walls"], "first": 2, "last": 3}).text
    assert 'id="round-2"' in only and 'id="round-1"' not in only and 'class="page slip-sheet"' not in only
    assert client.get(f"/events/{event_id}/print", params={"first": 2, "last": 9}).status_code == 422
    assert client.get(f"/events/{event_id}/print", params={"parts": ["menus"]}).status_code == 422
    file = client.get(f"/events/{event_id}/download/schedule.json")
    assert "attachment" in file.headers["content-disposition"]
    optimizer.check(Schedule.model_validate(json.loads(file.text)))
    wide = list(csv.reader(io.StringIO(client.get(f"/events/{event_id}/download/schedule.csv").text)))
    assert wide[0][:4] == ["player", "round 1 table", "round 1 seat", "round 1 note"] and len(wide) == 11
    long = client.get(f"/events/{event_id}/download/schedule-long.csv?excel=true").text
    assert long.startswith("\ufeffround,table,seat,player")
    assert client.get(f"/events/{event_id}/download/passwords.txt").status_code == 404
    picture = client.get(f"/events/{event_id}/meetings.svg")
    assert picture.headers["content-type"].startswith("image/svg+xml") and picture.text.startswith("<svg")
    assert "script-src 'self'" in picture.headers["content-security-policy"]  # a document of its own when opened


def test_a_hostile_name_is_text_on_every_page(client, db):
    event_id = seeded_event(db, EventSettings(names=names(8, hostile=True), rounds=2, title=HOSTILE, date=HOSTILE))
    hostile = next(i for i, n in enumerate(names(8, hostile=True)) if n == HOSTILE)
    for path in (
        "/",
        f"/events/{event_id}",
        f"/events/{event_id}/players/{hostile}",
        f"/events/{event_id}/history",
        f"/events/{event_id}/compare",
        f"/events/{event_id}/edit",
        f"/events/{event_id}/print-options",
    ):
        page = client.get(path)
        assert page.status_code == 200, path
        assert HOSTILE not in page.text, path
        assert "&lt;img src=x onerror=alert(1)&gt;" in page.text, path
        assert "script-src 'self'" in page.headers["content-security-policy"]


def test_what_is_not_there_is_not_found(client, db):
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=2))
    other = seeded_event(db, EventSettings(names=names(12), rounds=2))
    other_version = client.get(f"/api/events/{other}/versions").json()[0]["id"]
    for path in (
        "/events/99",
        "/api/events/99",
        f"/events/{event_id}?version={other_version}",
        f"/events/{event_id}/players/8",
        "/api/runs/5",
        "/static/../storage.py",
        "/static/%2e%2e/storage.py",
        "/desk.sqlite3",
        f"/api/events/{event_id}/schedule?version={other_version}",
    ):
        assert client.get(path).status_code == 404, path
    client.post("/api/events", json={"names": names(8), "rounds": 2})
    assert client.get("/events/3/compare").status_code == 404  # no schedule yet
    assert client.get("/static/desk.js").status_code == 200
    page = client.get("/events/99")
    assert page.headers["content-type"].startswith("text/html") and "event 99 does not exist" in page.text
    assert client.get("/api/events/99").json() == {"detail": "event 99 does not exist", "field": None}


def test_a_forms_token_belongs_to_its_browsers_session(client, db):
    # Two browsers get two sessions and two tokens; one's token, sent from the other, is refused.
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=3))
    mine = token_of(client.get(f"/events/{event_id}").text)
    assert token_of(client.get(f"/events/{event_id}").text) == mine  # the session's cookie keeps its token
    other = TestClient(client.app, base_url=LOCAL)  # a second browser of the same desk: a cookie jar of its own
    theirs = token_of(other.get(f"/events/{event_id}").text)
    assert theirs != mine
    assert other.post(f"/events/{event_id}/played", data={"csrf": mine, "rounds": "1"}).status_code == 403
    played = client.post(f"/events/{event_id}/played", data={"csrf": mine, "rounds": "1"}, follow_redirects=False)
    assert played.status_code == 303


def test_changes_need_the_forms_token_and_json_needs_json(client, db):
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=3))
    assert client.post(f"/events/{event_id}/played", data={"rounds": "1"}).status_code == 403
    forged = client.post(f"/events/{event_id}/undo", data={"csrf": "forged"})
    assert forged.status_code == 403 and "reload the page and try again" in forged.text
    assert client.post("/events", data={**FORM, "names": "\n".join(names(8))}).status_code == 403
    # A page elsewhere can send a plain form to any address, never application/json without asking first.
    assert client.post(f"/api/events/{event_id}/played", data={"rounds": "1"}).status_code == 415
    assert client.post(f"/api/events/{event_id}/undo", headers={"origin": "http://attacker.example"}).status_code == 415
    assert client.get(f"/api/events/{event_id}").json()["current_version"]["played"] == 0
    assert client.get("/", headers={"host": "attacker.example"}).status_code == 421


def test_uploads_and_bodies_are_size_limited(client):
    token = token_of(client.get("/events/new").text)
    big = {"names_file": ("names.txt", "x" * (1024 * 1024 + 10), "text/plain")}
    response = client.post("/events", data={"csrf": token, **FORM}, files=big)
    assert response.status_code == 422
    assert "the names file is larger than 1024 KB" in errors_beside_fields(response.text)["names"]
    huge = client.post(
        "/api/events", content=b"{}" + b" " * (3 * 1024 * 1024), headers={"content-type": "application/json"}
    )
    assert huge.status_code == 413
    binary = {"names_file": ("names.txt", b"Ann\n\xc3\x28\n", "text/plain")}
    assert "not UTF-8" in client.post("/events", data={"csrf": token, **FORM}, files=binary).text


def test_an_exposed_desk_needs_its_key(db):
    app = create_app(db, exposed=True)
    secret = app.state.desk.guard.secret
    with TestClient(app, base_url="http://192.168.1.20:8765") as client:
        assert client.get("/").status_code == 401
        assert client.get("/api/events").status_code == 401
        assert client.get("/?key=wrong").status_code == 401
        entry = client.get(f"/?key={secret}", follow_redirects=False)
        assert entry.status_code == 303 and entry.headers["location"] == "/"
        assert client.get("/").status_code == 200  # the cookie now carries the key
        token = token_of(client.get("/events/new").text)
        json_post = {"content-type": "application/json"}
        body = json.dumps({"names": names(8), "rounds": 2})
        assert client.post("/api/events", content=body, headers=json_post).status_code == 403
        assert client.post("/api/events", content=body, headers={**json_post, "x-csrf-token": token}).status_code == 201
    with TestClient(app, base_url="http://192.168.1.20:8765") as script:
        assert script.get("/api/events", headers={"x-desk-key": secret}).status_code == 200
        assert script.post("/api/events", content=body, headers={**json_post, "x-desk-key": secret}).status_code == 201


def test_openapi_lists_every_action(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path, method in [
        ("/api/events", "post"),
        ("/api/events/{event_id}", "put"),
        ("/api/events/{event_id}/plan", "post"),
        ("/api/runs/{run_id}", "get"),
        ("/api/runs/{run_id}/stop", "post"),
        ("/api/runs/{run_id}/again", "post"),
        ("/api/events/{event_id}/played", "post"),
        ("/api/events/{event_id}/replan", "post"),
        ("/api/events/{event_id}/swap", "post"),
        ("/api/events/{event_id}/undo", "post"),
        ("/api/events/{event_id}/versions/{version_id}/restore", "post"),
        ("/api/events/{event_id}/schedule", "get"),
    ]:
        assert method in paths[path], path
    assert not [path for path in paths if not path.startswith("/api/")]


def test_the_file_carries_its_schema_version_and_refuses_a_newer_one(db):
    Store(db).close()
    connection = sqlite3.connect(db)
    assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    with pytest.raises(NewerDatabase):
        Store(db)


def test_a_schedule_the_checker_refuses_is_never_stored(db):
    store = Store(db)
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=2))
    schedule = Schedule.model_validate(json.loads(store.versions(event_id)[0].schedule_json))
    broken = schedule.model_copy(
        update={"rounds": (schedule.rounds[0], schedule.rounds[0].model_copy(update={"sit_outs": ("Player 01",)}))}
    )
    with pytest.raises(optimizer.InvalidSchedule):
        with store.change() as db_:
            store.add_version(db_, event_id, broken, kind=VersionKind.SWAP, note="", figures=HowMade(), parent=None)
    assert len(store.versions(event_id)) == 1
    assert store.event(event_id).current_version == store.versions(event_id)[0].id


def test_serve_refuses_a_file_it_cannot_open_and_knows_local_addresses(tmp_path):
    from click.testing import CliRunner

    from rotation.commands.cli import cli
    from rotation.desk.security import Guard
    from rotation.desk.serve import address, default_db, is_local

    assert all(is_local(host) for host in ("127.0.0.1", "localhost", "::1", "127.0.0.2"))
    assert not any(is_local(host) for host in ("0.0.0.0", "192.168.1.20", "desk.example"))
    assert default_db().name == "desk.sqlite3" and "rotation" in default_db().parts
    assert address("127.0.0.1", 8765, Guard("s3cret", exposed=False)) == "http://127.0.0.1:8765/"
    assert address("::1", 8765, Guard("s3cret", exposed=False)) == "http://[::1]:8765/"
    assert address("0.0.0.0", 80, Guard("s3cret", exposed=True)).endswith(":80/?key=s3cret")
    assert "0.0.0.0" not in address("0.0.0.0", 80, Guard("s3cret", exposed=True))
    not_a_database = tmp_path / "names.txt"
    not_a_database.write_text("Ann\nBo\n" * 1000, encoding="utf-8")
    result = CliRunner().invoke(cli, ["serve", "--db", str(not_a_database)])
    assert result.exit_code == 2 and "cannot open the desk's file" in result.output
    inside_a_file = CliRunner().invoke(cli, ["serve", "--db", str(not_a_database / "desk.sqlite3")])
    assert inside_a_file.exit_code == 2 and "cannot open the desk's file" in inside_a_file.output


def test_a_plan_that_ends_after_the_desk_gave_up_on_it_stores_nothing(db):
    from rotation.desk.events import planning, service
    from rotation.desk.storage import RunStatus

    store = Store(db)
    settings = EventSettings(names=names(8), rounds=2, time_limit=0.5, workers=1)
    event_id = service.create_event(store, settings)
    run_id = store.add_run(event_id, PlanRequest(settings=settings), 0.5)
    run = store.run(run_id)
    planned = planning.plan_run(store, run, lambda progress: None)
    assert isinstance(planned, list) and planned[0].result.schedule is not None
    store.close_run(run_id, RunStatus.INTERRUPTED, "the desk was stopped while this plan ran")  # a restarted desk
    planning.keep_run(store, run, planned)
    assert store.versions(event_id) == [] and store.event(event_id).current_version is None
    assert store.run(run_id).status is RunStatus.INTERRUPTED
    fresh = store.add_run(event_id, PlanRequest(settings=settings), 0.5)
    planning.keep_run(store, store.run(fresh), planned)  # the same result for a run still open is kept
    assert [v.kind for v in store.versions(event_id)] == ["plan"] and store.run(fresh).status == "finished"


def test_a_spreadsheets_table_of_names_and_clubs_feeds_the_spread(client):
    table = "name;club;rating\nAnn;Reds;1\nBo;Reds;2\nCy;Blues;3\nDi;Blues;4\n" + "".join(
        f"{name};;5\n" for name in names(4)
    )
    upload = {"names_file": ("players.csv", table, "text/csv")}
    response = client.post("/events", data=form(client, spread="Player 01, Player 02"), files=upload)
    assert response.status_code == 200, errors_beside_fields(response.text)
    settings = client.get("/api/events/1").json()["settings"]
    assert settings["names"] == ["Ann", "Bo", "Cy", "Di", *names(4)]
    assert settings["spread"] == [["Player 01", "Player 02"], ["Ann", "Bo"], ["Cy", "Di"]]
    assert (
        "Names list: ignored column &#39;rating&#39;: only &#39;name&#39;, &#39;club&#39; and &#39;id&#39; are read"
        in (response.text)
    )
    split = client.post("/events", data=form(client, names="Ann;Reds\nBo;Reds\nCy\nDi"))
    assert "line 1: &#39;Ann;Reds&#39; is split by a semicolon" in errors_beside_fields(split.text)["names"]


def test_a_player_who_took_an_empty_seat_is_recorded_in_a_played_round_only(client, db):
    event_id = seeded_event(db, EventSettings(names=names(15), rounds=3))
    api = lambda path, body: client.post(f"/api/events/{event_id}{path}", json=body)  # noqa: E731
    before = Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule").json())
    three = next(t for t in before.rounds[0].tables if len(t.players) == 3).table
    player = next(t for t in before.rounds[0].tables if len(t.players) == 4).players[0]
    page = client.get(f"/events/{event_id}").text
    assert 'id="move-form"' not in page  # nothing is played yet: in a round to play, a swap is the fix
    token = token_of(page)
    assert api("/played", {"rounds": 1}).json()["played"] == 1
    assert api("/played", {"rounds": 1}).json()["detail"] == "rounds 1 to 1 are already recorded as played"
    three_later = next(t for t in before.rounds[1].tables if len(t.players) == 3).table
    later = next(t for t in before.rounds[1].tables if len(t.players) == 4).players[0]
    ahead = client.post(
        f"/events/{event_id}/move", data={"csrf": token, "round": "2", "player": later, "table": str(three_later)}
    )
    assert "round 2 is still to play" in errors_beside_fields(ahead.text)["move"]
    no_table = client.post(f"/events/{event_id}/move", data={"csrf": token, "round": "1", "player": player})
    assert "&#39;&#39; is not a table number" in errors_beside_fields(no_table.text)["move"]
    assert api("/move", {"round": 1, "player": player.lower(), "table": three}).status_code == 409  # preview first
    moved = api("/move", {"round": 1, "player": player.lower(), "table": three, "confirm": True})
    assert moved.json()["kind"] == "move" and f"{player} played at table {three} (as played)" in moved.json()["note"]
    after = Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule").json())
    assert after.seat_of(0)[player][0] == three and after.corrections[-1].change == "move"
    assert after.rounds[1:] == before.rounds[1:]


def test_a_schema_1_file_keeps_its_rounds_played_in_the_schedules(db):
    from rotation.desk.storage import MIGRATIONS

    schedule = optimizer.fixed_schedule(Event(players=tuple(names(8)), rounds=3))
    old = sqlite3.connect(db)
    old.executescript(MIGRATIONS[0] + "PRAGMA user_version = 1;")
    old.execute(
        "INSERT INTO events (settings, created) VALUES (?, '')", (json.dumps({"names": names(8), "rounds": 3}),)
    )
    figures = json.dumps({"metrics": optimizer.check(schedule).model_dump(mode="json")})  # as every desk stored them
    for played in (0, 2):
        old.execute(
            "INSERT INTO versions (event_id, kind, note, played, schedule, figures, created) "
            "VALUES (1, 'played', '', ?, ?, ?, '')",
            (played, schedule.model_dump_json(), figures),
        )
    old.execute("UPDATE events SET current_version = 2")
    old.commit()
    old.close()
    store = Store(db)
    assert [(v.played, v.schedule().played) for v in store.versions(1)] == [(2, 2), (0, 0)]
    columns = [row[1] for row in store.db.execute("PRAGMA table_info(versions)")]
    assert "played" not in columns and store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
