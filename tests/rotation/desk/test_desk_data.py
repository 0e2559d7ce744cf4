"""The desk's data kept and moved: online backups while writing, automatic backups, restore, an event
exported and imported whole, archive and delete with confirmation, processes killed mid-way."""

from __future__ import annotations

import io
import json
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import tracemalloc
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from desk_helpers import LOCAL, names, seeded_event, token_of
from rotation.commands.cli import main
from rotation.desk.app import create_app
from rotation.desk.core.settings import EventSettings
from rotation.desk.data import transfer
from rotation.desk.room import service as room
from rotation.desk.storage import MIGRATIONS, SCHEMA_VERSION, Store, backup

JSON = {"content-type": "application/json"}


def count(path: Path, table: str = "events") -> int:
    """Rows of the table; 0 where the file does not even hold the table."""
    with sqlite3.connect(path) as db:
        try:
            return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        except sqlite3.OperationalError:
            return 0


def integrity(path: Path) -> str:
    with sqlite3.connect(path) as db:
        return db.execute("PRAGMA integrity_check").fetchone()[0]


def test_a_backup_holds_what_is_still_in_the_write_ahead_log_where_a_file_copy_does_not(tmp_path):
    db = tmp_path / "desk.sqlite3"
    store = Store(db)  # stays open: SQLite checkpoints the log when the last connection closes
    for number in range(20):
        store.add_event(EventSettings(names=names(8), rounds=3, title=f"Event {number}"))
    assert Path(f"{db}-wal").stat().st_size > 0
    shutil.copyfile(db, tmp_path / "copied.sqlite3")
    backup.backup(db, tmp_path / "backed-up.sqlite3")
    assert count(tmp_path / "backed-up.sqlite3") == 20 and integrity(tmp_path / "backed-up.sqlite3") == "ok"
    assert count(tmp_path / "copied.sqlite3") < 20  # the copy lost what the log held: why a copy is not a backup
    store.close()


def test_a_backup_while_another_connection_writes_is_whole_and_consistent(tmp_path):
    db = tmp_path / "desk.sqlite3"
    Store(db).close()
    stop = threading.Event()

    def write() -> None:
        store = Store(db)
        while not stop.is_set():
            store.add_event(EventSettings(names=names(8), rounds=3))
        store.close()

    writer = threading.Thread(target=write)
    writer.start()
    try:
        copies = [backup.backup(db, tmp_path / f"copy-{k}.sqlite3", pages=1) for k in range(5)]
    finally:
        stop.set()
        writer.join()
    made = [count(copy) for copy in copies]
    assert all(integrity(copy) == "ok" for copy in copies)
    assert made == sorted(made) and made[-1] <= count(db)  # each a moment of the file, in order
    assert not list(tmp_path.glob(".*partial*"))


def test_the_cli_backs_up_and_restores(tmp_path, capsys):
    db, out = tmp_path / "desk.sqlite3", tmp_path / "safe.sqlite3"
    store = Store(db)
    store.add_event(EventSettings(names=names(8), rounds=3, title="Kept"))
    assert main(["backup", "--db", str(db), str(out)]) == 0
    assert "integrity checked" in capsys.readouterr().out
    store.add_event(EventSettings(names=names(8), rounds=3, title="Later"))
    assert count(db) == 2
    assert main(["restore", "--db", str(db), str(out), "--yes"]) == 0
    assert count(db) == 1 and store.events()[0].settings.title == "Kept"  # the open connection sees it
    assert len(backup.listed(db)) == 1  # the state before the restore, kept
    store.close()
    assert main(["backup", "--db", str(tmp_path / "none.sqlite3"), str(out)]) == 2
    (tmp_path / "junk.sqlite3").write_text("not a database", encoding="utf-8")
    assert main(["restore", "--db", str(db), str(tmp_path / "junk.sqlite3"), "--yes"]) == 2
    assert "not a desk backup" in capsys.readouterr().err and count(db) == 1


