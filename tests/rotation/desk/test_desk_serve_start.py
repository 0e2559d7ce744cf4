"""`rotation serve` at start: the next free port when the default one is taken (said so), a word when no
browser opens, a warning for a desk file in a synced or network folder (platforms faked: the check reads
only the path, the environment and the mount table), and a log beside the file that the Backups page links."""

from __future__ import annotations

import socket
import threading
import webbrowser
from types import SimpleNamespace

import pytest
import uvicorn
from click.testing import CliRunner
from fastapi.testclient import TestClient

from desk_helpers import LOCAL
from rotation.commands.cli import cli
from rotation.desk import serve as serving
from rotation.desk.app import create_app
from rotation.desk.folders import warning
from rotation.files.inputs import BadInput

PORT = 8881  # this session's ports: 8881-8889


@pytest.fixture
def held():
    """A program listening on PORT."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", PORT))
        other.listen()
        yield PORT


@pytest.fixture
def started(monkeypatch):
    """`rotation serve` up to the server's run, which records its port and starts and stops the app at once."""
    ports: list[int] = []

    def run(server):
        ports.append(server.config.port)
        with TestClient(server.config.app, base_url=LOCAL):
            pass

    monkeypatch.setattr(uvicorn.Server, "run", run)
    return ports


def test_the_default_port_taken_the_desk_takes_the_next_and_says_so(db, held, started, monkeypatch):
    monkeypatch.setattr(serving, "DEFAULT_PORT", held)
    result = CliRunner().invoke(cli, ["serve", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert started == [held + 1]
    assert f"Port {held} is in use (another desk?): this desk takes port {held + 1}." in result.output
    assert f"http://127.0.0.1:{held + 1}/" in result.output


def test_a_port_asked_for_and_taken_is_refused(db, held, started):
    result = CliRunner().invoke(cli, ["serve", "--db", str(db), "--port", str(held)])
    assert result.exit_code == 2 and f"port {held} is in use" in result.output and started == []


def test_every_port_tried_taken_is_refused_naming_the_last(held, monkeypatch):
    monkeypatch.setattr(serving, "PORTS_TRIED", 1)
    with pytest.raises(BadInput, match=f"port {held} is in use"):
        serving.free_port("127.0.0.1", held)


def test_the_desk_logs_beside_its_file_and_the_backups_page_links_the_log(db, started):
    result = CliRunner().invoke(cli, ["serve", "--db", str(db), "--port", str(PORT + 1)])
    assert result.exit_code == 0, result.output
    log = db.with_name("desk.sqlite3.log")
    assert f"serves {db} at http://127.0.0.1:{PORT + 1}/" in log.read_text(encoding="utf-8")
    with TestClient(create_app(db), base_url=LOCAL) as client:
        page = client.get("/backups").text
        assert 'href="/backups/log"' in page and "desk.sqlite3.log" in page
        assert f"serves {db}" in client.get("/backups/log").text


def test_open_says_so_when_no_browser_opens(monkeypatch, capsys):
    monkeypatch.setattr(webbrowser, "open", lambda url: False)  # what it answers when it finds no browser
    listening = SimpleNamespace(started=True, should_exit=False)
    thread = threading.Thread(target=serving.open_when_listening, args=(listening, "http://127.0.0.1:8882/"))
    thread.start()
    thread.join()
    assert (
        "No web browser could be opened here: open http://127.0.0.1:8882/ in one yourself." in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    "path, platform, environ, service",
    [
        (r"C:\Users\Ann\OneDrive\Documents\desk.sqlite3", "win32", {}, "OneDrive"),
        (r"C:\Users\Ann\OneDrive - Club\desk.sqlite3", "win32", {}, "OneDrive"),
        (r"D:\Sync\Work\desk.sqlite3", "win32", {"OneDrive": r"D:\Sync"}, "OneDrive"),
        ("/Users/ann/Library/Mobile Documents/com~apple~CloudDocs/desk.sqlite3", "darwin", {}, "iCloud Drive"),
        ("/Users/ann/Library/CloudStorage/GoogleDrive-ann@example.org/desk.sqlite3", "darwin", {}, "cloud storage"),
        ("/home/ann/Dropbox/mahjong/desk.sqlite3", "linux", {}, "Dropbox"),
        ("/home/ann/Google Drive/desk.sqlite3", "linux", {}, "Google Drive"),
    ],
)
def test_a_desk_file_in_a_synced_folder_is_warned_about(path, platform, environ, service):
    said = warning(path, platform, environ)
    assert said is not None and service in said and "local folder" in said


MOUNTS = "/dev/sda1 / ext4 rw 0 0\n//nas/club /mnt/club cifs rw 0 0\nserver:/x /srv/x nfs4 rw 0 0\n"


@pytest.mark.parametrize(
    "path, platform, mounts, remote",
    [
        (r"\\nas\club\desk.sqlite3", "win32", "", False),
        (r"Z:\desk.sqlite3", "win32", "", True),
        ("/mnt/club/desk.sqlite3", "linux", MOUNTS, False),
        ("/srv/x/y/desk.sqlite3", "linux", MOUNTS, False),
    ],
)
def test_a_desk_file_in_a_network_folder_is_warned_about(path, platform, mounts, remote):
    said = warning(path, platform, {}, mounts, remote)
    assert said is not None and "network folder" in said


@pytest.mark.parametrize(
    "path, platform, mounts",
    [
        (r"C:\Users\Ann\AppData\Local\rotation\desk.sqlite3", "win32", ""),
        ("/home/ann/.local/share/rotation/desk.sqlite3", "linux", MOUNTS),
        ("/mnt/clubhouse/desk.sqlite3", "linux", MOUNTS),  # a prefix of a network mount's name is not inside it
        ("/Users/ann/Documents/dropbox-notes/desk.sqlite3", "darwin", ""),
    ],
)
def test_a_local_folder_is_not_warned_about(path, platform, mounts):
    assert warning(path, platform, {}, mounts) is None
