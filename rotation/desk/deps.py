"""What a route of the desk is given: the desk's shared state, the store, the planner, the templates,
and the CSRF check every form passes (FastAPI dependencies, so no route has to remember them).

A route takes the store as `StoreDep` and the planner as `PlannerDep`: the store is a connection to the
desk's file of the request's own, taken from the desk's idle ones and given back by `GivesBack` when the
request is answered (one request uses it at a time, on whichever thread runs it). The dependency is a
coroutine, so it costs no hop to a worker thread; `app.dependency_overrides` can replace either.

Every router of pages is made by `pages_router`, whose routes check the form's CSRF token on every
request that may change something (`PageRoute`): a form route cannot be written without it.
"""

from __future__ import annotations

import inspect
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Generic, TypeVar, get_args
from urllib.parse import quote

import jinja2
from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi import Path as InPath
from fastapi.dependencies.utils import get_typed_return_annotation, get_typed_signature
from fastapi.responses import HTMLResponse
from fastapi.routing import APIRoute
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from models import Schedule
from optimizer.words import counted
from rotation import templating
from rotation.desk.core.planner import Planner
from rotation.desk.numbers import form_number
from rotation.desk.security import SAFE_METHODS, Guard, session_of
from rotation.desk.storage import Store

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
    """What every request shares: the database file and its idle connections, the planner, the guard."""

    IDLE = 16  # connections kept open for the next requests (more at once are opened, and closed after)

    def __init__(self, db_path: str, guard: Guard, planner: Planner, public_url: str = ""):
        self.db_path, self.guard, self.planner = db_path, guard, planner
        self.public_url = public_url  # where the room's phones reach the desk ("" : the address it was asked on)
        self.clock: Callable[[], float] = time.time  # the room's timer counts on this clock (a test sets its own)
        self.rendered: Kept[bytes | str] = Kept()  # pictures and printable pages
        self.schedules: Kept[Schedule] = Kept(8)  # parsed once, not on every phone's page
        self._idle: list[Store] = []
        self._lock = threading.Lock()

    @property
    def local_only(self) -> bool:
        """Served on this machine only, with no address for phones: the players' page is out of their reach."""
        return not self.guard.exposed and not self.public_url

    def take(self) -> Store | None:
        """An idle connection to the file, the one given back last (its pages are the likeliest in its cache)."""
        with self._lock:
            return self._idle.pop() if self._idle else None

    def give_back(self, store: Store) -> None:
        """A connection its request is done with, kept for the next one (a transaction left open rolled back:
        every change commits or rolls back in `Store.change`, so none is, unless a route was cut off)."""
        if not store.reset():
            return
        with self._lock:
            if len(self._idle) < self.IDLE:
                self._idle.append(store)
                return
        store.close()

    @contextmanager
    def checked_out(self) -> Iterator[Store]:
        """A connection of this desk's own while the block runs (what is not a route: the error pages, shutdown)."""
        store = self.take() or Store(self.db_path)
        try:
            yield store
        finally:
            self.give_back(store)

    def close(self) -> None:
        """The idle connections closed (those in use are closed when given back, past IDLE, or with the process)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for store in idle:
            store.close()


def desk_of(request: Request) -> Desk:
    """The desk a route serves: its guard, clock, address, copies kept (the store and planner are `StoreDep`
    and `PlannerDep`)."""
    return request.app.state.desk


TAKEN = "rotation.desk.taken"  # in a request's scope: the connections it took, for GivesBack


class GivesBack:
    """A plain ASGI middleware: the connections a request took (`request_store`) given back to the desk once
    it is answered, or failed. Not a dependency with `yield`: FastAPI wraps each of those in a context manager
    and a cancel scope, a tenth of a millisecond of CPU on every request."""

    def __init__(self, app: ASGIApp, desk: Desk):
        self.app, self.desk = app, desk

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        taken: list[Store] = []
        scope[TAKEN] = taken  # a list, so a copy of the scope (HeadAsGet's) takes into the same one
        try:
            await self.app(scope, receive, send)
        finally:
            for store in taken:
                self.desk.give_back(store)


async def request_store(request: Request) -> Store:
    """The request's own connection to the desk's file, given back when it is answered (GivesBack). Not a
    thread's: FastAPI may resolve a dependency on another thread than the route's, so the connection goes
    with the request (sqlite3 allows it, `check_same_thread=False`: one request uses it at a time). A
    coroutine, so taking an idle one costs no hop to a worker thread; a new one is opened in a worker thread
    (it reads the file)."""
    desk = desk_of(request)
    store = desk.take()
    if store is None:
        store = await run_in_threadpool(Store, desk.db_path)
    request.scope[TAKEN].append(store)
    return store


async def desk_planner(request: Request) -> Planner:
    """What starts and stops this desk's planning (rotation.desk.worker.WorkerPlanner, or a test's)."""
    return desk_of(request).planner


StoreDep = Annotated[Store, Depends(request_store)]
PlannerDep = Annotated[Planner, Depends(desk_planner)]
Text = Annotated[str, Form()]
MAX_ID = 2**53  # ids and numbers in addresses: within SQLite's 64-bit integers and JSON's exact ones
Id = Annotated[int, InPath(ge=0, le=MAX_ID)]
QueryId = Annotated[int | None, Query(ge=0, le=MAX_ID)]
FormNumber = Annotated[int, Form(ge=0, le=MAX_ID)]


class JsonIn(BaseModel):
    """A JSON body the desk takes: strict, so `true` is no round, 1 no `confirm` and "maybe" no `archived`.
    But 2.0 is the whole number 2, as JSON Schema counts it (an integer is a number whose fraction is zero,
    JSON Schema validation 6.1.1), and the schema the desk publishes says "integer"."""

    model_config = ConfigDict(strict=True)

    @field_validator("*", mode="before")
    @classmethod
    def _whole(cls, value: object, info: ValidationInfo) -> object:
        wanted = cls.model_fields[info.field_name].annotation if info.field_name else None
        whole = wanted is int or int in get_args(wanted)
        return int(value) if whole and isinstance(value, float) and value.is_integer() else value


def form_id(text: str) -> int | None:
    """The stored row a form's change was made from (a hidden field: a version, a card's entry): None when
    the form names none, -1 (no row's id) when it names one that is not a number."""
    if not text.strip():
        return None
    number = form_number(text)
    return -1 if number is None else number


def _base(base: Annotated[str, Form()] = "") -> int | None:
    """The version a form's change was made from (its hidden field `base`, core.errors.DayMoved)."""
    return form_id(base)


BaseDep = Annotated[int | None, Depends(_base)]


async def checked_form(request: Request) -> None:
    """A change sent by a form carries the desk's CSRF token (field `csrf`)."""
    if request.method in SAFE_METHODS:
        return
    form = await request.form()  # Starlette keeps it: the route's own Form fields read the same
    request.state.form = form  # and so can a page that must show what was typed (rotation.desk.errors)
    token = form.get("csrf")
    if not desk_of(request).guard.token_ok(token if isinstance(token, str) else None, session_of(request)):
        raise HTTPException(403, "this form is out of date or not the desk's own: reload the page and try again")


class OneHop(APIRoute):
    """A route whose plain `def` endpoint runs in a worker thread and whose answer is then validated on the
    event loop: one hop to the thread pool a request. FastAPI's own route validates a plain function's answer
    (its return type) in a second hop, which costs a tenth of a millisecond of CPU, more than the validation.
    The endpoint is the same function, run the same way (its name, docs and signature are the wrapper's)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any):
        super().__init__(path, endpoint if inspect.iscoroutinefunction(endpoint) else _in_thread(endpoint), **kwargs)


def _in_thread(endpoint: Callable[..., Any]) -> Callable[..., Any]:
    async def in_thread(*args: Any, **kwargs: Any) -> Any:
        return await run_in_threadpool(endpoint, *args, **kwargs)

    # FastAPI reads the route from the function it is given, so the wrapper carries the endpoint's name, docs
    # and signature, its annotations (text, under `from __future__ import annotations`) resolved by FastAPI
    # itself in the endpoint's module. Not by functools.wraps: FastAPI before 0.123.5 resolves them in the
    # wrapper's module (here, where BackupOut is unknown), and 0.123.5 follows `__wrapped__`, finds a plain
    # function and runs this coroutine function in a worker thread, never awaited.
    in_thread.__name__, in_thread.__qualname__ = endpoint.__name__, endpoint.__qualname__
    in_thread.__module__, in_thread.__doc__ = endpoint.__module__, endpoint.__doc__
    signature = get_typed_signature(endpoint).replace(return_annotation=get_typed_return_annotation(endpoint))
    in_thread.__signature__ = signature  # type: ignore[attr-defined]
    return in_thread


def api_router(**kwargs: Any) -> APIRouter:
    """A router of JSON endpoints, under /api."""
    return APIRouter(prefix="/api", route_class=OneHop, **kwargs)


class PageRoute(OneHop):
    """A page's route: one that takes a method that may change something (a form's POST) checks the form's
    CSRF token first (`checked_form`); a GET-only route, where the check has nothing to do, is spared
    resolving it on every request."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any):
        if set(kwargs.get("methods") or ("GET",)) - set(SAFE_METHODS):
            kwargs["dependencies"] = [Depends(checked_form), *(kwargs.get("dependencies") or ())]
        super().__init__(path, endpoint, **kwargs)


