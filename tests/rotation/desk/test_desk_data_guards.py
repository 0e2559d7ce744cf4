"""Issue 57: backups and restores that cannot hurt the desk's data, and files handed to the desk or the
CLI refused whole, in one line, before anything is stored or read to the end."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from desk_helpers import names, seeded_event, token_of
from rotation.commands.cli import main
from rotation.desk.core.settings import EventSettings
from rotation.desk.storage import Store, backup

JSON = {"content-type": "application/json"}


def events_in(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT count(*) FROM events").fetchone()[0]


@pytest.fixture
def open_desk(tmp_path):
    """A desk's file with an event still in its write-ahead log (the connection stays open)."""
    db = tmp_path / "desk.sqlite3"
    store = Store(db)
    store.add_event(EventSettings(names=names(8), rounds=3, title="Kept"))
    backup.automatic(db, "by-hand")
    yield db
    store.close()


def test_a_backup_never_replaces_a_file_of_the_desk(open_desk, capsys):
    db = open_desk
    wal = Path(f"{db}-wal")
    before = wal.read_bytes()
    kept = backup.listed(db)[0]
    os.link(db, db.with_name("hard-link"))
    db.with_name("soft-link").symlink_to(wal)
    for out in (
        db,
        wal,
        Path(f"{db}-shm"),
        Path(f"{db}-journal"),
        Path(f"{db}.log"),  # the running desk's log
        kept,
        backup.folder(db) / "new.sqlite3",
        db.with_name("hard-link"),
        db.with_name("soft-link"),
    ):
        assert main(["backup", "--db", str(db), str(out)]) == 2, out
        err = capsys.readouterr().err
        assert "the desk's own" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert wal.read_bytes() == before and events_in(db) == 1
    assert not Path(f"{db}-journal").exists() and not (backup.folder(db) / "new.sqlite3").exists()


def test_an_export_never_replaces_a_file_of_the_desk(client, db, capsys):
    client.post("/api/events", json={"names": names(8), "rounds": 2}, headers=JSON)
    wal = Path(f"{db}-wal")
    before = wal.read_bytes()
    assert main(["export", "--db", str(db), "1", str(wal)]) == 2
    err = capsys.readouterr().err
    assert "is the desk's own 'desk.sqlite3-wal'" in err and len(err.strip().splitlines()) == 1, err
    assert wal.read_bytes() == before and client.get("/api/events").status_code == 200


def test_a_backup_into_a_folder_is_refused_in_one_line(open_desk, capsys):
    out = open_desk.parent / "elsewhere"
    out.mkdir()
    not_made = open_desk.parent / "not-made"
    for given in (str(out), f"{not_made}{os.sep}"):  # a name ending in a separator names a folder
        assert main(["backup", "--db", str(open_desk), given]) == 2
        err = capsys.readouterr().err
        assert "is a folder" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert list(out.iterdir()) == [] and not not_made.exists()


