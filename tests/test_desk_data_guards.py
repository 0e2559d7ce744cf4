"""Issue 57: backups and restores that cannot hurt the desk's data, and files handed to the desk or the
CLI refused whole, in one line, before anything is stored or read to the end."""

from __future__ import annotations

import os
import sqlite3
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
