"""What a route of the desk is given through FastAPI's dependencies (rotation.desk.deps): a connection to
the file of the request's own, whichever threads resolve the dependency and run the route, given back
clean when the request is done; and a store or planner a test gives instead (app.dependency_overrides)."""

from __future__ import annotations

import sqlite3
import threading

from fastapi.testclient import TestClient
from test_desk_layers import FakePlanner

from desk_helpers import LOCAL, names, seeded_event
from rotation.desk.app import create_app
from rotation.desk.core.settings import EventSettings
from rotation.desk.deps import StoreDep, desk_planner, request_store
from rotation.desk.storage import Store

AT_ONCE = 4


def probed_app(db, route):
    """The desk with one more JSON route, /api/probe, that takes the store as the desk's routes do."""
    app = create_app(db)
    app.get("/api/probe")(route)
    return app


def test_requests_at_once_each_have_their_own_connection(tmp_path):
    """Four requests held inside their route at the same moment: four connections, none shared, so no
    request sees another's transaction; afterwards the next requests take them again instead of opening more."""
    meeting = threading.Barrier(AT_ONCE, timeout=30)

    def probe(store: StoreDep, wait: bool = True) -> dict:
        with store.reading():
            if wait:
                meeting.wait()  # every request is inside a read transaction of its connection here
            return {"connection": id(store.db), "thread": threading.get_ident()}

    with TestClient(probed_app(tmp_path / "desk.sqlite3", probe), base_url=LOCAL) as client:
        answers: list[dict] = []
        threads = [
            threading.Thread(target=lambda: answers.append(client.get("/api/probe").json())) for _ in range(AT_ONCE)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        used = {answer["connection"] for answer in answers}
        assert len(answers) == AT_ONCE and len(used) == AT_ONCE
        later = [client.get("/api/probe", params={"wait": False}).json()["connection"] for _ in range(AT_ONCE)]
        assert set(later) <= used


def test_a_transaction_left_open_is_rolled_back_when_the_connection_is_given_back(tmp_path):
    def probe(store: StoreDep, begin: bool = False) -> dict:
        open_before = store.db.in_transaction
        if begin:
            store.db.execute("BEGIN IMMEDIATE")  # the file's write lock, as a route cut off mid-change would hold
        return {"open": open_before}

    db = tmp_path / "desk.sqlite3"
    with TestClient(probed_app(db, probe), base_url=LOCAL) as client:
        assert client.get("/api/probe", params={"begin": True}).json() == {"open": False}
        assert client.get("/api/probe").json() == {"open": False}
        other = sqlite3.connect(db, isolation_level=None, timeout=0)
        try:
            other.execute("BEGIN IMMEDIATE")  # the write lock is free again
            other.execute("ROLLBACK")
        finally:
            other.close()


def test_a_route_takes_the_store_and_the_planner_a_test_gives(tmp_path):
    """app.dependency_overrides reaches the desk's own routes: its events listed from another file, and a plan
    of that file's event started by the test's planner, while the desk's file and planner see nothing."""
    other = tmp_path / "other.sqlite3"
    event_id = seeded_event(other, EventSettings(title="Elsewhere", names=names(8), rounds=3))
    planner, own = FakePlanner(), FakePlanner()
    app = create_app(tmp_path / "desk.sqlite3", planner=own)

    def other_store():
        store = Store(other)
        try:
            yield store
        finally:
            store.close()

    app.dependency_overrides[request_store] = other_store
    app.dependency_overrides[desk_planner] = lambda: planner
    with TestClient(app, base_url=LOCAL) as client:
        assert [event["settings"]["title"] for event in client.get("/api/events").json()] == ["Elsewhere"]
        run = client.post(f"/api/events/{event_id}/plan", json={}).json()
        assert planner.started == [run["id"]] and own.started == []
        assert "Elsewhere" in client.get(f"/events/{event_id}").text
        app.dependency_overrides.clear()
        assert client.get("/api/events").json() == []


def test_one_request_after_another_take_the_same_connection_a_head_too(tmp_path):
    """Each answer gives its connection back (a HEAD's, answered as its GET, too): requests one after another
    never open a second one."""
    seen: list[int] = []

    def probe(store: StoreDep) -> dict:
        seen.append(id(store.db))
        return {}

    with TestClient(probed_app(tmp_path / "desk.sqlite3", probe), base_url=LOCAL) as client:
        for method in ("GET", "HEAD", "GET", "HEAD", "GET"):
            assert client.request(method, "/api/probe").status_code == 200
    assert len(seen) == 5 and len(set(seen)) == 1
