"""rotation as an installed app: its version in everything it writes, and the conditions of a Windows or
macOS laptop simulated here (no os.pathconf, a cp1252 console, a folder holding a models.py)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from importlib.metadata import version

import pytest
from fastapi.testclient import TestClient

from desk_helpers import LOCAL, names, seeded_event, wait_run
from rotation.commands.cli import main
from rotation.desk.app import create_app
from rotation.desk.core.settings import EventSettings

VERSION = version("rotation")


def test_the_version_comes_from_the_package_metadata_and_is_in_every_file_written(capsys, tmp_path):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"rotation {VERSION}\n"
    day = tmp_path / "day.json"
    assert main(["fixed", "--players", "8", "--rounds", "2", "--json", str(day)]) == 0
    assert json.loads(day.read_text(encoding="utf-8"))["provenance"]["tool_version"] == VERSION
    page = tmp_path / "day.html"
    assert main(["print", str(day), "--html", str(page)]) == 0
    assert f'<meta name="generator" content="rotation {VERSION}">' in page.read_text(encoding="utf-8")
    rooms = tmp_path / "rooms.json"
    argv = ["compare", "--players", "8", "--rounds", "2", "--time-limit", "1", "--workers", "1", "--json", str(rooms)]
    assert main(argv) == 0
    assert json.loads(rooms.read_text(encoding="utf-8"))["tool_version"] == VERSION


def test_the_desk_shows_its_version_on_every_page(tmp_path):
    db = tmp_path / "desk.sqlite3"
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=2))
    with TestClient(create_app(db), base_url=LOCAL) as client:
        for page in ("/", f"/events/{event_id}", f"/events/{event_id}/room"):
            assert f"rotation {VERSION}</footer>" in client.get(page).text, page
        printed = client.get(f"/events/{event_id}/print").text
        assert f'<meta name="generator" content="rotation {VERSION}">' in printed


def test_csv_files_and_downloads_end_their_lines_as_spreadsheets_expect(capsys, tmp_path):
    wide, long = tmp_path / "wide.csv", tmp_path / "long.csv"
    argv = ["fixed", "--players", "9", "--rounds", "2", "--csv", str(wide), "--csv-long", str(long), "--excel"]
    assert main(argv) == 0
    for file in (wide, long):
        data = file.read_bytes()
        assert data.count(b"\r\n") == data.count(b"\n") > 9, file.name  # every line, none bare
    db = tmp_path / "desk.sqlite3"
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=2))
    with TestClient(create_app(db), base_url=LOCAL) as client:
        for what in ("schedule.csv", "schedule-long.csv?excel=true"):
            data = client.get(f"/events/{event_id}/download/{what}").content
            assert data.count(b"\r\n") == data.count(b"\n") > 8, what


def test_without_os_pathconf_as_on_windows_files_are_written_and_long_names_refused(monkeypatch, capsys, tmp_path):
    monkeypatch.delattr(os, "pathconf")
    day = tmp_path / "day.json"
    assert main(["fixed", "--players", "8", "--rounds", "2", "--json", str(day)]) == 0
    assert day.is_file()
    assert main(["fixed", "--players", "8", "--rounds", "2", "--json", str(tmp_path / ("d" * 300))]) == 2
    err = capsys.readouterr().err
    assert "longer than 255 bytes" in err and "Traceback" not in err


@pytest.mark.subprocess
def test_a_cp1252_console_gets_every_name_as_it_can_show_it(tmp_path):
    """Windows' redirected output: names the code page lacks come out as escapes, the report whole."""
    people = ["王小明", "Łukasz", "Renée", "Ann", "Bo", "Cy", "Dee", "Ed"]
    roster = tmp_path / "names.txt"
    roster.write_text("\n".join(people) + "\n", encoding="utf-8")
    environment = {**os.environ, "PYTHONIOENCODING": "cp1252"}
    done = subprocess.run(
        [sys.executable, "-m", "rotation", "fixed", "--names", str(roster), "--rounds", "2"],
        capture_output=True,
        env=environment,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode("cp1252")
    assert "\\u738b\\u5c0f\\u660e" in out and "\\u0141ukasz" in out and "Renée" in out and "Repeats:" in out


@pytest.mark.subprocess
def test_the_planning_process_ignores_the_current_folders_modules(monkeypatch, tmp_path):
    """The desk started from a folder that holds a models.py (a director's own script) still plans."""
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "models.py").write_text('raise ImportError("the folder\'s own models.py")\n', encoding="utf-8")
    monkeypatch.chdir(folder)
    with TestClient(create_app(tmp_path / "desk.sqlite3"), base_url=LOCAL) as client:
        client.post("/api/events", json={"names": names(8), "rounds": 2, "time_limit": 1, "workers": 1})
        run = client.post("/api/events/1/plan", headers={"content-type": "application/json"}).json()
        assert wait_run(client, run["id"])["status"] == "finished"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_port_in_use_is_refused_before_any_address_is_printed(capsys, tmp_path):
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "desk.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert f"port {port} is in use" in err and "http://" not in err
    assert not (tmp_path / "desk.sqlite3").exists()


@pytest.mark.subprocess
def test_serve_open_opens_the_browser_once_the_desk_listens(tmp_path):
    """$BROWSER is the command Python's webbrowser runs: here a script noting the address it was given."""
    noted = tmp_path / "opened.txt"
    browser = tmp_path / "browser.py"
    browser.write_text(
        f"import pathlib, sys\npathlib.Path({str(noted)!r}).write_text(sys.argv[1], encoding='utf-8')\n",
        encoding="utf-8",
    )
    port = free_port()
    environment = {**os.environ, "BROWSER": f"{sys.executable} {browser} %s"}
    argv = ["serve", "--open", "--port", str(port), "--db", str(tmp_path / "desk.sqlite3")]
    desk = subprocess.Popen([sys.executable, "-m", "rotation", *argv], env=environment, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not noted.exists() and time.monotonic() < deadline and desk.poll() is None:
            time.sleep(0.1)
        time.sleep(0.2)  # the script's write, done
        assert noted.read_text(encoding="utf-8") == f"http://127.0.0.1:{port}/"
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass  # it was listening when the browser was sent there
    finally:
        desk.terminate()
        desk.wait(timeout=30)
