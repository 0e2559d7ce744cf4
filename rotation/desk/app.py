"""The desk's FastAPI application: HTML pages (rotation.desk.pages) and JSON endpoints
(rotation.desk.api) over the same service functions, one SQLite file, one planner."""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Generic, TypeVar
from urllib.parse import quote

import jinja2
from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from models import Schedule
from optimizer.words import counted
from rotation import tool_version
from rotation.desk import backup, service
from rotation.desk.security import LOCAL_HOSTS, Guard, GuardMiddleware
from rotation.desk.settings import FieldErrors
from rotation.desk.storage import Store
from rotation.desk.worker import Planner

HERE = Path(__file__).parent
T = TypeVar("T")


class Kept(Generic[T]):
    """What was made from a stored version, newest kept: a version never changes, so neither does
    what is drawn or parsed from it (the key names the version and every option)."""

    def __init__(self, size: int = 16):
        self.size = size
        self.items: OrderedDict[tuple, T] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple, make: Callable[[], T]) -> T:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        made = make()
        with self.lock:
            self.items[key] = made
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return made


class Desk:
    """What every request shares: the database file (a connection per thread), the planner, the guard."""

    def __init__(self, db_path: str, guard: Guard, public_url: str = ""):
        self.db_path, self.guard = db_path, guard
        self.public_url = public_url  # where the room's phones reach the desk ("" : the address it was asked on)
        self.clock: Callable[[], float] = time.time  # the room's timer counts on this clock (a test sets its own)
        self.planner = Planner(db_path)
        self.rendered: Kept[bytes | str] = Kept()  # pictures and printable pages
        self.schedules: Kept[Schedule] = Kept(8)  # parsed once, not on every phone's page
        self._local = threading.local()

    @property
    def local_only(self) -> bool:
        """Served on this machine only, with no address for phones: the players' page is out of their reach."""
        return not self.guard.exposed and not self.public_url

    @property
    def store(self) -> Store:
        store = getattr(self._local, "store", None)
        if store is None:
            store = self._local.store = Store(self.db_path)
        return store


def create_app(
    db_path: str | Path, *, exposed: bool = False, hosts: tuple[str, ...] = LOCAL_HOSTS, public_url: str = ""
) -> FastAPI:
    """The desk over one database file. `exposed`: served beyond this machine, so every request but
    the players' read-only pages needs the desk's key (printed by `rotation serve`). `public_url`: the
    desk's address as the room's phones reach it, for the QR codes."""
    first = Store(db_path)  # creates or migrates the file before the first request
    guard = Guard(secret=first.secret(), exposed=exposed, hosts=hosts)
    service.interrupt_left_over(first)
    first.close()
    desk = Desk(str(db_path), guard, public_url)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        keeper = backup.Keeper(db_path)  # a backup every 15 minutes while something changed
        keeper.start()
        yield
        keeper.stop()
        for run_id in desk.planner.shutdown():
            desk.store.close_run(run_id, "interrupted", "the desk was stopped while this plan ran; nothing was kept")

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
        body: dict = {"detail": str(error), "field": error.field}
        if isinstance(error, service.Unconfirmed):
            body["preview"] = error.preview  # what the change would do, to show before confirming
        return JSONResponse(body, status_code=error.status)

    @app.exception_handler(StarletteHTTPException)
    async def refused(request: Request, error: StarletteHTTPException) -> Response:
        """A page's refusal as a page; the JSON endpoints keep FastAPI's JSON answer."""
        if request.url.path.startswith("/api/"):
            return await http_exception_handler(request, error)
        from rotation.desk.pages import TEMPLATES

        context = {"status": error.status_code, "message": str(error.detail), **_event_menu(request)}
        return TEMPLATES.TemplateResponse(request, "error.html.j2", context, status_code=error.status_code)

    @app.exception_handler(FieldErrors)
    async def field_errors(request: Request, error: FieldErrors) -> JSONResponse:
        return JSONResponse({"detail": str(error), "errors": error.errors}, status_code=422)

    from rotation.desk import api, data_pages, pages, room_pages, scores_api, scores_pages, series_pages

    app.include_router(api.router)
    app.include_router(room_pages.api)
    app.include_router(scores_api.api)
    app.include_router(data_pages.api)
    app.include_router(series_pages.api)
    app.include_router(pages.router)
    app.include_router(room_pages.router)
    app.include_router(scores_pages.router)
    app.include_router(data_pages.router)
    app.include_router(series_pages.router)
    return app


def templates() -> Jinja2Templates:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,  # every name, title and message is text, never markup
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters["counted"] = counted  # "1 repeat", "2 repeats": the report's singular and plural
    environment.filters["path"] = lambda text: quote(text, safe="")  # a name as one segment of a path
    environment.globals["tool_version"] = tool_version()  # on every page: which version the desk runs
    environment.filters["local_time"] = local_time
    return Jinja2Templates(env=environment)


def _event_menu(request: Request) -> dict:
    """On a refusal of an event's page (one not there before planning, say), the event's menu stays."""
    found = re.match(r"/events/(\d+)(/|$)", request.url.path)
    event = desk_of(request).store.event(int(found.group(1))) if found else None
    if event is None:
        return {}
    return {"event_id": event.id, "settings": service.settings_of(event)}


def local_time(stamp: str, with_date: bool = False) -> str:
    """A stored UTC time (ISO 8601) as the desk's computer shows the time: the director's clock, not UTC."""
    moment = datetime.fromisoformat(stamp).astimezone()
    return moment.strftime("%Y-%m-%d %H:%M:%S" if with_date else "%H:%M")


def desk_of(request: Request) -> Desk:
    return request.app.state.desk
