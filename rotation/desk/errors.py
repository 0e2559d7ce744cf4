"""How the desk answers what goes wrong, never with a bare 500: a page for a page (beside its fields
where it can, what was typed kept) and JSON for the JSON endpoints.

- A refusal of the desk's (DeskError) or of a request (HTTPException): its status and message.
- A request whose fields do not validate (a number out of range, a name too long): 422 naming each field.
- A record of the file that does not read as the desk's (storage.UnreadableRecord): 500, which record
  and why, in one line.
- The file cannot take the change (the disk is full, another program holds the file past the wait, an
  I/O error): 503, nothing was saved (the transaction rolled back whole), and a page that says so with
  what was typed in a form that sends it again.
"""

from __future__ import annotations

import errno
import re
import sqlite3
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute, Match

from models.text import normalise_name
from rotation.desk.core.errors import DeskError, FieldErrors
from rotation.desk.deps import TEMPLATES, desk_of
from rotation.desk.security import session_of
from rotation.desk.storage import UnreadableRecord


class Refusal(BaseModel):
    """Every refusal of the JSON endpoints: `detail` in words (or, for fields that did not validate, one
    entry per field), and where it applies the field, each field's message, the current version."""

    model_config = ConfigDict(extra="allow")

    detail: str | list[dict[str, Any]]
    field: str | None = None
    errors: dict[str, str] | None = None


REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"model": Refusal, "description": words}
    for status, words in (
        (404, "Not found."),
        (
            409,
            "Refused as things stand (the day changed: current_version; the settings changed: settings; a card "
            "changed: table; not confirmed: preview).",
        ),
        (422, "A field that does not validate, named."),
        (503, "The file could not take the change; nothing was saved."),
    )
}

NOT_JSON = {
    "description": "Not sent as application/json (a header a cross-site form cannot send): nothing changed. "
    "A change with no body needs it too when a browser sends it (with an Origin header).",
    "content": {"text/plain": {"schema": {"type": "string"}}},
}
UNPARSED = {
    "description": "The body is not JSON (it could not be parsed): nothing changed.",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Refusal"}}},
}


def document_changes(app: FastAPI) -> None:
    """Every change (POST, PUT, DELETE) in the schema answers 415 without `Content-Type: application/json`
    (rotation.desk.security), and every JSON body that does not parse 400: the schema says so."""
    made = app.openapi

    def schema() -> dict[str, Any]:
        if app.openapi_schema is None:
            for operations in made()["paths"].values():
                for method, operation in operations.items():
                    if method in ("post", "put", "delete"):
                        operation["responses"].setdefault("415", NOT_JSON)
                    if "application/json" in operation.get("requestBody", {}).get("content", {}):
                        operation["responses"].setdefault("400", UNPARSED)
        return app.openapi_schema or made()

    app.openapi = schema  # type: ignore[method-assign]


def allowed(request: Request) -> str:
    """The methods the address takes, for a 405's Allow header (HEAD wherever GET). Starlette names only
    those of the first route whose path matches; an address served by several routes (GET and POST
    /api/events) takes all of theirs. Of the routes that match, the most literal count: /api/events/import
    is not /api/events/{event_id}."""
    routes: list[BaseRoute] = request.app.state.routes
    matching = [route for route in routes if route.matches(request.scope)[0] is not Match.NONE]

    def literal(route: BaseRoute) -> tuple[int, int]:  # fewer parameters, then more fixed text
        return len(getattr(route, "param_convertors", {})), -len(getattr(route, "path", ""))

    best = min(map(literal, matching), default=(0, 0))
    methods: set[str] = set()
    for route in matching:
        if literal(route) == best:
            methods |= getattr(route, "methods", None) or set()
    return ", ".join(sorted(methods | ({"HEAD"} if "GET" in methods else set())))  # rotation.desk.head


UNREADABLE = "{error}; nothing was changed. Restore a backup from before it (the Backups page)"
FULL = "the disk is full: nothing was saved. Free some space on this computer, then send it again"
BUSY = "the desk's file is busy (another program holds it): nothing was saved; send it again in a moment"
STORAGE = "the desk could not write its file ({error}): nothing was saved; send it again"


