"""The desk's contract at its edges (issue 57): every id in an address bounded, every number in a form
written in ASCII digits, so no address or form a client sends is answered with a 500."""

from __future__ import annotations

from fastapi.routing import APIRoute

from desk_helpers import names, seeded_event, token_of
from rotation.desk.app import ROUTERS
from rotation.desk.core.rules_form import rules_from_form
from rotation.desk.core.settings import EventSettings
from rotation.desk.deps import MAX_ID
from rotation.desk.numbers import form_number

HUGE = 2**64  # past SQLite's 64-bit integers
SETTINGS = EventSettings(names=names(9), rounds=3, odd="sit-out")


def test_every_number_in_every_address_is_bounded():
    """The one bounded type (deps.Id) on every route: an unbounded int reaches SQLite and overflows."""
    unbounded = []
    for router in ROUTERS:
        for route in router.routes:
            if not isinstance(route, APIRoute):
                continue
            for param in route.dependant.path_params:
                if param.field_info.annotation is int:
                    bounds = [getattr(m, "le", None) for m in param.field_info.metadata]
                    if MAX_ID not in bounds:
                        unbounded.append((route.path, param.name))
    assert unbounded == []


def test_ids_past_sqlites_range_are_refused_on_the_routes_that_crashed(client, db):
    seeded_event(db, SETTINGS)
    game = {"game": 1, "how": "wall"}
    answers = [
        client.post(f"/api/events/{HUGE}/games", json={"round": 1, "table": 1, "games": [game]}),
        client.post(f"/api/events/{HUGE}/release/session", json={}),
        client.get(f"/events/{HUGE}/rules"),
    ]
    assert [answer.status_code for answer in answers] == [422, 422, 422]


def test_a_form_number_is_ascii_digits_only():
    assert [form_number(text) for text in ("12", " 7 ", "0")] == [12, 7, 0]
    assert [form_number(text) for text in ("²", "٣", "1_0", "-1", "+1", "", "1" * 19)] == [None] * 7
    assert form_number("12345", 4) is None


def test_a_superscript_number_of_places_is_refused_beside_the_screen_form(client, db):
    event_id = seeded_event(db, SETTINGS)
    token = token_of(client.get(f"/events/{event_id}").text)
    shown = client.post(f"/events/{event_id}/standings/screen", data={"csrf": token, "show": "yes", "top": "²"})
    assert shown.status_code == 422 and "is not a number of places" in shown.text


def test_a_card_field_named_with_a_superscript_is_ignored_not_crashed(client, db):
    event_id = seeded_event(db, SETTINGS)
    assert client.post(f"/api/events/{event_id}/played", json={"rounds": 1}).status_code == 200
    token = token_of(client.get(f"/events/{event_id}").text)
    answer = client.post(f"/events/{event_id}/scores/1/1", data={"csrf": token, "name-²": "Player 01"})
    assert answer.status_code < 500


def test_json_bodies_take_their_own_types_only(client, db):
    """A bool is true or false and a number is a number: pydantic's lax mode took "maybe", 1 and true."""
    event_id = seeded_event(db, SETTINGS)
    wrong = [
        (f"/api/events/{event_id}/archive", {"archived": "yes"}),
        (f"/api/events/{event_id}/swap", {"round": 1, "first": "Player 01", "second": "Player 05", "confirm": 1}),
        (f"/api/events/{event_id}/release", {"round": True}),
        (f"/api/events/{event_id}/played", {"rounds": "1"}),
    ]
    assert [client.post(path, json=body).status_code for path, body in wrong] == [422] * len(wrong)
    screen = f"/api/events/{event_id}/screen/standings"
    assert client.put(screen, json={"show": True, "series": "yes"}).status_code == 422
    assert client.post(f"/api/events/{event_id}/played", json={"rounds": 1.5}).status_code == 422
    assert client.post(f"/api/events/{event_id}/played", json={"rounds": 1.0}).status_code == 200  # JSON Schema's


