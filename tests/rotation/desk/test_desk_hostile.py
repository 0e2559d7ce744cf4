"""The desk under hostile conditions (issue 41): a second desk on the same file, pages that only read,
bodies too large however they are sent, text that breaks things, numbers out of range."""

from __future__ import annotations

import re
import sqlite3
import threading

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import TypeAdapter
from test_desk_layers import FakePlanner, page_routes

from desk_helpers import LOCAL, names, seeded_event, wait_run
from models.text import MAX_NAME, MAX_TITLE, Name, Title, normalise_name
from rotation.commands.cli import cli
from rotation.desk.app import create_app
from rotation.desk.core.settings import EventSettings
from rotation.desk.events import runs, service
from rotation.desk.storage import HowMade, PlanRequest, RunStatus, Store, VersionKind
from rotation.desk.storage.lock import DeskBusy

SETTINGS = EventSettings(names=names(10), rounds=4, odd="sit-out")


@pytest.fixture
def client(db):
    with TestClient(create_app(db, planner=FakePlanner()), base_url=LOCAL) as client:
        yield client


# ---- one desk per file ----------------------------------------------------------------------------


def test_a_second_desk_on_the_same_file_is_refused_and_the_first_keeps_its_runs(db):
    event_id = seeded_event(db, SETTINGS)
    with TestClient(create_app(db), base_url=LOCAL) as first:
        run = first.post(f"/api/events/{event_id}/plan", json={}).json()
        with pytest.raises(DeskBusy, match="another desk is already serving"):
            create_app(db)
        result = CliRunner().invoke(cli, ["serve", "--db", str(db)])
        assert result.exit_code == 2 and "another desk is already serving" in result.output
        assert "Traceback" not in result.output
        assert first.get(f"/api/runs/{run['id']}").json()["status"] == "running"  # not closed by the second
        first.post(f"/api/runs/{run['id']}/stop", json={})
    with TestClient(create_app(db, planner=FakePlanner()), base_url=LOCAL) as again:  # the first let go
        assert again.get("/api/events").status_code == 200


def test_runs_are_stamped_with_their_desk_and_a_restart_closes_only_those_of_a_desk_gone(db):
    event_id = seeded_event(db, SETTINGS)
    store = Store(db)
    gone = store.add_run(event_id, PlanRequest(settings=SETTINGS), 1.0, desk="a desk that is gone")
    mine = store.add_run(event_id, PlanRequest(settings=SETTINGS), 1.0, desk="this desk")
    assert runs.interrupt_left_over(store, "this desk") == 1
    assert store.run(gone).status is RunStatus.INTERRUPTED and store.run(mine).running
    assert store.run(mine).desk == "this desk"


# ---- a page that reads never writes --------------------------------------------------------------


def get_paths(client, event_id: int, public_id: str) -> list[str]:
    """Every GET route of the desk, its ids filled in with things that exist."""
    ids = {
        "event_id": event_id,
        "run_id": 1,
        "version_id": 1,
        "round_number": 1,
        "table_number": 1,
        "player": 0,
        "public_id": public_id,
        "what": "schedule.json",
        "name": "Spring league",
    }
    paths = [path for path, item in client.get("/openapi.json").json()["paths"].items() if "get" in item]
    paths += [route.path for route in page_routes("GET")]
    return sorted({path.replace(":path}", "}").format(**ids) for path in paths})


@pytest.mark.slow
def test_no_page_or_endpoint_that_reads_writes_to_the_file(client, db):
    event_id = seeded_event(db, SETTINGS)
    client.post(f"/api/events/{event_id}/played", json={"rounds": 1})
    client.post(f"/api/events/{event_id}/release", json={"round": 1})
    client.post(f"/api/events/{event_id}/plan", json={})  # the fake planner keeps it running
    public_id = client.get(f"/api/events/{event_id}/room").json()["public_id"]
    watcher = sqlite3.connect(db)
    before = watcher.execute("PRAGMA data_version").fetchone()[0]
    paths = get_paths(client, event_id, public_id)
    assert len(paths) >= 25
    answers = {path: client.get(path).status_code for path in paths}
    assert watcher.execute("PRAGMA data_version").fetchone()[0] == before, "a GET wrote to the file"
    assert all(code < 500 for code in answers.values()), answers
    assert answers[f"/events/{event_id}/room"] == answers[f"/e/{event_id}/screen"] == 200


