"""The room over HTTP: releasing rounds, the projector, the players' phones, the timer; what each refuses."""

from __future__ import annotations

import re
import sqlite3

import pytest
from fastapi.testclient import TestClient

from desk_helpers import LOCAL, names, seeded_event, token_of
from rotation.desk.app import create_app
from rotation.desk.core.settings import EventSettings
from rotation.desk.storage import MIGRATIONS, SCHEMA_VERSION, Store

JSON = {"content-type": "application/json"}


class Clock:
    """The server's time as the test sets it."""

    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def client(db, clock):
    app = create_app(db)
    app.state.desk.clock = clock
    with TestClient(app, base_url=LOCAL) as client:
        yield client


def event(db, count: int = 16, rounds: int = 3, **settings) -> int:
    return seeded_event(db, EventSettings(names=settings.pop("players", names(count)), rounds=rounds, **settings))


def csrf(client, event_id: int) -> str:
    return token_of(client.get(f"/events/{event_id}/room").text)


def public_id(client, event_id: int) -> str:
    return client.get(f"/api/events/{event_id}/room").json()["public_id"]


def release(client, event_id: int, number: int) -> dict:
    response = client.post(f"/api/events/{event_id}/release", json={"round": number})
    assert response.status_code == 200, response.text
    return response.json()


def day_of(html: str) -> str:
    found = re.search(r'<section id="day".*?</section>', html, re.S)
    assert found, "the page shows no player's day"
    return found.group(0)