def test_every_change_in_the_schema_documents_the_415_it_answers_without_json(client, db):
    """A change sent without `Content-Type: application/json` is refused 415, as the schema says: the
    header is what a cross-site form cannot send. A body-less one from a browser (Origin) needs it too."""
    event_id = seeded_event(db, SETTINGS)
    schema = client.get("/openapi.json").json()
    changes = [
        (path, method)
        for path, operations in schema["paths"].items()
        for method in operations
        if method in ("post", "put", "delete")
    ]
    assert len(changes) >= 20
    assert [c for c in changes if "415" not in schema["paths"][c[0]][c[1]]["responses"]] == []
    for browser in ({"origin": "http://attacker.example"}, {"sec-fetch-site": "cross-site"}):
        refused = client.post(f"/api/events/{event_id}/undo", headers=browser)
        assert refused.status_code == 415 and refused.headers["content-type"].startswith("text/plain")
    assert (
        client.post(f"/api/events/{event_id}/undo", content=b"", headers={"content-type": "text/plain"}).status_code
        == 415
    )


def test_a_scripts_body_less_change_is_taken_without_a_content_type(client, db):
    """curl -X POST .../runs/1/stop: no body, no Origin, so no page sent it (Schemathesis ST202 gave 415)."""
    event_id = seeded_event(db, SETTINGS)
    assert client.post("/api/backups").status_code == 201
    assert client.delete(f"/api/events/{event_id}").status_code == 409  # asks to confirm, as with the header
    assert client.delete(f"/api/events/{event_id}", params={"confirm": "true"}).status_code == 200


def test_every_json_body_documents_the_400_it_answers_when_it_does_not_parse(client, db):
    event_id = seeded_event(db, SETTINGS)
    schema = client.get("/openapi.json").json()
    bodies = [
        (path, method, operation["responses"])
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
        if "application/json" in operation.get("requestBody", {}).get("content", {})
    ]
    assert len(bodies) >= 20 and [(path, method) for path, method, answers in bodies if "400" not in answers] == []
    broken = client.post(
        f"/api/events/{event_id}/archive", content=b"\xff", headers={"content-type": "application/json"}
    )
    assert broken.status_code == 400 and "detail" in broken.json()  # not UTF-8 (a JSON syntax error is a 422)


def test_a_change_method_no_route_takes_is_a_405_not_a_415(client, db):
    """The JSON header was checked before routing: PUT /api/events answered 415, not 405 (Schemathesis ST204),
    and PUT /api/events/import was taken for an event id and answered 422."""
    seeded_event(db, SETTINGS)
    answers = {
        ("PUT", "/api/events"): "GET, HEAD, POST",
        ("POST", "/api/events/1"): "DELETE, GET, HEAD, PUT",
        ("PUT", "/api/events/import"): "POST",
        ("DELETE", "/api/backups"): "GET, HEAD, POST",
    }
    got = {}
    for (method, path), _ in answers.items():
        answer = client.request(method, path)
        got[(method, path)] = answer.headers.get("allow") if answer.status_code == 405 else answer.status_code
    assert got == answers


def test_the_backup_download_is_documented_as_what_it_is(client):
    schema = client.get("/openapi.json").json()
    documented = schema["paths"]["/api/backup.sqlite3"]["get"]["responses"]["200"]["content"]
    answer = client.get("/api/backup.sqlite3")
    assert answer.status_code == 200 and answer.headers["content-type"] in documented