# ---- Stop from the first millisecond ----------------------------------------------------------------


def test_stop_pressed_at_once_keeps_the_first_schedule_found(db):
    """Stop is a request the worker reads (no signal that could reach it before it can take one): pressed
    in the same breath as Plan, the run stops at its first schedule and keeps it."""
    event_id = service.create_event(Store(db), EventSettings(names=names(12), rounds=4, time_limit=20, workers=1))
    with TestClient(create_app(db), base_url=LOCAL) as client:
        run = client.post(f"/api/events/{event_id}/plan", json={}).json()
        stopping = client.post(f"/api/runs/{run['id']}/stop", json={}).json()
        assert stopping["stop_asked"] and stopping["status"] == "running"
        ended = wait_run(client, run["id"])
        assert ended["status"] == "stopped", ended["message"]
        assert ended["version_id"] is not None and ended["elapsed"] < 20
        assert client.get(f"/api/events/{event_id}").json()["current_version"]["id"] == ended["version_id"]


# ---- limits where bytes arrive -------------------------------------------------------------------


def chunks(count: int, size: int = 64 * 1024):
    for _ in range(count):
        yield b"x" * size


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/api/events", "application/json"),
        ("/events", "application/x-www-form-urlencoded"),
        ("/events", "multipart/form-data; boundary=xyz"),
        ("/api/events/1/swap", "application/json"),
    ],
)
def test_a_chunked_body_past_the_limit_is_refused_as_it_is_read(client, path, kind):
    response = client.post(path, content=chunks(48), headers={"content-type": kind})  # 3 MB, no Content-Length
    assert response.status_code == 413 and "larger than 2 MB" in response.text


def test_the_body_is_counted_as_it_is_read_not_read_whole_first():
    from rotation.desk.security import MAX_BODY_BYTES, counted

    messages = iter([{"type": "http.request", "body": b"x" * 65536, "more_body": True}] * 1000)
    read = 0

    async def receive():
        nonlocal read
        read += 1
        return next(messages)

    import asyncio

    from starlette.exceptions import HTTPException

    async def drain():
        limited = counted(receive)
        while True:
            await limited()

    with pytest.raises(HTTPException) as refused:
        asyncio.run(drain())
    assert refused.value.status_code == 413 and read == MAX_BODY_BYTES // 65536 + 1  # not one chunk more


def raw_event(client, names_json: str, title_json: str = '""'):
    body = f'{{"names": {names_json}, "rounds": 3, "title": {title_json}}}'.encode()
    return client.post("/api/events", content=body, headers={"content-type": "application/json"})


def test_text_that_does_not_show_is_removed_from_names_and_titles(client):
    names_json = '["Ann\\u202e", "B\\u0000o", "C\\u200by", "D\\ud800i", "Ed", "Flo", "Gus", "Hal"]'
    made = raw_event(client, names_json, '"Spring\\u202e open\\u0000"')
    assert made.status_code == 201, made.text
    settings = made.json()["settings"]
    assert settings["names"][:4] == ["Ann", "Bo", "Cy", "Di"] and settings["title"] == "Spring open"
    assert client.get("/api/events").status_code == 200
    assert client.get(f"/events/{made.json()['id']}").status_code == 200
    assert "\u202e" not in client.get("/").text


def test_a_name_or_title_too_long_is_refused_naming_the_field(client):
    long_name = raw_event(client, '["' + "x" * 10_000 + '", "B", "C", "D"]')
    assert long_name.status_code == 422
    problem = long_name.json()["detail"][0]
    assert problem["loc"][-2:] == ["names", "0"] and "a name has at most 64 characters" in problem["msg"]
    surrogate_title = raw_event(client, '["A", "B", "C", "D"]', '"\\ud800' + "t" * 300 + '"')
    assert surrogate_title.status_code == 422 and "a title has at most 200" in surrogate_title.text
    assert client.get("/api/events").json() == []  # nothing stored


