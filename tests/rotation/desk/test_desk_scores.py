"""Scores in the desk over HTTP (TestClient): cards entered by form and JSON, refusals beside their
boxes, corrections kept in a history, standings by hand-computed figures, and scores that outlive
re-plans, swaps and undo."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3

import pytest

from desk_helpers import names, seeded_event, token_of, wait_run
from rotation.desk.core.settings import EventSettings
from rotation.desk.storage import MIGRATIONS, SCHEMA_VERSION, Store

pytestmark = pytest.mark.subprocess

# The fixed rule's first round for 9 players: tables (01 02 03 04) and (05 06 07 08), Player 09 sits out.
TABLE_1 = ["Player 01", "Player 02", "Player 03", "Player 04"]
TABLE_2 = ["Player 05", "Player 06", "Player 07", "Player 08"]
# Round totals 10, 20, -5, 3 and 4, 8, -4, 0: 36 over the 8 who played = 4.5, so a sit-out scores 5
# under the average rule (half away from zero).
CARD_1 = {"Player 01": [10, 0, 0, 0], "Player 02": [0, 20, 0, 0], "Player 03": [0, 0, -5, 0], "Player 04": [0, 0, 0, 3]}
CARD_2 = {"Player 05": [1, 1, 1, 1], "Player 06": [2, 2, 2, 2], "Player 07": [-1, -1, -1, -1], "Player 08": [0] * 4}


def sit_out_day(db, rule: str = "average") -> int:
    event_id = seeded_event(db, EventSettings(names=names(9), rounds=3, odd="sit-out", sit_out_scoring=rule))
    return event_id


def played(client, event_id: int, rounds: int = 1) -> None:
    assert client.post(f"/api/events/{event_id}/played", json={"rounds": rounds}).status_code == 200


def enter(client, event_id: int, round_number: int, table: int, points: dict):
    return client.post(f"/api/events/{event_id}/cards", json={"round": round_number, "table": table, "points": points})


def form_of(points: dict, players: list[str]) -> dict:
    fields = {}
    for seat, name in enumerate(players):
        fields[f"name-{seat}"] = name
        for game, value in enumerate(points.get(name, [""] * 4), start=1):
            fields[f"points-{seat}-{game}"] = str(value)
    return fields


def errors_of(html: str) -> dict[str, str]:
    return dict(re.findall(r'<p class="error" id="error-([a-z0-9-]+)" role="alert">([^<]*)</p>', html))


def standings(client, event_id: int, **params) -> dict:
    response = client.get(f"/api/events/{event_id}/standings", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_the_seeded_round_is_the_one_figured_by_hand(client, db):
    event_id = sit_out_day(db)
    first = client.get(f"/api/events/{event_id}/schedule").json()["rounds"][0]
    assert [t["players"] for t in first["tables"]] == [TABLE_1, TABLE_2] and first["sit_outs"] == ["Player 09"]


def test_a_card_of_a_round_not_played_is_refused_and_the_page_marks_it_played(client, db):
    event_id = sit_out_day(db)
    refused = enter(client, event_id, 1, 1, CARD_1)
    assert refused.status_code == 409 and "round 1 is not marked played yet" in refused.json()["detail"]
    page = client.get(f"/events/{event_id}/scores", follow_redirects=True)
    assert page.url.path == f"/events/{event_id}/scores/1"
    assert 'id="mark-played"' in page.text and page.text.count(" disabled>") >= 16  # boxes not yet open
    marked = client.post(f"/events/{event_id}/scores/1/played", data={"csrf": token_of(page.text)})
    assert marked.status_code == 200 and 'id="mark-played"' not in marked.text
    assert client.get(f"/api/events/{event_id}").json()["current_version"]["played"] == 1
    assert client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]["missing"] == [1, 2]


def test_a_form_enters_a_card_in_seat_order_and_the_server_totals_it(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    page = client.get(f"/events/{event_id}/scores/1").text
    assert [m for m in re.findall(r'name="name-\d" value="([^"]+)"', page)] == TABLE_1 + TABLE_2
    data = {"csrf": token_of(page), **form_of(CARD_1, TABLE_1)}
    saved = client.post(f"/events/{event_id}/scores/1/1", data=data, follow_redirects=False)
    assert saved.status_code == 303 and saved.headers["location"].endswith("?saved=1#table-1")
    shown = client.get(saved.headers["location"]).text
    assert "Table 1: card saved" in shown and "1 of 2 tables' cards are in; missing: table 2" in shown
    assert re.findall(r'aria-label="Player 0\d, round total">(-?\d+)<', shown) == ["10", "20", "-5", "3"]
    cards = client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]
    assert cards["tables"][0]["status"] == "in" and cards["tables"][0]["card"]["totals"]["Player 02"] == 20
    assert cards["missing"] == [2]


def test_a_wrong_box_gets_its_message_beside_it_and_nothing_is_saved(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    token = token_of(client.get(f"/events/{event_id}/scores/1").text)
    data = {"csrf": token, **form_of(CARD_1, TABLE_1), "points-1-3": "1O", "points-2-4": ""}
    refused = client.post(f"/events/{event_id}/scores/1/1", data=data)
    assert refused.status_code == 422
    assert errors_of(refused.text) == {
        "t1-1-3": "&#39;1O&#39; is not a whole number of points for Player 02",
        "t1-2-4": "no points entered for Player 03",
    }
    assert 'value="1O"' in refused.text and 'name="points-0-1" value="10"' in refused.text  # typed, kept
    assert 'name="points-2-4" value=""' in refused.text
    assert re.search(r'class="points wrong" name="points-1-3"[^>]*aria-invalid="true"', refused.text)
    assert client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]["missing"] == [1, 2]


def test_a_name_not_at_the_table_is_refused_with_where_that_player_sits(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    token = token_of(client.get(f"/events/{event_id}/scores/1").text)
    wrong = ["Player 05", *TABLE_1[1:]]  # a stale page, or a script, names a player of table 2
    data = {"csrf": token, **form_of({**CARD_1, "Player 05": [1, 2, 3, 4]}, wrong)}
    refused = client.post(f"/events/{event_id}/scores/1/1", data=data)
    assert refused.status_code == 422
    errors = errors_of(refused.text)
    assert errors["t1-0"] == "&#39;Player 05&#39; plays at table 2 this round, not at this table"
    assert errors["t1"] == "no points entered for Player 01"
    by_json = enter(client, event_id, 1, 1, {**CARD_1, "Nobody": [0, 0, 0, 0]})
    assert by_json.status_code == 422
    assert any("'Nobody' is not at this table" in p["message"] for p in by_json.json()["problems"])
    assert client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]["missing"] == [1, 2]


def test_a_card_entered_twice_is_a_correction_kept_in_its_history_not_a_double_count(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    assert enter(client, event_id, 1, 1, CARD_1).json()["stored"] is True
    assert enter(client, event_id, 1, 2, CARD_2).status_code == 200
    corrected = {**CARD_1, "Player 01": [10, 0, 0, 5]}  # game 4 was 5, not 0: 15
    again = enter(client, event_id, 1, 1, corrected).json()
    assert again["stored"] is True and again["table"]["corrections"] == 1
    same = enter(client, event_id, 1, 1, corrected).json()
    assert same["stored"] is False and same["table"]["corrections"] == 1  # nothing new to keep
    rows = {row["player"]: row for row in standings(client, event_id)["standings"]["rows"]}
    assert rows["Player 01"]["total"] == 15  # the correction replaces 10, it is not added to it
    # 41 over 8 = 5.125: the sit-out's 5 stays.
    assert rows["Player 09"]["total"] == 5
    history = client.get(f"/api/events/{event_id}/cards/1/1/history").json()
    assert [h["totals"]["Player 01"] for h in history] == [15, 10]  # newest first
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", h["entered"]) for h in history)
    page = client.get(f"/events/{event_id}/scores/1/1/history").text
    assert page.count('class="panel entry') == 2 and "counts" in page and "corrected" in page
    assert "1 earlier entry kept" in client.get(f"/events/{event_id}/scores/1").text


def test_standings_after_a_round_with_a_sit_out_by_hand(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    enter(client, event_id, 1, 1, CARD_1)
    assert client.get(f"/api/events/{event_id}/standings").status_code == 404  # table 2 not in yet
    assert "No round has every table" in client.get(f"/events/{event_id}/standings").text
    enter(client, event_id, 1, 2, CARD_2)
    data = standings(client, event_id)
    table = data["standings"]
    assert table["after"] == 1 and table["round_averages"] == [5]
    order = [(row["place"], row["player"], row["total"]) for row in table["rows"]]
    assert order == [
        ("1", "Player 02", 20),
        ("2", "Player 01", 10),
        ("3", "Player 06", 8),
        ("4", "Player 09", 5),
        ("5", "Player 05", 4),
        ("6", "Player 04", 3),
        ("7", "Player 08", 0),
        ("8", "Player 07", -4),
        ("9", "Player 03", -5),
    ]
    sat = next(row for row in table["rows"] if row["player"] == "Player 09")
    assert sat["rounds"] == [{"round": 1, "mark": "sat out", "points": 5, "table": None}]
    assert any("round 1 5" in note for note in data["footnotes"])
    page = client.get(f"/events/{event_id}/standings").text
    assert "Standings after round 1 of 3" in page and ">5*<" in page and "sat out: the round scores" in page
    printed = client.get(f"/events/{event_id}/standings/print").text
    assert "<td>5*</td>" in printed and "round 1 5" in printed
    sheet = client.get(f"/events/{event_id}/standings/download/standings.csv").text
    lines = {row["player"]: row for row in csv.DictReader(io.StringIO(sheet))}
    assert lines["Player 09"]["round 1 points"] == "5" and lines["Player 09"]["round 1 note"].startswith("*")
    downloaded = json.loads(client.get(f"/events/{event_id}/standings/download/standings.json").text)
    assert downloaded["standings"] == table
    excel = client.get(f"/events/{event_id}/standings/download/standings.csv", params={"excel": "true"})
    assert excel.text.startswith("\ufeff")
    assert client.get(f"/api/events/{event_id}/standings", params={"after": 2}).status_code == 404


def test_zero_rule_and_a_three_handed_round(client, db):
    event_id = seeded_event(db, EventSettings(names=names(7), rounds=2, odd="three-handed"))
    played(client, event_id)
    first = client.get(f"/api/events/{event_id}/schedule").json()["rounds"][0]["tables"]
    sizes = sorted(len(t["players"]) for t in first)
    assert sizes == [3, 4]
    for t in first:
        assert enter(client, event_id, 1, t["table"], {n: [1, 1, 1, 1] for n in t["players"]}).status_code == 200
    rows = standings(client, event_id)["standings"]["rows"]
    three = next(t for t in first if len(t["players"]) == 3)
    marks = {row["player"]: row["rounds"][0]["mark"] for row in rows}
    assert {name for name, mark in marks.items() if mark == "three-handed"} == set(three["players"])
    assert "4³" in client.get(f"/events/{event_id}/standings").text


def test_re_plans_swaps_and_undo_never_touch_the_scores(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    enter(client, event_id, 1, 1, CARD_1)
    enter(client, event_id, 1, 2, CARD_2)
    before = standings(client, event_id)
    run = client.post(f"/api/events/{event_id}/replan", json={"from_round": 2, "leave": ["Player 03"], "time_limit": 2})
    assert run.status_code == 202
    done = wait_run(client, run.json()["id"])
    assert done["status"] in ("finished", "stopped"), done
    proposal = client.get(f"/api/events/{event_id}").json()["proposals"][0]["version"]["id"]
    assert client.post(f"/api/events/{event_id}/versions/{proposal}/accept", json={}).status_code == 200
    assert standings(client, event_id) == before  # the re-plan kept round 1, and its cards count as they did
    # A swap recorded in the played round changes two tables: their cards are kept, not counted, flagged.
    swapped = {"round": 1, "first": "Player 01", "second": "Player 05"}
    asked = client.post(f"/api/events/{event_id}/swap", json=swapped)  # the preview names the cards it detaches
    assert asked.status_code == 409
    assert asked.json()["preview"]["effects"]["cards"] == [{"round": 1, "table": 1}, {"round": 1, "table": 2}]
    assert client.post(f"/api/events/{event_id}/swap", json={**swapped, "confirm": True}).status_code == 200
    cards = client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]
    assert [t["status"] for t in cards["tables"]] == ["changed", "changed"] and cards["missing"] == [1, 2]
    assert client.get(f"/api/events/{event_id}/standings").status_code == 404
    waiting = client.get(f"/events/{event_id}/standings").text  # the standings page says why, and where to go
    assert "Round 1: the cards of tables 1, 2 wait for a check, as the seating changed after they were" in waiting
    assert f'<a href="/events/{event_id}/scores/1">Check and save them</a>' in waiting
    page = client.get(f"/events/{event_id}/scores/1").text  # the cards entered before, offered to confirm
    assert page.count("that card is filled in above, seat by seat") == 2
    assert re.findall(r'name="points-0-\d" value="(-?\d+)"', page) == ["10", "0", "0", "0", "1", "1", "1", "1"]
    assert client.post(f"/api/events/{event_id}/undo", json={}).status_code == 200
    assert standings(client, event_id) == before  # back as it was: the same cards count again
    assert len(client.get(f"/api/events/{event_id}/cards/1/1/history").json()) == 1
    # Round 2 as re-planned: Player 03 has left, keeps round 1's -5 and is marked.
    played(client, event_id, 2)
    for table in client.get(f"/api/events/{event_id}/schedule").json()["rounds"][1]["tables"]:
        assert (
            enter(client, event_id, 2, table["table"], {n: [1, 1, 1, 1] for n in table["players"]}).status_code == 200
        )
    left = next(row for row in standings(client, event_id)["standings"]["rows"] if row["player"] == "Player 03")
    assert left["total"] == -5 and left["left_after"] == 1
    assert left["rounds"][1] == {"round": 2, "mark": "left", "points": None, "table": None}
    assert (
        'Player 03 <span class="quiet">(left after round 1)</span>' in client.get(f"/events/{event_id}/standings").text
    )


def test_forms_need_the_token_and_json_needs_json(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    forged = client.post(f"/events/{event_id}/scores/1/1", data=form_of(CARD_1, TABLE_1))
    assert forged.status_code == 403
    body = json.dumps({"round": 1, "table": 1, "points": CARD_1})
    as_form = client.post(f"/api/events/{event_id}/cards", content=body, headers={"content-type": "text/plain"})
    assert as_form.status_code == 415
    assert client.post(f"/events/{event_id}/standings/screen", data={"show": "yes"}).status_code == 403
    assert client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]["missing"] == [1, 2]


def test_what_is_not_there_is_not_found(client, db):
    event_id = sit_out_day(db)
    assert client.get(f"/events/{event_id}/scores/9").status_code == 404
    assert client.get(f"/events/{event_id}/scores/1/7/history").status_code == 404
    token = token_of(client.get(f"/events/{event_id}/scores/1").text)
    no_table = client.post(f"/events/{event_id}/scores/1/7", data={"csrf": token, **form_of(CARD_1, TABLE_1)})
    assert no_table.status_code == 404 and "round 1 has no table 7" in no_table.text
    assert client.get(f"/events/{event_id}/standings/download/other.txt").status_code == 404
    assert client.get("/api/events/99/cards").status_code == 404
    played(client, event_id)
    wrong_table = enter(client, event_id, 1, 7, CARD_1)
    assert wrong_table.status_code == 422 and "no such table" in wrong_table.json()["detail"]
    client.post("/api/events", json={"names": names(8), "rounds": 2})
    assert client.get("/events/2/scores", follow_redirects=True).status_code == 404  # no schedule yet


def test_the_projector_shows_the_standings_when_the_director_says_until_the_next_release(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    client.post(f"/api/events/{event_id}/release", json={"round": 1})
    show = client.put(f"/api/events/{event_id}/screen/standings", json={"show": True})
    assert show.status_code == 409 and "nothing to show" in show.json()["detail"]
    stamp = client.get(f"/e/{event_id}/screen/state.json").json()["standings"]
    enter(client, event_id, 1, 1, CARD_1)
    enter(client, event_id, 1, 2, CARD_2)
    assert client.get(f"/e/{event_id}/screen/state.json").json()["standings"] != stamp  # a card: a new look
    token = token_of(client.get(f"/events/{event_id}/standings").text)
    shown = client.post(f"/events/{event_id}/standings/screen", data={"csrf": token, "show": "yes"})
    assert "The projector shows the standings after round 1" in shown.text
    screen = client.get(f"/e/{event_id}/screen").text
    assert 'id="standings"' in screen and "Standings after round 1 of 3" in screen
    assert screen.count('class="standing"') == 9 and '<span class="points sat-out">5*</span>' in screen
    assert "sat out: the round scores the round&#39;s average" in screen and 'id="tables"' not in screen
    played(client, event_id, 2)
    client.post(f"/api/events/{event_id}/release", json={"round": 2})
    screen = client.get(f"/e/{event_id}/screen").text
    assert 'id="tables"' in screen and 'id="standings"' not in screen  # the next round shows its tables
    assert client.put(f"/api/events/{event_id}/screen/standings", json={"show": True}).json() == {
        "show": True,
        "top": None,
        "series": False,
    }
    off = client.put(f"/api/events/{event_id}/screen/standings", json={"show": False})
    assert off.json() == {"show": False, "top": None, "series": False}


def test_the_projector_shows_the_top_places_only_when_asked(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    client.post(f"/api/events/{event_id}/release", json={"round": 1})
    enter(client, event_id, 1, 1, CARD_1)
    enter(client, event_id, 1, 2, CARD_2)
    standings = client.get(f"/api/events/{event_id}/standings").json()["standings"]["rows"]
    token = token_of(client.get(f"/events/{event_id}/standings").text)
    assert 'id="screen-top"' in client.get(f"/events/{event_id}/standings").text
    client.post(f"/events/{event_id}/standings/screen", data={"csrf": token, "show": "yes", "top": "3"})
    screen = client.get(f"/e/{event_id}/screen").text
    shown = [row for row in standings if row["rank"] <= 3]
    assert screen.count('class="standing"') == len(shown) < len(standings)
    assert all(row["player"] in screen for row in shown)
    assert f"of {len(standings)} players." in screen  # the whole field, not the places shown (issue 53)
    assert client.put(f"/api/events/{event_id}/screen/standings", json={"show": True, "top": 0}).status_code == 422
    everyone = client.put(f"/api/events/{event_id}/screen/standings", json={"show": True})
    assert everyone.json() == {"show": True, "top": None, "series": False}
    assert client.get(f"/e/{event_id}/screen").text.count('class="standing"') == len(standings)


def test_openapi_lists_every_scores_action(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path, method in [
        ("/api/events/{event_id}/cards", "post"),
        ("/api/events/{event_id}/cards", "get"),
        ("/api/events/{event_id}/cards/{round_number}/{table_number}/history", "get"),
        ("/api/events/{event_id}/standings", "get"),
        ("/api/events/{event_id}/screen/standings", "put"),
    ]:
        assert method in paths[path], path


def test_a_schema_3_file_takes_the_cards_on_and_keeps_its_rooms(db):
    connection = sqlite3.connect(db)
    connection.executescript(";".join(MIGRATIONS[:3]) + "; PRAGMA user_version = 3;")
    connection.execute("INSERT INTO events (id, settings, created) VALUES (1, '{}', 'then')")
    connection.execute("INSERT INTO rooms (event_id, public_id) VALUES (1, 'abc')")
    connection.commit()
    connection.close()
    store = Store(db)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert tuple(store.db.execute("SELECT public_id, standings_at FROM rooms").fetchone()) == ("abc", None)
    assert store.db.execute("SELECT count(*) FROM cards").fetchone()[0] == 0


def test_a_late_arrivals_rounds_before_arriving_score_as_sat_out_only_when_the_event_says_so(client, db):
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=3, odd="sit-out", sit_out_scoring="average"))
    played(client, event_id)
    enter(client, event_id, 1, 1, CARD_1)
    enter(client, event_id, 1, 2, CARD_2)
    run = client.post(f"/api/events/{event_id}/replan", json={"from_round": 2, "arrive": ["Newcomer"], "time_limit": 2})
    assert wait_run(client, run.json()["id"])["status"] in ("finished", "stopped")
    proposal = client.get(f"/api/events/{event_id}").json()["proposals"][0]["version"]["id"]
    assert client.post(f"/api/events/{event_id}/versions/{proposal}/accept", json={}).status_code == 200
    assert "Newcomer" not in [row["player"] for row in standings(client, event_id)["standings"]["rows"]]
    settings = client.get(f"/api/events/{event_id}").json()["settings"]
    assert client.put(f"/api/events/{event_id}", json={**settings, "late_as_sit_out": True}).status_code == 200
    rows = {row["player"]: row for row in standings(client, event_id)["standings"]["rows"]}
    # 36 points over the 8 who played round 1 is 4.5: 5, as a sit-out would score.
    assert rows["Newcomer"]["rounds"] == [{"round": 1, "mark": "not yet arrived", "points": 5, "table": None}]
    page = client.get(f"/events/{event_id}/standings").text
    assert "late: not yet arrived; a round before arriving scored as a sit-out." in page
    assert 'name="late_as_sit_out" value="yes" checked' in client.get(f"/events/{event_id}/edit").text


def test_the_settings_form_takes_the_late_arrivals_choice_as_a_checkbox():
    from rotation.desk.core.settings import settings_from_form

    fields = {"names": "\n".join(names(8)), "rounds": "3", "time_limit": "2"}
    assert settings_from_form({**fields, "late_as_sit_out": "yes"}).late_as_sit_out is True
    assert settings_from_form(fields).late_as_sit_out is False  # an unticked box is not sent


def test_the_projector_sums_the_early_rounds_in_one_column_past_six_rounds(client, db):
    """Eight rounds do not fit a projector's row beside a name at 40 px: rounds 1-3 are summed in one
    column with their signs, rounds 4-8 each have their own."""
    event_id = seeded_event(db, EventSettings(names=names(9), rounds=8, odd="sit-out", sit_out_scoring="average"))
    played(client, event_id, 8)
    schedule = client.get(f"/api/events/{event_id}/schedule").json()
    for number, round_ in enumerate(schedule["rounds"], start=1):
        for table in round_["tables"]:
            points = {name: [number, seat - 2, 0, 1] for seat, name in enumerate(table["players"])}
            assert enter(client, event_id, number, table["table"], points).status_code == 200
    assert client.put(f"/api/events/{event_id}/screen/standings", json={"show": True}).status_code == 200
    screen = client.get(f"/e/{event_id}/screen").text
    heads = re.findall(r'<span class="points">([^<]+)</span>', screen.split('id="standings"')[0])
    assert heads == ["R1–3", "R4", "R5", "R6", "R7", "R8"]
    rows = re.findall(
        r'<div class="standing"><span class="place">[^<]*</span><span class="name">(Player \d\d)[^"]*?'
        r'<span class="points ([a-z-]+)">([^<]*)</span>',
        screen,
    )
    table = {row["player"]: row for row in standings(client, event_id)["standings"]["rows"]}
    assert len(rows) == 9
    for player, mark, text in rows:
        early = table[player]["rounds"][:3]
        sat = [score["mark"] == "sat out" for score in early]
        assert text == f"{sum(score['points'] for score in early)}{'*' if any(sat) else ''}", (player, text)
        assert mark == ("sat-out" if any(sat) else "played")