def test_an_export_into_a_folder_or_from_a_desk_file_that_is_no_file_is_refused_in_one_line(open_desk, capsys):
    folder = open_desk.parent / "exports"
    folder.mkdir()
    assert main(["export", "--db", str(open_desk), "1", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"for example {str(folder / 'event.rotation.json')!r}" in err and len(err.strip().splitlines()) == 1
    assert main(["backup", "--db", str(folder), str(open_desk.with_name("out.sqlite3"))]) == 2
    err = capsys.readouterr().err
    assert f"the desk's file {str(folder)!r} is not a file" in err and len(err.strip().splitlines()) == 1, err
    assert list(folder.iterdir()) == [] and not open_desk.with_name("out.sqlite3").exists()


def test_a_restore_of_a_newer_or_foreign_file_or_of_the_desk_itself_changes_nothing(open_desk, capsys):
    db = open_desk
    newer = db.with_name("newer.sqlite3")
    backup.backup(db, newer)
    with sqlite3.connect(newer) as other:
        other.execute("PRAGMA user_version = 99")
    foreign = db.with_name("foreign.sqlite3")
    with sqlite3.connect(foreign) as other:
        other.execute("CREATE TABLE events (id INTEGER PRIMARY KEY)")
    backups_before = backup.listed(db)
    for given, said in ((newer, "newer desk (schema 99"), (foreign, "another program's database"), (db, "itself")):
        for asked in (["--yes"], []):  # refused before the director is asked to confirm (not after a 'y')
            assert main(["restore", "--db", str(db), str(given), *asked]) == 2, given
            out, err = capsys.readouterr()
            assert said in err and len(err.strip().splitlines()) == 1 and "Replace every event" not in out, err
    assert backup.listed(db) == backups_before and events_in(db) == 1  # not even a backup before it was made


def test_backups_made_at_once_are_all_made_each_under_its_own_name(client, db):
    from concurrent.futures import ThreadPoolExecutor

    client.post("/api/events", json={"names": names(8), "rounds": 2})
    with ThreadPoolExecutor(4) as pool:
        answers = list(
            pool.map(lambda _: client.post("/api/backups", headers={"content-type": "application/json"}), range(8))
        )
    assert [answer.status_code for answer in answers] == [201] * 8
    made = {answer.json()["name"] for answer in answers}
    assert len(made) == 8 and made <= {path.name for path in backup.listed(db)}
    assert all(events_in(path) == 1 for path in backup.listed(db))


READ_ONLY_START = """
import os, sys
import encodings.idna, uvicorn, rotation.desk.app, rotation.desk.serve  # first: nobody may not read this Python
from rotation.commands.cli import main
os.chmod(sys.argv[1], 0o444)
if os.geteuid() == 0:  # root writes any file: the desk is started as nobody, who cannot
    os.chown(os.path.dirname(sys.argv[1]), 65534, 65534)
    os.setgid(65534); os.setuid(65534)
sys.exit(main(["serve", "--db", sys.argv[1], "--port", "8821"]))
"""


@pytest.mark.subprocess
def test_a_desk_file_it_cannot_write_is_refused_at_start_in_one_line(tmp_path):
    folder = Path(tempfile.mkdtemp(prefix="rotation-"))  # /tmp, not tmp_path: nobody must reach it
    try:
        db = folder / "desk.sqlite3"
        store = Store(db)
        store.secret()  # a desk started on it before: starting again writes nothing
        store.close()
        done = subprocess.run(
            [sys.executable, "-c", READ_ONLY_START, str(db)], capture_output=True, text=True, timeout=60
        )
    finally:
        shutil.rmtree(folder)
    assert done.returncode == 2, done.stderr
    assert "it is read-only" in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def exported_day(client, db) -> dict:
    """A seeded event with a round released and scored, and a finished plan's run, as its exported file."""
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=3, title="Spring Open"))
    assert client.post(f"/api/events/{event_id}/release", json={"round": 1}).status_code == 200
    assert client.post(f"/api/events/{event_id}/played", json={"rounds": 1}).status_code == 200
    for table in client.get(f"/api/events/{event_id}/schedule").json()["rounds"][0]["tables"]:
        card = {"round": 1, "table": table["table"], "points": {n: [1, 2, 3, 4] for n in table["players"]}}
        assert client.post(f"/api/events/{event_id}/cards", json=card).status_code == 200
    exported = json.loads(client.get(f"/api/events/{event_id}/export").content)
    settings = json.loads(exported["rows"]["events"][0]["settings"])
    exported["rows"]["runs"] = [
        {"id": 7, "event_id": event_id, "kind": "plan", "request": json.dumps({"settings": settings}),
         "status": "finished", "pid": None, "time_limit": 10.0, "started": 1.0e9, "finished": 1.0e9 + 10,
         "stop_asked": 0, "progress": "{}", "message": "", "version_id": None, "desk": ""}
    ]  # fmt: skip
    deleted = client.delete(f"/api/events/{event_id}", params={"confirm": True}, headers=JSON)
    assert deleted.status_code == 200  # the file's event is not this desk's any more
    return exported


def damaged(exported: dict, table: str, column: str, value) -> bytes:
    copy = json.loads(json.dumps(exported))
    copy["rows"][table][0][column] = value
    return json.dumps(copy).encode()


def test_an_import_is_checked_column_by_column_and_refused_whole_naming_the_field(client, db):
    exported = exported_day(client, db)
    card = json.loads(exported["rows"]["cards"][0]["card"])
    twice = json.loads(exported["rows"]["versions"][0]["schedule"])  # passes the model, not the checker
    first, second = twice["rounds"][0]["tables"][:2]
    second["players"][0] = first["players"][0]
    for table, column, value, said in (
        ("versions", "schedule", json.dumps(twice), "versions, row 1, schedule: round 1: "),
        ("releases", "round", -5, "releases, row 1, round: Input should be greater than or equal to 1"),
        ("releases", "round", "x", "releases, row 1, round: Input should be a valid integer"),
        ("rooms", "minutes", "abc", "rooms, row 1, minutes: Input should be a valid number"),
        ("rooms", "pace", 1e9, "rooms, row 1, pace: Input should be less than or equal to 120"),
        ("rooms", "public_id", "x" * 5000, "rooms, row 1, public_id: String should match pattern"),
        ("runs", "status", "weird", "runs, row 1, status: Input should be 'running', 'finished'"),
        ("runs", "request", "{}", "runs, row 1: request: settings: Field required"),
        ("events", "archived", "maybe", "events, row 1, archived: Input should be 0 or 1"),
        ("events", "created", "yesterday", "events, row 1, created: Invalid isoformat string"),
        ("cards", "card", json.dumps({**card, "points": "many"}), "cards, row 1, card: points: Input should be"),
        ("cards", "round", 2, "cards, row 1: the card is round 1, table 1's, not this row's"),
        ("versions", "kind", "guess", "versions, row 1, kind: Input should be"),
    ):
        refused = client.post("/api/events/import", content=damaged(exported, table, column, value), headers=JSON)
        assert refused.status_code == 422, (column, refused.text)
        detail = refused.json()["detail"]
        assert detail.startswith("the file is damaged, nothing was imported: ") and said in detail, detail
    two_rooms = json.loads(json.dumps(exported))
    two_rooms["rows"]["rooms"].append({**two_rooms["rows"]["rooms"][0], "public_id": "0123456789abcdef"})
    refused = client.post("/api/events/import", content=json.dumps(two_rooms), headers=JSON)
    assert refused.status_code == 422 and "2 rooms for its event; an event has one room" in refused.json()["detail"]
    assert client.get("/api/events").json() == [] and client.get("/").status_code == 200  # nothing stored
    assert client.post("/api/events/import", content=json.dumps(exported), headers=JSON).status_code == 201