KILLED_BACKUP = """
import sys, time
from rotation.desk.storage import backup
def step(status, remaining, total):
    print("step", flush=True)
    time.sleep(0.05)
backup.backup(sys.argv[1], sys.argv[2], pages=1, progress=step)
print("done", flush=True)
"""


@pytest.mark.subprocess
def test_a_backup_killed_half_way_leaves_the_desk_whole_and_no_half_backup(tmp_path):
    db, out = tmp_path / "desk.sqlite3", tmp_path / "out.sqlite3"
    store = Store(db)
    for _ in range(40):
        store.add_event(EventSettings(names=names(120), rounds=7))
    store.close()
    process = subprocess.Popen([sys.executable, "-c", KILLED_BACKUP, str(db), str(out)], stdout=subprocess.PIPE)
    assert process.stdout is not None and process.stdout.readline().strip() == b"step"
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert not out.exists() and integrity(db) == "ok" and count(db) == 40
    backup.backup(db, out)  # the next backup clears what the killed one left
    assert count(out) == 40 and not list(tmp_path.glob(".*partial*"))


def test_a_file_of_an_older_schema_is_backed_up_before_it_is_migrated(tmp_path):
    db = tmp_path / "desk.sqlite3"
    with sqlite3.connect(db) as old:
        for statement in MIGRATIONS[0].split(";"):
            old.execute(statement)
        old.execute("PRAGMA user_version = 1")
        old.execute("INSERT INTO events (settings, created) VALUES ('{}', 'then')")
    Store(db).close()
    kept = backup.listed(db)
    assert len(kept) == 1 and f"before-schema-{SCHEMA_VERSION}" in kept[0].name
    with sqlite3.connect(kept[0]) as copy:
        assert copy.execute("PRAGMA user_version").fetchone()[0] == 1 and count(kept[0]) == 1
    Store(db).close()
    assert len(backup.listed(db)) == 1  # a file already at this schema is not backed up again


def test_the_keeper_backs_up_only_when_something_changed_and_keeps_a_limit(tmp_path, monkeypatch):
    db = tmp_path / "desk.sqlite3"
    store = Store(db)
    keeper = backup.Keeper(db)
    keeper.last = 0.0
    assert keeper.tick() is not None
    assert keeper.tick() is None  # nothing written since
    monkeypatch.setattr(backup, "KEEP", 3)
    for _ in range(5):
        store.add_event(EventSettings(names=names(8), rounds=3))
        keeper.last = 0.0
        keeper.tick()
    assert len(backup.listed(db)) == 3
    store.close()


def a_day_with_everything(client, db) -> int:
    """An event with a schedule, a round played, released, scored, a swap and a rename."""
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=3, title="Spring Open"))
    assert client.post(f"/api/events/{event_id}/release", json={"round": 1}).status_code == 200
    assert client.post(f"/api/events/{event_id}/played", json={"rounds": 1}).status_code == 200
    for table in client.get(f"/api/events/{event_id}/schedule").json()["rounds"][0]["tables"]:
        card = {"round": 1, "table": table["table"], "points": {n: [1, 2, 3, 4] for n in table["players"]}}
        assert client.post(f"/api/events/{event_id}/cards", json=card).status_code == 200
    swap = {"round": 3, "first": "Player 01", "second": "Player 08", "confirm": True}
    assert client.post(f"/api/events/{event_id}/swap", json=swap).status_code == 200
    assert client.post(f"/api/events/{event_id}/rename", json={"old": "Player 02", "new": "Ann Lee"}).status_code == 200
    return event_id


