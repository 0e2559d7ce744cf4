"""Issue 57: backups and restores that cannot hurt the desk's data, and files handed to the desk or the
CLI refused whole, in one line, before anything is stored or read to the end."""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest

from desk_helpers import names
from rotation.commands.cli import main
from rotation.desk.events.settings import EventSettings
from rotation.desk.storage import Store, backup


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


def test_a_backup_into_a_folder_is_refused_in_one_line(open_desk, capsys):
    out = open_desk.parent / "elsewhere"
    out.mkdir()
    assert main(["backup", "--db", str(open_desk), str(out)]) == 2
    err = capsys.readouterr().err
    assert "is a folder" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert list(out.iterdir()) == []


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
        assert main(["restore", "--db", str(db), str(given), "--yes"]) == 2, given
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1, err
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
    import subprocess
    import sys

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