@given(st.text(max_size=MAX_NAME))
@example("\u0958" * MAX_NAME)  # NFC makes each two characters (KA and NUKTA): 128 kept, 64 typed
@example(" " * (MAX_NAME - 1) + "a")
def test_a_name_the_schema_allows_is_never_refused_for_its_length(typed):
    """A name's limit counts what was typed, as the published JSON Schema does (maxLength): Schemathesis
    found a schema-valid swap refused for its name's length once normalised."""
    assert TypeAdapter(Name).json_schema()["maxLength"] == MAX_NAME
    assert TypeAdapter(Title).json_schema()["maxLength"] == MAX_TITLE
    assert TypeAdapter(Name).validate_python(typed) == normalise_name(typed)


def test_the_cli_refuses_a_name_too_long_on_its_line(tmp_path):
    names_file = tmp_path / "names.txt"
    names_file.write_text("Ann\nBo\n" + "y" * 3000 + "\nDi\n")
    result = CliRunner().invoke(cli, ["plan", "--names", str(names_file), "--rounds", "2", "--time-limit", "1"])
    assert result.exit_code == 2 and "line 3: a name has at most 64 characters" in result.output


def test_a_long_name_is_cut_on_the_pictures_axes():
    from rotation.printing.pictures import LABEL_CHARS, label

    assert label("Ann") == "Ann" and len(label("z" * 3000)) == LABEL_CHARS and label("z" * 3000).endswith("\u2026")


# ---- no bare 500 ------------------------------------------------------------------------------------


def test_numbers_beyond_sqlites_range_are_refused_not_crashed(client, db):
    event_id = seeded_event(db, SETTINGS)
    huge = 2**70
    for path in (
        f"/api/events/{huge}",
        f"/api/runs/{huge}",
        f"/api/events/{event_id}/schedule?version={huge}",
        f"/events/{huge}",
        f"/events/{event_id}/players/{huge}",
        f"/events/{event_id}/scores/{huge}",
    ):
        assert client.get(path).status_code == 422, path
    page = client.get(f"/events/{huge}")
    assert "text/html" in page.headers["content-type"] and "less than or equal to" in page.text


def test_a_table_number_that_is_a_digit_but_not_a_number_is_refused_beside_the_form(client, db):
    event_id = seeded_event(db, EventSettings(names=names(10), rounds=4))  # tables of three
    client.post(f"/api/events/{event_id}/played", json={"rounds": 1})
    from desk_helpers import token_of

    token = token_of(client.get(f"/events/{event_id}").text)
    moved = client.post(
        f"/events/{event_id}/move", data={"csrf": token, "round": "1", "player": "Player 01", "table": "²"}
    )
    assert moved.status_code == 422 and "is not a table number" in moved.text


def test_the_projector_after_a_day_made_shorter_than_its_releases(client, db):
    event_id = seeded_event(db, SETTINGS)
    for number in (1, 2, 3, 4):
        assert client.post(f"/api/events/{event_id}/release", json={"round": number}).status_code == 200
    shorter = seeded_event(db, EventSettings(names=names(10), rounds=2, odd="sit-out"))
    store = Store(db)
    version = store.version(store.event(shorter).current_version)
    with store.change() as change:
        store.add_version(
            change, event_id, version.schedule(), kind=VersionKind.PLAN, note="shorter", figures=HowMade(), parent=None
        )
    assert client.get(f"/e/{event_id}/screen").status_code == 200


def test_a_full_disk_says_so_and_keeps_what_was_typed(db, monkeypatch):
    from desk_helpers import token_of
    from rotation.desk.storage.base import Connection

    opened = Connection.__init__

    def full(self, path):
        opened(self, path)
        pages_now = self.db.execute("PRAGMA page_count").fetchone()[0]
        self.db.execute(f"PRAGMA max_page_count = {pages_now}")  # not one page more: SQLITE_FULL

    with TestClient(create_app(db, planner=FakePlanner()), base_url=LOCAL) as client:
        token = token_of(client.get("/events/new").text)
        monkeypatch.setattr(Connection, "__init__", full)
        client.app.state.desk._local = threading.local()  # every thread's next connection: on a full disk
        listed = [f"A player with a rather long name number {i:03d}" for i in range(100)]  # more than a page
        typed = "\n".join(listed) + "\nA name typed at the last minute"
        form = {"csrf": token, "names": typed, "rounds": "3", "time_limit": "5"}
        answer = client.post("/events", data=form, follow_redirects=False)
        assert answer.status_code == 503, re.findall(r"error[^>]*>([^<]*)<", answer.text)
        assert "the disk is full: nothing was saved" in answer.text, re.findall(r"alert\">([^<]*)<", answer.text)
        assert "A name typed at the last minute" in answer.text and 'id="typed-form"' in answer.text
        api = client.post("/api/events", json={"names": listed, "rounds": 2})
        assert api.status_code == 503 and "disk is full" in api.json()["detail"]
    monkeypatch.undo()
    assert Store(db).events() == []  # nothing half-saved