def is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def error_page(request: Request, status: int, message: str, typed: dict[str, str] | None = None) -> Response:
    context = {"status": status, "message": message, "typed": typed or {}, "action": request.url.path}
    context.update(_event_menu(request))
    if typed:
        context["csrf"] = desk_of(request).guard.token(session_of(request))
    return TEMPLATES.TemplateResponse(request, "error.html.j2", context, status_code=status)


def storage_message(error: Exception) -> str | None:
    """What a failed write means to the director, or None when it is not about the file."""
    text = str(error).lower()
    if isinstance(error, OSError) and error.errno == errno.ENOSPC or "full" in text:
        return FULL
    if "locked" in text or "busy" in text:
        return BUSY
    if isinstance(error, sqlite3.OperationalError | sqlite3.DatabaseError):
        return STORAGE.format(error=str(error))
    return None


def _shown(text: object) -> str:
    """A message safe to send back: one line, nothing that does not show (no lone surrogate)."""
    return normalise_name(str(text))


def install(app: FastAPI) -> None:
    @app.exception_handler(DeskError)
    async def desk_error(request: Request, error: DeskError) -> Response:
        if not is_api(request):
            return await refused(request, HTTPException(error.status, str(error)))
        # with the current state a stale change missed, or what an unconfirmed one would do
        body: dict = {"detail": str(error), "field": error.field, **error.state()}
        return JSONResponse(body, status_code=error.status)

    @app.exception_handler(HTTPException)
    async def refused(request: Request, error: HTTPException) -> Response:
        headers = {"Allow": allowed(request)} if error.status_code == 405 else error.headers
        if is_api(request):
            return JSONResponse({"detail": str(error.detail)}, status_code=error.status_code, headers=headers)
        answer = error_page(request, error.status_code, str(error.detail))
        answer.headers.update(headers or {})
        return answer

    @app.exception_handler(FieldErrors)
    async def field_errors(request: Request, error: FieldErrors) -> JSONResponse:
        return JSONResponse({"detail": str(error), "errors": error.errors}, status_code=422)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> Response:
        """Each field's problem, without echoing what was sent (it may not even be text)."""
        problems = [
            {"loc": [_shown(part) for part in item["loc"]], "msg": _shown(item["msg"]), "type": item["type"]}
            for item in error.errors()
        ]
        if is_api(request):
            return JSONResponse({"detail": problems}, status_code=422)
        lines = "; ".join(f"{problem['loc'][-1]}: {problem['msg']}" for problem in problems)
        return error_page(request, 422, f"the form was refused: {lines}", _typed(request))

    @app.exception_handler(UnreadableRecord)
    async def unreadable(request: Request, error: UnreadableRecord) -> Response:
        message = _shown(UNREADABLE.format(error=error))
        if is_api(request):
            return JSONResponse({"detail": message}, status_code=500)
        return error_page(request, 500, message)

    async def cannot_store(request: Request, error: Exception) -> Response:
        message = storage_message(error)
        if message is None:
            raise error
        if is_api(request):
            return JSONResponse({"detail": message}, status_code=503)
        return error_page(request, 503, message, _typed(request))

    app.add_exception_handler(sqlite3.OperationalError, cannot_store)
    app.add_exception_handler(sqlite3.DatabaseError, cannot_store)
    app.add_exception_handler(OSError, cannot_store)


def _event_menu(request: Request) -> dict:
    """On a refusal of an event's page (one not there before planning, say), the event's menu stays."""
    found = re.match(r"/events/(\d+)(/|$)", request.url.path)
    if not found or len(found.group(1)) > 15:
        return {}
    try:
        with desk_of(request).checked_out() as store:  # its own: the route's may be given back already
            event = store.event(int(found.group(1)))
    except UnreadableRecord:  # the refusal is about this very event: its page says so without the menu
        return {}
    if event is None:
        return {}
    return {"event_id": event.id, "settings": event.settings}


def _typed(request: Request) -> dict[str, str]:
    """What a form sent (kept by rotation.desk.deps.checked_form), to send again: its text fields."""
    form = getattr(request.state, "form", None)
    if request.method != "POST" or form is None:
        return {}
    return {key: value for key, value in form.items() if isinstance(value, str) and key != "csrf"}
