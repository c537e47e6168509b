"""The request body cap (``SVIZZERA_MAX_BODY_BYTES``), counted as the bytes arrive.

A pure ASGI middleware: a ``Content-Length`` above the cap is refused before anything is read;
a body without one (chunked) or longer than it claims is counted chunk by chunk, and reading
stops at the first chunk past the cap. Either way the answer is ``413 payload_too_large`` and
the worker never holds more than the cap plus one chunk.
"""

from __future__ import annotations

from contextlib import suppress

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import problem


class BodyTooLarge(Exception):
    """Raised into the application when its body passes the cap: it stops reading."""


class BodyLimit:
    def __init__(self, app: ASGIApp, *, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self._announced(scope) > self.limit:
            await self._refuse(scope, receive, send)
            return
        received = 0
        exceeded = False
        started = False

        async def counted() -> Message:
            nonlocal received, exceeded
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    exceeded = True
                    raise BodyTooLarge
            return message

        async def guarded(message: Message) -> None:
            nonlocal started
            if exceeded and not started:
                return  # whatever the application made of the cut body: the 413 replaces it
            started = True
            await send(message)

        with suppress(BodyTooLarge):
            await self.app(scope, counted, guarded)
        if exceeded and not started:
            await self._refuse(scope, receive, send)

    def _announced(self, scope: Scope) -> int:
        for name, value in scope["headers"]:
            if name == b"content-length":
                return int(value) if value.isdigit() else 0
        return 0

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        detail = (
            f"request bodies are capped at {self.limit} bytes: send less in one request "
            "(results in batches, players a few at a time)"
        )
        response = problem(413, "payload_too_large", detail, headers={"Connection": "close"})
        await response(scope, receive, send)