def test_the_same_event_imported_twice_is_refused_naming_it_unless_a_copy_is_asked_for(client, db, tmp_path, capsys):
    exported = json.dumps(exported_day(client, db)).encode()
    first = client.post("/api/events/import", content=exported, headers=JSON).json()["id"]
    twice = client.post("/api/events/import", content=exported, headers=JSON)
    assert (
        twice.status_code == 409
        and f"this desk has this event already: event {first}, 'Spring Open'" in (twice.json()["detail"])
    )
    token = token_of(client.get("/").text)
    form = client.post("/events/import", data={"csrf": token}, files={"event_file": ("e.json", exported)})
    assert form.status_code == 409 and "import the file again as a copy" in form.text
    copied = client.post(
        "/events/import",
        data={"csrf": token, "as_copy": "yes"},
        files={"event_file": ("e.json", exported)},
        follow_redirects=False,
    )
    assert copied.status_code == 303 and len(client.get("/api/events").json()) == 2
    path = tmp_path / "event.rotation.json"
    path.write_bytes(exported)
    assert main(["import", "--db", str(db), str(path)]) == 2
    assert f"event {first}, 'Spring Open'" in capsys.readouterr().err
    assert main(["import", "--db", str(db), str(path), "--copy"]) == 0 and len(client.get("/api/events").json()) == 3


def test_rotation_import_refuses_a_file_over_its_size_before_reading_it(db, tmp_path, monkeypatch, capsys):
    from rotation.desk import security

    big = tmp_path / "big.rotation.json"
    big.write_bytes(b" " * 2000)
    monkeypatch.setattr(security, "MAX_IMPORT_BYTES", 1000)
    assert main(["import", "--db", str(db), str(big)]) == 2
    err = capsys.readouterr().err
    assert "event file" in err and "is larger than" in err and len(err.strip().splitlines()) == 1, err


LIMITED = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))  # reading /dev/zero whole stops here, not the machine
from rotation.commands.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.subprocess
def test_rotation_import_refuses_a_device_or_a_pipe_without_reading_it(db, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # nobody writes to it: reading it would wait for ever
    for given in ("/dev/zero", str(fifo)):
        done = subprocess.run(
            [sys.executable, "-c", LIMITED, "import", "--db", str(db), given],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2 and "is not a regular file" in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def test_an_import_leaves_the_pages_answering_while_it_is_read(client, db, monkeypatch):
    from rotation.desk.data import transfer

    exported = json.dumps(exported_day(client, db)).encode()
    held, release, answers = threading.Event(), threading.Event(), []
    real = transfer.import_event

    def slow(store, data, copy=False):
        held.set()
        release.wait(60)
        return real(store, data, copy)

    monkeypatch.setattr(transfer, "import_event", slow)
    importing = threading.Thread(
        target=lambda: answers.append(client.post("/api/events/import", content=exported, headers=JSON))
    )
    importing.start()
    try:
        assert held.wait(30)
        page = threading.Thread(target=lambda: answers.append(client.get("/")))
        page.start()
        page.join(timeout=20)
        answered_while_importing = not page.is_alive()
    finally:
        release.set()
        importing.join()
        page.join()
    assert answered_while_importing
    assert sorted(answer.status_code for answer in answers) == [200, 201]


def test_a_backup_of_an_older_desk_restored_into_a_running_desk_is_brought_up_to_date(client, db, tmp_path):
    from rotation.desk.storage import MIGRATIONS, SCHEMA_VERSION

    old = tmp_path / "old.sqlite3"
    with sqlite3.connect(old) as made:
        for migration in MIGRATIONS[:4]:
            for statement in migration.split(";"):
                made.execute(statement)
        made.execute("PRAGMA user_version = 4")
    client.post("/api/events", json={"names": names(8), "rounds": 2}, headers=JSON)
    names_page = client.get("/")
    assert main(["restore", "--db", str(db), str(old), "--yes"]) == 0
    assert client.get("/api/events").json() == [] and client.get("/").status_code == names_page.status_code == 200
    made_now = client.post("/api/events", json={"names": names(8), "rounds": 2}, headers=JSON)
    assert made_now.status_code == 201, made_now.text
    with sqlite3.connect(db) as now:
        assert now.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