def pages_router() -> APIRouter:
    """A router of pages: left out of the JSON schema, every form it takes checked for its CSRF token."""
    return APIRouter(include_in_schema=False, route_class=PageRoute)


def templates() -> Jinja2Templates:
    environment = templating.environment(jinja2.FileSystemLoader(HERE / "templates"))
    environment.filters["counted"] = counted  # "1 repeat", "2 repeats": the report's singular and plural
    environment.filters["path"] = lambda text: quote(text, safe="")  # a name as one segment of a path
    environment.filters["local_time"] = local_time
    return Jinja2Templates(env=environment)


def local_time(stamp: str, with_date: bool = False) -> str:
    """A stored UTC time (ISO 8601) as the desk's computer shows the time: the director's clock, not UTC."""
    moment = datetime.fromisoformat(stamp).astimezone()
    return moment.strftime("%Y-%m-%d %H:%M:%S" if with_date else "%H:%M")


TEMPLATES = templates()


def page(request: Request, template: str, status: int = 200, **context) -> HTMLResponse:
    context.setdefault("errors", {})
    return TEMPLATES.TemplateResponse(
        request, template, {"csrf": desk_of(request).guard.token(session_of(request)), **context}, status_code=status
    )


def players_url(request: Request, public_id: str) -> str:
    base = desk_of(request).public_url or str(request.base_url)
    return base.rstrip("/") + f"/e/{public_id}/me"
