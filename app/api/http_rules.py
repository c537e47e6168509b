"""HTTP habits every route keeps: HEAD on every GET, 405 with the path's whole ``Allow``, 415 for a
body that is not JSON, 422 for a query parameter the operation does not know.

The two checks run as app-wide dependencies (``FastAPI(dependencies=STRICT)``), before any other
dependency, so a refused request never reaches the token check or a lock.
"""

from __future__ import annotations

import anyio
from fastapi import Depends, FastAPI, Request
from fastapi.dependencies.models import Dependant
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.datastructures import Headers
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import UnknownQueryParameter, UnsupportedMediaType, problem

ASKED = "svizzera.asked_method"
"""The scope key that keeps the method a client sent when ``HeadAsGet`` runs it as GET."""


class HeadAsGet:
    """Answer ``HEAD`` with what ``GET`` would answer, without the body.

    The GET handler runs; once its status and headers are out the rest is not needed, so the
    handler is cancelled (an event stream stops at once instead of streaming into nothing).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        with anyio.CancelScope() as handler:

            async def headers_only(message: Message) -> None:
                if message["type"] == "http.response.start":
                    await send(message)
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                    handler.cancel()

            await self.app({**scope, "method": "GET", ASKED: "HEAD"}, receive, headers_only)


METHODS = ("DELETE", "GET", "PATCH", "POST", "PUT")


def path_methods(app: FastAPI, scope: Scope) -> list[str]:
    """Every method some route of this path answers (HEAD wherever GET), found by asking the
    router about each method (routes of included routers are nested, not listed flat)."""
    methods = [
        method
        for method in METHODS
        if any(route.matches({**scope, "method": method})[0] == Match.FULL for route in app.routes)
    ]
    return sorted([*methods, "HEAD"] if "GET" in methods else methods)


def allow_every_method(app: FastAPI) -> None:
    """405s name all the path's methods in ``Allow``: Starlette names only one route's."""

    async def method_not_allowed(request: Request, _exc: Exception) -> Response:
        methods = path_methods(request.app, request.scope)
        allow = ", ".join(methods)
        asked = request.scope.get(ASKED, request.method)
        choice = ", ".join(methods[:-1]) + f" or {methods[-1]}" if len(methods) > 1 else allow
        detail = f"this path does not answer {asked}: use {choice} (as `Allow` lists: {allow})"
        return problem(405, "method_not_allowed", detail, headers={"Allow": allow})

    app.add_exception_handler(405, method_not_allowed)


def _query_names(dependant: Dependant) -> set[str]:
    names = {param.alias for param in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return names


def refuse_unknown_query(request: Request) -> None:
    """A misspelt ``?stauts=`` is refused (422), not silently ignored."""
    if not request.query_params:
        return
    route = request.scope.get("route")
    known = _query_names(route.dependant) if isinstance(route, APIRoute) else set()
    unknown = sorted(set(request.query_params) - known)
    if unknown:
        accepted = ", ".join(f"`{name}`" for name in sorted(known)) or "none"
        raise UnknownQueryParameter(
            f"unknown query parameter {', '.join(f'`{n}`' for n in unknown)}; "
            f"this operation accepts: {accepted}"
        )


def is_json(content_type: str) -> bool:
    media_type = content_type.split(";", 1)[0].strip().lower()
    return media_type == "application/json" or (
        media_type.startswith("application/") and media_type.endswith("+json")
    )


def has_body(headers: Headers) -> bool:
    return headers.get("content-length", "0") != "0" or "transfer-encoding" in headers


def not_json(content_type: str, *others: str) -> UnsupportedMediaType:
    """The 415 of a body that is not JSON; ``others`` are the other bodies the operation takes,
    each with its content type (a TRF file on ``POST /v1/tournaments``)."""
    choices = "".join(f", or {other}" for other in others)
    return UnsupportedMediaType(
        f"send the body as JSON with `Content-Type: application/json`{choices}, "
        f"not {content_type or 'without a content type'}"
    )


def require_json_body(request: Request) -> None:
    """A body sent to an operation that reads JSON must say ``Content-Type: application/json``."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or route.body_field is None:
        return
    content_type = request.headers.get("content-type", "")
    if has_body(request.headers) and not is_json(content_type):
        raise not_json(content_type)


STRICT = [Depends(refuse_unknown_query), Depends(require_json_body)]
