"""Cross-origin access for browser front ends (``SVIZZERA_CORS_ORIGINS``).

Listed origins may read and write (writes still need the organizer token); ``*`` lets any origin
read. No origin is allowed by default. Tokens travel in ``Authorization``, never in cookies, so
credentialed CORS stays off.

A browser sends some writes without asking first (a "simple" request: ``POST`` with
``Content-Type: text/plain``, a TRF creation), and CORS only decides whether the page may read
the answer, not whether the write happens. So every write whose ``Origin`` is neither a listed
origin nor the server's own is refused (``ForeignWrites``), whatever the setting: ``*`` then
truly lets other origins read only. Clients that are not browsers send no ``Origin``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import FastAPI
from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

from app.errors import CrossOriginWrite, to_response

READS = ["GET", "HEAD"]
WRITES = ["POST", "PUT", "PATCH", "DELETE"]
REQUEST_HEADERS = ["Authorization", "Content-Type", "If-Match", "If-None-Match", "Last-Event-ID"]
EXPOSED_HEADERS = [
    "ETag",
    "Location",
    "Retry-After",
    "Allow",
    "WWW-Authenticate",
    "Content-Disposition",
    "Last-Event-ID",
]
PREFLIGHT_MAX_AGE = 600


def allow_cross_origin(app: FastAPI, origins: list[str]) -> None:
    """Answer preflights and label responses for ``origins``; nothing at all when empty."""
    if not origins:
        return
    anyone = origins == ["*"]
    app.add_middleware(
        CORSMiddleware,
        allow_origins=origins,
        allow_methods=READS if anyone else READS + WRITES,
        allow_headers=REQUEST_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        max_age=PREFLIGHT_MAX_AGE,
    )


class ForeignWrites:
    """Refuse, before anything runs, a write sent by a page of an origin that may not write:
    ``403 cross_origin_write``."""

    def __init__(self, app: ASGIApp, *, origins: list[str]) -> None:
        self.app = app
        self.writers = {origin.lower() for origin in origins if origin != "*"}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in WRITES:
            headers = Headers(scope=scope)
            origin = headers.get("origin")
            if origin is not None and not self._may_write(origin, headers.get("host", "")):
                detail = (
                    f"a page of {origin} may not write here: only this server's own pages and "
                    "the origins of SVIZZERA_CORS_ORIGINS (not `*`, which lets any page read)"
                )
                await to_response(CrossOriginWrite(detail))(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _may_write(self, origin: str, host: str) -> bool:
        origin = origin.lower()
        if origin in self.writers:
            return True
        parts = urlsplit(origin)  # the server's own pages: the origin names the host asked
        default = {"http": ":80", "https": ":443"}.get(parts.scheme, "")
        return parts.scheme in ("http", "https") and parts.netloc.removesuffix(
            default
        ) == host.lower().removesuffix(default)