def test_an_event_exported_and_imported_on_another_desk_has_everything(client, db, tmp_path):
    event_id = a_day_with_everything(client, db)
    exported = client.get(f"/api/events/{event_id}/export")
    assert exported.status_code == 200 and "spring-open.rotation.json" in exported.headers["content-disposition"]
    pid = client.get(f"/api/events/{event_id}/room").json()["public_id"]
    with TestClient(create_app(tmp_path / "other.sqlite3"), base_url=LOCAL) as other:
        other.post("/api/events", json={"names": names(4), "rounds": 1})  # the other desk has an event already
        imported = other.post("/api/events/import", content=exported.content, headers=JSON)
        assert imported.status_code == 201
        new_id = imported.json()["id"]
        for path in ("", "/schedule", "/versions", "/standings", "/room", "/cards"):
            here, there = (
                client.get(f"/api/events/{event_id}{path}").json(),
                other.get(f"/api/events/{new_id}{path}").json(),
            )
            assert _without_ids(here) == _without_ids(there), path
        assert "Ann Lee" in other.get(f"/e/{pid}/me", params={"player": "ann lee"}).text  # the QR codes still work
        twice = other.post("/api/events/import", content=exported.content, headers=JSON)  # the same event again
        assert twice.status_code == 409 and f"event {new_id}, 'Spring Open'" in twice.json()["detail"]
        again = other.post(
            "/api/events/import?as_copy=true", content=exported.content, headers=JSON
        )  # a copy asked for
        assert other.get(f"/api/events/{again.json()['id']}/room").json()["public_id"] != pid
        damaged = json.loads(exported.content)
        damaged["rows"]["versions"][0]["schedule"] = damaged["rows"]["versions"][0]["schedule"].replace(
            "Player 03", "Player 04"
        )
        refused = other.post("/api/events/import", content=json.dumps(damaged), headers=JSON)
        assert refused.status_code == 422 and "nothing was imported" in refused.json()["detail"]
        assert len(other.get("/api/events").json()) == 3
        assert other.post("/api/events/import", content=b"{}", headers=JSON).status_code == 422
    out = tmp_path / "event.rotation.json"
    assert main(["export", "--db", str(db), str(event_id), str(out)]) == 0
    assert main(["import", "--db", str(tmp_path / "third.sqlite3"), str(out)]) == 0
    assert count(tmp_path / "third.sqlite3", "versions") == count(db, "versions")


def test_an_export_is_byte_for_byte_the_event_file_model_written_whole(client, db, tmp_path):
    event_id = a_day_with_everything(client, db)
    exported = client.get(f"/api/events/{event_id}/export").content
    store = Store(db)
    whole = transfer.EventFile(
        format=transfer.FORMAT,
        format_version=transfer.FORMAT_VERSION,
        schema_version=SCHEMA_VERSION,
        exported=json.loads(exported)["exported"],
        title="Spring Open",
        rows=store.event_rows(event_id),
    )
    store.close()
    assert exported == whole.model_dump_json(indent=1).encode()  # the file as the desk wrote it before
    out = tmp_path / "event.rotation.json"
    assert main(["export", "--db", str(db), str(event_id), str(out)]) == 0
    assert json.loads(out.read_bytes())["exported"] != "" and _but_when(out.read_bytes()) == _but_when(exported)


def _but_when(exported: bytes) -> bytes:
    return re.sub(rb'"exported": "[^"]*"', b"", exported)


def _with_versions(db: Path, event_id: int, copies: int) -> None:
    """`copies` more versions of the event, each a copy of its current one (a long day's history)."""
    with sqlite3.connect(db) as file:
        columns = [row[1] for row in file.execute("PRAGMA table_info(versions)") if row[1] != "id"]
        current = file.execute("SELECT current_version FROM events WHERE id = ?", (event_id,)).fetchone()[0]
        for _ in range(copies):
            file.execute(
                f"INSERT INTO versions ({', '.join(columns)}) SELECT {', '.join(columns)} FROM versions WHERE id = ?",
                (current,),
            )


