"""The desk's layers: no import circle among its modules, every form route checked for its CSRF token
by the routers themselves, and a planner a test can replace (create_app(planner=...))."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from desk_helpers import LOCAL, names
from import_circles import assert_no_circle
from rotation.desk.app import ROUTERS, create_app

DESK = Path(__file__).parent.parent / "rotation" / "desk"


def desk_imports() -> dict[str, set[str]]:
    """Each desk module (dotted below rotation.desk, the storage package one node) -> the desk modules it
    imports, at the top or inside a function."""

    def node(dotted: str) -> str:
        return "storage" if dotted.split(".")[0] == "storage" else dotted

    paths = [(node(".".join(path.relative_to(DESK).with_suffix("").parts)), path) for path in DESK.rglob("*.py")]
    modules = {name.removesuffix(".__init__") for name, _ in paths}
    graph: dict[str, set[str]] = {}
    for name, path in paths:
        found = set()
        for ast_node in ast.walk(ast.parse(path.read_text())):
            if isinstance(ast_node, ast.ImportFrom) and ast_node.module and ast_node.module.startswith("rotation.desk"):
                package = ast_node.module.removeprefix("rotation.desk").removeprefix(".")
                for alias in ast_node.names:
                    inner = node(f"{package}.{alias.name}".lstrip("."))
                    found.add(inner if inner in modules else node(package))
        me = name.removesuffix(".__init__")
        graph[me] = graph.get(me, set()) | (found - {me, ""})
    return graph


def test_no_desk_module_imports_another_in_a_circle():
    graph = desk_imports()
    walked = {"events.api", "events.pages", "room.pages", "scores.api", "scores.pages"}
    assert graph["app"] >= walked  # the walk sees imports
    assert_no_circle(graph)


def test_every_sql_statement_of_the_desk_is_in_its_storage_package():
    """No module outside rotation/desk/storage opens SQLite or runs a statement (a walk over the calls,
    so a comment or a page's text naming them does not count)."""
    outside = []
    for path in DESK.rglob("*.py"):
        if "storage" in path.relative_to(DESK).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                statement = node.func.attr in {"execute", "executemany", "executescript"}
                opened = node.func.attr == "connect" and getattr(node.func.value, "id", "") == "sqlite3"
                if statement or opened:
                    outside.append(f"{path.relative_to(DESK)}:{node.lineno} {node.func.attr}")
    assert not outside, outside


class FakePlanner:
    """Plans nothing: notes the runs the desk starts, and keeps them running."""

    desk = "fake"

    def __init__(self):
        self.started: list[int] = []

    def start(self, run_id: int) -> int:
        self.started.append(run_id)
        return 4242

    def running(self, run_id: int) -> bool:
        return run_id in self.started

    def shutdown(self) -> list[int]:
        return []


def test_a_test_can_give_the_desk_its_own_planner(tmp_path):
    planner = FakePlanner()
    with TestClient(create_app(tmp_path / "desk.sqlite3", planner=planner), base_url=LOCAL) as client:
        event = client.post("/api/events", json={"names": names(8), "rounds": 3}).json()
        run = client.post(f"/api/events/{event['id']}/plan", json={}).json()
        assert planner.started == [run["id"]] and run["status"] == "running"
        stopped = client.post(f"/api/runs/{run['id']}/stop", json={}).json()
        assert stopped["stop_asked"] and stopped["status"] == "running"  # the worker reads the request


def page_routes(method: str) -> list[APIRoute]:
    """Every route of the desk's pages that takes `method`: the routers the app includes (ROUTERS) left out
    of the JSON schema, so a new page router cannot escape the checks that walk them."""
    pages = [router for router in ROUTERS if not router.include_in_schema]
    return [
        route for router in pages for route in router.routes if isinstance(route, APIRoute) and method in route.methods
    ]


@pytest.mark.parametrize("token", [None, "not-the-token"])
def test_every_form_route_refuses_a_missing_or_wrong_csrf_token(tmp_path, token):
    app = create_app(tmp_path / "desk.sqlite3", planner=FakePlanner())
    routes = page_routes("POST")
    assert len(routes) >= 20  # the events', the day's, the room's, the scores', the series' and the data forms
    with TestClient(app, base_url=LOCAL) as client:
        client.post("/api/events", json={"names": names(8), "rounds": 3})
        for route in routes:
            ids = {"event_id": 1, "run_id": 1, "version_id": 1, "round_number": 1, "table_number": 1, "name": "x"}
            path = route.path.replace(":path}", "}").format(**ids)
            data = {"rounds": "1", "round": "1", "minutes": "5", "pace": "10", "from_round": "1"}
            if token is not None:
                data["csrf"] = token
            response = client.post(path, data=data, follow_redirects=False)
            assert response.status_code == 403, (route.path, response.status_code)
