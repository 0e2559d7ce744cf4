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
from rotation.desk.data import pages as data_pages
from rotation.desk.deps import HERE, Desk
from rotation.desk.events import api, pages, runs, schedule_pages, service, settings_pages
from rotation.desk.head import HeadAsGet
from rotation.desk.room import pages as room_pages
from rotation.desk.scores import api as scores_api
from rotation.desk.scores import pages as scores_pages
from rotation.desk.scores import standings_pages
from rotation.desk.security import LOCAL_HOSTS, Guard, GuardMiddleware
from rotation.desk.series import pages as series_pages
from rotation.desk.storage import RunStatus, Store, backup
from rotation.desk.storage.lock import DeskLock
from rotation.desk.worker import WorkerPlanner


def create_app(
    db_path: str | Path,
    *,
    exposed: bool = False,
    hosts: tuple[str, ...] = LOCAL_HOSTS,
    public_url: str = "",
    planner: service.Planner | None = None,
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


# Included in this order: Starlette answers a request with the first route that matches it.
ROUTERS = (
    api.router,
    room_pages.api,
    scores_api.api,
    data_pages.api,
    settings_pages.router,  # before the event's page: /events/new is not an event's id
    pages.router,
    schedule_pages.router,
    room_pages.router,
    scores_pages.router,
    standings_pages.router,
    data_pages.router,
    series_pages.api,
    series_pages.router,
)


def _open(
    db_path: str | Path,
    exposed: bool,
    hosts: tuple[str, ...],
    public_url: str,
    planner: service.Planner | None,
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
