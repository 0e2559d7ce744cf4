"""What every request to the desk passes before it reaches a page or an endpoint.

- On 127.0.0.1 (the default) only the desk's own host names are answered, so a web page elsewhere
  cannot reach the desk through a DNS name pointed at this machine.
- With another --host every request needs the desk's key: in the start-up URL (`?key=`, then kept in
  a cookie) or, for a script, in an `X-Desk-Key` header.
- A form that changes something carries the CSRF token of the browser's session (a random `desk_session`
  cookie the desk sets on first sight; the token is an HMAC of it under the desk's secret, so one browser's
  token is worthless in another, and `--new-key` voids them all); a JSON endpoint that changes something
  takes only `Content-Type: application/json` (no other site's page can send that without the
  browser asking first, and the desk never says yes) and, when exposed, the key or the token header.
  A change with no body at all is also taken without the header from a client that is not a browser
  page: browsers send `Origin` (and `Sec-Fetch-Site`) with every POST, PUT and DELETE (Fetch standard,
  "append a request Origin header"), so a page elsewhere cannot pass for one. An address or method no
  route takes is left to the router (404, or 405 with Allow), so its answer says what is wrong.
- The players' pages are the one exception (PUBLIC): read-only GETs of `/e/<public id>/me`, its
  polling endpoint and their two static files answer without the key, so a phone on the room's
  network opens them from a QR code. They show released rounds only, and a wrong id is a 404.
- Request bodies are limited in size, counted as they are read (a chunked body too); every page
  carries a content security policy: no script but the desk's own file, no connection anywhere else.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import ipaddress
import re
import secrets
from dataclasses import dataclass

from starlette.datastructures import URL
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

KEY_COOKIE = "desk_key"
KEY_HEADER = "x-desk-key"
SESSION_COOKIE = "desk_session"
TOKEN_HEADER = "x-csrf-token"
MAX_BODY_BYTES = 2 * 1024 * 1024  # a names file upload (1 MB at most) and the rest of its form
MAX_IMPORT_BYTES = 256 * 1024 * 1024  # an exported event: every version of a long day of a big room
IMPORTS = ("/api/events/import", "/events/import")  # the requests that carry an exported event
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
CHANGES = ("POST", "PUT", "DELETE")  # the methods the desk's JSON endpoints change things by
PUBLIC = re.compile(
    r"/e/[A-Za-z0-9_-]{1,64}/me(/state\.json)?|/static/(phone\.js|room\.css|favicon\.svg)|/favicon\.ico"
)
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)


def is_local(host: str) -> bool:
    """Served on this machine only (any loopback address): no key needed, only its own host names answered."""
    if host in LOCAL_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def answered_hosts(host: str) -> tuple[str, ...]:
    """The host names a local desk served on `host` answers: this machine's own, and the address it was
    started on (127.0.0.2 is loopback too), so the address `rotation serve` prints is one it answers."""
    given = host.strip("[]").lower()
    return LOCAL_HOSTS if given in LOCAL_HOSTS else (*LOCAL_HOSTS, given)


@dataclass(frozen=True)
class Guard:
    secret: str
    exposed: bool  # served on another address than this machine's own
    hosts: tuple[str, ...] = LOCAL_HOSTS

    def token(self, session: str) -> str:
        """The CSRF token of one browser's session: derived from the secret, so it outlives a restart."""
        return hmac.new(self.secret.encode(), b"csrf:" + session.encode(), hashlib.sha256).hexdigest()

    def token_ok(self, token: str | None, session: str) -> bool:
        return bool(token) and hmac.compare_digest(str(token), self.token(session))

    def key_ok(self, key: str | None) -> bool:
        return bool(key) and hmac.compare_digest(str(key), self.secret)


