"""HEAD answered wherever GET is (RFC 9110, 9.3.2): the same status and headers, Content-Length
included, without the body. The schema documents the GETs only; HEAD goes with each of them, as
Starlette's own routes and Schemathesis take it (and a 405's Allow names it beside GET: errors.allowed)."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGet:
    """A plain ASGI middleware: a HEAD is routed and answered as its GET, and the body is left out."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            return await self.app(scope, receive, send)

        async def headers_only(message: Message) -> None:
            if message["type"] != "http.response.body":
                await send(message)
            elif not message.get("more_body", False):
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        await self.app({**scope, "method": "GET"}, receive, headers_only)
