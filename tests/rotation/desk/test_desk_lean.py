"""What a request to the desk is spared (issue 56 item 6): a second hop to the thread pool for a JSON answer,
the CSRF dependency on a page no form posts to, Jinja asking the disk whether a template changed, and the
guard building Starlette's URL again for an address it has read before. Each is the same answer for less."""

from __future__ import annotations

import os
import sys
from typing import Annotated

import pytest
from fastapi import APIRouter, FastAPI, Query
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from pydantic import BaseModel
from starlette.requests import Request

from desk_helpers import LOCAL, names, seeded_event
from rotation.desk.app import ROUTERS, create_app
from rotation.desk.core.settings import EventSettings
from rotation.desk.deps import OneHop, checked_form
from rotation.desk.security import SAFE_METHODS, host_and_path


@pytest.fixture
def client(tmp_path):
    db = tmp_path / "desk.sqlite3"
    event_id = seeded_event(db, EventSettings(title="Lean", names=names(8), rounds=3))
    client = TestClient(create_app(db), base_url=LOCAL)  # no lifespan: no backup thread reading the disk
    client.get("/")  # the session cookie and every import and template a first request makes
    yield client, event_id
    client.close()


def test_a_json_answer_and_a_page_each_take_one_hop_to_the_thread_pool(client, monkeypatch):
    client, event_id = client
    hops = []
    to_thread = sys.modules["anyio.to_thread"]  # Starlette's thread pool (anyio comes with it, undeclared here)
    run_sync = to_thread.run_sync

    async def counted(*args, **kwargs):
        hops.append(args[0])
        return await run_sync(*args, **kwargs)

    monkeypatch.setattr(to_thread, "run_sync", counted)
    for path in (f"/api/events/{event_id}", "/api/events", f"/events/{event_id}/edit"):
        hops.clear()
        assert client.get(path).status_code == 200
        assert len(hops) == 1, (path, hops)


class Tally(BaseModel):
    count: int


Count = Annotated[int, Query(ge=1)]


def tally(count: Count, request: Request) -> Tally:
    """Names rotation.desk.deps does not know, in annotations that are text (`from __future__`)."""
    return Tally(count=count)


def test_a_one_hop_route_reads_its_endpoint_as_fastapis_own_route_does():
    one_hop, own = OneHop("/tally", tally), APIRoute("/tally", tally)
    assert one_hop.response_model is own.response_model is Tally
    assert (one_hop.name, one_hop.description) == (own.name, own.description)
    queries = [
        [(field.name, field.field_info.annotation) for field in route.dependant.query_params]
        for route in (one_hop, own)
    ]
    assert queries == [[("count", int)]] * 2
    assert one_hop.dependant.request_param_name == own.dependant.request_param_name == "request"
    router = APIRouter(route_class=OneHop)
    router.get("/tally")(tally)
    app = FastAPI()
    app.include_router(router)
    with TestClient(app) as answers:
        assert answers.get("/tally", params={"count": 2}).json() == {"count": 2}
        assert answers.get("/tally", params={"count": 0}).status_code == 422


def test_only_a_page_route_that_may_change_something_resolves_the_csrf_check():
    pages = [route for router in ROUTERS for route in router.routes if isinstance(route, APIRoute)]
    pages = [route for route in pages if not route.include_in_schema]
    changing = [route for route in pages if route.methods - set(SAFE_METHODS)]
    assert changing and len(changing) < len(pages)
    for route in pages:
        calls = [dependency.call for dependency in route.dependant.dependencies]
        assert (checked_form in calls) == (route in changing), (route.path, route.methods)


def test_a_page_asks_the_disk_for_no_template(client, monkeypatch):
    client, event_id = client
    client.get(f"/events/{event_id}/edit")  # every template it includes read once
    asked = []
    getmtime = os.path.getmtime
    monkeypatch.setattr(os.path, "getmtime", lambda path: asked.append(path) or getmtime(path))
    assert client.get(f"/events/{event_id}/edit").status_code == 200
    assert asked == []


@pytest.mark.parametrize(
    "headers, path, server",
    [
        ([(b"host", b"127.0.0.1:8765")], "/events/1", ("127.0.0.1", 8765)),
        ([(b"host", b"LocalHost")], "/e/abc/me", ["127.0.0.1", 80]),
        ([(b"host", b"[::1]:80")], "/a?b#c\\d", None),
        ([(b"host", b"bad host/x")], "/api/x\ty", ("10.0.0.1", 443)),
        ([(b"host", b"user@evil.example:1")], "//double", ("::1", 80)),
        ([(b"accept", b"*/*")], "/no-host", ("127.0.0.2", 8000)),
        ([(b"accept", b"*/*")], "//no-host-no-server", None),
        ([(b"host", b"a.example"), (b"host", b"b.example")], "", ("127.0.0.1", 80)),
    ],
)
def test_the_guard_reads_the_host_and_path_as_starlette_does(headers, path, server):
    for query in (b"", b"key=1&x=?#"):
        scope = {"type": "http", "scheme": "http", "path": path, "query_string": query, "headers": headers}
        if server is not None:
            scope["server"] = server
        url = Request(scope).url
        assert host_and_path(scope) == ((url.hostname or "").lower(), url.path)