def test_every_405_names_in_allow_the_methods_the_schema_gives_its_address(client, db):
    """Starlette's Allow named only the first matching route's methods: GET for POST /api/events, GET for
    the import (taken for /api/events/{event_id}), PUT only for /api/series/{name}/rule."""
    seeded_event(db, SETTINGS)
    ids = {"event_id": 1, "run_id": 1, "version_id": 1, "round_number": 1, "table_number": 1, "name": "x"}
    wrong = []
    for path, operations in client.get("/openapi.json").json()["paths"].items():
        answer = client.request("TRACE", path.format(**ids, what="x"))  # no route takes it: no 415 before the 405
        allow = {method.strip() for method in answer.headers.get("allow", "").split(",")}
        documented = {method.upper() for method in operations} | ({"HEAD"} if "get" in operations else set())
        if answer.status_code != 405 or allow != documented:
            wrong.append((path, answer.status_code, sorted(allow)))
    assert wrong == []


def test_every_get_in_the_schema_answers_a_head_as_the_get_without_its_body(client, db):
    """RFC 9110: HEAD goes with GET (it answered 405, its Allow naming GET alone); the schema documents the GETs."""
    seeded_event(db, SETTINGS)
    ids = {"event_id": 1, "run_id": 1, "version_id": 1, "round_number": 1, "table_number": 1, "name": "x"}
    wrong, asked = [], 0
    for path, operations in client.get("/openapi.json").json()["paths"].items():
        assert "head" not in operations, path  # implied by the GET, not an operation of its own
        if "get" not in operations:
            continue
        address = path.format(**ids, what="x")
        get, head = client.get(address), client.head(address)
        asked += get.status_code == 200
        said = [
            (answer.status_code, answer.headers.get("content-type"), "content-length" in answer.headers)
            for answer in (get, head)
        ]  # fmt: skip (a length itself may change: the room's timer counts down)
        if said[0] != said[1] or head.content != b"":
            wrong.append((address, *said))
    assert wrong == [] and asked >= 10
    exported = client.head("/api/events/1/export")
    assert int(exported.headers["content-length"]) == len(client.get("/api/events/1/export").content)


def test_a_head_where_no_get_is_a_405_naming_the_methods(client, db):
    seeded_event(db, SETTINGS)
    answer = client.head("/api/events/1/release")
    assert answer.status_code == 405 and answer.headers["allow"] == "POST" and answer.content == b""


def test_a_signed_form_number_takes_one_minus_and_ascii_digits():
    assert [form_number(text, signed=True) for text in ("-5", "5", " -0 ")] == [-5, 5, 0]
    assert [form_number(text, signed=True) for text in ("--5", "-", "-٣", "5-")] == [None] * 4
    assert form_number("-5") is None  # unsigned unless asked


def test_the_rules_boxes_take_ascii_digits_only():
    """int() read '١٠' as 10 and '1_0' as 10; the winners' circle the same."""
    for text in ("١٠", "1_0", "1" * 5000):
        rules, errors = rules_from_form({"rules_wall_game": text})
        assert rules is None and errors == {"rules_wall_game": f"{text!r} is not a whole number"}
    rules, errors = rules_from_form({"rules_winners_circle": "٣; 6 from 24"})
    assert rules is None and "write places" in errors["rules_winners_circle"]
    rules, errors = rules_from_form({"rules_wall_game": "12", "rules_winners_circle": "3; 6 from 24"})
    assert errors == {} and rules is not None and rules.wall_game == 12
    assert rules.winners_circle == ((1, 3), (24, 6))


def test_the_room_and_timer_bodies_publish_the_bounds_the_desk_keeps(client, db):
    """The schema allowed a 0-minute round and any timer word, which the desk then refused (Schemathesis
    ST202): a request the schema allows is now one the room takes."""
    event_id = seeded_event(db, SETTINGS)
    bodies = client.get("/openapi.json").json()["components"]["schemas"]
    assert (
        bodies["RoomIn"]["properties"]["minutes"]["minimum"],
        bodies["RoomIn"]["properties"]["pace"]["minimum"],
    ) == (1, 3)
    assert bodies["TimerIn"]["properties"]["action"]["enum"] == ["start", "pause", "extend", "reset"]
    assert client.put(f"/api/events/{event_id}/room", json={"minutes": 1, "pace": 3}).status_code == 200
