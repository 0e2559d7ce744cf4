"""The desk's layers: no import circle among its modules, every form route checked for its CSRF token
by the routers themselves, and a planner a test can replace (create_app(planner=...))."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.routing import Match

from desk_helpers import LOCAL, names
from import_circles import assert_no_circle
from rotation.desk import app as desk_app
from rotation.desk.app import ROUTERS, create_app

DESK = Path(__file__).resolve().parents[3] / "rotation" / "desk"


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
            if isinstance(ast_node, ast.Import):
                dotted = (alias.name.removeprefix("rotation.desk.") for alias in ast_node.names)
                found |= {node(name) for name in dotted if name.split(".")[0] in {*modules, "storage", "core"}}
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
    walked = {"events.routes", "room.routes", "scores.routes", "series.routes", "data.routes"}
    assert graph["app"] >= walked  # the walk sees imports
    assert_no_circle(graph)


LAYERS = {  # each layer of the desk below its features, and the layers it may import
    "leaf": set(),  # numbers.py, folders.py, security.py: nothing of the desk
    "core": {"core", "leaf"},
    "storage": {"storage", "core", "leaf"},
    "given": {"given", "storage", "core", "leaf"},  # deps.py what a route is given, errors.py how it is refused
}


def layer(module: str) -> str:
    """The layer of a desk module: a feature's own name (events, room, ...) and app, worker, serve above all."""
    top = module.split(".")[0]
    named = {"numbers": "leaf", "folders": "leaf", "security": "leaf", "deps": "given", "errors": "given"}
    return named.get(top, top)


def test_the_core_storage_and_the_routes_dependencies_import_no_feature():
    """The desk's layers point one way: the core (rotation.desk.core) imports nothing of the desk but the
    leaves; storage only the core; what every route is given (deps.py) and how refusals are answered
    (errors.py) no feature. The features import them, and each other, never the reverse."""
    graph = desk_imports()
    assert {"core.settings", "core.errors"} <= graph["storage"] | graph["events.service"]  # the walk sees them
    assert {layer(module) for module in graph} >= {*LAYERS, "events", "room", "scores", "series", "data"}
    leaks = [
        f"{module} ({layer(module)}) imports {imported} ({layer(imported)})"
        for module, imported_all in graph.items()
        if layer(module) in LAYERS
        for imported in imported_all
        if layer(imported) not in LAYERS[layer(module)]
    ]
    assert not leaks, leaks


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


def answering(app: FastAPI) -> dict[tuple[str, str], str]:
    """Which route answers each route's own address (every parameter "1"), by method: the first that matches,
    walking the app's routes as Starlette does (an included router, FastAPI 0.16x, in the order of its own)."""
    walked = [
        route
        for entry in app.router.routes
        for route in getattr(getattr(entry, "original_router", None), "routes", [entry])
    ]
    answers = {}
    for route in (route for route in walked if isinstance(route, APIRoute)):
        for method in route.methods:
            path = re.sub(r"\{[^}]+\}", "1", route.path)
            scope = {"type": "http", "method": method, "path": path, "root_path": ""}
            first = next(other for other in walked if other.matches(scope)[0] is Match.FULL)
            answers[(method, route.path)] = getattr(first, "path", "")
    return answers


def test_the_app_answers_alike_whatever_order_the_features_come_in(tmp_path, monkeypatch):
    """The routes that could take one address are of one feature (/events/new is not an event's id): with the
    features' routers included in their order, reversed or shuffled, every route answers its own address."""
    features = desk_app.FEATURES
    orders = [features, features[::-1], tuple(random.Random(56).sample(features, len(features)))]
    found = []
    for number, order in enumerate(orders):
        monkeypatch.setattr(desk_app, "ROUTERS", tuple(router for feature in order for router in feature.ROUTERS))
        found.append(answering(create_app(tmp_path / f"desk{number}.sqlite3", planner=FakePlanner())))
    assert len(found[0]) >= 100 and ("GET", "/events/new") in found[0]
    assert found[1] == found[0] and found[2] == found[0]
    wrong = {address: path for address, path in found[0].items() if path != address[1]}
    assert not wrong, wrong  # each address answered by its own route