def test_an_export_is_written_in_pieces_never_holding_the_event_whole(client, db, tmp_path):
    event_id = a_day_with_everything(client, db)
    _with_versions(db, event_id, 300)
    store, out = Store(db), tmp_path / "event.rotation.json"
    with out.open("wb") as handle:
        transfer.write_event(store, event_id, handle)  # once before: what is loaded once is not counted
    tracemalloc.start()
    with out.open("wb") as handle:
        transfer.write_event(store, event_id, handle)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    store.close()
    assert len(json.loads(out.read_bytes())["rows"]["versions"]) == count(db, "versions")
    assert peak < out.stat().st_size / 10, (peak, out.stat().st_size)  # held whole, it would be more than the file


def test_an_export_is_one_read_changes_made_while_it_is_written_are_not_half_in_it(client, db, tmp_path):
    event_id = a_day_with_everything(client, db)
    store = Store(db)
    before = store.event_rows(event_id)

    class Meanwhile(io.BytesIO):
        def write(self, piece) -> int:  # another connection changes the event while the file is written
            if self.tell() == 0:
                _with_versions(db, event_id, 1)
            return super().write(piece)

    out = Meanwhile()
    transfer.write_event(store, event_id, out)
    assert json.loads(out.getvalue())["rows"] == before  # the file as it was when the export began
    assert len(store.event_rows(event_id)["versions"]) == len(before["versions"]) + 1
    store.close()


def test_an_exported_file_is_deleted_once_sent_or_refused(client, db, tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    event_id = a_day_with_everything(client, db)
    assert client.get(f"/api/events/{event_id}/export").status_code == 200
    assert client.get(f"/api/events/{event_id + 1}/export").status_code == 404
    assert list(tmp_path.glob("rotation-export-*")) == []


def _without_ids(value):
    """The same data with the numbers a desk gives (event, version, run, card) left out."""
    if isinstance(value, dict):
        return {
            k: _without_ids(v)
            for k, v in value.items()
            if k not in ("id", "event_id", "parent", "version_id", "current", "proposal", "now", "left")
        }
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value


KILLED_IMPORT = """
import sys
from pathlib import Path
from rotation.desk.data import transfer
from rotation.desk.storage import Store
store = Store(sys.argv[1])
data = Path(sys.argv[2]).read_bytes()
print("start", flush=True)
for _ in range(50):
    transfer.import_event(store, data)
"""


@pytest.mark.subprocess
def test_an_import_killed_half_way_leaves_whole_events_only(client, db, tmp_path):
    event_id = a_day_with_everything(client, db)
    export = tmp_path / "event.rotation.json"
    export.write_bytes(client.get(f"/api/events/{event_id}/export").content)
    target = tmp_path / "target.sqlite3"
    Store(target).close()
    process = subprocess.Popen([sys.executable, "-c", KILLED_IMPORT, str(target), str(export)], stdout=subprocess.PIPE)
    assert process.stdout is not None and process.stdout.readline().strip() == b"start"
    threading.Event().wait(0.5)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert integrity(target) == "ok"
    events, versions = count(target), count(target, "versions")
    assert versions == events * count(db, "versions")  # every event imported has all its versions, or is not there
    assert count(target, "cards") == events * count(db, "cards")


def test_delete_asks_first_and_backs_up_and_archive_lists_apart(client, db):
    event_id = a_day_with_everything(client, db)
    other = seeded_event(db, EventSettings(names=names(8), rounds=3, title="Other"))
    asked = client.delete(f"/api/events/{event_id}", headers=JSON)
    assert asked.status_code == 409 and "confirm" in asked.json()["detail"]
    assert client.get(f"/api/events/{event_id}").status_code == 200
    page = client.get(f"/events/{event_id}/edit").text
    form = client.post(f"/events/{event_id}/delete", data={"csrf": token_of(page)})
    assert 'id="confirm-button"' in form.text and "score card entries are deleted" in form.text
    done = client.post(
        f"/events/{event_id}/delete", data={"csrf": token_of(page), "confirm": "1"}, follow_redirects=False
    )
    assert done.status_code == 303 and client.get(f"/api/events/{event_id}").status_code == 404
    assert len(backup.listed(db)) == 1 and count(db, "cards") == 0 and count(db, "releases") == 0
    assert client.post(f"/api/events/{other}/archive", json={"archived": True}).json()["archived"] is True
    index = client.get("/").text
    assert 'id="archived"' in index and "Other" in index.split('id="archived"')[1]
    assert f"before-deleting-event-{event_id}" in client.get("/backups").text
    assert client.post("/api/backups", headers=JSON).status_code == 201
    assert len(client.get("/api/backups").json()) == 2
    download = client.get("/api/backup.sqlite3")
    assert download.status_code == 200 and download.content[:15] == b"SQLite format 3"


def test_a_backup_is_restored_from_the_desk_only_when_confirmed(client, db):
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=3, title="Before"))
    name = client.post("/api/backups", headers=JSON).json()["name"]
    client.post(f"/api/events/{event_id}/rename", json={"old": "Player 01", "new": "Changed"})
    asked = client.post(f"/api/backups/{name}/restore", json={})
    assert asked.status_code == 409 and "Changed" in client.get(f"/api/events/{event_id}/schedule").text
    assert client.post(f"/api/backups/{name}/restore", json={"confirm": True}).status_code == 200
    assert "Changed" not in client.get(f"/api/events/{event_id}/schedule").text
    assert client.post("/api/backups/nothing.sqlite3/restore", json={"confirm": True}).status_code == 404