def test_a_file_held_by_another_program_says_busy(client, db, monkeypatch):
    from rotation.desk.storage.base import Connection

    event_id = seeded_event(db, SETTINGS)
    monkeypatch.setattr(Connection, "busy_seconds", 0.2)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program's write, left open
    try:
        answer = client.post(f"/api/events/{event_id}/played", json={"rounds": 1})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert answer.status_code == 503 and "busy" in answer.json()["detail"]


# ---- the address, the key, a damaged file, a UTF-16 names file ----------------------------------------


def test_a_local_desk_on_another_loopback_address_answers_the_address_it_printed(db):
    from rotation.desk.security import answered_hosts
    from rotation.desk.serve import address

    printed = address("127.0.0.2", 8765, None)
    app = create_app(db, hosts=answered_hosts("127.0.0.2"), planner=FakePlanner())
    with TestClient(app, base_url=printed.rstrip("/")) as client:
        assert client.get("/").status_code == 200
    with TestClient(create_app(db, planner=FakePlanner()), base_url="http://evil.example:8765") as other:
        assert other.get("/").status_code == 421  # a name pointed at this machine is still refused


def test_a_new_key_locks_out_the_old_one(db):
    app = create_app(db, exposed=True, planner=FakePlanner())
    old = app.state.desk.guard.secret
    with TestClient(app, base_url="http://192.168.1.20:8765") as client:
        assert client.get("/", headers={"x-desk-key": old}).status_code == 200
    renewed = create_app(db, exposed=True, planner=FakePlanner(), new_key=True)
    new = renewed.state.desk.guard.secret
    with TestClient(renewed, base_url="http://192.168.1.20:8765") as client:
        assert new != old and client.get("/", headers={"x-desk-key": old}).status_code == 401
        assert client.get("/", headers={"x-desk-key": new}).status_code == 200
    with TestClient(create_app(db, exposed=True, planner=FakePlanner()), base_url="http://192.168.1.20:8765") as again:
        assert again.get("/", headers={"x-desk-key": new}).status_code == 200  # kept across restarts


def test_a_damaged_file_is_refused_at_start_with_the_way_to_restore(db):
    from rotation.desk.storage import DamagedDatabase

    for _ in range(3):
        seeded_event(db, EventSettings(names=names(40), rounds=6))
    store = Store(db)
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages_now = store.db.execute("PRAGMA page_count").fetchone()[0]
    size = store.db.execute("PRAGMA page_size").fetchone()[0]
    store.close()
    with open(db, "r+b") as file:  # a page in the middle zeroed, as a failing disk leaves it
        file.seek(size * (pages_now // 2))
        file.write(b"\0" * size)
    with pytest.raises(DamagedDatabase, match="is damaged .*rotation restore --db"):
        create_app(db, planner=FakePlanner())
    result = CliRunner().invoke(cli, ["serve", "--db", str(db), "--port", "18765"])
    assert result.exit_code == 2 and "is damaged" in result.output and "Traceback" not in result.output


def test_the_desk_reads_a_utf16_names_file_as_the_cli_does(client):
    from desk_helpers import token_of

    listed = "\n".join(["Zoë", *names(7)])
    upload = {"names_file": ("names.txt", listed.encode("utf-16"), "text/plain")}
    form = {"csrf": token_of(client.get("/events/new").text), "rounds": "3", "time_limit": "5"}
    made = client.post("/events", data=form, files=upload, follow_redirects=False)
    assert made.status_code == 303, made.text[-500:]
    assert client.get("/api/events").json()[0]["settings"]["names"][0] == "Zoë"
