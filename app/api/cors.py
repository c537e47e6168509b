"""Cross-origin access for browser front ends (``SVIZZERA_CORS_ORIGINS``).

Listed origins may read and write (writes still need the organizer token); ``*`` lets any origin
read. No origin is allowed by default. Tokens travel in ``Authorization``, never in cookies, so
credentialed CORS stays off.
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

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