def test_public_ids_have_no_look_alikes_and_read_in_any_case(client, db):
    ids = {room.new_public_id() for _ in range(200)}
    assert len(ids) == 200 and all(len(i) == 16 and set(i) <= set(room.PUBLIC_ALPHABET) for i in ids)
    assert not set("ilou") & set("".join(ids))
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=3))
    pid = client.get(f"/api/events/{event_id}/room").json()["public_id"]
    typed = pid.upper().replace("0", "O").replace("1", "I")
    moved = client.get(f"/e/{typed}/me", follow_redirects=False)
    assert moved.status_code == 307 and moved.headers["location"] == f"/e/{pid}/me"


def test_the_room_page_says_plainly_when_phones_cannot_reach_the_desk(db, tmp_path):
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=3))
    with TestClient(create_app(db), base_url=LOCAL) as client:  # one desk at a time on a file
        local = client.get(f"/events/{event_id}/room").text
        assert 'id="local-only"' in local and "rotation serve --host 0.0.0.0" in local
        assert 'id="local-only"' in client.get(f"/events/{event_id}/print-options").text
    app = create_app(db, exposed=True, public_url="http://192.168.1.20:8765/")
    key = app.state.desk.guard.secret
    with TestClient(app, base_url="http://192.168.1.20:8765") as room_client:
        page = room_client.get(f"/events/{event_id}/room", headers={"x-desk-key": key}).text
        assert 'id="local-only"' not in page and "http://192.168.1.20:8765/e/" in page
        screen = room_client.get(f"/e/{event_id}/screen", headers={"x-desk-key": key}).text
        assert "Your table on your phone: http://192.168.1.20:8765/e/" in screen


def test_serve_finds_the_machines_address_on_the_room_network(monkeypatch):
    from rotation.desk import serve

    monkeypatch.setattr(serve, "room_address", lambda: "10.0.0.7")
    assert serve.players_base("0.0.0.0", 8765) == "http://10.0.0.7:8765/"
    assert serve.players_base("192.168.1.5", 80) == "http://192.168.1.5:80/"
    assert serve.players_base("127.0.0.1", 8765) == ""  # local only: no address for phones
    assert serve.players_base("0.0.0.0", 8765, "https://desk.club.org") == "https://desk.club.org/"
    guard = type("G", (), {"exposed": True, "secret": "k"})()
    assert serve.address("0.0.0.0", 8765, guard) == "http://10.0.0.7:8765/?key=k"