HEADERS = [
    (b"content-security-policy", POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


def session_of(request: Request) -> str:
    """The browser's session id: its cookie, or the one GuardMiddleware gives it with this response."""
    return request.scope.get("state", {}).get(SESSION_COOKIE) or request.cookies.get(SESSION_COOKIE, "")


def _session_cookie(scope: Scope) -> bytes | None:
    """A new session for a browser that has none (not for the players' pages: phones get no cookie)."""
    if Request(scope).cookies.get(SESSION_COOKIE) or PUBLIC.fullmatch(scope["path"]):
        return None
    session = secrets.token_urlsafe(18)
    scope.setdefault("state", {})[SESSION_COOKIE] = session
    return f"{SESSION_COOKIE}={session}; Path=/; HttpOnly; SameSite=Strict".encode()


def host_and_path(scope: Scope) -> tuple[str, str]:
    """The request's host name (lower case; "" for none) and path, as Starlette's `Request.url` reads them."""
    host = next((value for key, value in scope["headers"] if key == b"host"), None)
    server = scope.get("server")
    return _host_and_path(scope.get("scheme", "http"), None if server is None else tuple(server), scope["path"], host)


@functools.lru_cache(maxsize=256)
def _host_and_path(scheme: str, server: tuple | None, path: str, host: bytes | None) -> tuple[str, str]:
    """Starlette's URL of a request, built once for each address asked and not on every request (a few
    microseconds each): what the guard reads of it depends on these alone (not the query, which follows the
    path's escaped `?`)."""
    url = URL(
        scope={"scheme": scheme, "server": server, "path": path, "headers": [] if host is None else [(b"host", host)]}
    )
    return (url.hostname or "").lower(), url.path


def routed(scope: Scope) -> bool:
    """Some route of the desk takes this method at this address."""
    return any(route.matches(scope)[0] is Match.FULL for route in scope["app"].router.routes)


def scripted_without_body(request: Request) -> bool:
    """No body, no Content-Type, and not sent by a browser (no Origin, no Sec-Fetch-Site): a script's
    body-less change, which no page elsewhere can forge (see the module's docstring)."""
    headers = request.headers
    return headers.get("content-length", "0") == "0" and not any(
        name in headers for name in ("transfer-encoding", "content-type", "origin", "sec-fetch-site")
    )


def body_limit(path: str) -> int:
    return MAX_IMPORT_BYTES if path in IMPORTS else MAX_BODY_BYTES


def too_large(limit: int) -> str:
    return f"request larger than {limit // 2**20} MB"


def counted(receive: Receive, limit: int = MAX_BODY_BYTES) -> Receive:
    """The request's body counted as it is read, whatever its Content-Length says (or a chunked body,
    which has none): past `limit` the read is refused with 413 before another byte is kept."""
    read = 0

    async def receive_counted() -> Message:
        nonlocal read
        message = await receive()
        if message["type"] == "http.request":
            read += len(message.get("body", b""))
            if read > limit:
                raise HTTPException(413, too_large(limit))
        return message

    return receive_counted


class GuardMiddleware:
    """A plain ASGI middleware (Starlette's BaseHTTPMiddleware runs every request through an extra
    task and stream, which a room of phones polling at once pays for)."""

    def __init__(self, app: ASGIApp, guard: Guard):
        self.app, self.guard = app, guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        request = Request(scope)
        refusal = self.refusal(request)
        if refusal is None and self.guard.exposed and self.guard.key_ok(request.query_params.get("key")):
            clean = URL(str(request.url)).remove_query_params("key")  # the key leaves the address bar
            refusal = RedirectResponse(clean.path + (f"?{clean.query}" if clean.query else ""), status_code=303)
            refusal.set_cookie(KEY_COOKIE, self.guard.secret, httponly=True, samesite="strict")
        if refusal is not None:
            return await refusal(scope, receive, send)

        cookie = _session_cookie(scope)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
                if cookie is not None:
                    message["headers"].append((b"set-cookie", cookie))
            await send(message)

        await self.app(scope, counted(receive, body_limit(scope["path"])), with_headers)

    def refusal(self, request: Request) -> Response | None:
        guard = self.guard
        host, path = host_and_path(request.scope)
        if not guard.exposed and host not in guard.hosts:
            return PlainTextResponse(f"this desk answers only on {', '.join(guard.hosts)}", status_code=421)
        length = request.headers.get("content-length", "0")
        limit = body_limit(path)
        if not (length.isascii() and length.isdigit()) or int(length) > limit:
            return PlainTextResponse(too_large(limit), status_code=413)
        if request.method in ("GET", "HEAD") and PUBLIC.fullmatch(path):
            return None  # the players' read-only pages: no key (rotation.desk.room.pages)
        by_header = guard.key_ok(request.headers.get(KEY_HEADER))
        if guard.exposed and not (by_header or guard.key_ok(request.cookies.get(KEY_COOKIE))):
            if guard.key_ok(request.query_params.get("key")):
                return None
            return PlainTextResponse(
                "this desk needs its key: open the address it printed when it started", status_code=401
            )
        if request.method in SAFE_METHODS or not path.startswith("/api/"):
            return None  # forms: every page router checks the token (rotation.desk.deps.checked_form)
        if request.method not in CHANGES or not routed(request.scope):
            return None  # the router answers 404, or 405 with the address's Allow (errors.allowed)
        json = request.headers.get("content-type", "").split(";")[0].strip() == "application/json"
        if not (json or scripted_without_body(request)):
            return PlainTextResponse("a change through the JSON endpoints is sent as application/json", 415)
        if guard.exposed and not (by_header or guard.token_ok(request.headers.get(TOKEN_HEADER), session_of(request))):
            return PlainTextResponse("a change needs the desk's key or its CSRF token header", status_code=403)
        return None