def test_a_form_releases_the_next_round_and_nothing_else(client, db):
    event_id = event(db)
    token = csrf(client, event_id)
    refused = client.post(f"/events/{event_id}/release", data={"round": 1, "csrf": "forged"})
    assert refused.status_code == 403 and client.get(f"/api/events/{event_id}/room").json()["released"] == []
    done = client.post(f"/events/{event_id}/release", data={"round": 1, "csrf": token}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == f"/events/{event_id}/room"
    skipped = client.post(f"/events/{event_id}/release", data={"round": 3, "csrf": token})
    assert skipped.status_code == 422
    assert "release round 2 (rounds go to the room in order)" in skipped.text and 'id="error-release"' in skipped.text
    assert release(client, event_id, 2)["released"] == [1, 2]
    assert client.post(f"/api/events/{event_id}/release", json={"round": 4}).status_code == 422
    assert client.post(f"/api/events/{event_id}/release/withdraw", headers=JSON).json()["released"] == [1]
    page = client.get(f"/events/{event_id}/room").text
    assert "Release round 2" in page and "Released: round 1 of 3." in page


def test_an_event_without_a_schedule_has_nothing_to_release(client):
    created = client.post("/api/events", json={"names": names(8), "rounds": 2}).json()
    answer = client.post(f"/api/events/{created['id']}/release", json={"round": 1})
    assert answer.status_code == 409 and answer.json()["detail"] == "the event has no schedule yet: plan it first"
    assert client.post("/api/events/99/release", json={"round": 1}).status_code == 404


def test_a_phone_finds_a_player_by_a_few_letters_and_shows_released_rounds_only(client, db):
    players = ["Zoë Weiß", "Zoe Adams", "Łukasz Nowak", "Seán O'Brien", *names(12)]
    event_id = event(db, players=players, rounds=3)
    pid = public_id(client, event_id)
    found = client.get(f"/e/{pid}/me", params={"q": "ZOE"}).text
    assert re.findall(r"player=([^\"]+)\">", found) == ["Zo%C3%AB%20Wei%C3%9F", "Zoe%20Adams"]  # accents and case
    assert "Łukasz Nowak" in client.get(f"/e/{pid}/me", params={"q": "luk"}).text
    assert "Seán O&#39;Brien" in client.get(f"/e/{pid}/me", params={"q": "o’brien"}).text  # a phone's apostrophe
    assert 'id="too-short"' in client.get(f"/e/{pid}/me", params={"q": "z"}).text
    assert 'id="no-match"' in client.get(f"/e/{pid}/me", params={"q": "xyz"}).text
    before = client.get(f"/e/{pid}/me", params={"player": "zoë weiß"}).text
    assert 'id="waiting"' in day_of(before) and "Table" not in day_of(before)
    release(client, event_id, 1)
    schedule = client.get(f"/api/events/{event_id}/schedule").json()
    table = next(t for t in schedule["rounds"][0]["tables"] if "Zoë Weiß" in t["players"])
    shown = day_of(client.get(f"/e/{pid}/me", params={"player": "Zoë Weiß"}).text)
    assert f"Table {table['table']}" in shown and f"seat {'ABCD'[table['players'].index('Zoë Weiß')]}" in shown
    assert all(mate.replace("'", "&#39;") in shown for mate in table["players"])
    assert "Round 2" not in shown and "Earlier rounds" not in shown  # round 2 is not released
    release(client, event_id, 2)
    shown = day_of(client.get(f"/e/{pid}/me", params={"player": "Zoë Weiß", "round": 3}).text)
    assert "Round 2" in shown and "Round 1:" in shown and "Round 3" not in shown  # no way to ask for round 3
    assert 'id="no-player"' in client.get(f"/e/{pid}/me", params={"player": "Nobody"}).text


def test_wrong_or_guessed_ids_get_a_plain_404(client, db):
    event_id = event(db)
    pid = public_id(client, event_id)
    assert len(pid) == 16 and not pid.isdigit()
    guessed = pid[:-1] + ("y" if pid[-1] == "x" else "x")  # one character off (an id ending in x was its own guess)
    for path in (f"/e/{event_id}/me", "/e/2/me", f"/e/{guessed}/me", f"/e/{event_id}/me/state.json"):
        assert client.get(path).status_code == 404, path
    other = event(db)
    assert public_id(client, other) != pid
    assert client.get("/e/99/screen").status_code == 404
    assert client.get("/api/events/99/room").status_code == 404


def test_exposed_the_phones_need_no_key_and_everything_else_still_does(db):
    event_id = event(db)
    app = create_app(db, exposed=True, public_url="http://desk.local:8765/")
    key = app.state.desk.guard.secret
    with TestClient(app, base_url="http://desk.local") as director:
        director.headers["x-desk-key"] = key
        pid = director.get(f"/api/events/{event_id}/room").json()["public_id"]
        director.post(f"/api/events/{event_id}/release", json={"round": 1}, headers=JSON)
        screen = director.get(f"/e/{event_id}/screen").text
        assert f"http://desk.local:8765/e/{pid}/me" in screen and "<svg" in screen  # the QR of the public URL
    with TestClient(app, base_url="http://desk.local") as phone:
        assert phone.get(f"/e/{pid}/me", params={"player": "Player 01"}).status_code == 200
        assert phone.get(f"/e/{pid}/me/state.json").status_code == 200
        assert phone.get("/static/phone.js").status_code == 200 and phone.get("/static/room.css").status_code == 200
        for icon in ("/static/favicon.svg", "/favicon.ico"):  # a phone's icon, never a 404 (issue 53)
            answer = phone.get(icon)
            assert answer.status_code == 200 and answer.headers["content-type"] == "image/svg+xml", icon
        assert phone.get("/e/nobody/me").status_code == 404
        for path in (
            f"/e/{event_id}/screen",
            f"/e/{event_id}/screen/state.json",
            f"/events/{event_id}/room",
            f"/api/events/{event_id}/room",
            "/static/desk.js",
            "/",
        ):
            assert phone.get(path).status_code == 401, path
        assert phone.post(f"/e/{pid}/me").status_code == 401  # only reading is open
        assert phone.post(f"/api/events/{event_id}/release", json={"round": 2}).status_code == 401
        assert phone.post(f"/api/events/{event_id}/timer", json={"action": "start"}).status_code == 401


def test_a_change_to_a_released_round_is_flagged_and_an_unreleased_one_is_not_seen(client, db):
    event_id = event(db, rounds=3)
    pid = public_id(client, event_id)
    release(client, event_id, 1)
    schedule = client.get(f"/api/events/{event_id}/schedule").json()
    phone = f"/e/{pid}/me?player=Player%2001"
    seen, stamp = day_of(client.get(phone).text), client.get(f"/e/{pid}/me/state.json").json()["stamp"]
    second = schedule["rounds"][1]["tables"]
    swap = {"round": 2, "first": second[0]["players"][0], "second": second[1]["players"][0], "confirm": True}
    assert client.post(f"/api/events/{event_id}/swap", json=swap).status_code == 200
    assert day_of(client.get(phone).text) == seen  # a change to round 2, not released: nothing new to see
    assert client.get(f"/api/events/{event_id}/room").json()["changed"] == {}
    first = schedule["rounds"][0]["tables"]
    swap = {"round": 1, "first": first[0]["players"][0], "second": first[3]["players"][1]}
    asked = client.post(f"/api/events/{event_id}/swap", json=swap)  # a released round: the preview says so
    assert asked.status_code == 409
    tables = [f"Table {first[0]['table']}", f"Table {first[3]['table']}"]
    assert asked.json()["preview"]["effects"]["released"] == [{"round": 1, "tables": tables}]
    assert client.get(f"/api/events/{event_id}/room").json()["changed"] == {}
    assert client.post(f"/api/events/{event_id}/swap", json={**swap, "confirm": True}).status_code == 200
    changed = client.get(f"/api/events/{event_id}/room").json()["changed"]
    assert changed == {"1": [f"Table {first[0]['table']}", f"Table {first[3]['table']}"]}
    screen = client.get(f"/e/{event_id}/screen").text
    assert f"Table {first[0]['table']}, Table {first[3]['table']} changed" in screen
    assert "changed since it was released" in client.get(f"/events/{event_id}/room").text
    assert client.get(f"/e/{pid}/me/state.json").json()["stamp"] != stamp  # the phones fetch the new seating

    def looks_again(name: str) -> bool:  # the phone asks a player whose place changed to look again
        return 'id="seat-changed"' in client.get(f"/e/{pid}/me", params={"player": name}).text

    assert looks_again(first[0]["players"][0]) and looks_again(first[0]["players"][1])  # moved; a new tablemate
    assert not looks_again(first[1]["players"][0])  # a table the swap did not touch
    release(client, event_id, 1)  # again: the room knows
    assert not looks_again(first[0]["players"][0])
    assert client.get(f"/api/events/{event_id}/room").json()["changed"] == {}
    assert "changed" not in client.get(f"/e/{event_id}/screen").text.split('id="content"')[1]


def test_the_projector_shows_the_released_round_and_a_find_your_table_list(client, db):
    event_id = event(db, count=18, rounds=3, odd="sit-out")
    waiting = client.get(f"/e/{event_id}/screen").text
    assert 'id="waiting"' in waiting and 'class="card' not in waiting
    release(client, event_id, 1)
    screen = client.get(f"/e/{event_id}/screen").text
    schedule = client.get(f"/api/events/{event_id}/schedule").json()
    numbers = [int(n) for n in re.findall(r'<div class="card-head">Table (\d+)', screen)]
    assert numbers == sorted(t["table"] for t in schedule["rounds"][0]["tables"])
    listed = re.findall(r'<div class="entry"><span class="name"[^>]*>([^<]+)</span>', screen)
    assert sorted(listed) == sorted(names(18)) and listed == sorted(listed)  # everyone, alphabetical
    assert screen.count('<div class="card out">') == 1  # the two who sit out, in a card of their own
    assert 'data-pace="12.0"' in screen


def test_the_timer_counts_on_the_servers_clock(client, db, clock):
    event_id = event(db)
    token = csrf(client, event_id)

    def act(action: str, **fields) -> dict:
        response = client.post(f"/api/events/{event_id}/timer", json={"action": action, **fields})
        assert response.status_code == 200, response.text
        return response.json()["timer"]

    assert client.post(f"/events/{event_id}/timer", data={"action": "start", "csrf": "x"}).status_code == 403
    assert act("reset") == {
        "minutes": 60,
        "running": False,
        "left": 3600,
        "ends_at": None,
        "now": clock.now,
        "warning": 300,
    }
    started = clock.now
    client.post(f"/events/{event_id}/timer", data={"action": "start", "csrf": token})
    clock.now += 600
    state = client.get(f"/e/{event_id}/screen/state.json").json()["timer"]
    assert state["running"] and state["left"] == 3000 and state["ends_at"] == started + 3600
    assert act("start")["ends_at"] == started + 3600  # starting a running timer changes nothing
    clock.now += 100
    assert act("pause") == {**state, "running": False, "left": 2900, "ends_at": None, "now": clock.now}
    clock.now += 1000  # paused: no time passes on it
    assert act("extend", minutes=5)["left"] == 3200
    assert act("start")["ends_at"] == clock.now + 3200
    clock.now += 4000  # past the end
    assert act("extend", minutes=2)["ends_at"] == clock.now + 120  # "time" was called: two minutes from now
    assert act("reset")["left"] == 3600
    assert client.post(f"/api/events/{event_id}/timer", json={"action": "stop"}).status_code == 422
    too_long = client.post(f"/events/{event_id}/timer", data={"action": "extend", "minutes": 90, "csrf": token})
    assert (
        too_long.status_code == 422
        and 'id="error-extend"' in too_long.text
        and "extend by from 1 to 60" in too_long.text
    )


def test_the_room_settings_set_a_rounds_length_and_the_pace(client, db):
    event_id = event(db)
    token = csrf(client, event_id)
    saved = client.post(f"/events/{event_id}/room", data={"minutes": 45, "pace": 8, "csrf": token})
    assert saved.status_code == 200 and "45:00 left of 45 minutes" in saved.text
    room = client.get(f"/api/events/{event_id}/room").json()
    assert room["pace"] == 8 and room["timer"]["left"] == 45 * 60
    wrong = client.post(f"/events/{event_id}/room", data={"minutes": 45, "pace": 1, "csrf": token})
    assert wrong.status_code == 422 and 'id="error-pace"' in wrong.text
    assert client.put(f"/api/events/{event_id}/room", json={"minutes": 0, "pace": 8}).status_code == 422
    assert client.get(f"/api/events/{event_id}/room").json()["pace"] == 8  # nothing half-saved


def test_a_new_length_applies_to_the_round_under_way_without_a_reset(client, db, clock):
    event_id = event(db)
    release(client, event_id, 1)  # its timer runs from 60 minutes
    clock.now += 40 * 60
    shorter = client.put(f"/api/events/{event_id}/room", json={"minutes": 45, "pace": 8}).json()["timer"]
    assert shorter["running"] and shorter["left"] == 5 * 60 and shorter["ends_at"] == clock.now + 5 * 60
    client.post(f"/api/events/{event_id}/timer", json={"action": "pause"})
    longer = client.put(f"/api/events/{event_id}/room", json={"minutes": 50, "pace": 8}).json()["timer"]
    assert not longer["running"] and longer["left"] == 10 * 60


def test_the_printed_sheets_carry_the_players_pages_qr_code(client, db):
    event_id = event(db, rounds=2)
    from rotation.printing.pages import qr_svg

    printed = client.get(f"/events/{event_id}/print", params={"parts": ["walls"]}).text
    url = f"{LOCAL}/e/{public_id(client, event_id)}/me"
    assert "Scan for your table" in printed and qr_svg(url) in printed  # the squares of the players' page


def test_a_file_of_the_first_schema_takes_the_room_on(db):
    connection = sqlite3.connect(db)
    connection.executescript(MIGRATIONS[0] + "; PRAGMA user_version = 1;")
    connection.close()
    store = Store(db)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION  # the room: 2 -> 3 here
    assert {row[0] for row in store.db.execute("SELECT name FROM sqlite_master")} >= {"rooms", "releases"}


def test_the_polled_stamp_is_the_pages_own_and_moves_with_every_release_and_version(client, db):
    event_id = event(db, rounds=3)
    pid = public_id(client, event_id)
    seen: list[str] = []

    def stamps_agree() -> None:
        polled = client.get(f"/e/{pid}/me/state.json").json()["stamp"]
        page = re.search(r'data-stamp="([0-9a-f]+)"', client.get(f"/e/{pid}/me").text)
        assert page is not None and page.group(1) == polled  # else a phone would reload forever, or never
        assert polled not in seen
        seen.append(polled)

    stamps_agree()
    release(client, event_id, 1)
    stamps_agree()
    release(client, event_id, 2)
    stamps_agree()
    first = client.get(f"/api/events/{event_id}/schedule").json()["rounds"][0]["tables"]
    swap = {"round": 1, "first": first[0]["players"][0], "second": first[1]["players"][0], "confirm": True}
    assert client.post(f"/api/events/{event_id}/swap", json=swap).status_code == 200
    stamps_agree()
    assert client.post(f"/api/events/{event_id}/release/withdraw", headers=JSON).status_code == 200
    stamps_agree()
    assert client.get("/e/not-a-room/me/state.json").status_code == 404


def test_releasing_the_next_round_restarts_the_timer_and_a_release_again_does_not(client, db, clock):
    event_id = event(db)
    timer = lambda: client.get(f"/e/{event_id}/screen/state.json").json()["timer"]  # noqa: E731
    release(client, event_id, 1)
    assert timer()["running"] and timer()["ends_at"] == clock.now + 3600
    clock.now += 3000  # round 1 nearly over
    release(client, event_id, 1)  # released again (a fix): round 1's clock runs on
    assert timer()["left"] == 600
    clock.now += 900  # time was called; round 2 goes out
    release(client, event_id, 2)
    assert timer()["running"] and timer()["left"] == 3600 and timer()["ends_at"] == clock.now + 3600


def test_a_one_minute_round_is_one_minute(client, db):
    event_id = event(db)
    assert client.put(f"/api/events/{event_id}/room", json={"minutes": 1, "pace": 12}).status_code == 200
    assert "left of 1 minute." in client.get(f"/events/{event_id}/room").text


def test_the_find_your_table_list_marks_a_three_handed_table(client, db):
    event_id = event(db, count=13)
    release(client, event_id, 1)
    tables = client.get(f"/api/events/{event_id}/schedule").json()["rounds"][0]["tables"]
    three = [name for table in tables if len(table["players"]) == 3 for name in table["players"]]
    screen = client.get(f"/e/{event_id}/screen").text
    marked = re.findall(r'<div class="entry three"><span class="name"[^>]*>([^<]+)</span>', screen)
    assert three and sorted(marked) == sorted(three)
    assert screen.count('title="three-handed">3</span>') == len(three)


def test_reset_and_take_round_back_ask_first_and_reset_is_not_beside_pause(client, db, clock):
    event_id = event(db)
    release(client, event_id, 1)
    page = client.get(f"/events/{event_id}/room").text
    token = token_of(page)
    pause = re.search(r'<form[^>]*id="timer-form".*?</form>', page, re.S).group(0)
    assert "reset" not in pause.lower() and 'id="reset-form"' in page  # a form of its own, apart from Pause
    clock.now += 600
    asked = client.post(f"/events/{event_id}/timer", data={"action": "reset", "csrf": token})
    assert asked.status_code == 200 and "Reset the round&#39;s timer?" in asked.text and "50:00" in asked.text
    assert client.get(f"/api/events/{event_id}/room").json()["timer"]["left"] == 3000  # nothing reset yet
    done = client.post(
        f"/events/{event_id}/timer", data={"action": "reset", "confirm": "1", "csrf": token}, follow_redirects=False
    )
    assert done.status_code == 303 and client.get(f"/api/events/{event_id}/room").json()["timer"]["left"] == 3600
    asked = client.post(f"/events/{event_id}/release/withdraw", data={"csrf": token})
    assert asked.status_code == 200 and "Take round 1 back?" in asked.text and 'name="confirm"' in asked.text
    assert client.get(f"/api/events/{event_id}/room").json()["released"] == [1]
    done = client.post(
        f"/events/{event_id}/release/withdraw", data={"csrf": token, "confirm": "1"}, follow_redirects=False
    )
    assert done.status_code == 303 and client.get(f"/api/events/{event_id}/room").json()["released"] == []
