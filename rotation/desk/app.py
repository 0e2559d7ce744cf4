"""The desk's FastAPI application: each feature's HTML pages and JSON endpoints (rotation.desk.events,
.room, .scores, .series, .data) over the same service functions, one SQLite file, one planner."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from rotation.desk import errors
from rotation.desk.core.planner import Planner
from rotation.desk.data import routes as data
from rotation.desk.deps import HERE, Desk
from rotation.desk.events import routes as events
from rotation.desk.events import runs
from rotation.desk.head import HeadAsGet
from rotation.desk.room import routes as room
from rotation.desk.scores import routes as scores
from rotation.desk.security import LOCAL_HOSTS, Guard, GuardMiddleware
from rotation.desk.series import routes as series
from rotation.desk.storage import RunStatus, Store, backup
from rotation.desk.storage.lock import DeskLock
from rotation.desk.worker import WorkerPlanner


def create_app(
    db_path: str | Path,
    *,
    exposed: bool = False,
    hosts: tuple[str, ...] = LOCAL_HOSTS,
    public_url: str = "",
    planner: Planner | None = None,
    new_key: bool = False,
) -> FastAPI:
    """The desk over one database file. `exposed`: served beyond this machine, so every request but
    the players' read-only pages needs the desk's key (printed by `rotation serve`). `public_url`: the
    desk's address as the room's phones reach it, for the QR codes. `planner`: what starts and stops
    the planning (default: a worker process per run, rotation.desk.worker; a test may give its own).
    `new_key`: a new secret (a new key and CSRF token): the old key and the pages open with it stop working.
    A file that fails SQLite's quick check is refused (DamagedDatabase) before anything is written to it."""
    lock = DeskLock(db_path)
    lock.acquire()  # DeskBusy: another desk serves this file
    try:
        desk = _open(db_path, exposed, hosts, public_url, planner, new_key)
    except BaseException:
        lock.release()
        raise
    app = FastAPI(
        title="rotation desk",
        summary="The director's desk: events, plans, re-plans and swaps over the rotation library.",
        lifespan=_lifespan(desk, db_path, lock),
        docs_url=None,  # FastAPI's docs pages load their scripts from a CDN; the desk works offline
        redoc_url=None,
        responses=errors.REFUSALS,  # every refusal's shape, in the schema (and checked by the fuzzing)
    )
    app.state.desk = desk
    app.add_middleware(GuardMiddleware, guard=desk.guard)
    app.add_middleware(HeadAsGet)  # outermost: the guard and the routes see the GET it stands for
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    errors.install(app)
    for router in ROUTERS:
        app.include_router(router)
    errors.document_changes(app)
    app.state.routes = [route for router in ROUTERS for route in router.routes]  # a 405's Allow (errors.allowed)
    return app


# Starlette answers a request with the first route that matches it: the routes that could match one address
# are of one feature, ordered in its routes.py (/events/new before /events/{event_id}), so the features
# come in any order (tests/rotation/desk/test_desk_layers.py builds the app with them reversed and shuffled).
FEATURES = (events, room, scores, series, data)
ROUTERS = tuple(router for feature in FEATURES for router in feature.ROUTERS)


def _open(
    db_path: str | Path,
    exposed: bool,
    hosts: tuple[str, ...],
    public_url: str,
    planner: Planner | None,
    new_key: bool,
) -> Desk:
    """The file created or migrated and checked, the guard's secret read (or a new one), the runs a closed
    desk left behind marked interrupted: what every request then shares."""
    first = Store(db_path)  # creates or migrates the file before the first request
    try:
        first.quick_check()
        first.writable_check()
        guard = Guard(secret=first.new_secret() if new_key else first.secret(), exposed=exposed, hosts=hosts)
        planner = planner or WorkerPlanner(str(db_path), desk=secrets.token_hex(8))
        runs.interrupt_left_over(first, planner.desk)
    finally:
        first.close()
    return Desk(str(db_path), guard, planner, public_url)


def _lifespan(desk: Desk, db_path: str | Path, lock: DeskLock):
    """While the desk serves: a backup every 15 minutes while something changed; at shutdown, the plans
    still running stopped and marked interrupted, and the file's lock released."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        keeper = backup.Keeper(db_path)
        keeper.start()
        try:
            yield
            keeper.stop()
            for run_id in desk.planner.shutdown():
                message = "the desk was stopped while this plan ran; nothing was kept"
                desk.store.close_run(run_id, RunStatus.INTERRUPTED, message)
        finally:
            lock.release()

    return lifespan
