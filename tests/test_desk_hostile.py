"""The desk under hostile conditions (issue 41): a second desk on the same file, pages that only read,
bodies too large however they are sent, text that breaks things, numbers out of range."""

from __future__ import annotations

import sqlite3

import pytest
from click.testing import CliRunner
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from desk_helpers import LOCAL, names, seeded_event, wait_run
from rotation.cli import cli
from rotation.desk import pages, room_pages, scores_pages, service
from rotation.desk.app import create_app
from rotation.desk.settings import EventSettings
from rotation.desk.storage import RunStatus, Store
from rotation.desk.storage.lock import DeskBusy
from test_desk_layers import FakePlanner

SETTINGS = EventSettings(names=names(10), rounds=4, odd="sit-out")


@pytest.fixture
def db(tmp_path):
    return tmp_path / "desk.sqlite3"


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
    gone = store.add_run(event_id, "plan", {"settings": {}}, 1.0, desk="a desk that is gone")
    mine = store.add_run(event_id, "plan", {"settings": {}}, 1.0, desk="this desk")
    assert service.interrupt_left_over(store, "this desk") == 1
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
    }
    paths = [path for path, item in client.get("/openapi.json").json()["paths"].items() if "get" in item]
    for router in (pages.router, room_pages.router, scores_pages.router):
        paths += [route.path for route in router.routes if isinstance(route, APIRoute) and "GET" in route.methods]
    return sorted({path.format(**ids) for path in paths})


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
