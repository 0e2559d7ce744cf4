"""The desk's FastAPI application: HTML pages (rotation.desk.pages) and JSON endpoints
(rotation.desk.api) over the same service functions, one SQLite file, one planner."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from rotation.desk import api, pages, room_pages, scores_api, scores_pages, service
from rotation.desk.deps import HERE, TEMPLATES, Desk
from rotation.desk.security import LOCAL_HOSTS, Guard, GuardMiddleware
from rotation.desk.settings import FieldErrors
from rotation.desk.storage import RunStatus, Store
from rotation.desk.storage.lock import DeskLock
from rotation.desk.worker import Planner as WorkerPlanner


def create_app(
    db_path: str | Path,
    *,
    exposed: bool = False,
    hosts: tuple[str, ...] = LOCAL_HOSTS,
    public_url: str = "",
    planner: service.Planner | None = None,
) -> FastAPI:
    """The desk over one database file. `exposed`: served beyond this machine, so every request but
    the players' read-only pages needs the desk's key (printed by `rotation serve`). `public_url`: the
    desk's address as the room's phones reach it, for the QR codes. `planner`: what starts and stops
    the planning (default: a worker process per run, rotation.desk.worker; a test may give its own)."""
    lock = DeskLock(db_path)
    lock.acquire()  # DeskBusy: another desk serves this file
    try:
        first = Store(db_path)  # creates or migrates the file before the first request
        guard = Guard(secret=first.secret(), exposed=exposed, hosts=hosts)
        planner = planner or WorkerPlanner(str(db_path), desk=secrets.token_hex(8))
        service.interrupt_left_over(first, planner.desk)
        first.close()
    except BaseException:
        lock.release()
        raise
    desk = Desk(str(db_path), guard, planner, public_url)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
            for run_id in desk.planner.shutdown():
                message = "the desk was stopped while this plan ran; nothing was kept"
                desk.store.close_run(run_id, RunStatus.INTERRUPTED, message)
        finally:
            lock.release()

    app = FastAPI(
        title="rotation desk",
        summary="The director's desk: events, plans, re-plans and swaps over the rotation library.",
        lifespan=lifespan,
        docs_url=None,  # FastAPI's docs pages load their scripts from a CDN; the desk works offline
        redoc_url=None,
    )
    app.state.desk = desk
    app.add_middleware(GuardMiddleware, guard=guard)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.exception_handler(service.DeskError)
    async def desk_error(request: Request, error: service.DeskError) -> Response:
        if not request.url.path.startswith("/api/"):
            return await refused(request, StarletteHTTPException(error.status, str(error)))
        body: dict[str, str | int | None] = {"detail": str(error), "field": error.field}
        if isinstance(error, service.DayMoved):
            body["current_version"] = error.current
        return JSONResponse(body, status_code=error.status)

    @app.exception_handler(StarletteHTTPException)
    async def refused(request: Request, error: StarletteHTTPException) -> Response:
        """A page's refusal as a page; the JSON endpoints keep FastAPI's JSON answer."""
        if request.url.path.startswith("/api/"):
            return await http_exception_handler(request, error)
        context = {"status": error.status_code, "message": str(error.detail)}
        return TEMPLATES.TemplateResponse(request, "error.html.j2", context, status_code=error.status_code)

    @app.exception_handler(FieldErrors)
    async def field_errors(request: Request, error: FieldErrors) -> JSONResponse:
        return JSONResponse({"detail": str(error), "errors": error.errors}, status_code=422)

    app.include_router(api.router)
    app.include_router(room_pages.api)
    app.include_router(scores_api.api)
    app.include_router(pages.router)
    app.include_router(room_pages.router)
    app.include_router(scores_pages.router)
    return app
